"""Decode an op's attributes once, not on every call.

Interpreter impls receive the op on each call; reading and converting its properties
there would cost microseconds per op per call. `per_op` memoises such a decoder per op
object. The value is kept in the op's own `__dict__` under a key private to the decoder:
one dictionary lookup per call (a `WeakKeyDictionary` costs a weak reference and xDSL's
Python-level `__hash__` per lookup, ten times more), and it dies with the op. Clones do
not inherit it (they are built afresh), so a changed clone is decoded anew.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from xdsl.ir import Operation

OpT = TypeVar("OpT", bound=Operation)
T = TypeVar("T")


def per_op(decode: Callable[[OpT], T]) -> Callable[[OpT], T]:
    """`decode(op)` computed once per op; later calls return the cached value."""
    key = f"_per_op_{decode.__module__}.{decode.__qualname__}"

    @wraps(decode)
    def cached(op: OpT) -> T:
        slots = op.__dict__
        try:
            return slots[key]
        except KeyError:
            value = slots[key] = decode(op)
            return value

    return cached
