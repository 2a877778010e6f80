"""Requests and threads: a request in use refuses a second thread (as OpenVINO's "Infer
Request is busy"); separate requests run in parallel."""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import tosa_state as ts
from tosa_state import make_context
from tosa_state.frontends.mlir import parse_mlir

ACCUMULATOR = """
tosa.variable @acc = dense<0.0> : tensor<4xf32>
func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
  %old = tosa.variable.read @acc : tensor<4xf32>
  %new = tosa.add %old, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tosa.variable.write @acc, %new : tensor<4xf32>
  return %new : tensor<4xf32>
}
"""

ONES = np.ones(4, np.float32)
TIMEOUT = 30.0


@pytest.fixture(scope="module")
def compiled() -> ts.CompiledModel:
    return ts.compile_model(parse_mlir(make_context(), ACCUMULATOR, "acc.mlir"))


def _hook(request: ts.InferRequest, before: Callable[[], None]) -> None:
    """Make `request`'s calls run `before()` inside `infer`, before the model runs."""
    plan = request.device_request.plan

    def hooked(interpreter: Any, args: Any) -> Any:
        before()
        return plan(interpreter, args)

    request.device_request.plan = hooked


class _Thread(threading.Thread):
    """A thread that keeps its target's result or exception."""

    def __init__(self, target: Callable[[], Any]):
        super().__init__(daemon=True)
        self._call = target
        self.result: Any = None
        self.error: BaseException | None = None

    def run(self) -> None:
        try:
            self.result = self._call()
        except BaseException as error:  # reported by the test
            self.error = error

    def outcome(self) -> Any:
        self.join(TIMEOUT)
        assert not self.is_alive(), "the thread did not finish"
        if self.error is not None:
            raise self.error
        return self.result


def test_a_request_in_use_refuses_every_other_thread(compiled: ts.CompiledModel) -> None:
    request = compiled.create_infer_request()
    (state,) = request.query_state()
    inside, release = threading.Event(), threading.Event()

    def block() -> None:
        inside.set()
        assert release.wait(TIMEOUT)

    _hook(request, block)
    running = _Thread(lambda: request.infer([ONES]))
    running.start()
    assert inside.wait(TIMEOUT)
    attempts: dict[str, Callable[[], Any]] = {
        "infer": lambda: request.infer([ONES]),
        "query_state": request.query_state,
        "reset_state": request.reset_state,
        "state": lambda: state.state,
        "state =": lambda: setattr(state, "state", ONES * 7),
        "set_state": lambda: state.set_state(ONES * 7),
        "reset": state.reset,
    }
    for what, attempt in attempts.items():
        with pytest.raises(RuntimeError, match=r"^error: infer request is busy") as caught:
            attempt()
        assert isinstance(caught.value, ts.RequestBusyError), what
        assert isinstance(caught.value, ts.TosaStateError), what
    release.set()
    np.testing.assert_array_equal(running.outcome()[0], ONES)
    # The refused calls changed nothing, and the request is free again.
    np.testing.assert_array_equal(state.state, ONES)
    np.testing.assert_array_equal(request.infer([ONES])[0], ONES * 2)


def test_separate_requests_are_inside_infer_at_the_same_time(
    compiled: ts.CompiledModel,
) -> None:
    """Each call waits at a barrier inside `infer` until the other one is inside too:
    this passes only if one request's call never waits for another request's."""
    barrier = threading.Barrier(2, timeout=TIMEOUT)
    requests = [compiled.create_infer_request() for _ in range(2)]
    for request in requests:
        _hook(request, barrier.wait)
    threads = [_Thread(lambda r=r: r.infer([ONES])) for r in requests]
    for thread in threads:
        thread.start()
    for thread in threads:
        np.testing.assert_array_equal(thread.outcome()[0], ONES)


def test_two_requests_on_two_threads_each_count_every_call(compiled: ts.CompiledModel) -> None:
    calls = 400

    def run(request: ts.InferRequest, step: float) -> list[float]:
        return [float(request.infer([ONES * step])[0][0]) for _ in range(calls)]

    steps = (1.0, 3.0)
    threads = [_Thread(lambda s=s: run(compiled.create_infer_request(), s)) for s in steps]
    for thread in threads:
        thread.start()
    for thread, step in zip(threads, steps, strict=True):
        assert thread.outcome() == [step * (i + 1) for i in range(calls)]


@pytest.fixture
def frequent_switches() -> Iterator[None]:
    """Threads switch every microsecond (unguarded, most runs then lose updates)."""
    interval = sys.getswitchinterval()
    sys.setswitchinterval(1e-6)
    yield
    sys.setswitchinterval(interval)


@pytest.mark.usefixtures("frequent_switches")
def test_a_shared_request_loses_no_update(compiled: ts.CompiledModel) -> None:
    """Two threads hammering one request: every call either runs alone or is refused, so the
    count is exactly the number of calls that ran, and no two calls saw the same count."""
    request = compiled.create_infer_request()
    calls = 1000
    start = threading.Barrier(2, timeout=TIMEOUT)

    def run() -> tuple[list[float], int]:
        seen, refused = [], 0
        start.wait()
        for _ in range(calls):
            try:
                seen.append(float(request.infer([ONES])[0][0]))
            except ts.RequestBusyError:
                refused += 1
        return seen, refused

    threads = [_Thread(run), _Thread(run)]
    for thread in threads:
        thread.start()
    (seen_a, refused_a), (seen_b, refused_b) = (t.outcome() for t in threads)
    ran = len(seen_a) + len(seen_b)
    assert ran + refused_a + refused_b == 2 * calls
    np.testing.assert_array_equal(request.query_state()[0].state, ONES * ran)
    assert sorted(seen_a + seen_b) == [float(i + 1) for i in range(ran)]


def test_a_failed_call_frees_the_request(compiled: ts.CompiledModel) -> None:
    request = compiled.create_infer_request()
    with pytest.raises(ts.TosaStateError, match="input 'x' has shape"):
        request.infer([np.ones(5, np.float32)])
    np.testing.assert_array_equal(request.infer([ONES])[0], ONES)
    with pytest.raises(ts.TosaStateError, match="the new state"):
        request.query_state()[0].state = np.ones(5, np.float32)
    request.reset_state()
    np.testing.assert_array_equal(request.infer([ONES])[0], ONES)
