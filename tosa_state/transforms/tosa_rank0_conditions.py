"""`tosa-rank0-conditions`: the conditions of `tosa.cond_if` and `tosa.while_loop` as
`tensor<i1>`.

TOSA allows any one-element `i1` tensor as a condition (our conversions make them
`tensor<1xi1>` or `tensor<1x1xi1>`); upstream MLIR's TOSA-to-SCF lowering, which IREE runs,
extracts the condition with no indices and so takes only rank 0 (`'tensor.extract' op
incorrect number of indices`). A `tosa.reshape` to rank 0 is inserted:

```mlir
%r = tosa.cond_if %c ... : tensor<1x1xi1> ...
```
becomes
```mlir
%s = tosa.const_shape {values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
%c0 = tosa.reshape %c, %s : (tensor<1x1xi1>, !tosa.shape<0>) -> tensor<i1>
%r = tosa.cond_if %c0 ... : tensor<i1> ...
```
and likewise before the `tosa.yield` of a `tosa.while_loop`'s `cond_graph`.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, i1
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tosa_state.dialects.tosa.control_flow import IfOp, WhileOp, YieldOp
from tosa_state.dialects.tosa.tensor import ConstShapeOp, ReshapeOp

SCALAR_I1 = TensorType(i1, [])


def _scalar(value: SSAValue, before: Operation, rewriter: PatternRewriter) -> SSAValue | None:
    """`value` reshaped to `tensor<i1>` just before `before`, or None when it is already."""
    if value.type == SCALAR_I1:
        return None
    shape = ConstShapeOp([])
    reshape = ReshapeOp(value, shape, SCALAR_I1)
    for op in (shape, reshape):
        op.location = before.location
    rewriter.insert([shape, reshape], InsertPoint.before(before))
    return reshape.output


class IfConditionToRank0(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IfOp, rewriter: PatternRewriter) -> None:
        if (scalar := _scalar(op.condition, op, rewriter)) is not None:
            rewriter.replace_uses_with_if(op.condition, scalar, lambda use: use.operation is op)


class WhileConditionToRank0(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WhileOp, rewriter: PatternRewriter) -> None:
        terminator = op.cond_graph.block.last_op
        assert isinstance(terminator, YieldOp)
        condition = terminator.inputs[0]
        if (scalar := _scalar(condition, terminator, rewriter)) is not None:
            rewriter.replace(terminator, YieldOp(scalar))


@dataclass(frozen=True)
class TosaRank0ConditionsPass(ModulePass):
    """Reshapes every `tosa.cond_if` / `tosa.while_loop` condition to `tensor<i1>`."""

    name = "tosa-rank0-conditions"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([IfConditionToRank0(), WhileConditionToRank0()]),
            apply_recursively=False,
        ).rewrite_module(op)


__all__ = ["TosaRank0ConditionsPass"]
