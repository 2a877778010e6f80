"""What OpenVINO accepts in ReadValue / Assign beyond the canonical forms, we accept too: each
variant is first run by OpenVINO itself (read_model + inference), then validated against it.
The one pairing OpenVINO refuses (Assign-3 on a ReadValue-6's variable) is refused alike."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset3 as opset3
import openvino.opset13 as ops
import openvino_models as om
import pytest
from test_openvino_import import layer_error

import tosa_state as ts

READ_VALUE_3 = ('type="ReadValue" version="opset3">\n\t\t\t<data variable_id="acc" />')
ASSIGN_3 = 'type="Assign" version="opset3"'


@pytest.fixture(scope="module")
def opset3_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """acc <- tanh(acc / 2 + x) with ReadValue-3 / Assign-3 (type and shape from the init)."""
    x = ops.parameter([2, 3], np.float32, name="x")
    init = ops.constant(np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3))
    read = opset3.read_value(init, "acc", name="acc_read")
    total = ops.tanh(ops.add(ops.multiply(read, ops.constant(np.float32(0.5))), x))
    model = ov.Model([ops.result(total, name="y")], [opset3.assign(total, "acc", name="acc_write")], [x], "acc3")
    return om.save(model, tmp_path_factory.mktemp("opset3"), "acc3")


def _read_value_6(attributes: str) -> tuple[str, str]:
    return READ_VALUE_3, READ_VALUE_3.replace('"opset3"', '"opset6"').replace(
        'variable_id="acc" />', f'variable_id="acc" {attributes} />')


def _read_value_3(attributes: str) -> tuple[str, str]:
    return READ_VALUE_3, READ_VALUE_3.replace('variable_id="acc" />',
                                              f'variable_id="acc" {attributes} />')


ASSIGN_6 = (ASSIGN_3, ASSIGN_3.replace('"opset3"', '"opset6"'))

ACCEPTED = {
    "readvalue3-assign6": [ASSIGN_6],
    "readvalue3-with-opset6-attributes": [
        _read_value_3('variable_type="f32" variable_shape="2,3"')],
    "readvalue3-with-opset6-attributes-in-brackets": [
        _read_value_3('variable_type="f32" variable_shape="[2,3]"')],
    "readvalue3-with-attributes-openvino-ignores": [  # OpenVINO takes type and shape from init
        _read_value_3('variable_type="i32" variable_shape="4,3"')],
    "readvalue6-shape-in-brackets": [
        _read_value_6('variable_type="f32" variable_shape="[2,3]"'), ASSIGN_6],
    "readvalue6-shape-in-brackets-spaced": [
        _read_value_6('variable_type="f32" variable_shape="[ 2, 3 ]"'), ASSIGN_6],
}


def _run_in_openvino(xml: Path) -> np.ndarray:
    """Four steps with a reset before the last, in OpenVINO itself (CPU, f32)."""
    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    outputs = []
    for step in range(4):
        if step == 3:
            request.reset_state()
        outputs.append(request.infer([np.full((2, 3), 0.1 * step, np.float32)])[0].copy())
    return np.stack(outputs)


@pytest.mark.parametrize("variant", list(ACCEPTED))
def test_accepted_as_openvino_accepts(opset3_xml: Path, tmp_path: Path, variant: str) -> None:
    xml = om.edit_xml(opset3_xml, tmp_path, ACCEPTED[variant], name=variant)
    reference = _run_in_openvino(xml)  # OpenVINO 2026.4 reads and runs it
    np.testing.assert_allclose(reference, _run_in_openvino(opset3_xml), rtol=0, atol=0)
    # measured |tosa-state - OpenVINO|: at most 6.0e-8
    report = ts.validate(xml, steps=6, levels=["tosa", "memref"], rtol=0, atol=5e-7)
    assert report.ok, report.format()


@pytest.mark.parametrize(
    ("variant", "edits"),
    [
        ("readvalue6-assign3", [_read_value_6('variable_type="f32" variable_shape="2,3"')]),
        ("unbalanced-bracket", [_read_value_6('variable_type="f32" variable_shape="[2,3"'),
                                ASSIGN_6]),
    ],
)
def test_refused_as_openvino_refuses(opset3_xml: Path, tmp_path: Path, variant: str,
                                     edits: list[tuple[str, str]]) -> None:
    xml = om.edit_xml(opset3_xml, tmp_path, edits, name=variant)
    with pytest.raises(RuntimeError, match=r"Can't find variable|Cannot parse dimension"):
        ov.Core().read_model(str(xml))
    if variant == "readvalue6-assign3":
        rest = layer_error(xml, 7, "acc_write", "Assign", "opset3")
        assert rest == (
            "an Assign-3 finds its variable through the ReadValue-3 it is computed from, and "
            "variable 'acc' is declared by a ReadValue-6 (layer id=2 name='acc_read' "
            "type='ReadValue' (opset6)); OpenVINO refuses this too ('Can't find variable'): "
            "use an Assign-6"
        )
    else:
        rest = layer_error(xml, 2, "acc_read", "ReadValue", "opset6")
        assert rest.startswith("bad variable_shape='[2,3': ")
