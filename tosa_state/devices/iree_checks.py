"""Device `iree`'s failed calls, told as the interpreter tells them.

The compiled module checks what the interpreter checks when it runs (`tosa-runtime-checks`:
gather indices, run-time broadcasts, concat dims) and writes its globals only at the end of
a call (`mlprogram-stores-last`), so a call that fails leaves the state as it was. IREE
reports a failed check as `FAILED_PRECONDITION; <message>`; the request then replays the
call on the interpreter (the module at the `ml_program` level, planned on the first
failure; after a cache hit, the model converted again first: `iree_record`) from the same
state, whose error names the layer and, where they come from one, the input and its bad
values, word for word. A failure the interpreter does not reproduce
is reported with the module's own message (the op's location and layer).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.runtime.variables import VariableSpec

_ASSERTION = re.compile(r"FAILED_PRECONDITION; (.*?); ", re.DOTALL)


class FailureExplainer:
    """Turns an IREE error of a call into the interpreter's error for the same call."""

    def __init__(self, module: ModuleOp | Callable[[], ModuleOp], entry: str):
        """`module` at the `ml_program` level, or how to make it (a cache hit converts the
        model again on its first failed call: `iree_record`)."""
        # a copy, before the IREE legalization changes it
        self._module = module.clone() if isinstance(module, ModuleOp) else module
        self._entry = entry
        self._replay: Any = None

    def __call__(self, error: Exception, states: Sequence[tuple[VariableSpec, Any]],
                 args: list[np.ndarray], entry: str | None = None) -> TosaStateError:
        """The error to raise for `error`, given the state before the call (each variable's
        spec and value, `None` while its computed initial value is pending) and the call's
        checked inputs."""
        found = _ASSERTION.search(str(error))
        if found is None:
            return InferenceError(f"error: IREE failed to run '{entry or self._entry}': "
                                  f"{error}")
        return self.replayed(states, args, found.group(1), entry)

    def replayed(self, states: Sequence[tuple[VariableSpec, Any]], args: list[np.ndarray],
                 otherwise: str, entry: str | None = None) -> TosaStateError:
        """The interpreter's error for the call (`otherwise` when it runs it fine, or
        when the module cannot be made again)."""
        try:
            self._planned()
        except (TosaStateError, OSError):  # the model's files changed since the cache hit
            return InferenceError(otherwise)
        try:
            self._rerun(states, args, entry or self._entry)
        except TosaStateError as interpreter_error:
            return interpreter_error
        return InferenceError(otherwise)

    def _planned(self) -> None:
        """The module planned by the interpreter, once."""
        from tosa_state.devices.interpreter import InterpreterExecutable

        if self._replay is None:
            module = self._module if isinstance(self._module, ModuleOp) else self._module()
            self._replay = InterpreterExecutable(module, self._entry)
            self._module = module

    def _rerun(self, states: Sequence[tuple[VariableSpec, Any]], args: list[np.ndarray],
               entry: str) -> None:
        request = self._replay.create_request()
        for spec, value in states:
            if value is not None:
                request.store.set_checked(spec.name, value)
        if entry == self._entry:  # its checks of a decoder's inputs too
            request.run(args)
        else:
            request.run_entry(entry, args)


__all__ = ["FailureExplainer"]
