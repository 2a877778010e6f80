"""Attention `openvino` ops: ScaledDotProductAttention."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DYNAMIC_INDEX, AnyFloat, BoolAttr, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    TensorLike,
    bool_attr,
    broadcast_shapes,
    check_same_element_type,
    dims_compatible,
    element_type,
    format_shape,
    tensor_shape,
)


def _dims_match(a: int, b: int) -> bool:
    return dims_compatible(a, b)


@irdl_op_definition
class ScaledDotProductAttentionOp(IRDLOperation):
    """ScaledDotProductAttention-13: `softmax(Q K^T * scale + mask) V`; with a `sink` (gpt-oss's
    attention sinks), one more score per row joins the softmax and is dropped after it.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/scaled-dot-product-attention.html

    `query` is `[N..., L, E]`, `key` `[N..., S, E]`, `value` `[N..., S, Ev]`, the result
    `[N..., L, Ev]` (N... broadcast). The batch dims of `key` / `value` broadcast (numpy rules:
    one K / V head serves every query head; OpenVINO refuses other head counts, so exporters
    repeat grouped-query K / V heads before the op). A boolean
    `attention_mask` keeps the positions where it is true (false adds -inf), a float one is
    added; `scale` defaults to `1 / sqrt(E)`. With `causal`, position `l` attends to `s <= l`
    and `attention_mask` is ignored.
    """

    name = "openvino.scaled_dot_product_attention"

    query = operand_def(TensorLike)
    key = operand_def(TensorLike)
    value = operand_def(TensorLike)
    attention_mask = opt_operand_def(TensorLike)
    scale = opt_operand_def(TensorLike)
    sink = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    causal = prop_def(BoolAttr)

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True), ParsePropInAttrDict())
    assembly_format = (
        "$query `,` $key `,` $value (`mask` $attention_mask^)? (`scale` $scale^)? "
        "(`sink` $sink^)? attr-dict `:` type($query) `,` type($key) `,` type($value) "
        "(`mask` type($attention_mask)^)? (`scale` type($scale)^)? (`sink` type($sink)^)? "
        "`->` type($result)"
    )

    def __init__(
        self,
        query: SSAValue,
        key: SSAValue,
        value: SSAValue,
        attention_mask: SSAValue | None,
        scale: SSAValue | None,
        result_type: Attribute,
        causal: bool,
        sink: SSAValue | None = None,
    ):
        super().__init__(
            operands=[query, key, value, _optional(attention_mask), _optional(scale),
                      _optional(sink)],
            result_types=[result_type],
            properties={"causal": bool_attr(causal)},
        )

    def verify_(self) -> None:
        check_same_element_type(
            self, (self.query, self.key, self.value, self.result), "query, key, value and result"
        )
        if not isinstance(element_type(self.query.type), AnyFloat):
            raise VerifyException(f"{self.name}: query must be a float tensor")
        q, k, v = (tensor_shape(x.type) for x in (self.query, self.key, self.value))
        if q is None or k is None or v is None:
            return
        for dims, what in ((q, "query"), (k, "key"), (v, "value")):
            if len(dims) < 3:
                raise VerifyException(f"{self.name}: {what} must have rank 3 or more")
        if not len(q) == len(k) == len(v):
            raise VerifyException(f"{self.name}: query, key and value must have one rank")
        if not _dims_match(q[-1], k[-1]):
            raise VerifyException(
                f"{self.name}: query {format_shape(q)} and key {format_shape(k)} differ in the "
                "embedding dim"
            )
        if not _dims_match(k[-2], v[-2]):
            raise VerifyException(
                f"{self.name}: key {format_shape(k)} and value {format_shape(v)} differ in the "
                "sequence dim"
            )
        for kv, what in ((k, "key"), (v, "value")):
            try:
                broadcast_shapes(q[:-2], kv[:-2])
            except VerifyException:
                raise VerifyException(
                    f"{self.name}: the batch dims of {what} {format_shape(kv)} do not broadcast "
                    f"to the query's {format_shape(q)}"
                ) from None
        self._verify_extras()
        out = tensor_shape(self.result.type)
        batch = broadcast_shapes(broadcast_shapes(q[:-2], k[:-2]), v[:-2]) or ()
        expected = (*batch, q[-2], v[-1])
        if out is not None and not (
            len(out) == len(expected) and all(map(_dims_match, out, expected))
        ):
            raise VerifyException(
                f"{self.name}: result shape {format_shape(out)} is not {format_shape(expected)}"
            )

    def _verify_extras(self) -> None:
        query_element = element_type(self.query.type)
        if self.attention_mask is not None:
            mask_element = element_type(self.attention_mask.type)
            if mask_element not in (i1, query_element):
                raise VerifyException(
                    f"{self.name}: attention_mask must be boolean or of the query's type "
                    f"{query_element}, got {mask_element}"
                )
        if self.scale is not None:
            if element_type(self.scale.type) != query_element:
                raise VerifyException(f"{self.name}: scale must have the query's element type")
            dims = tensor_shape(self.scale.type)
            if dims is not None and dims not in ((), (1,)):
                raise VerifyException(f"{self.name}: scale must be a scalar, got "
                                      f"{self.scale.type}")
        if self.sink is not None:
            if element_type(self.sink.type) != query_element:
                raise VerifyException(f"{self.name}: sink must have the query's element type")
            dims = tensor_shape(self.sink.type)
            if dims is not None and (not dims or dims[-1] not in (1, DYNAMIC_INDEX)):
                raise VerifyException(f"{self.name}: sink must end in a dim of 1 (one extra "
                                      f"score per row), got {self.sink.type}")


def _optional(value: SSAValue | None) -> Sequence[SSAValue]:
    return [] if value is None else [value]


ATTENTION_OPS = (ScaledDotProductAttentionOp,)
