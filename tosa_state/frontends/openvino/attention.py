"""Importing the attention layers: ScaledDotProductAttention."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_sdpa(b: OpBuilder) -> Operation:
    query, key, value = b.operands[:3]
    return ov.ScaledDotProductAttentionOp(
        query, key, value, b.optional_operand(3), b.optional_operand(4), b.result_types[0],
        b.data_bool("causal", False), b.optional_operand(5),
    )


ATTENTION_LAYERS: dict[str, OpSpec] = {
    "ScaledDotProductAttention": OpSpec(("opset13",), (3, 6), _build_sdpa),
}
