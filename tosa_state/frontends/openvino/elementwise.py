"""Importing the element-wise layers: arithmetic, comparison, logical, Convert, Select (the
activations: `activation`).
"""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import Converter, OpBuilder, OpSpec


def _binary(cls: type[ov.ElementwiseBinaryOp]) -> Converter:
    def build(b: OpBuilder) -> Operation:
        return cls(b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast())

    return build


def unary(cls: type[ov.ElementwiseUnaryOp]) -> Converter:
    return lambda b: cls(b.operands[0], b.result_types[0])


def _build_divide(b: OpBuilder) -> Operation:
    python_div = b.data_bool("m_pythondiv", True)
    return ov.DivideOp(
        b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast(), python_div
    )


def _build_convert(b: OpBuilder) -> Operation:
    destination = b.data_element("destination_type")
    if ov.element_type(b.result_types[0]) != destination.mlir:
        b.fail(f"destination_type '{destination.name}' differs from the output port's type")
    return ov.ConvertOp(b.operands[0], b.result_types[0])


def _build_select(b: OpBuilder) -> Operation:
    return ov.SelectOp(*b.operands, b.result_types[0], b.auto_broadcast())


ELEMENTWISE_LAYERS: dict[str, OpSpec] = {
    "Add": OpSpec(("opset1",), (2, 2), _binary(ov.AddOp)),
    "Subtract": OpSpec(("opset1",), (2, 2), _binary(ov.SubtractOp)),
    "Multiply": OpSpec(("opset1",), (2, 2), _binary(ov.MultiplyOp)),
    "Divide": OpSpec(("opset1",), (2, 2), _build_divide),
    "Mod": OpSpec(("opset1",), (2, 2), _binary(ov.ModOp)),
    "FloorMod": OpSpec(("opset1",), (2, 2), _binary(ov.FloorModOp)),
    "Power": OpSpec(("opset1",), (2, 2), _binary(ov.PowerOp)),
    "Maximum": OpSpec(("opset1",), (2, 2), _binary(ov.MaximumOp)),
    "Minimum": OpSpec(("opset1",), (2, 2), _binary(ov.MinimumOp)),
    "Greater": OpSpec(("opset1",), (2, 2), _binary(ov.GreaterOp)),
    "Less": OpSpec(("opset1",), (2, 2), _binary(ov.LessOp)),
    "Equal": OpSpec(("opset1",), (2, 2), _binary(ov.EqualOp)),
    "LogicalAnd": OpSpec(("opset1",), (2, 2), _binary(ov.LogicalAndOp)),
    "LogicalOr": OpSpec(("opset1",), (2, 2), _binary(ov.LogicalOrOp)),
    "LogicalNot": OpSpec(("opset1",), (1, 1), unary(ov.LogicalNotOp)),
    "LogicalXor": OpSpec(("opset1", "opset2"), (2, 2), _binary(ov.LogicalXorOp)),
    "LessEqual": OpSpec(("opset1",), (2, 2), _binary(ov.LessEqualOp)),
    "GreaterEqual": OpSpec(("opset1",), (2, 2), _binary(ov.GreaterEqualOp)),
    "NotEqual": OpSpec(("opset1",), (2, 2), _binary(ov.NotEqualOp)),
    "BitwiseAnd": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseAndOp)),
    "BitwiseOr": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseOrOp)),
    "BitwiseXor": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseXorOp)),
    "BitwiseNot": OpSpec(("opset13",), (1, 1), unary(ov.BitwiseNotOp)),
    "Tanh": OpSpec(("opset1",), (1, 1), unary(ov.TanhOp)),
    "Exp": OpSpec(("opset1",), (1, 1), unary(ov.ExpOp)),
    "Abs": OpSpec(("opset1",), (1, 1), unary(ov.AbsOp)),
    "Negative": OpSpec(("opset1",), (1, 1), unary(ov.NegativeOp)),
    "Log": OpSpec(("opset1",), (1, 1), unary(ov.LogOp)),
    "Floor": OpSpec(("opset1",), (1, 1), unary(ov.FloorOp)),
    "Ceiling": OpSpec(("opset1",), (1, 1), unary(ov.CeilingOp)),
    "Sqrt": OpSpec(("opset1",), (1, 1), unary(ov.SqrtOp)),
    "Sin": OpSpec(("opset1",), (1, 1), unary(ov.SinOp)),
    "Cos": OpSpec(("opset1",), (1, 1), unary(ov.CosOp)),
    "Erf": OpSpec(("opset1",), (1, 1), unary(ov.ErfOp)),
    "SquaredDifference": OpSpec(("opset1",), (2, 2), _binary(ov.SquaredDifferenceOp)),
    "Identity": OpSpec(("opset16",), (1, 1), unary(ov.IdentityOp)),
    "Convert": OpSpec(("opset1",), (1, 1), _build_convert),
    "Select": OpSpec(("opset1",), (3, 3), _build_select),
}
