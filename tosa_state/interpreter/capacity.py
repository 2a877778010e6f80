"""Run time of `tosa_state.check_capacity`: a call that would outgrow a variable of fixed
capacity (`tosa-static-state`) fails here, before any state write runs (a plan moves no
write above an op with effects: `interpreter/write_order.py`)."""

from __future__ import annotations

from typing import Any

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.diagnostics import InferenceError
from tosa_state.dialects.tosa_state import CheckCapacityOp


class CapacityExceeded(InferenceError):
    """A call asked a variable of fixed capacity for more rows than it holds."""


def check_capacity(variable: str, capacity: int, count: Any, rows: tuple[int, ...]) -> None:
    """Raises `CapacityExceeded` when `count` held rows plus `rows` new ones exceed
    `capacity`, or the count is out of `[0, capacity]`."""
    held = int(count.reshape(-1)[0])
    wanted = held + int(rows[0])
    if not 0 <= held <= capacity:  # a count set by hand
        raise CapacityExceeded(
            f"error: variable '{variable}' holds {held} rows by its count, outside [0, "
            f"{capacity}]; nothing was changed (reset_state() empties it)")
    if wanted > capacity:
        raise CapacityExceeded(
            f"error: variable '{variable}' has a static capacity of {capacity} rows: this call "
            f"asks for {wanted} ({held} held + {int(rows[0])} new); nothing was changed "
            f"(reset_state() empties it)")


@register_impls
class CapacityFunctions(InterpreterFunctions):
    """The impl of `tosa_state.check_capacity`."""

    @impl(CheckCapacityOp)
    def run_check_capacity(self, interpreter: Interpreter, op: CheckCapacityOp,
                           args: PythonValues) -> PythonValues:
        check_capacity(op.variable.data, op.capacity.value.data, *args)
        return ()
