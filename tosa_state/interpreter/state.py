"""The persistent state of one inference request.

Each request owns a `VariableStore`: one slot per variable (TOSA variable, memref global
or ml_program global, all keyed by the variable's name) with its declared shape, dtype
and initial value, decoded once at compile time. A slot is initialised from its initial
value when the request is created and after every reset; a slot without an initial value
holds nothing until it is written, and reading it is an `InferenceError` naming it.
"""

from __future__ import annotations

from collections.abc import Iterable

import numpy as np

from tosa_state.diagnostics import InferenceError
from tosa_state.runtime.variables import VariableSpec


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
        self.reset()

    def reset(self, name: str | None = None) -> None:
        """Back to the initial value (every variable, or just `name` and its companions:
        init flag, sizes)."""
        specs = self.specs.values() if name is None else (self.specs[name],)
        if name in self.flags:
            specs = (*specs, self.flags[name])
        if name in self.sizes:
            specs = (*specs, self.sizes[name])
        for spec in specs:
            self.values[spec.name] = None if spec.initial is None else spec.initial.copy()

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
        new value and its copy, not the old one as well (once its reads are dead)."""
        self.values[name] = None
        self.values[name] = np.array(value, copy=True)

    def adopt(self, name: str, value: np.ndarray) -> None:
        """`write` without the copy: `value` itself becomes the state. Only for a value that
        nothing else may change or hand out (`tosa_variables.owned_by_write`): a growing
        state then peaks at its old value and the new one, as value semantics require."""
        self.values[name] = value

    def write_in_place(self, name: str, value: np.ndarray) -> None:
        """Copy `value` into the variable's current buffer, as a store through a pointer
        to it does (`memref.copy` into a `memref.get_global`): every alias of the buffer
        sees the new value. A never-written variable gets a fresh private buffer."""
        current = self.values[name]
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
