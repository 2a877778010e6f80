"""Requests refuse to be shared: one thread at a time, else `RequestBusyError`.

An infer request (of any device) owns mutable state: its variables and the buffers of a
call in flight. OpenVINO's requests raise "Infer Request is busy" when used while they
run; ours do the same. A request class derives from `Exclusive` and marks every method
that touches its state `@exclusive`; objects that act on a request's state (its
`VariableState`s) derive from `Exclusive` too, sharing the request's lock. The guard is one
non-blocking `Lock.acquire`, so it never waits and costs a fraction of a microsecond per
call; separate requests have separate locks and run in parallel.
"""

from __future__ import annotations

import functools
import threading
from collections.abc import Callable
from typing import Concatenate, ParamSpec, TypeVar

from tosa_state.diagnostics import InferenceError

BUSY_MESSAGE = (
    "error: infer request is busy: another thread is using it (infer, query_state, "
    "reset_state or one of its variable states); give each thread its own request "
    "(create_infer_request())"
)


class RequestBusyError(InferenceError, RuntimeError):
    """A request was used while another thread was using it (OpenVINO's "Infer Request is
    busy"). Also a `RuntimeError`, as OpenVINO raises."""


class Exclusive:
    """An object whose `@exclusive` methods run for one thread at a time: an infer request
    (of any device), or an object acting on a request's state, which passes the request as
    `owner` to share its lock."""

    _busy: threading.Lock

    def __init__(self, owner: Exclusive | None = None) -> None:
        self._busy = threading.Lock() if owner is None else owner._busy


P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S", bound=Exclusive)


def exclusive(method: Callable[Concatenate[S, P], R]) -> Callable[Concatenate[S, P], R]:
    """Run `method` holding the object's request lock; raise `RequestBusyError` at once if
    another thread holds it (never waits). Not reentrant: an `@exclusive` method must not
    call another one of the same request."""

    @functools.wraps(method)
    def guarded(self: S, *args: P.args, **kwargs: P.kwargs) -> R:
        busy = self._busy
        if not busy.acquire(False):
            raise RequestBusyError(BUSY_MESSAGE)
        try:
            return method(self, *args, **kwargs)
        finally:
            busy.release()

    return guarded
