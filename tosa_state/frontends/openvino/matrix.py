"""Importing MatMul, the reductions, Softmax, LogSoftmax and MVN."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import Converter, OpBuilder, OpSpec


def _reduce(cls: type[ov.ReduceOp]) -> Converter:
    def build(b: OpBuilder) -> Operation:
        return cls(b.operands[0], b.operands[1], b.result_types[0], b.data_bool("keep_dims", False))

    return build


def _build_softmax(b: OpBuilder) -> Operation:
    axis = b.data_int("axis", 1)
    if b.layer.version == "opset1" and axis < 0:
        b.fail(f"axis {axis} is negative (Softmax-1 takes a non-negative axis)")
    return ov.SoftmaxOp(b.operands[0], b.result_types[0], axis)


def _build_log_softmax(b: OpBuilder) -> Operation:
    return ov.LogSoftmaxOp(b.operands[0], b.result_types[0], b.data_int("axis", 1))


def _build_mvn(b: OpBuilder) -> Operation:
    eps_mode = b.data("eps_mode").strip().lower()
    if eps_mode not in ("inside_sqrt", "outside_sqrt"):
        b.fail(f"eps_mode '{eps_mode}' is not 'inside_sqrt' or 'outside_sqrt'")
    return ov.MVNOp(b.operands[0], b.operands[1], b.result_types[0],
                    b.data_bool("normalize_variance", False), b.data_float("eps"), eps_mode)


def _build_matmul(b: OpBuilder) -> Operation:
    return ov.MatMulOp(
        b.operands[0],
        b.operands[1],
        b.result_types[0],
        b.data_bool("transpose_a", False),
        b.data_bool("transpose_b", False),
    )


MATRIX_LAYERS: dict[str, OpSpec] = {
    "SoftMax": OpSpec(("opset1", "opset8"), (1, 1), _build_softmax),
    "Softmax": OpSpec(("opset1", "opset8"), (1, 1), _build_softmax),
    "LogSoftmax": OpSpec(("opset5",), (1, 1), _build_log_softmax),
    "MVN": OpSpec(("opset6",), (2, 2), _build_mvn),
    "MatMul": OpSpec(("opset1",), (2, 2), _build_matmul),
    "ReduceSum": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceSumOp)),
    "ReduceMean": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMeanOp)),
    "ReduceMax": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMaxOp)),
    "ReduceMin": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMinOp)),
    "ReduceProd": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceProdOp)),
}
