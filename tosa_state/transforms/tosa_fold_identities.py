"""`tosa-fold-identities`: ops that return an operand unchanged are replaced by it.

Converters emit such ops where a general formula meets a special shape — a ReduceMean over
one element becomes a `tosa.reduce_sum` over a size-1 axis and a `tosa.mul` by `1/1`
(silero-vad's last layer) — and every one of them costs a call at run time. As upstream
MLIR's folders of the same ops do, this pass replaces

- `tosa.reduce_*` along an axis of static size 1 by its input;
- a floating-point `tosa.mul` by a constant of ones (that does not broadcast the other
  operand) by the other operand — `x * 1.0` is `x` bit for bit, NaN and `-0.0` included.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa.elementwise import constant_values
from tosa_state.dtypes import numpy_dtype
from tosa_state.transforms.targeted_walker import TargetedRewriteWalker, dead_or

_SMALL = 64
"""Largest constant (elements) inspected for being all ones."""


def _is_ones(value: SSAValue) -> bool:
    value_type = value.type
    if not isinstance(value_type, TensorType) or not value_type.has_static_shape() or \
            math.prod(value_type.get_shape()) > _SMALL:
        return False
    values = constant_values(value)
    return values is not None and all(v == 1 for v in values)


class FoldReduceOfOne(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, tt.ReductionOperation):
            return
        input_type = op.input.type
        assert isinstance(input_type, TensorType)
        if input_type.get_shape()[op.axis.value.data] == 1 and input_type == op.output.type:
            rewriter.replace(op, [], [op.input])


class FoldMulByOne(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tew.MulOp, rewriter: PatternRewriter) -> None:
        output_type = op.output.type
        assert isinstance(output_type, TensorType)
        if numpy_dtype(output_type.element_type).kind != "f" and \
                str(output_type.element_type) != "bf16":
            return
        for kept, one in ((op.input1, op.input2), (op.input2, op.input1)):
            if kept.type == output_type and _is_ones(one):
                rewriter.replace(op, [], [kept])
                return


_CONSTANTS = ("tosa.const", "arith.constant")


def _candidate(op: Operation) -> bool:
    """A reduction, or a `tosa.mul` of a constant (what `constant_values` reads)."""
    if isinstance(op, tew.MulOp):
        return any(isinstance(owner := value.owner, Operation) and owner.name in _CONSTANTS
                   for value in (op.input1, op.input2))
    return isinstance(op, tt.ReductionOperation)


FOLD_IDENTITIES_PATTERNS: tuple[type[RewritePattern], ...] = (
    FoldReduceOfOne,
    FoldMulByOne,
)


@dataclass(frozen=True)
class TosaFoldIdentitiesPass(ModulePass):
    """Replaces ops that return an operand unchanged by that operand."""

    name = "tosa-fold-identities"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TargetedRewriteWalker(
            GreedyRewritePatternApplier([p() for p in FOLD_IDENTITIES_PATTERNS]),
            candidate=dead_or(_candidate),
        ).rewrite_module(op)


__all__ = ["FOLD_IDENTITIES_PATTERNS", "TosaFoldIdentitiesPass"]
