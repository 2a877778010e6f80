"""Symbol lookups in constant time while the IR cannot change (during verification).

A verifier that looks a symbol up by scanning its symbol table costs O(n) per op, O(n^2)
per module. `verify_module` runs inside `frozen_ir()`; there, `memoized` keeps what a
lookup builds (an index of a symbol table) for the rest of the walk. Outside that scope
it returns None and callers scan, as before: the IR may have changed since.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import TypeVar

from xdsl.ir import Operation

T = TypeVar("T")

_CACHE: ContextVar[dict[tuple[str, int], object] | None] = ContextVar(
    "tosa_state_symbol_cache", default=None
)


@contextmanager
def frozen_ir() -> Iterator[None]:
    """A scope in which the IR is not modified, so symbol indexes may be kept."""
    token = _CACHE.set({})
    try:
        yield
    finally:
        _CACHE.reset(token)


def memoized(kind: str, owner: Operation, build: Callable[[], T]) -> T | None:
    """`build()` for (`kind`, `owner`), built once per `frozen_ir` scope; None outside one."""
    cache = _CACHE.get()
    if cache is None:
        return None
    key = (kind, id(owner))  # the owner outlives the scope: the IR does not change in it
    if key not in cache:
        cache[key] = build()
    return cache[key]  # type: ignore[return-value]
