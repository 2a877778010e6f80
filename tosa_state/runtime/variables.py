"""What a model's variables are (`VariableSpec`), read from its declarations, and what a
device's per-request state offers the API (`StateStore`): device-neutral.

Each level declares state with its own op (`tosa.variable`, `memref.global`,
`ml_program.global`); the module that knows an op registers how it describes its variable
(`declares_state`), and `collect_specs` reads a module's declarations in order."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import numpy as np
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.ir import Operation

from tosa_state.diagnostics import InferenceError, TosaStateError, brief, error_at
from tosa_state.dialects.tosa.variables import INIT_FLAG_ATTR, SIZES_ATTR
from tosa_state.dtypes import UnsupportedElementType


@dataclass(frozen=True)
class VariableSpec:
    """What a variable is: compile-time facts, shared by all requests."""

    name: str
    shape: tuple[int, ...]
    """The declared shape; `-1` is a dynamic dimension (any size, changing between calls)."""
    dtype: np.dtype
    initial: np.ndarray | None
    """Read-only; `None` when the variable has no initial value."""
    flag_of: str | None = None
    """For a hidden init flag (`INIT_FLAG_ATTR`): the variable whose flag it is."""
    sizes_of: str | None = None
    """For the hidden sizes global of a dynamic variable at the memref level
    (`SIZES_ATTR`): the variable whose lengths and capacities it holds."""

    @property
    def hidden(self) -> bool:
        """Bookkeeping rather than state: `query_state()` leaves it out."""
        return self.flag_of is not None or self.sizes_of is not None

    @property
    def is_dynamic(self) -> bool:
        return any(d < 0 for d in self.shape)

    def admits(self, shape: tuple[int, ...]) -> bool:
        """Whether a value of `shape` fits the declaration (`?` takes any size)."""
        return len(shape) == len(self.shape) and all(
            want < 0 or want == have for want, have in zip(self.shape, shape, strict=True)
        )

    def check(self, value: np.ndarray, what: str) -> None:
        """Raise `InferenceError` unless `value` has this variable's dtype and a shape it
        admits."""
        if value.dtype != self.dtype or not self.admits(value.shape):
            expected = [d if d >= 0 else "?" for d in self.shape]
            raise InferenceError(
                f"error: {what} for variable '{self.name}' has shape "
                f"{brief(list(value.shape))} and dtype {value.dtype}; expected shape {expected} "
                f"and dtype {self.dtype}"
            )


class StateStore(Protocol):
    """The state of one request, as `InferRequest` and `VariableState` use it: each device
    keeps it its own way (numpy arrays, a compiled module's globals, files)."""

    def user_value(self, name: str) -> np.ndarray:
        """A copy of the variable's current value (never an alias of the state)."""
        ...

    def set_checked(self, name: str, value: object) -> None:
        """Replace the value, checking its shape and dtype against the variable's spec."""
        ...

    def reset(self, name: str | None = None) -> None:
        """Back to the initial value: every variable, or just `name`."""
        ...


SpecBuilder = Callable[[Operation], VariableSpec | None]
"""A declaration's spec, or `None` when the op declares no state (a constant global)."""
_SPEC_BUILDERS: dict[type[Operation], SpecBuilder] = {}


def declares_state(op_type: type[Operation]) -> Callable[[SpecBuilder], SpecBuilder]:
    """Registers how a module-level declaration op (`tosa.variable`, `memref.global`,
    `ml_program.global`) describes its variable."""

    def register(builder: SpecBuilder) -> SpecBuilder:
        _SPEC_BUILDERS[op_type] = builder
        return builder

    return register


def collect_specs(module: ModuleOp) -> list[VariableSpec]:
    """The variables a module declares, in declaration order (init flags included)."""
    import tosa_state.runtime.declarations  # noqa: F401  (registers the declaration ops)

    specs: list[VariableSpec] = []
    for op in module.body.block.ops:
        if (builder := _SPEC_BUILDERS.get(type(op))) is None:
            continue
        try:
            spec = builder(op)
        except UnsupportedElementType as error:
            raise TosaStateError(error_at(op, f"'{op.name}' op {error}")) from None
        if spec is None:
            continue
        if isinstance(flag_of := op.attributes.get(INIT_FLAG_ATTR), StringAttr):
            spec = replace(spec, flag_of=flag_of.data)
        if isinstance(sizes_of := op.attributes.get(SIZES_ATTR), StringAttr):
            spec = replace(spec, sizes_of=sizes_of.data)
        specs.append(spec)
    return specs
