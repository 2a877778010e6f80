"""A variable of fixed capacity (`tosa-static-state`) asked for more rows than it holds:
the check and its message, shared by the devices (the interpreter's
`tosa_state.check_capacity`, device `reference`'s host checks, device `iree`'s replay of a
failed call on the interpreter)."""

from __future__ import annotations

from typing import Any

from tosa_state.diagnostics import InferenceError


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


__all__ = ["CapacityExceeded", "check_capacity"]
