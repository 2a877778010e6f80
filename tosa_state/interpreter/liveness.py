"""Values die at their last use: where a plan's generated function deletes its locals.

A plan (`plan.py`) is a generated Python function whose locals are the SSA values. Left
alone, every intermediate of a call would stay alive until the call returns, so a call's
peak memory would be the sum of all its intermediates (each layer's attention matrices of
a decoder piling up). `releases` finds, once when the plan is built, the statement after
which each local is read no more, and the plan inserts a `del` there: a call's peak
memory is then its live set. Per call this costs one `DELETE_FAST` per value.

Each local is released in the block that *owns* it: the innermost block holding all its
assignments and reads (a value defined and used inside a loop body belongs to the body
and dies there every iteration; a value defined before a loop and read inside belongs to
the outer block and dies after the loop). A loop's only exit is its `break` (the plan's
loops are `while True:`): values of the body still alive there (those of the condition)
are released after the loop too. Function arguments are the caller's and are left alone.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

Release = tuple[int, list[str]]
"""Indentation depth and the names a `del` releases."""

_NAME = re.compile(r"(?<![\w.])([avrs]\d+(?:_\d+)?)\b")
"""A local of a generated plan: an argument `a0`, a value `v3`, a branch's result `r4_0`,
a loop-carried value `s5_1` (constants are globals `k7`)."""
_TARGETS = re.compile(r"^((?:[avrs]\d+(?:_\d+)?, *)*[avrs]\d+(?:_\d+)?,? *)= ")


@dataclass(eq=False)
class _Statement:
    """A line of the generated code, or a compound statement (`if`, `while`) through the
    last line of its blocks."""

    first: int
    last: int
    exits: bool
    """`return` or `break`: nothing runs after it."""
    breaks: bool
    """`break`, or a one-line `if ...: break`."""


@dataclass(eq=False)
class _Block:
    """A list of statements: the function's body, a loop's body or a branch."""

    stmts: list[_Statement] = field(default_factory=list)
    parent: _Block | None = None
    at: int = 0
    """The index in `parent` of the compound statement holding this block."""
    loop: bool = False
    """The body of a `while`."""
    ancestors: tuple[_Block, ...] = field(default=())
    """This block's ancestors, outermost first, and itself (as many as its indentation)."""

    def child(self, loop: bool) -> _Block:
        block = _Block(parent=self, at=len(self.stmts) - 1, loop=loop)
        block.ancestors = (*self.ancestors, block)
        return block


@dataclass
class _Mention:
    block: _Block
    index: int
    store: bool


def releases(lines: Sequence[str]) -> dict[int, list[Release]]:
    """Where to delete locals in the generated function `lines` (a `def` line, then its
    body indented by four spaces a level): line number (from 1) -> the `del`s to insert
    after that line (innermost first)."""
    mentions = _mentions(lines)
    after: dict[tuple[int, int], list[str]] = defaultdict(list)
    for name, found in mentions.items():
        if not any(m.store for m in found):
            continue  # an argument: the caller's
        owner = _common_block(found)
        indices = [_index_in(owner, m) for m in found]
        last = max(indices)
        _release_after(owner, last, name, after)
        if (exit_ := _loop_exit(owner)) is not None:
            first_store = min(i for i, m in zip(indices, found, strict=True) if m.store)
            if first_store < exit_ <= last and owner.parent is not None:
                _release_after(owner.parent, owner.at, name, after)
    by_line: dict[int, list[Release]] = defaultdict(list)
    for (line, depth), names in sorted(after.items(), key=lambda item: -item[0][1]):
        by_line[line].append((depth, names))
    return dict(by_line)


def _mentions(lines: Sequence[str]) -> dict[str, list[_Mention]]:
    """Every local's reads and assignments, by block and statement, in order."""
    root = _Block()
    root.ancestors = (root,)
    stack = [root]
    mentions: dict[str, list[_Mention]] = defaultdict(list)
    for number, line in enumerate(lines[1:], 2):
        text = line.lstrip()
        depth = (len(line) - len(text)) // 4
        del stack[depth:]
        block = stack[-1]
        if text == "else:":
            stack.append(block.child(loop=False))
            continue
        stmt = _Statement(number, number, text.startswith(("return ", "break")),
                          text == "break" or text.endswith(": break"))
        block.stmts.append(stmt)
        outer: _Block | None = block
        while outer is not None and outer.parent is not None:  # the compound statements
            outer.parent.stmts[outer.at].last = number         # around it end here or later
            outer = outer.parent
        targets = _TARGETS.match(text)
        stored = set(_NAME.findall(targets.group(1))) if targets else set()
        for name in _NAME.findall(text):
            mentions[name].append(_Mention(block, len(block.stmts) - 1, name in stored))
        if text.endswith(":"):
            stack.append(block.child(loop=text.startswith("while ")))
    return mentions


def _common_block(found: list[_Mention]) -> _Block:
    """The innermost block holding every mention."""
    common = found[0].block.ancestors
    for mention in found[1:]:
        chain = mention.block.ancestors
        depth = 0
        while depth < min(len(common), len(chain)) and common[depth] is chain[depth]:
            depth += 1
        common = common[:depth]
    return common[-1]


def _index_in(owner: _Block, mention: _Mention) -> int:
    """The index of the statement of `owner` that holds `mention`."""
    block, index = mention.block, mention.index
    while block is not owner:
        assert block.parent is not None
        block, index = block.parent, block.at
    return index


def _release_after(block: _Block, index: int, name: str,
                   after: dict[tuple[int, int], list[str]]) -> None:
    stmt = block.stmts[index]
    if not stmt.exits:  # else the frame or the loop ends there anyway
        after[(stmt.last, len(block.ancestors))].append(name)


def _loop_exit(block: _Block) -> int | None:
    """For the body of a `while`, the index of its statement that holds the `break`."""
    if not block.loop:
        return None
    return next((i for i, stmt in enumerate(block.stmts) if stmt.breaks), None)
