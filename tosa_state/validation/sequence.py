"""The call sequence `validate` plays on both runtimes, and what each runtime produced."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Protocol

import ml_dtypes
import numpy as np

from tosa_state.diagnostics import TosaStateError
from tosa_state.progress import Progress
from tosa_state.runtime import CompiledModel, InferRequest, Port
from tosa_state.tools.npz import Note, step_inputs, stepped_shape
from tosa_state.validation.report import Comparison


class Runtime(Protocol):
    """What both sides offer: OpenVINO's session and tosa-state's request (`TosaState`)."""

    def infer(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]: ...
    def reset_state(self) -> None: ...
    def set_state(self, name: str, value: np.ndarray) -> None: ...
    def states(self) -> dict[str, np.ndarray]: ...


@dataclass
class Trace:
    """Each step's outputs and, after it, each variable's state."""

    outputs: list[list[np.ndarray]] = field(default_factory=list)
    states: list[dict[str, np.ndarray]] = field(default_factory=list)


@dataclass
class CallSequence:
    """Inputs per step, the steps before which state is reset or set, and the values set."""

    inputs: list[list[np.ndarray]]
    resets: set[int]
    set_states: set[int]
    seed: int
    values: dict[int, dict[str, np.ndarray]] = field(default_factory=dict)
    current: int = 0
    """The step being played (where a runtime failed, if one did)."""

    @property
    def steps(self) -> int:
        return len(self.inputs)

    def play(self, runtime: Runtime, variables: Mapping[str, tuple[tuple[int, ...], np.dtype]],
             bar: Progress) -> Trace:
        """Run every step on `runtime`. The values `set_state` gives are drawn on the first
        play (shapes of dynamic variables from that runtime's state) and replayed after."""
        trace = Trace()
        rng = np.random.default_rng(self.seed + 1)
        for step, arrays in enumerate(self.inputs):
            self.current = step
            if step in self.resets:
                runtime.reset_state()
            if step in self.set_states:
                if step not in self.values:
                    self.values[step] = _random_states(rng, variables, runtime.states())
                for name, value in self.values[step].items():
                    runtime.set_state(name, value.copy())
            trace.outputs.append([np.array(r, copy=True) for r in runtime.infer(arrays)])
            trace.states.append(runtime.states())
            bar.advance()
        return trace


class TosaState:
    """A tosa-state request seen as a `Runtime`."""

    def __init__(self, request: InferRequest):
        self.request = request

    def infer(self, inputs: Sequence[np.ndarray]) -> Sequence[np.ndarray]:
        return list(self.request.infer(list(inputs)))

    def reset_state(self) -> None:
        self.request.reset_state()

    def set_state(self, name: str, value: np.ndarray) -> None:
        for state in self.request.query_state():
            if state.name == name:
                state.state = value
                return
        raise TosaStateError(f"error: set_state: tosa-state has no variable '{name}'")

    def states(self) -> dict[str, np.ndarray]:
        values: dict[str, np.ndarray] = {}
        for state in self.request.query_state():
            try:
                values[state.name] = state.state
            except TosaStateError:
                continue  # never written and no initial value
        return values


def make_sequence(compiled: CompiledModel, inputs: Mapping[str, np.ndarray] | None,
                  steps: int | None, seed: int, reset_at: Sequence[int] | None,
                  set_state_at: Sequence[int] | None, note: Note | None = None) -> CallSequence:
    """The calls to make: given or seeded random inputs, resets and set_states."""
    if inputs is not None:
        arrays = step_inputs(compiled.inputs, inputs, note)
        available = min((len(a) for a in arrays), default=steps or 1)
        if steps is None:
            steps = available
        elif steps > available:
            raise TosaStateError(f"error: {steps} steps asked for, but the inputs hold "
                                 f"{available}")
    else:
        steps = 12 if steps is None else steps
        rng = np.random.default_rng(seed)
        arrays = [random_array(rng, port, steps) for port in compiled.inputs]
    if steps < 1:
        raise TosaStateError(f"error: validate needs at least one step, got {steps}")
    resets = {2 * steps // 3} if reset_at is None and steps >= 3 else set(reset_at or ())
    sets = {steps // 3} if set_state_at is None and steps >= 3 else set(set_state_at or ())
    for option, chosen in (("--reset-at", resets), ("--set-state-at", sets)):
        if late := sorted(k for k in chosen if not 0 <= k < steps):
            raise TosaStateError(f"error: {option} {','.join(map(str, late))}: the sequence "
                                 f"has {steps} step(s), numbered from 0")
    per_step = [[a[step] for a in arrays] for step in range(steps)]
    return CallSequence(per_step, resets, sets, seed)


def random_array(rng: np.random.Generator, port: Port, steps: int) -> np.ndarray:
    """`steps` random values for `port`: normal floats, small integers, booleans."""
    if any(d < 0 for d in port.shape):
        raise TosaStateError(
            f"error: input '{port.name}' has dynamic dimensions ({stepped_shape(port)}): give "
            "its shape (--input-shape) or the inputs (--inputs) to validate with"
        )
    return _random(rng, (steps, *port.shape), port.dtype)


def _random(rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype) -> np.ndarray:
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if dtype.kind in "iu":
        low = 0 if dtype.kind == "u" else -8
        return rng.integers(low, 8, shape).astype(dtype)
    if dtype == ml_dtypes.bfloat16 or dtype.kind == "f":
        return rng.standard_normal(shape).astype(dtype)
    raise TosaStateError(f"error: cannot make random values of {dtype}; give --inputs")


def _random_states(rng: np.random.Generator,
                   variables: Mapping[str, tuple[tuple[int, ...], np.dtype]],
                   current: Mapping[str, np.ndarray]) -> dict[str, np.ndarray]:
    values: dict[str, np.ndarray] = {}
    for name, (shape, dtype) in variables.items():
        if any(d < 0 for d in shape):
            if name not in current:
                continue  # a dynamic variable with no value yet: its shape is unknown
            shape = current[name].shape
        values[name] = _random(rng, shape, dtype)
    return values


def compare(level_ports: Sequence[Port], variables: Sequence[str], ours: Trace, theirs: Trace,
            atol: float, rtol: float) -> list[Comparison]:
    """Per output and per variable, over all steps."""
    rows: list[Comparison] = []
    for port in level_ports:
        row = Comparison("output", port.name, str(port.dtype), list(port.shape))
        for step, (mine, other) in enumerate(zip(ours.outputs, theirs.outputs, strict=True)):
            row.add(step, mine[port.index], other[port.index], atol, rtol)
        rows.append(row)
    for name in variables:
        row = Comparison("variable", name, "", [])
        for step, (mine, other) in enumerate(zip(ours.states, theirs.states, strict=True)):
            if name in mine and name in other:
                row.describe(mine[name])
                row.add(step, mine[name], other[name], atol, rtol)
            elif name in mine:  # OpenVINO's value is pending (an init subgraph) or absent
                continue
            elif name in other:
                row.fail(step, "no value in tosa-state")
        rows.append(row)
    return rows
