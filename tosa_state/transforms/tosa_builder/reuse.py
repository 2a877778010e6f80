"""Equal pure ops emitted once: the table through which the conversion's emitters reuse a
side-effect-free op (a constant, a shape, a `tosa.dim`, shape arithmetic, a reshape of one
value, ...) that an earlier conversion in the same block already emitted, instead of
building an equal op and leaving `to_tosa.clean_up` to merge the two.

A value is reused only where it dominates: the ops replacing an op (its *anchor*) are
inserted right before it, so an op emitted for anchor `A` is before every op of its block
that was at or after `A` when the block was first seen (`position`). An anchor the
numbering does not know (an op added to the block later) neither reuses nor offers ops.
Only the ops of one block are shared: ops built for a loop body go to blocks of their own
(`Emitter(shared=False)`).
"""

from __future__ import annotations

from collections.abc import Hashable

from xdsl.ir import Block, Operation, SSAValue

Values = tuple[SSAValue, ...]


class Key:
    """A key of `PureOps` (and of an emitter's own table), hashed once: its parts hold
    attributes, whose hashes are computed anew at every lookup otherwise."""

    __slots__ = ("hash", "parts")

    def __init__(self, parts: tuple[Hashable, ...]):
        self.parts = parts
        self.hash = hash(parts)

    def __hash__(self) -> int:
        return self.hash

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Key) and self.parts == other.parts


class PureOps:
    """The values of the pure ops emitted so far, by block and key (`Emitter` keys: an op's
    `to_tosa.merge_key`, or a helper's own key computed before building the op)."""

    def __init__(self) -> None:
        self._table: dict[Block, dict[Key, tuple[Values, int]]] = {}
        self._order: dict[Block, dict[Operation, int]] = {}

    def position(self, anchor: Operation) -> int | None:
        """`anchor`'s index in its block as the block was when first asked about."""
        block = anchor.parent
        if block is None:
            return None
        order = self._order.get(block)
        if order is None:
            order = self._order[block] = {op: i for i, op in enumerate(block.ops)}
        return order.get(anchor)

    def find(self, anchor: Operation, key: Key) -> Values | None:
        """The values emitted under `key` that dominate `anchor`, if any."""
        block = anchor.parent
        table = self._table.get(block)  # type: ignore[arg-type]
        entry = None if table is None else table.get(key)
        if entry is None:
            return None
        values, emitted_at = entry
        here = self.position(anchor)
        if here is None or here < emitted_at or not _in(block, values):  # type: ignore[arg-type]
            return None
        return values

    def add(self, anchor: Operation, entries: dict[Key, Values]) -> None:
        """Offer the values an emitter produced for `anchor` (now inserted before it)."""
        block = anchor.parent
        here = self.position(anchor)
        if block is None or here is None:
            return
        table = self._table.setdefault(block, {})
        for key, values in entries.items():
            found = table.get(key)
            if found is None or found[1] > here or not _in(block, found[0]):
                table[key] = (values, here)


def _in(block: Block, values: Values) -> bool:
    """Whether the ops of `values` are still in `block` (not erased or moved)."""
    return all(v.owner.parent is block for v in values)  # type: ignore[union-attr]


__all__ = ["Key", "PureOps"]
