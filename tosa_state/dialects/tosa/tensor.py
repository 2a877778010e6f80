"""TOSA 1.0 tensor operators (placeholder: being written)."""

from xdsl.dialects.tosa import ConcatOp, ConstOp, IfOp, MatMulOp, ReduceSumOp, YieldOp

TENSOR_OPS = [ConstOp, ConcatOp, IfOp, YieldOp, MatMulOp, ReduceSumOp]
TENSOR_ATTRS = []
