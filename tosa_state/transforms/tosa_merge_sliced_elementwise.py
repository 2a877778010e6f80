"""`tosa-merge-sliced-elementwise`: one elementwise op on a tensor instead of the same op
on several slices of it.

An LSTM cell computed as TOSA applies `tosa.sigmoid` to three of the four gate slices of
one pre-activation tensor; an STFT magnitude squares the real and the imaginary half of
one spectrum. Every op costs a call at run time, whatever its size, so

    %a = tosa.slice %x ...   %fa = tosa.sigmoid %a
    %b = tosa.slice %x ...   %fb = tosa.sigmoid %b

becomes `%fx = tosa.sigmoid %x` with `%fa`, `%fb` slices of `%fx`. The ops merged must be
the same unary elementwise op (same properties), or the same binary one whose other
operand is one constant broadcasting along every dim; at least two slices, covering at
least half of `%x` (so that no more than twice the elements are computed). Static shapes.
"""

from __future__ import annotations

import math
from collections import defaultdict
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt


def _static_size(value: SSAValue) -> int | None:
    value_type = value.type
    if isinstance(value_type, TensorType) and value_type.has_static_shape():
        return math.prod(value_type.get_shape())
    return None


def _signature(op: Operation, sliced: SSAValue) -> tuple[object, ...] | None:
    """What must agree between the ops merged: op name, properties, and the other operand
    (a constant of ones dims) of a binary op; None if `op` cannot be merged."""
    if len(op.results) != 1 or op.results[0].type != sliced.type:
        return None
    properties = tuple(sorted(op.properties.items()))
    if isinstance(op, tew._UnaryOp | tew.ClampOp):
        return (op.name, properties)
    if isinstance(op, tew._BinaryOp) and op.operands[0] is sliced:
        other = op.operands[1]
        if isinstance(other.owner, tt.ConstOp) and _static_size(other) == 1:
            return (op.name, properties, other)
    return None


def _merge(source: SSAValue) -> bool:
    """Merge the sliced ops of `source`, group by group; whether anything changed."""
    if not any(isinstance(use.operation, tt.SliceOp) for use in source.uses):
        return False  # most values: asked first, it is the cheap question
    size = _static_size(source)
    if size is None:
        return False
    groups: dict[tuple[object, ...], list[tuple[tt.SliceOp, Operation]]] = defaultdict(list)
    for use in list(source.uses):
        window = use.operation
        if not isinstance(window, tt.SliceOp) or use.index != 0:
            continue
        for inner in window.output.uses:
            signature = _signature(inner.operation, window.output)
            if signature is not None and inner.index == 0:
                groups[signature].append((window, inner.operation))
    changed = False
    for members in groups.values():
        if len(members) < 2 or 2 * sum(_static_size(w.output) or 0 for w, _ in members) < size:
            continue
        block = members[0][1].parent_block()
        if block is None or any(op.parent_block() is not block for _, op in members):
            continue
        first = min((op for _, op in members), key=block.get_operation_index)
        template = members[0][1]
        source_type = source.type
        assert isinstance(source_type, TensorType)
        result_type = TensorType(template.results[0].type.element_type,  # type: ignore[attr-defined]
                                 source_type.get_shape())
        whole = type(template).create(
            operands=[source, *template.operands[1:]], result_types=[result_type],
            properties=dict(template.properties), attributes=dict(template.attributes))
        block.insert_op_before(whole, first)
        for window, op in members:
            part = tt.SliceOp(whole.results[0], window.start, window.size, op.results[0].type)
            part.output.name_hint = op.results[0].name_hint
            block.insert_op_before(part, op)
            op.results[0].replace_all_uses_with(part.output)
            op.detach()
            op.erase()
            if not window.output.uses:
                window.detach()
                window.erase()
        changed = True
    return changed


@dataclass(frozen=True)
class TosaMergeSlicedElementwisePass(ModulePass):
    """Applies an elementwise op once to a tensor instead of to several of its slices."""

    name = "tosa-merge-sliced-elementwise"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        changed = True
        while changed:
            changed = False
            for inner in list(op.walk()):
                if inner.parent is None:
                    continue
                for result in inner.results:
                    changed |= _merge(result)
            for block in [b for o in op.walk() for r in o.regions for b in r.blocks]:
                for arg in block.args:
                    changed |= _merge(arg)


__all__ = ["TosaMergeSlicedElementwisePass"]
