"""TOSA 1.0 elementwise operators (placeholder: being written)."""

from xdsl.dialects.tosa import AddOp, ClampOp, MulOp, NanModeAttr, SubOp

ELEMENTWISE_OPS = [AddOp, SubOp, MulOp, ClampOp]
ELEMENTWISE_ATTRS = [NanModeAttr]
