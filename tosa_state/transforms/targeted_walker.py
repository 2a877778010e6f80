"""A greedy pattern driver that visits only the ops its patterns can rewrite.

xDSL's `PatternRewriteWalker` puts every op of the module on its worklist, runs every
pattern on each, and walks the whole module again after any change until nothing changes.
A pass whose patterns match a few op kinds (a 30-layer LLM has 7 000 ops, a few hundred
of them transposes) spends nearly all its time offering ops to patterns that return at
once. `TargetedRewriteWalker` fills the worklist from its walks only with the ops a
`candidate` predicate accepts (cheap: the op's type, its operands' producers), and, when
the patterns erase dead ops (`dead_or`), with the ops that are trivially dead. Everything
else is xDSL's driver unchanged: the ops a rewrite creates, modifies or makes the users or
producers of are pushed as before, and the module is walked again after any change, so a
candidate that a rewrite created where no listener saw it is still reached: the driver
still stops only when no pattern applies anywhere (the order of the rewrites may differ,
which matters only to patterns that are not confluent; `tests/test_targeted_walker.py`
compares the output with the stock driver's). `rewrite_each` offers a pattern a known
list of ops once (a lowering that rewrites each op of some kinds once: no worklist, no
walk).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

from xdsl.ir import Block, Operation, Region
from xdsl.pattern_rewriter import PatternRewriter, PatternRewriteWalker, RewritePattern
from xdsl.transforms.dead_code_elimination import is_trivially_dead

Candidate = Callable[[Operation], bool]


def _any_op(op: Operation) -> bool:
    return True


@dataclass(eq=False, repr=False)
class TargetedRewriteWalker(PatternRewriteWalker):
    """A `PatternRewriteWalker` whose walks push only the ops `candidate` accepts.

    `candidate(op)` must hold for every op the pattern could rewrite at the time of the
    walk (a pattern that also erases dead ops: see `dead_or`)."""

    candidate: Candidate = field(default=_any_op)

    def _populate_worklist(self, op: Operation | Region | Block) -> None:
        candidate = self.candidate
        push = self._worklist.push
        for sub_op in op.walk(
            reverse=not self.walk_reverse, region_first=not self.walk_regions_first
        ):
            if candidate(sub_op):
                push(sub_op)


def dead_or(candidate: Candidate) -> Candidate:
    """`candidate`, or an op that `GreedyRewritePatternApplier`'s dead-code elimination
    erases (no result used, no side effect)."""

    def accepts(op: Operation) -> bool:
        if candidate(op):
            return True
        for result in op.results:
            if result.first_use is not None:
                return False
        return is_trivially_dead(op)

    return accepts


def rewrite_op(op: Operation, pattern: RewritePattern) -> bool:
    """Offers `pattern` `op` once, reporting an exception on the op as
    `PatternRewriteWalker` does; whether it rewrote anything."""
    rewriter = PatternRewriter(op)
    try:
        pattern.match_and_rewrite(op, rewriter)
    except Exception as err:  # as the walker reports it
        op.emit_error(f"Error while applying pattern: {err}", underlying_error=err)
    return rewriter.has_done_action


def rewrite_each(ops: Iterable[Operation], pattern: RewritePattern) -> bool:
    """Offers `pattern` each op of `ops` still in the IR, once, in order: what
    `PatternRewriteWalker(pattern, apply_recursively=False)` does when the pattern can
    rewrite no other op (and what it creates is not offered again), without a walk.
    Whether anything was rewritten."""
    changed = False
    for op in ops:
        if op.parent is not None:  # else erased by an earlier rewrite
            changed |= rewrite_op(op, pattern)
    return changed


def of_types(*types: type[Operation]) -> Candidate:
    """The ops of `types` (the root types of `op_type_rewrite_pattern`s)."""
    return lambda op: isinstance(op, types)


__all__ = ["Candidate", "TargetedRewriteWalker", "dead_or", "of_types", "rewrite_each",
           "rewrite_op"]
