"""Decode an op's attributes once, not on every call.

Interpreter impls receive the op on each call; reading and converting its properties
there would cost microseconds per op per call. `per_op` memoises such a decoder per op
object (weakly, so that dropped modules free their entries).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from functools import wraps
from typing import TypeVar

from xdsl.ir import Operation

OpT = TypeVar("OpT", bound=Operation)
T = TypeVar("T")


def per_op(decode: Callable[[OpT], T]) -> Callable[[OpT], T]:
    """`decode(op)` computed once per op; later calls return the cached value."""
    cache: weakref.WeakKeyDictionary[Operation, T] = weakref.WeakKeyDictionary()

    @wraps(decode)
    def cached(op: OpT) -> T:
        try:
            return cache[op]
        except KeyError:
            value = cache[op] = decode(op)
            return value

    return cached
