"""Identity-16 around state, against the OpenVINO runtime.

`tests/test_tensor_iterator.py` runs the real ONNX export (ONNX `Identity` nodes before,
inside and after a `Scan`); here a model built with OpenVINO's Python API
(`opset16.identity`) puts Identity on an f32 and an i32 state: the read value returned while
the variable is written in the same call, and an Identity feeding each Assign. The converted
model holds no identity op (Identity forwards its input), and what `infer` returns never
aliases the state (it keeps its value over later calls).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import openvino.opset16 as opset16
import pytest
from test_openvino_differential import Scenario, TosaStateSession, _save, run_differential

import tosa_state

pytestmark = pytest.mark.peers


def identity_model() -> object:
    """h <- Identity(Identity(h) * 0.5 + x) (f32 [2, 3]) and n <- Identity(n + 2) (i32 [3]);
    returns Identity(h) (the value before the write), the new h and n."""
    x = ops.parameter([2, 3], np.float32, name="x")
    h = ops.read_value(ops.constant(np.ones((2, 3), np.float32)), "h", np.float32, [2, 3])
    n = ops.read_value(ops.constant(np.array([1, -2, 3], np.int32)), "n", np.int32, [3])
    before = opset16.identity(h, name="h_before")
    new_h = ops.add(ops.multiply(before, ops.constant(np.float32(0.5))), x)
    new_n = ops.add(n, ops.constant(np.array(2, np.int32)))
    writes = [ops.assign(opset16.identity(new_h, name="h_new"), "h"),
              ops.assign(opset16.identity(new_n, name="n_new"), "n")]
    results = [ops.result(before, name="before"), ops.result(new_h, name="after"),
               ops.result(opset16.identity(new_n, name="count"), name="n")]
    return ov.Model(results, writes, [x], "identity")


@pytest.mark.parametrize("pipeline", [None, "tosa-to-mlprogram"])
def test_identity_around_state(openvino_runtime: None, tmp_path: Path,
                               pipeline: str | None) -> None:
    model = identity_model()
    assert sum(node.get_type_info().name == "Identity" and
               node.get_type_info().version_id == "opset16"
               for node in model.get_ordered_ops()) == 4
    xml = _save(model, tmp_path)
    run_differential(xml, Scenario(), f"identity[{pipeline or 'default'}]", pipeline)


def test_identity_results_do_not_alias_state(openvino_runtime: None, tmp_path: Path) -> None:
    xml = _save(identity_model(), tmp_path)
    converted = tosa_state.compile_model(xml, pipeline="").module
    assert not [op.name for op in converted.walk() if "identity" in op.name]
    session = TosaStateSession(xml)
    ones = np.ones((2, 3), np.float32)
    first = session.infer([ones])
    kept = [a.copy() for a in first]
    np.testing.assert_array_equal(first[0], np.ones((2, 3), np.float32))  # the initial h
    for _ in range(3):
        session.infer([ones * 4])
    for got, want in zip(first, kept, strict=True):
        np.testing.assert_array_equal(got, want)
    assert not any(np.shares_memory(a, s) for a in first for s in session.states().values())
