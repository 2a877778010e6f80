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
    if b.layer.version == "opset2":
        return _build_mvn_1(b)
    if len(b.operands) != 2:
        b.fail(f"MVN-6 takes 2 inputs (data, axes), got {len(b.operands)}")
    eps_mode = b.data("eps_mode").strip().lower()
    if eps_mode not in ("inside_sqrt", "outside_sqrt"):
        b.fail(f"eps_mode '{eps_mode}' is not 'inside_sqrt' or 'outside_sqrt'")
    return ov.MVNOp(b.operands[0], b.operands[1], b.result_types[0],
                    b.data_bool("normalize_variance", False), b.data_float("eps"), eps_mode)


def _build_mvn_1(b: OpBuilder) -> Operation:
    """MVN-1 (opset2): the mean over dims 1.. (`across_channels`) or 2.. of its one input,
    eps inside the square root. As OpenVINO's CPU plugin, non-empty `reduction_axes` (which
    OpenVINO writes) decide `across_channels` by holding axis 1 or not."""
    if len(b.operands) != 1:
        b.fail(f"MVN-1 takes 1 input, got {len(b.operands)}")
    shape = ov.tensor_shape(b.operands[0].type)
    if shape is None:
        b.fail("MVN-1 needs an input of static rank")
    rank = len(shape)
    axes = b.data_ints("reduction_axes")
    if any(not 0 <= a < rank for a in axes):
        b.fail(f"reduction_axes {axes} are out of range for rank {rank}")
    across = 1 in axes if axes else b.data_bool("across_channels", False)
    return ov.MVNOp(b.operands[0], list(range(1 if across else 2, rank)), b.result_types[0],
                    b.data_bool("normalize_variance", False), b.data_float("eps"),
                    "inside_sqrt")


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
    "MVN": OpSpec(("opset2", "opset6"), (1, 2), _build_mvn),
    "MatMul": OpSpec(("opset1",), (2, 2), _build_matmul),
    "ReduceSum": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceSumOp)),
    "ReduceMean": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMeanOp)),
    "ReduceMax": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMaxOp)),
    "ReduceMin": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMinOp)),
    "ReduceProd": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceProdOp)),
}
