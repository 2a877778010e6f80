"""Importing the index-driven data-movement layers: Roll."""

from __future__ import annotations

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpSpec

INDEXING_LAYERS: dict[str, OpSpec] = {
    "Roll": OpSpec(("opset7",), (3, 3), lambda b: ov.RollOp(*b.operands, b.result_types[0])),
}
