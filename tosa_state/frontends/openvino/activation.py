"""Importing the activation layers: ReLU, Sigmoid, Gelu, HSwish, HSigmoid, Elu, Swish, PRelu,
Clamp, SoftPlus, ErfInv."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec
from tosa_state.frontends.openvino.elementwise import unary


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


ACTIVATION_LAYERS: dict[str, OpSpec] = {
    "ReLU": OpSpec(("opset1",), (1, 1), unary(ov.ReluOp)),
    "Relu": OpSpec(("opset1",), (1, 1), unary(ov.ReluOp)),
    "Sigmoid": OpSpec(("opset1",), (1, 1), unary(ov.SigmoidOp)),
    "Gelu": OpSpec(("opset2", "opset7"), (1, 1), _build_gelu),
    "HSwish": OpSpec(("opset4",), (1, 1), unary(ov.HSwishOp)),
    "HSigmoid": OpSpec(("opset5",), (1, 1), unary(ov.HSigmoidOp)),
    "Elu": OpSpec(("opset1",), (1, 1), _build_elu),
    "Swish": OpSpec(("opset4",), (1, 2), _build_swish),
    "PRelu": OpSpec(("opset1",), (2, 2), _build_prelu),
    "PReLU": OpSpec(("opset1",), (2, 2), _build_prelu),
    "Clamp": OpSpec(("opset1",), (1, 1), _build_clamp),
    "SoftPlus": OpSpec(("opset4",), (1, 1), lambda b: ov.SoftPlusOp(b.operands[0],
                                                                    b.result_types[0])),
    "ErfInv": OpSpec(("opset17",), (1, 1), lambda b: ov.ErfInvOp(b.operands[0],
                                                                 b.result_types[0])),
}
