"""`tosa-sink-cond-if-inputs`: an input of `tosa.cond_if` that only one branch uses is
computed inside that branch.

```mlir
%init = tosa.tile %zeros, %shape ...
%r = tosa.cond_if %flag (%a = %state, %b = %init) ... {
  tosa.yield %a
} else {
  tosa.yield %b
}
```
becomes
```mlir
%r = tosa.cond_if %flag (%a = %state) ... {
  tosa.yield %a
} else {
  %init = tosa.tile %zeros, %shape ...
  tosa.yield %init
}
```
The side-effect-free ops computing the input in the cond_if's block are cloned into the
branch (values they take from elsewhere are used from above); originals left without uses
are erased. Besides saving the work when the other branch runs, this is the workaround for
an IREE 3.13 miscompile: a dynamic init computed outside the `if` and selected against a
global (a computed initial value of a KV cache) reads stale zeros from the second call on
(reproducer in docs/runtime.md).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.traits import is_side_effect_free

from tosa_state.dialects.tosa.control_flow import IfOp


def _slice(value: SSAValue, block: Block) -> list[Operation] | None:
    """The side-effect-free ops of `block` computing `value`, in program order; None when
    `value` is not computed by such an op of `block`."""
    owner = value.owner
    if not isinstance(owner, Operation) or owner.parent is not block:
        return None
    if not is_side_effect_free(owner):
        return None
    found: set[Operation] = set()
    work = [owner]
    while work:
        op = work.pop()
        if op in found:
            continue
        found.add(op)
        for operand in op.operands:
            producer = operand.owner
            if (isinstance(producer, Operation) and producer.parent is block
                    and is_side_effect_free(producer)):
                work.append(producer)
    return [op for op in block.ops if op in found]


def _sink(op: IfOp, index: int, into: Region, rewriter: PatternRewriter) -> bool:
    """Clone the computation of input `index` at the start of `into`, in program order."""
    block = op.parent_block()
    assert block is not None
    ops = _slice(op.input_list[index], block)
    if ops is None:
        return False
    branch = into.block
    anchor = branch.first_op
    assert anchor is not None  # a branch ends with its tosa.yield
    mapping: dict[SSAValue, SSAValue] = {}
    for original in ops:
        rewriter.insert(original.clone(mapping), InsertPoint.before(anchor))
    rewriter.replace_all_uses_with(branch.args[index], mapping[op.input_list[index]])
    return True


class SinkCondIfInput(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: IfOp, rewriter: PatternRewriter) -> None:
        then_block, else_block = op.then_graph.block, op.else_graph.block
        keep: list[int] = []
        for index in range(len(op.input_list)):
            used_then = bool(then_block.args[index].uses)
            used_else = bool(else_block.args[index].uses)
            if used_then and used_else:
                keep.append(index)
                continue
            region = op.else_graph if used_else else op.then_graph
            if (used_then or used_else) and not _sink(op, index, region, rewriter):
                keep.append(index)
        if len(keep) == len(op.input_list):
            return
        regions = []
        for block in (then_block, else_block):
            for index in reversed(range(len(op.input_list))):
                if index not in keep:
                    block.erase_arg(block.args[index])
            region = Region()
            op.regions[len(regions)].move_blocks(region)
            regions.append(region)
        new = IfOp(op.condition, [op.input_list[i] for i in keep],
                   [r.type for r in op.output_list], regions[0], regions[1])
        new.location = op.location
        dropped = [op.input_list[i] for i in range(len(op.input_list)) if i not in keep]
        rewriter.replace(op, new)
        for value in dropped:
            _erase_unused(value, rewriter)


def _erase_unused(value: SSAValue, rewriter: PatternRewriter) -> None:
    """Erase the side-effect-free op computing `value`, and its producers, once unused."""
    op = value.owner
    if not isinstance(op, Operation) or not is_side_effect_free(op):
        return
    if any(result.uses for result in op.results):
        return
    operands = list(op.operands)
    rewriter.erase(op)
    for operand in operands:
        _erase_unused(operand, rewriter)


@dataclass(frozen=True)
class TosaSinkCondIfInputsPass(ModulePass):
    """Computes each `tosa.cond_if` input used by one branch only inside that branch."""

    name = "tosa-sink-cond-if-inputs"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(SinkCondIfInput(), apply_recursively=False).rewrite_module(op)


__all__ = ["TosaSinkCondIfInputsPass"]
