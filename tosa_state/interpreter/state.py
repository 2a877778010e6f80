"""The persistent state of one inference request.

Each request owns a `VariableStore`: one slot per variable (TOSA variable, memref global
or ml_program global, all keyed by the variable's name) with its declared shape, dtype
and initial value, decoded once at compile time. A slot is initialised from its initial
value when the request is created and after every reset; a slot without an initial value
holds nothing until it is written, and reading it is an `InferenceError` naming it.

A call is a transaction (`begin` / `commit` / `rollback`): while one runs, the store
journals what each change replaces, so that a call that raises (any exception, a
`KeyboardInterrupt` too) leaves every slot as it was. Replacing a slot's array journals the
old array (no copy); a write that adopts `concat(old, new...)` journals where the old value
is within the new one (a prefix: no copy, and the old value is let go as before); a change
in place journals a copy of what it overwrites: a small global, or the value of a dynamic
variable within its buffer (its old lengths) when a copy into the buffer overlaps it
(`guard_view`; none for an append, which writes after the old lengths: restoring the sizes
global undoes it). A plan's copy into a subview of the buffer tells the subview's offsets
(`guard_window`): an append is then told by comparing them with the old lengths, a few
Python operations a call, where a memory-overlap test cost microseconds.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

import numpy as np

from tosa_state.diagnostics import InferenceError
from tosa_state.runtime.variables import VariableSpec


@dataclass(frozen=True, slots=True)
class _Prefix:
    """A journaled old value that is the leading `length` elements of `array` along
    `axis` (the value a write adopted: `concat(old, ...)` along `axis`)."""

    array: np.ndarray
    axis: int
    length: int

    def value(self) -> np.ndarray:
        index = [slice(None)] * self.array.ndim
        index[self.axis] = slice(0, self.length)
        return self.array[tuple(index)].copy()


class VariableStore:
    """The current value of every variable of one request (the interpreter's
    `StateStore`)."""

    def __init__(self, specs: Iterable[VariableSpec]):
        self.specs: dict[str, VariableSpec] = {spec.name: spec for spec in specs}
        self.values: dict[str, np.ndarray | None] = {}
        self.flags: dict[str, VariableSpec] = {
            spec.flag_of: spec for spec in self.specs.values() if spec.flag_of is not None
        }
        """Variable name -> the spec of its init flag (initial values computed from inputs)."""
        self.sizes: dict[str, VariableSpec] = {
            spec.sizes_of: spec for spec in self.specs.values() if spec.sizes_of is not None
        }
        """Variable name -> the spec of its sizes global (a dynamic variable at the memref
        level: its slot holds a buffer with room to spare, the sizes say how much is used)."""
        self._old: dict[str, Any] | None = None
        """While a call runs: each changed slot's value before the call (an array, `None`
        or a `_Prefix`); `None` between calls."""
        self._regions: list[tuple[np.ndarray, tuple[slice, ...], np.ndarray]] = []
        """While a call runs: the parts of dynamic variables' buffers overwritten in place,
        as they were (buffer, where, copy), oldest first."""
        self._buffers: dict[int, str] | None = None
        """The dynamic variables by the id of their buffer as the call started (built by
        `begin`, kept from call to call until a buffer is replaced: `None`)."""
        self._moved = False
        """Whether the running call replaced a slot's array (a dynamic variable's buffer:
        `point`); the journal keeps the old one alive, so its id in the map holds until the
        call ends."""
        self._dynamic: dict[str, tuple[int, ...]] = {
            name: tuple(i for i, d in enumerate(self.specs[name].shape) if d < 0)
            for name in self.sizes}
        """The dynamic axes of each dynamic variable (memref level)."""
        self._lengths: dict[str, tuple[str, tuple[tuple[int, int], ...]]] = {
            name: (self.sizes[name].name, tuple(enumerate(axes)))
            for name, axes in self._dynamic.items()}
        """Per dynamic variable: its sizes global, and (index in it, axis) of each length."""
        self.journaling = False
        """Whether a call runs as a transaction now (its changes are journaled)."""
        self._saved: set[str] = set()
        """While a call runs: the dynamic variables whose value `_regions` holds."""
        self.transactions = True
        """Whether a call is a transaction (`False` only to measure what the journal costs:
        `benchmarks/llm_decode.py --ab`)."""
        self.reset()

    # -- transactions ------------------------------------------------------------------

    def begin(self) -> None:
        """Start journaling: a call starts."""
        self._old = {}
        self.journaling = True
        if self._buffers is None:  # here, not in a guard: every call runs the same lines
            values = self.values
            self._buffers = {id(values[n]): n for n in self.sizes}
        if self._regions or self._saved:
            self._regions.clear()
            self._saved.clear()

    def commit(self) -> None:
        """The call completed: keep its changes, let the journal go."""
        self._old = None
        self.journaling = False
        if self._moved:  # the map of buffers is the call's start's
            self._buffers, self._moved = None, False
        if self._regions:
            self._regions.clear()

    def rollback(self) -> None:
        """The call failed: every slot back to what it held at `begin`."""
        old, regions = self._old or {}, self._regions
        self._old = self._buffers = None
        self._moved = self.journaling = False
        for buffer, where, saved in reversed(regions):
            buffer[where] = saved
        regions.clear()
        for name, value in old.items():
            self.values[name] = value.value() if type(value) is _Prefix else value

    def _journal(self, name: str) -> None:
        """Record slot `name` before its first change of the call (its array is replaced:
        the map of buffers is made anew after the call)."""
        old = self._old
        if old is None:  # a call without a journal: the map is made anew by the next begin
            self._buffers = None
            return
        self._moved = True
        if name not in old:
            old[name] = self.values[name]

    def guard_window(self, buffer: np.ndarray, offsets: list[int], target: np.ndarray
                     ) -> None:
        """`guard_view` of `target = buffer[offsets...]` (a subview at `offsets`, of the
        target's shape), told the offsets: when `buffer` is a dynamic variable's buffer as
        the call started, the target overlaps its value unless it starts at or after the
        value's old length along some dynamic axis (an append: nothing saved) or is
        empty; a few comparisons instead of a memory-overlap test."""
        old = self._old
        if old is None:
            return
        name = self._buffers.get(id(buffer))  # type: ignore[union-attr]
        if name is None:  # not a buffer itself (a view of one, or no variable's)
            self.guard_view(target)
            return
        if name in self._saved or not target.size:
            return
        sizes, axes = self._lengths[name]
        # Python ints: comparing an int with a numpy scalar takes a ufunc call (~1 us each)
        lengths = (old[sizes] if sizes in old else self.values[sizes]).tolist()
        for index, axis in axes:
            if offsets[axis] >= lengths[index]:
                return
        self._save(name, buffer, lengths)

    def _old_lengths(self, name: str, old: dict[str, Any]) -> list[int]:
        """Dynamic variable `name`'s sizes global as the call started (lengths, then
        capacities)."""
        sizes = self.sizes[name].name
        return (old[sizes] if sizes in old else self.values[sizes]).tolist()

    def _save(self, name: str, buffer: np.ndarray, lengths: list[int]) -> None:
        """Journal a copy of dynamic variable `name`'s value (its `buffer` within its old
        `lengths`), once a call."""
        where = [slice(None)] * buffer.ndim
        for axis, length in zip(self._dynamic[name], lengths, strict=False):
            where[axis] = slice(0, length)
        self._saved.add(name)
        self._regions.append((buffer, tuple(where), buffer[tuple(where)].copy()))

    def guard_view(self, target: np.ndarray) -> None:
        """Journal what a change in place of `target` (a `memref.copy` or element store into
        it) may overwrite of a dynamic variable's value as the call started: when `target`
        is (a view of) that variable's buffer and shares memory with the value (within its
        old lengths), a copy of the whole value, once a call. An append writes after the old
        lengths and saves nothing (the lengths themselves are journaled with the sizes
        global). A static variable changes in place only through `write_in_place` and
        `mutable`, which journal it."""
        old = self._old
        if old is None:
            return
        base = target.base
        if base is None:
            base = target
        name = self._buffers.get(id(base))  # type: ignore[union-attr]
        if name is None or name in self._saved:
            return
        lengths = self._old_lengths(name, old)
        where = [slice(None)] * base.ndim
        for axis, length in zip(self._dynamic[name], lengths, strict=False):  # then capacities
            where[axis] = slice(0, length)
        if target is base or np.shares_memory(target, base[tuple(where)]):
            self._save(name, base, lengths)

    def reset(self, name: str | None = None) -> None:
        """Back to the initial value (every variable, or just `name` and its companions:
        init flag, sizes)."""
        self._buffers = None
        specs = self.specs.values() if name is None else (self.specs[name],)
        if name in self.flags:
            specs = (*specs, self.flags[name])
        if name in self.sizes:
            specs = (*specs, self.sizes[name])
        for spec in specs:
            self.values[spec.name] = None if spec.initial is None else spec.initial.copy()

    def length(self, name: str, axis: int) -> int | None:
        """How long dynamic variable `name`'s value is along `axis` (its sizes global at the
        memref level); `None` while its computed initial value is pending."""
        if (flag := self.flags.get(name)) is not None:
            done = self.values[flag.name]
            if not (bool(done) if done.ndim == 0 else done.all()):  # bool(): ~50x faster
                return None
        if (sizes := self.sizes.get(name)) is not None:
            return int(self.values[sizes.name][self._dynamic[name].index(axis)])
        value = self.values[name]
        return None if value is None else value.shape[axis]

    def read(self, name: str) -> np.ndarray:
        """The current value itself (callers never mutate it; only `write_in_place`
        does); an error if never written."""
        value = self.values[name]
        if value is None:
            raise InferenceError(
                f"error: variable '{name}' is read before it is ever written, and it has no "
                "initial value"
            )
        return value

    def write(self, name: str, value: np.ndarray) -> None:
        """Replace the value by a private copy of `value` (earlier reads keep theirs). The
        old value is let go before the copy is made: a growing state then peaks at the
        new value and its copy, not the old one as well (once its reads are dead), unless
        a call's journal keeps it."""
        self._journal(name)
        self.values[name] = None
        self.values[name] = np.array(value, copy=True)

    def adopt(self, name: str, value: np.ndarray) -> None:
        """`write` without the copy: `value` itself becomes the state. Only for a value that
        nothing else may change or hand out (`tosa_variables.owned_by_write`): a growing
        state then peaks at its old value and the new one, as value semantics require."""
        self._journal(name)
        self.values[name] = value

    def adopt_append(self, name: str, value: np.ndarray, first: np.ndarray, axis: int) -> None:
        """`adopt` of `value = concat(first, ...)` along `axis`: when `first` is the current
        value itself, a call's journal records it as `value`'s prefix (no copy, and the old
        array is let go at once, as without a journal)."""
        old = self._old
        if old is not None and name not in old and first is self.values[name]:
            old[name] = _Prefix(value, axis, first.shape[axis])
        self.adopt(name, value)

    def point(self, name: str, buffer: np.ndarray) -> None:
        """The slot now holds `buffer` itself (a dynamic variable's new buffer at the memref
        level: a store of the pointer global)."""
        self._journal(name)  # the map of buffers stays the call's start's until it ends
        self.values[name] = buffer

    def mutable(self, name: str) -> np.ndarray:
        """The current value, to be changed in place (an element store into a global)."""
        value = self.read(name)
        if (old := self._old) is not None and name not in old:
            old[name] = value.copy()
        return value

    def write_in_place(self, name: str, value: np.ndarray) -> None:
        """Copy `value` into the variable's current buffer, as a store through a pointer
        to it does (`memref.copy` into a `memref.get_global`): every alias of the buffer
        sees the new value. A never-written variable gets a fresh private buffer. A scalar
        given the value it holds (an init flag, set again every call) is left as it is:
        nothing copied, nothing journaled."""
        current = self.values[name]
        if current is not None and current.ndim == 0 and type(value) is np.ndarray \
                and value.ndim == 0 and current.item() == value.item():
            return
        if (old := self._old) is not None and name not in old:
            old[name] = None if current is None else current.copy()
        if current is None:
            self.values[name] = np.array(value, copy=True)
        else:
            np.copyto(current, value)

    def set_checked(self, name: str, value: object) -> None:
        """`write` for user-provided values: the shape and dtype must match exactly.

        A value set by the user replaces a computed initial value too: the init flag is set.
        """
        array = np.asarray(value)
        self.specs[name].check(array, "the new state")
        self.write(name, array)
        self._buffers = None
        if (flag := self.flags.get(name)) is not None:
            self.values[flag.name] = np.ones(flag.shape, flag.dtype)
        if (sizes := self.sizes.get(name)) is not None:  # a buffer of exactly that size
            dims = [n for n, d in zip(array.shape, self.specs[name].shape, strict=True) if d < 0]
            self.values[sizes.name] = np.array(dims + dims, sizes.dtype)

    def user_value(self, name: str) -> np.ndarray:
        """A copy of the value, for the user; an error while a computed initial value is
        still pending (it is computed from the inputs at the next inference)."""
        if (flag := self.flags.get(name)) is not None and not np.all(self.read(flag.name)):
            raise InferenceError(
                f"error: variable '{name}' has no value yet: its initial value is computed "
                "from the model's inputs at the next inference"
            )
        value = self.read(name)
        if (sizes := self.sizes.get(name)) is not None:  # the used corner of the buffer
            lengths = iter(self.read(sizes.name).tolist())
            value = value[tuple(
                slice(0, next(lengths)) if d < 0 else slice(None) for d in self.specs[name].shape
            )]
        return np.array(value, copy=True)
