"""`verify_module`: TOSA compute ops verified once per signature, failures still found."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from xdsl.ir import Operation

from tosa_state import make_context
from tosa_state.diagnostics import TosaStateError, VerificationError
from tosa_state.dialects.tosa.elementwise import AddOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.verification import verify_module

REPEATED = """
func.func @main(%x: tensor<2x3xf32>, %y: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = tosa.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %b = tosa.add %x, %y : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = tosa.add %a, %b : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  return %c : tensor<2x3xf32>
}
"""

RESHAPES = """
func.func @main(%x: tensor<2x3xf32>) -> tensor<3x2xf32> {
  %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %a = tosa.reshape %x, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  %b = tosa.reshape %x, %t : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %a : tensor<3x2xf32>
}
"""


def _verified(monkeypatch: pytest.MonkeyPatch, cls: type[Operation]) -> list[Operation]:
    """The ops of class `cls` verified from now on (their own `verify_` runs), in order."""
    verified: list[Operation] = []
    original = cls.verify_

    def counting(op: Operation) -> None:
        verified.append(op)
        original(op)

    monkeypatch.setattr(cls, "verify_", counting)
    return verified


def test_ops_of_one_signature_are_verified_once(monkeypatch: pytest.MonkeyPatch) -> None:
    module = parse_mlir(make_context(), REPEATED, "test.mlir")
    verified = _verified(monkeypatch, AddOp)
    verify_module(module)
    # %b has %a's types and producers (the arguments); %c's operands come from tosa.add
    assert [op.results[0].name_hint for op in verified] == ["a", "c"]


def test_small_constants_are_compared_by_value(monkeypatch: pytest.MonkeyPatch) -> None:
    """Two `tosa.const_shape` ops of the same values: the reshapes reading them verify once."""
    from tosa_state.dialects.tosa.tensor import ReshapeOp

    module = parse_mlir(make_context(), RESHAPES.replace("[2, 3]", "[3, 2]"), "test.mlir")
    verified = _verified(monkeypatch, ReshapeOp)
    verify_module(module)
    assert [op.results[0].name_hint for op in verified] == ["a"]


def test_an_op_differing_only_in_its_constant_operand_is_verified() -> None:
    """The reshapes have one type signature; the second's target shape (another
    `tosa.const_shape`) is wrong, and found."""
    module = parse_mlir(make_context(), RESHAPES, "test.mlir")
    with pytest.raises(VerificationError, match=r"test\.mlir:6:3: error: 'tosa\.reshape' op "
                       r"new shape \[2, 3\] is inconsistent with result shape \[3, 2\]"):
        verify_module(module)


def test_repeated_openvino_layers_are_verified_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two Add layers of one signature (types, producers, attributes) are checked once, the
    two others (other producers, types) each; an Add that does not verify is still found,
    naming its layer."""
    import openvino as ov
    import openvino.opset13 as ops

    from tosa_state.dialects.openvino.elementwise import AddOp as OVAdd
    from tosa_state.frontends import read_model_file

    x = ops.parameter([2, 3], np.float32, name="x")
    a = ops.add(x, x)
    b = ops.add(x, x)
    c = ops.add(a, b)
    d = ops.add(c, ops.constant(np.ones((1, 3), np.float32)))
    xml = tmp_path / "adds.xml"
    ov.save_model(ov.Model([d], [x]), xml)
    checked = _verified(monkeypatch, OVAdd)
    read_model_file(make_context(), xml)
    assert [str(op.operands[1].type) for op in checked] == [
        "tensor<2x3xf32>", "tensor<2x3xf32>", "tensor<1x3xf32>"]
    text = xml.read_text()
    # the last Add claims a [2, 4] result: its own verification fails
    last = text.rindex('type="Add"')
    port = text.index("<dim>3</dim>", text.index("<output>", last))
    (tmp_path / "bad.xml").write_text(text[:port] + "<dim>4</dim>" + text[port + 12:])
    (tmp_path / "bad.bin").write_bytes(xml.with_suffix(".bin").read_bytes())
    with pytest.raises(TosaStateError, match=r"type='Add' \(opset1\): result shape \[2,4\] "
                       r"does not match the broadcast operand shape \[2,3\]"):
        read_model_file(make_context(), tmp_path / "bad.xml")


def test_the_conversion_verifies_one_emitted_op_per_signature(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Three Reshape layers alike (of three inputs) become three `tosa.reshape`s: one
    verification."""
    import openvino as ov
    import openvino.opset13 as ops

    from tosa_state.dialects.tosa.tensor import ReshapeOp
    from tosa_state.frontends import read_model_file
    from tosa_state.transforms.convert_openvino_to_tosa import ConvertOpenVINOToTosaPass

    xs = [ops.parameter([2, 3], np.float32, name=f"x{i}") for i in range(3)]
    outs = [ops.reshape(x, ops.constant(np.array([3, 2], np.int64)), False) for x in xs]
    xml = tmp_path / "reshapes.xml"
    ov.save_model(ov.Model(outs, xs), xml)
    ctx = make_context()
    module = read_model_file(ctx, xml)
    verified = _verified(monkeypatch, ReshapeOp)
    ConvertOpenVINOToTosaPass().apply(ctx, module)
    assert len([op for op in module.walk() if isinstance(op, ReshapeOp)]) == 3
    assert len(verified) == 1
