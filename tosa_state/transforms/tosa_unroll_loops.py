"""`tosa-unroll-loops{max-trip-count=64 max-ops=4096}`: a `tosa.while_loop` that runs a
fixed number of times, unrolled.

A loop has a fixed trip count when one of its carried values is a counter: a one-element
integer constant on entry, compared in `cond_graph` with a constant by `tosa.greater`,
`tosa.greater_equal` or `tosa.equal` (either operand order; the yielded value may be
reshaped), and advanced in `body_graph` by `tosa.add` / `tosa.sub` of a constant. The
count is found by stepping the counter (at most `max-trip-count` steps); the body is then
cloned that many times in place of the loop, each copy taking the previous one's yielded
values, and the loop's results are the last copy's.

The rule: unroll when the trip count is at most `max-trip-count` and the unrolled body is at
most `max-ops` ops. IREE runs a loop in its host VM one iteration at a time (a 4-step LSTM
sequence took 86 µs as a loop, 33 µs unrolled), and IREE 3.13 fails to compile some loops
that carry the same value twice (docs/runtime.md); the interpreter runs loops well and does
not need this pass.
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, ModuleOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tosa_state.dialects.tosa.control_flow import WhileOp, YieldOp
from tosa_state.dialects.tosa.elementwise import (
    AddOp,
    EqualOp,
    GreaterEqualOp,
    GreaterOp,
    SubOp,
)
from tosa_state.dialects.tosa.tensor import ConstOp, ReshapeOp

_COMPARISONS: dict[type[Operation], Callable[[int, int], bool]] = {
    GreaterOp: operator.gt,
    GreaterEqualOp: operator.ge,
    EqualOp: operator.eq,
}


def _constant(value: SSAValue) -> int | None:
    """The value of a one-element integer `tosa.const`, else None."""
    op = value.owner
    if not isinstance(op, ConstOp) or not isinstance(op.values, DenseIntOrFPElementsAttr):
        return None
    values = op.values.get_values()
    if len(values) != 1 or not isinstance(op.values.get_element_type(), IntegerType):
        return None
    return int(values[0])


def _through_reshapes(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, ReshapeOp):
        value = value.owner.input1
    return value


def _condition(block: Block) -> tuple[int, Callable[[int], bool]] | None:
    """The counter's index and the condition on its value, when `cond_graph` is one
    comparison of a block argument with a constant."""
    terminator = block.last_op
    if not isinstance(terminator, YieldOp) or len(terminator.inputs) != 1:
        return None
    compare = _through_reshapes(terminator.inputs[0]).owner
    if type(compare) not in _COMPARISONS:
        return None
    test = _COMPARISONS[type(compare)]
    lhs, rhs = compare.operands
    if lhs in block.args and (bound := _constant(rhs)) is not None:
        return block.args.index(lhs), lambda i: test(i, bound)
    if rhs in block.args and (bound := _constant(lhs)) is not None:
        return block.args.index(rhs), lambda i: test(bound, i)
    return None


def _step(block: Block, index: int) -> int | None:
    """How much `body_graph` adds to carried value `index` per iteration, if a constant."""
    terminator = block.last_op
    assert isinstance(terminator, YieldOp)
    update = terminator.inputs[index].owner
    if not isinstance(update, AddOp | SubOp) or update.input1 is not block.args[index]:
        if isinstance(update, AddOp) and update.input2 is block.args[index]:
            return _constant(update.input1)
        return None
    step = _constant(update.input2)
    return None if step is None else (step if isinstance(update, AddOp) else -step)


def trip_count(loop: WhileOp, limit: int) -> int | None:
    """How many times `loop` runs, when it has a counter and runs at most `limit` times."""
    found = _condition(loop.cond_graph.block)
    if found is None:
        return None
    index, test = found
    start = _constant(loop.input_list[index])
    step = _step(loop.body_graph.block, index)
    if start is None or step is None:
        return None
    count, value = 0, start
    while test(value):
        count += 1
        value += step
        if count > limit:
            return None
    return count


@dataclass(frozen=True)
class UnrollFixedLoop(RewritePattern):
    max_trip_count: int
    max_ops: int

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: WhileOp, rewriter: PatternRewriter) -> None:
        count = trip_count(op, self.max_trip_count)
        body = op.body_graph.block
        size = sum(1 for _ in body.walk())
        if count is None or count * size > self.max_ops:
            return
        values = list(op.input_list)
        for _ in range(count):
            mapping: dict[SSAValue, SSAValue] = dict(zip(body.args, values, strict=True))
            for inner in body.ops:
                if isinstance(inner, YieldOp):
                    values = [mapping.get(v, v) for v in inner.inputs]
                    break
                rewriter.insert(inner.clone(mapping), InsertPoint.before(op))
        rewriter.replace(op, [], values)


@dataclass(frozen=True)
class TosaUnrollLoopsPass(ModulePass):
    """Unrolls every `tosa.while_loop` with a fixed trip count of at most
    `max_trip_count`, whose unrolled body has at most `max_ops` ops."""

    name = "tosa-unroll-loops"

    max_trip_count: int = 64
    max_ops: int = 4096

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(UnrollFixedLoop(self.max_trip_count, self.max_ops)
                             ).rewrite_module(op)


__all__ = ["TosaUnrollLoopsPass", "trip_count"]
