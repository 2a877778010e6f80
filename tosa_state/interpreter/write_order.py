"""State writes as early as their values allow: the order in which a plan runs a block.

A `tosa.variable.write` (or `ml_program.global_store`) replaces a variable's value; until it
runs, the request's store keeps the old one. In a step that appends to a cache (read,
concat, more ops reading the concat, write at the end of the block as OpenVINO's Assign
puts it), the old value and the concat's result would both be held through every op
between the concat and the write. A plan runs each write right after the last op it must
follow instead: the producer of its value, any access to the same variable, and any op
that is neither free of side effects (a call, a store) nor an access to another variable,
or that holds regions. The ops it moves before see no state or other variables only, so
every result is the same; at the TOSA
and ml_program levels a growing cache then peaks at the old value and the new one while
the concat runs, (2T - 1) / T of its data. A call that fails in one of those ops (an index
out of range, say) is undone by the request's journal (`state.py`): the old value of an
append is the prefix of the new one, kept at no cost.
"""

from __future__ import annotations

from xdsl.ir import Block, Operation
from xdsl.traits import is_side_effect_free

from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalStoreOp
from tosa_state.dialects.tosa.variables import VariableReadOp, VariableWriteOp

_WRITES = (VariableWriteOp, GlobalStoreOp)
_ACCESSES = (VariableReadOp, VariableWriteOp, GlobalLoadOp, GlobalStoreOp)


def run_order(block: Block) -> list[Operation]:
    """The ops of `block` in the order a plan runs them: each state write moved up past the
    ops, without regions, that do not produce its operands and are side-effect free or
    access other variables."""
    order: list[Operation] = []
    for op in block.ops:
        position = len(order)
        if isinstance(op, _WRITES):
            producers = {value.owner for value in op.operands}
            name = _variable(op)
            while position and _passable(order[position - 1], producers, name):
                position -= 1
        order.insert(position, op)
    return order


def _variable(op: Operation) -> str:
    """The variable (or global) a state access names."""
    if isinstance(op, GlobalLoadOp | GlobalStoreOp):
        return op.global_name
    assert isinstance(op, VariableReadOp | VariableWriteOp)
    return op.var_name


def _passable(op: Operation, producers: set[object], name: str) -> bool:
    if op in producers or op.regions:
        return False
    if isinstance(op, _ACCESSES):
        return _variable(op) != name
    return is_side_effect_free(op)


__all__ = ["run_order"]
