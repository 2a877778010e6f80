"""Importing the index-driven data-movement layers: Roll, GatherND, GatherElements,
NonZero."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_non_zero(b: OpBuilder) -> Operation:
    output_type = b.data_element("output_type")
    if ov.element_type(b.result_types[0]) != output_type.mlir:
        b.fail(f"output_type '{output_type.name}' differs from the output port's type")
    return ov.NonZeroOp(b.operands[0], b.result_types[0])


INDEXING_LAYERS: dict[str, OpSpec] = {
    "Roll": OpSpec(("opset7",), (3, 3), lambda b: ov.RollOp(*b.operands, b.result_types[0])),
    "GatherND": OpSpec(("opset5", "opset8"), (2, 2), lambda b: ov.GatherNDOp(
        *b.operands, b.result_types[0], b.data_int("batch_dims", 0))),
    "GatherElements": OpSpec(("opset6",), (2, 2), lambda b: ov.GatherElementsOp(
        *b.operands, b.result_types[0], b.data_int("axis"))),
    "NonZero": OpSpec(("opset3",), (1, 1), _build_non_zero),
}
