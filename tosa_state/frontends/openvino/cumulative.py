"""Importing the cumulative layers: CumSum."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_cumsum(b: OpBuilder) -> Operation:
    return ov.CumSumOp(b.operands[0], b.operands[1], b.result_types[0],
                       b.data_bool("exclusive", False), b.data_bool("reverse", False))


CUMULATIVE_LAYERS: dict[str, OpSpec] = {
    "CumSum": OpSpec(("opset3",), (2, 2), _build_cumsum),
}
