"""Importing the element-wise layers: arithmetic, comparison, logical, activations, Clamp,
Convert, Select.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import Converter, OpBuilder, OpSpec


def _binary(cls: type[ov.ElementwiseBinaryOp]) -> Converter:
    def build(b: OpBuilder) -> Operation:
        return cls(b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast())

    return build


def _unary(cls: type[ov.ElementwiseUnaryOp]) -> Converter:
    return lambda b: cls(b.operands[0], b.result_types[0])


def _build_divide(b: OpBuilder) -> Operation:
    python_div = b.data_bool("m_pythondiv", True)
    return ov.DivideOp(
        b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast(), python_div
    )


def _build_clamp(b: OpBuilder) -> Operation:
    return ov.ClampOp(b.operands[0], b.result_types[0], b.data_float("min"), b.data_float("max"))


def _build_gelu(b: OpBuilder) -> Operation:
    mode = b.data("approximation_mode", "erf").strip().lower()
    if mode not in ("erf", "tanh"):
        b.fail(f"approximation_mode '{mode}' is not 'erf' or 'tanh'")
    return ov.GeluOp(b.operands[0], b.result_types[0], mode)


def _build_elu(b: OpBuilder) -> Operation:
    return ov.EluOp(b.operands[0], b.result_types[0], b.data_float("alpha"))


def _build_swish(b: OpBuilder) -> Operation:
    beta = b.operands[1] if len(b.operands) > 1 else None
    return ov.SwishOp(b.operands[0], beta, b.result_types[0])


def _build_prelu(b: OpBuilder) -> Operation:
    return ov.PReluOp(b.operands[0], b.operands[1], b.result_types[0])


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
    "LogicalNot": OpSpec(("opset1",), (1, 1), _unary(ov.LogicalNotOp)),
    "LogicalXor": OpSpec(("opset1", "opset2"), (2, 2), _binary(ov.LogicalXorOp)),
    "LessEqual": OpSpec(("opset1",), (2, 2), _binary(ov.LessEqualOp)),
    "GreaterEqual": OpSpec(("opset1",), (2, 2), _binary(ov.GreaterEqualOp)),
    "NotEqual": OpSpec(("opset1",), (2, 2), _binary(ov.NotEqualOp)),
    "BitwiseAnd": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseAndOp)),
    "BitwiseOr": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseOrOp)),
    "BitwiseXor": OpSpec(("opset13",), (2, 2), _binary(ov.BitwiseXorOp)),
    "BitwiseNot": OpSpec(("opset13",), (1, 1), _unary(ov.BitwiseNotOp)),
    "ReLU": OpSpec(("opset1",), (1, 1), _unary(ov.ReluOp)),
    "Relu": OpSpec(("opset1",), (1, 1), _unary(ov.ReluOp)),
    "Sigmoid": OpSpec(("opset1",), (1, 1), _unary(ov.SigmoidOp)),
    "Tanh": OpSpec(("opset1",), (1, 1), _unary(ov.TanhOp)),
    "Exp": OpSpec(("opset1",), (1, 1), _unary(ov.ExpOp)),
    "Abs": OpSpec(("opset1",), (1, 1), _unary(ov.AbsOp)),
    "Negative": OpSpec(("opset1",), (1, 1), _unary(ov.NegativeOp)),
    "Log": OpSpec(("opset1",), (1, 1), _unary(ov.LogOp)),
    "Floor": OpSpec(("opset1",), (1, 1), _unary(ov.FloorOp)),
    "Ceiling": OpSpec(("opset1",), (1, 1), _unary(ov.CeilingOp)),
    "Sqrt": OpSpec(("opset1",), (1, 1), _unary(ov.SqrtOp)),
    "Sin": OpSpec(("opset1",), (1, 1), _unary(ov.SinOp)),
    "Cos": OpSpec(("opset1",), (1, 1), _unary(ov.CosOp)),
    "Erf": OpSpec(("opset1",), (1, 1), _unary(ov.ErfOp)),
    "SquaredDifference": OpSpec(("opset1",), (2, 2), _binary(ov.SquaredDifferenceOp)),
    "Gelu": OpSpec(("opset2", "opset7"), (1, 1), _build_gelu),
    "HSwish": OpSpec(("opset4",), (1, 1), _unary(ov.HSwishOp)),
    "HSigmoid": OpSpec(("opset5",), (1, 1), _unary(ov.HSigmoidOp)),
    "Identity": OpSpec(("opset16",), (1, 1), _unary(ov.IdentityOp)),
    "Elu": OpSpec(("opset1",), (1, 1), _build_elu),
    "Swish": OpSpec(("opset4",), (1, 2), _build_swish),
    "PRelu": OpSpec(("opset1",), (2, 2), _build_prelu),
    "PReLU": OpSpec(("opset1",), (2, 2), _build_prelu),
    "Clamp": OpSpec(("opset1",), (1, 1), _build_clamp),
    "Convert": OpSpec(("opset1",), (1, 1), _build_convert),
    "Select": OpSpec(("opset1",), (3, 3), _build_select),
}
