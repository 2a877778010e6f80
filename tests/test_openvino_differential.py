"""Differential tests: stateful OpenVINO models run by tosa-state and by the OpenVINO runtime.

Each model is built with OpenVINO's Python API, saved as IR (`compress_to_fp16=False`) into a
pytest tmp dir, then run step by step by both `OpenVINOSession` (the CPU plugin, f32 inference
precision, quirks papered over) and `tosa_state.compile_model` (import, convert-openvino-to-tosa,
the default pipeline, the interpreter). A scenario runs many steps with `reset_state()`, a
per-variable `reset()` and `set_state()` between steps; outputs and states must agree.

Tolerances (`_tolerance`): f32 rtol = atol = `DIFFERENTIAL_TOLERANCE` (2e-6), or the
scenario's `f32_tolerance` where a test measured more. f16 and bf16 (and f32 values computed from
f16 / bf16 state) 2 eps relative and 2 eps times the tensor's largest magnitude absolute
(eps = 2**-10 for f16, 2**-7 for bf16): OpenVINO computes f16 / bf16 nodes in f32 and rounds
only where it stores a value (the state), tosa-state rounds after every TOSA op, so values may
differ by a rounding or two of intermediates as large as the largest value. Integers and
booleans must be equal.

Models avoid OpenVINO's quirks (see `peers/openvino_runtime.py`): no Assign fed directly by a
Parameter, no integer overflow, no u8 / i8 / i64 arithmetic, no negative integer division (the
CPU plugin truncates where Divide-1's `m_pythondiv` asks for floor division).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import ml_dtypes
import numpy as np
import openvino as ov
import openvino._offline_transformations as offline
import openvino.opset1 as opset1
import openvino.opset2 as opset2
import openvino.opset3 as opset3
import openvino.opset8 as opset8
import openvino.opset12 as opset12
import openvino.opset13 as ops
import openvino.passes as passes
import pytest
from peers.openvino_runtime import MAX_ERRORS, trusted_session

import tosa_state

pytestmark = pytest.mark.peers

BF16 = np.dtype(ml_dtypes.bfloat16)


# ---------------------------------------------------------------------------------------------
# The harness
# ---------------------------------------------------------------------------------------------


NARROW_EPS = {np.dtype(np.float16): 2.0**-10, BF16: 2.0**-7}
"""Machine epsilon of the narrow float types."""


DIFFERENTIAL_TOLERANCE = 2e-6
"""rtol = atol of f32 values unless a scenario says otherwise: 5.4x the largest
|ours - OpenVINO| / (1 + |OpenVINO|) the tests using it measured (streaming_convolution
3.7e-7; the RNN, LSTM and GRU cells, sequences, TensorIterators, torch exports, attention,
CumSum, dynamic shapes and device iree at most 3.0e-7)."""


def _tolerance(dtype: np.dtype, narrow_eps: float | None = None,
               f32_tolerance: float = DIFFERENTIAL_TOLERANCE) -> tuple[float, float] | None:
    """(rtol, atol) for a float dtype; None for exact comparison. `narrow_eps` (or a narrow
    dtype) gives 2 eps relative, and 2 eps times the largest magnitude absolute (a rounding or
    two of intermediates as large as the largest value)."""
    if not np.issubdtype(dtype, np.floating) and dtype != BF16:
        return None
    eps = narrow_eps or NARROW_EPS.get(dtype)
    return (2 * eps, 2 * eps) if eps is not None else (f32_tolerance, f32_tolerance)


def _compare(what: str, ours: np.ndarray, theirs: np.ndarray, narrow_eps: float | None = None,
             f32_tolerance: float = DIFFERENTIAL_TOLERANCE) -> float:
    assert ours.dtype == theirs.dtype, f"{what}: dtype {ours.dtype} vs OpenVINO {theirs.dtype}"
    assert ours.shape == theirs.shape, f"{what}: shape {ours.shape} vs OpenVINO {theirs.shape}"
    tolerance = _tolerance(ours.dtype, narrow_eps, f32_tolerance)
    if tolerance is None:
        np.testing.assert_array_equal(ours, theirs, err_msg=what)
        return 0.0
    a, b = ours.astype(np.float64), theirs.astype(np.float64)
    rtol, atol = tolerance
    if narrow_eps is not None or ours.dtype in NARROW_EPS:
        atol *= max(1.0, float(np.max(np.abs(b), initial=0.0)))
    np.testing.assert_allclose(a, b, rtol=rtol, atol=atol, err_msg=what)
    finite = np.isfinite(a) & np.isfinite(b)
    return float(np.max(np.abs(a - b)[finite], initial=0.0))


class TosaStateSession:
    """tosa-state behind `OpenVINOSession`'s interface."""

    def __init__(self, xml: Path, pipeline: str | None = None,
                 input_shapes: dict[str, list[int]] | None = None,
                 device: str = "interpreter") -> None:
        self.compiled = tosa_state.compile_model(xml, pipeline=pipeline,
                                                 input_shapes=input_shapes, device=device)
        self.request = self.compiled.create_infer_request()

    def infer(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        return list(self.request.infer(list(inputs)))

    def _state(self, name: str):  # -> tosa_state VariableState
        return next(s for s in self.request.query_state() if s.name == name)

    def reset_state(self) -> None:
        self.request.reset_state()

    def reset_variable(self, name: str) -> None:
        self._state(name).reset()

    def set_state(self, name: str, value: np.ndarray) -> None:
        self._state(name).state = value

    def states(self) -> dict[str, np.ndarray]:
        """Every variable that has a value (like `OpenVINOSession.states()`, which leaves out
        a variable whose initial value is computed at the next inference)."""
        states: dict[str, np.ndarray] = {}
        for variable in self.request.query_state():
            try:
                states[variable.name] = variable.state
            except tosa_state.TosaStateError as error:
                assert "has no value yet" in str(error)
        return states


Inputs = Callable[[np.random.Generator, int], list[np.ndarray]]


@dataclass
class Scenario:
    """Steps to run; before step k: reset all (`reset_all`), reset one variable (`reset_one`,
    the first by name, or `reset_name`), set every variable to random values (`set_all`)."""

    steps: int = 12
    reset_all: frozenset[int] = frozenset({4})
    reset_one: frozenset[int] = frozenset({7})
    set_all: frozenset[int] = frozenset({9})
    reset_name: str | None = None
    inputs: Inputs | None = None
    seed: int = 0
    skip_states: frozenset[str] = field(default_factory=frozenset)
    """Variables not compared (and not set)."""
    keep_states: frozenset[str] = field(default_factory=frozenset)
    """Variables compared but not set (OpenVINOSession cannot set bf16 state)."""
    f32_tolerance: float = DIFFERENTIAL_TOLERANCE
    """rtol = atol of f32 values (a small multiple of the error the test measured)."""
    narrow_eps: float | None = None
    """Compare every float value with the tolerance of a narrow float type of this epsilon
    (for f32 outputs computed from f16 / bf16 state)."""
    input_shapes: dict[str, list[int]] | None = None
    """Static shapes for a model with dynamic inputs (`compile_model(input_shapes=...)`;
    OpenVINO runs the dynamic model as it is)."""


def _random(rng: np.random.Generator, dtype: np.dtype, shape: Sequence[int]) -> np.ndarray:
    if dtype == np.bool_:
        return rng.random(shape) < 0.5
    if np.issubdtype(dtype, np.integer):
        return rng.integers(1, 6, shape).astype(dtype)
    return rng.standard_normal(shape).astype(np.float32).astype(dtype)


def run_differential(
    xml: Path, scenario: Scenario, key: str, pipeline: str | None = None
) -> float:
    """Run `scenario` on both runtimes (ours with the default lowering, or `pipeline`);
    returns the largest absolute difference."""
    theirs = trusted_session(xml)
    ours = TosaStateSession(xml, pipeline, scenario.input_shapes)
    model = ov.Core().read_model(str(xml))
    assert [p.name for p in ours.compiled.inputs] == [i.get_any_name() for i in model.inputs]
    assert [p.name for p in ours.compiled.outputs] == [o.get_any_name() for o in model.outputs]
    names = sorted(theirs.variables)
    assert sorted(s.name for s in ours.request.query_state()) == names, "query_state() must list the OpenVINO variable_ids"
    rng = np.random.default_rng(scenario.seed)
    worst = 0.0
    for step in range(scenario.steps):
        if step in scenario.reset_all:
            theirs.reset_state()
            ours.reset_state()
        if step in scenario.reset_one and names:
            name = scenario.reset_name or names[0]
            theirs.reset_variable(name)
            ours.reset_variable(name)
        if step in scenario.set_all:
            for name, value in ours.states().items():
                if name in scenario.skip_states | scenario.keep_states:
                    continue
                new = _random(rng, value.dtype, value.shape)
                theirs.set_state(name, new)
                ours.set_state(name, new)
        if scenario.inputs is not None:
            inputs = scenario.inputs(rng, step)
        else:
            inputs = [_random(rng, p.dtype, p.shape) for p in ours.compiled.inputs]
        got, want = ours.infer(inputs), theirs.infer(inputs)
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            what = f"step {step} output {i}"
            worst = max(worst, _compare(what, a, b, scenario.narrow_eps,
                                        scenario.f32_tolerance))
        our_states = ours.states()
        for name, value in theirs.states().items():
            if name not in scenario.skip_states:
                what = f"step {step} state {name}"
                worst = max(worst, _compare(what, our_states[name], value,
                                            scenario.narrow_eps, scenario.f32_tolerance))
    MAX_ERRORS[key] = max(MAX_ERRORS.get(key, 0.0), worst)
    return worst


def _save(model: object, directory: Path, name: str = "model") -> Path:
    xml = directory / f"{name}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _const(rng: np.random.Generator, *shape: int, scale: float = 0.5) -> np.ndarray:
    return (rng.standard_normal(shape) * scale).astype(np.float32)


# ---------------------------------------------------------------------------------------------
# Models
# ---------------------------------------------------------------------------------------------


def accumulator_model() -> object:
    """acc <- acc + x (ReadValue-6, constant init); returns acc + x."""
    x = ops.parameter([2, 3], np.float32, name="x")
    init = np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3)
    read = ops.read_value(ops.constant(init), "acc", np.float32, [2, 3])
    total = ops.add(read, x)
    return ov.Model([ops.result(total, name="sum")], [ops.assign(total, "acc")], [x], "acc")


def no_init_model() -> object:
    """A ReadValue-6 without init (zeros of [2, 3]); returns the value before the update."""
    x = ops.parameter([2, 3], np.float32, name="x")
    read = ops.read_value("counter", np.float32, [2, 3])
    total = ops.add(ops.multiply(read, ops.constant(np.float32(0.5))), x)
    results = [ops.result(read, name="before"), ops.result(total, name="after")]
    return ov.Model(results, [ops.assign(total, "counter")], [x], "no_init")


def opset3_model() -> object:
    """ReadValue-3 / Assign-3 (type from the init): an f32 and an i32 variable."""
    x = ops.parameter([1, 3], np.float32, name="x")
    f = opset3.read_value(ops.constant(np.array([[1.0, -2.0, 3.0]], np.float32)), "v3")
    n = opset3.read_value(ops.constant(np.array([[1, 2, 3]], np.int32)), "n3")
    f1 = ops.subtract(ops.multiply(f, ops.constant(np.float32(0.75))), x)
    n1 = ops.add(n, ops.constant(np.array([[1, 1, 2]], np.int32)))
    writes = [opset3.assign(f1, "v3"), opset3.assign(n1, "n3")]
    results = [ops.result(f1, name="f"), ops.result(n1, name="n")]
    return ov.Model(results, writes, [x], "opset3")


def several_variables_model() -> object:
    """f32 [2, 3], i32 0-D, f16 [3] (no init), bf16 [1, 2], boolean [3], i64 [?] (no init:
    OpenVINO's empty [0] tensor)."""
    x = ops.parameter([2, 3], np.float32, name="x")
    bf16_init = ov.Tensor(ov.Type.bf16, ov.Shape([1, 2]))
    bf16_init.data.view(np.uint16)[...] = np.array([[1.5, -3.25]], BF16).view(np.uint16)
    reads = {
        "f32": ops.read_value(ops.constant(np.ones((2, 3), np.float32)), "s_f32", np.float32,
                              [2, 3]),
        "i32": ops.read_value(ops.constant(np.array(7, np.int32)), "s_i32", np.int32, []),
        "f16": ops.read_value("s_f16", np.float16, [3]),
        "bf16": ops.read_value(ov.op.Constant(bf16_init), "s_bf16", ov.Type.bf16, [1, 2]),
        "bool": ops.read_value(ops.constant(np.array([True, False, True])), "s_bool",
                               ov.Type.boolean, [3]),
        "i64": ops.read_value("s_i64", np.int64, ov.PartialShape([-1])),
    }
    column_sums = ops.reduce_sum(x, ops.constant(np.array([0], np.int64)), False)
    row_max = ops.reshape(ops.reduce_max(x, ops.constant(np.array([1], np.int64)), False),
                          ops.constant(np.array([1, 2], np.int64)), False)
    half_f16 = ops.constant(np.float16(0.5))
    writes = [
        ops.assign(ops.add(reads["f32"], ops.multiply(x, x)), "s_f32"),
        ops.assign(ops.add(reads["i32"], ops.constant(np.array(3, np.int32))), "s_i32"),
        ops.assign(ops.add(ops.multiply(reads["f16"], half_f16),
                           ops.convert(column_sums, np.float16)), "s_f16"),
        ops.assign(ops.subtract(reads["bf16"], ops.convert(row_max, ov.Type.bf16)), "s_bf16"),
        ops.assign(ops.logical_not(reads["bool"]), "s_bool"),
        ops.assign(reads["i64"], "s_i64"),
    ]
    results = [ops.result(reads[k], name=f"r_{k}") for k in ("f32", "i32", "f16", "bf16", "bool")]
    return ov.Model(results, writes, [x], "several")


def swap_model() -> object:
    """a <- b + x and b <- a: each read sees the state from before the step's writes."""
    x = ops.parameter([2], np.float32, name="x")
    a = ops.read_value(ops.constant(np.array([1.0, 2.0], np.float32)), "a", np.float32, [2])
    b = ops.read_value(ops.constant(np.array([-3.0, 4.0], np.float32)), "b", np.float32, [2])
    writes = [ops.assign(ops.add(b, x), "a"), ops.assign(ops.multiply(a, a), "b")]
    return ov.Model([ops.result(a, name="a"), ops.result(b, name="b")], writes, [x], "swap")


def computed_init_model() -> object:
    """`state`'s init is computed from the input (x * 2, variable_shape [?, 4]); `zeros`' init
    is Broadcast(0, ShapeOf(x)), which folds to a constant."""
    x = ops.parameter([1, 4], np.float32, name="x")
    init = ops.multiply(x, ops.constant(np.float32(2.0)))
    state = ops.read_value(init, "state", np.float32, ov.PartialShape([-1, 4]))
    zeros = ops.broadcast(ops.constant(np.float32(0.0)), ops.shape_of(x))
    other = ops.read_value(zeros, "zeros", np.float32, [1, 4])
    total = ops.add(ops.add(state, x), other)
    writes = [ops.assign(total, "state"), ops.assign(ops.subtract(other, x), "zeros")]
    return ov.Model([ops.result(total, name="y")], writes, [x], "computed_init")


def _lstm_weights(rng: np.random.Generator, inputs: int, hidden: int) -> list[np.ndarray]:
    return [_const(rng, 4 * hidden, inputs), _const(rng, 4 * hidden, hidden),
            _const(rng, 4 * hidden)]


def lstm_cell_model(batch: int, primitive: bool, clip: float = 0.0) -> object:
    """h, c (ReadValue-6, zero init) updated by an LSTMCell-4, or by the same cell written with
    MatMul / Split / Sigmoid / Tanh (gate order f, i, c, o)."""
    rng = np.random.default_rng(batch)
    inputs, hidden = 5, 4
    w, r, b = _lstm_weights(rng, inputs, hidden)
    x = ops.parameter([batch, inputs], np.float32, name="x")
    zeros = ops.constant(np.zeros((batch, hidden), np.float32))
    h = ops.read_value(zeros, "h", np.float32, [batch, hidden])
    c = ops.read_value(zeros, "c", np.float32, [batch, hidden])
    if primitive:
        gates = ops.add(ops.add(ops.matmul(x, ops.constant(w), False, True),
                                ops.matmul(h, ops.constant(r), False, True)), ops.constant(b))
        f, i, g, o = ops.split(gates, ops.constant(np.int64(1)), 4).outputs()
        c1 = ops.add(ops.multiply(ops.sigmoid(f), c), ops.multiply(ops.sigmoid(i), ops.tanh(g)))
        h1 = ops.multiply(ops.sigmoid(o), ops.tanh(c1))
    else:
        cell = ops.lstm_cell(x, h, c, ops.constant(w), ops.constant(r), ops.constant(b), hidden,
                             clip=clip)
        # The Python API's Assign takes nodes, not outputs: c goes through a (+0).
        h1, c1 = cell, ops.add(cell.output(1), ops.constant(np.float32(0.0)))
    writes = [ops.assign(h1, "h"), ops.assign(c1, "c")]
    return ov.Model([ops.result(h1, name="h_out")], writes, [x], "lstm_cell")


def gru_cell_model(batch: int, linear_before_reset: bool, primitive: bool) -> object:
    """h (ReadValue-6, zero init) updated by a GRUCell-3 or by the same cell in primitive ops
    (gate order z, r, h)."""
    rng = np.random.default_rng(10 + batch)
    inputs, hidden = 3, 5
    w, r = _const(rng, 3 * hidden, inputs), _const(rng, 3 * hidden, hidden)
    b = _const(rng, (4 if linear_before_reset else 3) * hidden)
    x = ops.parameter([batch, inputs], np.float32, name="x")
    h = ops.read_value(ops.constant(np.zeros((batch, hidden), np.float32)), "h", np.float32,
                       [batch, hidden])
    if primitive:
        h1 = _primitive_gru(x, h, w, r, b, hidden, linear_before_reset)
    else:
        h1 = ops.gru_cell(x, h, ops.constant(w), ops.constant(r), ops.constant(b), hidden,
                          linear_before_reset=linear_before_reset)
    return ov.Model([ops.result(h1, name="h_out")], [ops.assign(h1, "h")], [x], "gru_cell")


def _primitive_gru(x, h, w, r, b, hidden, linear_before_reset):  # -> ov Node
    one = ops.constant(np.float32(1.0))
    xz, xr, xh = ops.split(ops.matmul(x, ops.constant(w), False, True),
                           ops.constant(np.int64(1)), 3).outputs()
    rz, rr, rh = (ops.constant(part) for part in np.split(r, 3))
    bz, br, bh = (ops.constant(part) for part in np.split(b[: 3 * hidden], 3))
    z = ops.sigmoid(ops.add(ops.add(xz, ops.matmul(h, rz, False, True)), bz))
    reset = ops.sigmoid(ops.add(ops.add(xr, ops.matmul(h, rr, False, True)), br))
    if linear_before_reset:
        recurrent = ops.add(ops.matmul(h, rh, False, True), ops.constant(b[3 * hidden :]))
        candidate = ops.tanh(ops.add(ops.add(xh, bh), ops.multiply(reset, recurrent)))
    else:
        recurrent = ops.matmul(ops.multiply(reset, h), rh, False, True)
        candidate = ops.tanh(ops.add(ops.add(xh, recurrent), bh))
    return ops.add(ops.multiply(ops.subtract(one, z), candidate), ops.multiply(z, h))


def _low_latency(model: object) -> object:
    manager = passes.Manager()
    manager.register_pass(passes.LowLatency2())
    manager.run_passes(model)
    return model


def lstm_sequence_low_latency(batch: int, steps: int, direction: str = "forward") -> object:
    """An LSTMSequence made stateful by LowLatency2 (one step: LSTMCell; several: a
    TensorIterator after `convert_sequence_to_tensor_iterator`)."""
    rng = np.random.default_rng(20 + steps)
    inputs, hidden = 3, 4
    w, r, b = (a[np.newaxis] for a in _lstm_weights(rng, inputs, hidden))
    x = ops.parameter([batch, steps, inputs], np.float32, name="x")
    h0 = ops.parameter([batch, 1, hidden], np.float32, name="h0")
    c0 = ops.parameter([batch, 1, hidden], np.float32, name="c0")
    lengths = ops.constant(np.full(batch, steps, np.int32))
    seq = ops.lstm_sequence(x, h0, c0, lengths, ops.constant(w), ops.constant(r), ops.constant(b),
                            hidden, direction)
    results = [ops.result(seq.output(i), name=n) for i, n in enumerate(("y", "ho", "co"))]
    model = ov.Model(results, [x, h0, c0], "lstm_seq")
    if steps > 1:
        offline.convert_sequence_to_tensor_iterator_transformation(model)
    return _low_latency(model)


def gru_sequence_low_latency(steps: int, linear_before_reset: bool = False) -> object:
    """A GRUSequence unrolled into a TensorIterator, made stateful by LowLatency2."""
    rng = np.random.default_rng(30 + steps)
    inputs, hidden = 3, 4
    w, r = _const(rng, 1, 3 * hidden, inputs), _const(rng, 1, 3 * hidden, hidden)
    b = _const(rng, 1, (4 if linear_before_reset else 3) * hidden)
    x = ops.parameter([1, steps, inputs], np.float32, name="x")
    h0 = ops.parameter([1, 1, hidden], np.float32, name="h0")
    lengths = ops.constant(np.array([steps], np.int32))
    seq = ops.gru_sequence(x, h0, lengths, ops.constant(w), ops.constant(r), ops.constant(b),
                           hidden, "forward", linear_before_reset=linear_before_reset)
    model = ov.Model([ops.result(seq.output(0), name="y"), ops.result(seq.output(1), name="ho")],
                     [x, h0], "gru_seq")
    offline.convert_sequence_to_tensor_iterator_transformation(model)
    return _low_latency(model)


def make_stateful_model() -> object:
    """MakeStateful turns the (state_in, state_out) Parameter / Result pair into a variable."""
    x = ops.parameter([1, 4], np.float32, name="x")
    state_in = ops.parameter([1, 4], np.float32, name="state_in")
    total = ops.add(ops.multiply(x, ops.constant(np.float32(0.5))), state_in)
    results = [ops.result(ops.relu(total), name="out"), ops.result(total, name="state_out")]
    model = ov.Model(results, [x, state_in], "make_stateful")
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful({"state_in": "state_out"}))
    manager.run_passes(model)
    return model


def dynamic_batch_lstm_model() -> object:
    """An LSTM cell exported with a dynamic batch: its state starts as zeros broadcast to
    `[batch of x, H]` (ShapeOf · Gather · Concat · Broadcast), as MakeStateful leaves it."""
    rng = np.random.default_rng(5)
    x = ops.parameter([-1, 4], np.float32, name="x")
    batch = ops.gather(ops.shape_of(x), ops.constant(np.array([0], np.int64)),
                       ops.constant(np.int64(0)))
    state_shape = ops.concat([batch, ops.constant(np.array([3], np.int64))], 0)
    zeros = ops.broadcast(ops.constant(np.float32(0.0)), state_shape)
    h = ops.read_value(zeros, "h", np.float32, [-1, 3])
    c = ops.read_value(zeros, "c", np.float32, [-1, 3])
    w, r, b = (ops.constant(a) for a in _lstm_weights(rng, 4, 3))
    cell = ops.lstm_cell(x, h, c, w, r, b, 3)
    # The Python API's Assign takes nodes, not outputs: c goes through a (+0).
    h1, c1 = cell, ops.add(cell.output(1), ops.constant(np.float32(0.0)))
    return ov.Model([ops.result(h1)], [ops.assign(h1, "h"), ops.assign(c1, "c")], [x], "dyn")


def streaming_convolution_model() -> object:
    """A streaming 1-D convolution: the last K - 1 frames of the previous call are kept in a
    ReadValue / Assign buffer and prepended to each new chunk (a stateful FIR filter bank),
    and 2-D convolutions with strides, dilations and every auto_pad mode on a second input,
    and group convolutions (depthwise, and 2 groups)."""
    rng = np.random.default_rng(11)
    x = ops.parameter([1, 2, 4], np.float32, name="x")
    z = ops.parameter([1, 3, 7, 6], np.float32, name="z")
    history = ops.read_value(ops.constant(np.zeros((1, 2, 2), np.float32)), "history",
                             np.float32, [1, 2, 2])
    frames = ops.concat([history, x], 2)
    taps = ops.constant(rng.standard_normal((3, 2, 3)).astype(np.float32))
    filtered = ops.convolution(frames, taps, [1], [0], [0], [1])
    keep = opset8.slice(frames, ops.constant(np.array([-2], np.int64)),
                        ops.constant(np.array([6], np.int64)),
                        ops.constant(np.array([1], np.int64)), ops.constant(np.array([2], np.int64)))
    w = ops.constant(rng.standard_normal((4, 3, 3, 2)).astype(np.float32))
    outputs = [
        filtered,
        ops.convolution(z, w, [2, 1], [1, 0], [2, 1], [1, 2]),
        ops.convolution(z, w, [2, 2], [0, 0], [0, 0], [1, 1], "SAME_UPPER"),
        ops.convolution(z, w, [2, 3], [0, 0], [0, 0], [2, 1], "SAME_LOWER"),
        ops.convolution(z, w, [3, 3], [0, 0], [0, 0], [1, 1], "VALID"),
        ops.convolution(x, ops.constant(rng.standard_normal((5, 2, 2)).astype(np.float32)),
                        [2], [1], [0], [1]),
        ops.group_convolution(  # depthwise
            z, ops.constant(rng.standard_normal((3, 1, 1, 3, 3)).astype(np.float32)),
            [1, 1], [1, 1], [1, 1], [1, 1]),
        ops.group_convolution(  # depthwise, multiplier 2, 1-D, strided and dilated
            frames, ops.constant(rng.standard_normal((2, 2, 1, 2)).astype(np.float32)),
            [2], [1], [1], [2]),
        opset1.max_pool(z, [2, 2], [1, 0], [0, 1], [3, 2], "ceil"),
        ops.max_pool(z, [2, 1], [1, 1], [0, 0], [0, 0], [2, 3], "floor", "same_upper").output(0),
        ops.avg_pool(z, [2, 2], [1, 1], [1, 1], [3, 3], True, "ceil"),
        ops.avg_pool(z, [2, 2], [1, 1], [1, 0], [3, 3], False, "ceil"),
        ops.avg_pool(frames, [2], [1], [0], [3], False),
        ops.group_convolution(  # 2 groups of 2 input channels, 3 outputs each, 1-D
            ops.concat([frames, frames], 1),
            ops.constant(rng.standard_normal((2, 3, 2, 2)).astype(np.float32)),
            [1], [0], [0], [2]),
    ]
    return ov.Model([ops.result(o) for o in outputs], [ops.assign(keep, "history")], [x, z],
                    "streaming_conv")


def sequence_model(kind: str, direction: str, lengths: list[int] | None = None) -> object:
    """An LSTMSequence-5 / GRUSequence-5 (linear_before_reset, so B is [D, 4H]) /
    RNNSequence-5 over 3 steps whose initial states are variables assigned from its output
    states (as MakeStateful leaves a sequence model), batch 2."""
    rng = np.random.default_rng(len(kind) + len(direction))
    batch, steps, inputs, hidden = 2, 3, 4, 3
    dirs = 2 if direction == "bidirectional" else 1
    gates = {"lstm": 4, "gru": 3, "rnn": 1}[kind]
    x = ops.parameter([batch, steps, inputs], np.float32, name="x")
    zeros = ops.constant(np.zeros((batch, dirs, hidden), np.float32))
    h = ops.read_value(zeros, "h", np.float32, [batch, dirs, hidden])
    w = ops.constant(_const(rng, dirs, gates * hidden, inputs))
    r = ops.constant(_const(rng, dirs, gates * hidden, hidden))
    b = ops.constant(_const(rng, dirs, (4 if kind == "gru" else gates) * hidden))
    seq = ops.constant(np.array(lengths or [steps] * batch, np.int32))
    if kind == "lstm":
        c = ops.read_value(zeros, "c", np.float32, [batch, dirs, hidden])
        node = ops.lstm_sequence(x, h, c, seq, w, r, b, hidden, direction)
        writes = [ops.assign(ops.add(node.output(1), ops.constant(np.float32(0))), "h"),
                  ops.assign(ops.add(node.output(2), ops.constant(np.float32(0))), "c")]
    elif kind == "gru":
        node = ops.gru_sequence(x, h, seq, w, r, b, hidden, direction,
                                linear_before_reset=True)
        writes = [ops.assign(ops.add(node.output(1), ops.constant(np.float32(0))), "h")]
    else:
        node = ops.rnn_sequence(x, h, seq, w, r, b, hidden, direction)
        writes = [ops.assign(ops.add(node.output(1), ops.constant(np.float32(0))), "h")]
    return ov.Model([ops.result(node.output(0))], writes, [x], f"{kind}_sequence")


def rnn_cell_model(batch: int, clip: float = 0.0) -> object:
    """h (ReadValue-6, zero init) updated by an RNNCell-0 (opset1) with tanh."""
    rng = np.random.default_rng(20 + batch)
    inputs, hidden = 3, 5
    x = ops.parameter([batch, inputs], np.float32, name="x")
    h = ops.read_value(ops.constant(np.zeros((batch, hidden), np.float32)), "h", np.float32,
                       [batch, hidden])
    h1 = ops.rnn_cell(x, h, ops.constant(_const(rng, hidden, inputs)),
                            ops.constant(_const(rng, hidden, hidden)),
                            ops.constant(_const(rng, hidden)), hidden, ["tanh"], [], [],
                            clip)
    return ov.Model([ops.result(h1, name="h_out")], [ops.assign(h1, "h")], [x], "rnn_cell")


def narrow_float_state_model(element: object, dtype: np.dtype) -> object:
    """An f16 or bf16 state: s <- s * 0.75 + convert(x); returns convert(s, f32) * 2."""
    x = ops.parameter([2, 4], np.float32, name="x")
    zeros = ov.Tensor(element, ov.Shape([2, 4]))
    zeros.data.view(np.uint16)[...] = 0
    read = ops.read_value(ov.op.Constant(zeros), "s", element, [2, 4])
    factor = ov.Tensor(element, ov.Shape([]))
    factor.data.view(np.uint16)[...] = np.array(0.75, dtype).view(np.uint16)
    new = ops.add(ops.multiply(read, ov.op.Constant(factor)), ops.convert(x, element))
    out = ops.multiply(ops.convert(new, np.float32), ops.constant(np.float32(2.0)))
    return ov.Model([ops.result(out, name="y")], [ops.assign(new, "s")], [x], "narrow")


def op_coverage_model() -> object:
    """Most supported compute ops on an accumulated state (inputs kept positive where the
    OpenVINO CPU plugin deviates from the specification for negative integers)."""
    x = ops.parameter([2, 6], np.float32, name="x")
    k = ops.parameter([2, 6], np.int32, name="k")
    flags = ops.parameter([2, 6], np.bool_, name="flags")
    s = ops.read_value(ops.constant(np.full((2, 6), 0.5, np.float32)), "s", np.float32, [2, 6])
    v = ops.add(s, x)
    i64 = np.int64
    nodes = [
        ops.subtract(v, ops.constant(np.array([1.0, 2.0, 3.0, 4.0, 5.0, 6.0], np.float32))),
        ops.divide(v, ops.constant(np.float32(3.0))),
        ops.divide(v, ops.add(ops.multiply(x, x), ops.constant(np.float32(1.0)))),
        ops.mod(v, ops.constant(np.float32(0.7))),
        ops.floor_mod(v, ops.constant(np.float32(-0.7))),
        ops.power(ops.add(ops.multiply(v, v), ops.constant(np.float32(0.1))),
                  ops.constant(np.float32(1.5))),
        ops.maximum(v, x),
        ops.minimum(v, ops.constant(np.float32(0.25))),
        ops.matmul(v, x, False, True),
        ops.matmul(v, x, True, False),
        ops.matmul(ops.reshape(v, ops.constant(np.array([2, 2, 3], i64)), False),
                   ops.constant(np.arange(6, dtype=np.float32).reshape(3, 2)), False, False),
        ops.matmul(ops.constant(np.arange(6, dtype=np.float32)), v, False, True),
        ops.relu(v),
        ops.sigmoid(v),
        ops.tanh(v),
        ops.exp(ops.clamp(v, -3.0, 3.0)),
        ops.clamp(v, -0.5, 0.75),
        ops.convert(ops.multiply(v, ops.constant(np.float32(4.0))), np.int32),
        ops.convert(k, np.float32),
        ops.divide(k, ops.constant(np.int32(2))),
        ops.mod(k, ops.constant(np.int32(3))),
        ops.floor_mod(k, ops.constant(np.int32(4))),
        ops.multiply(k, k),
        ops.greater(v, x),
        ops.less(v, x),
        ops.equal(k, ops.constant(np.int32(3))),
        ops.select(flags, v, x),
        ops.logical_not(flags),
        ops.logical_and(flags, ops.greater(v, x)),
        ops.logical_or(flags, ops.less(v, x)),
        ops.reduce_sum(v, ops.constant(np.array([1], i64)), True),
        ops.reduce_mean(v, ops.constant(np.array([0, 1], i64)), False),
        ops.reduce_max(v, ops.constant(np.array([-1], i64)), False),
        *ops.split(v, ops.constant(i64(1)), 3).outputs(),
        *ops.variadic_split(v, ops.constant(i64(1)), ops.constant(np.array([1, -1, 2], i64)))
        .outputs(),
        ops.strided_slice(v, ops.constant(np.array([0, 1], i64)),
                          ops.constant(np.array([2, 5], i64)),
                          ops.constant(np.array([1, 2], i64)), [0, 1], [1, 0]),
        ops.strided_slice(v, ops.constant(np.array([1, -1], i64)),
                          ops.constant(np.array([0, 0], i64)),
                          ops.constant(np.array([-1, -2], i64)), [0, 0], [0, 1]),
        ops.strided_slice(v, ops.constant(np.array([0, 0, 2], i64)),
                          ops.constant(np.array([1, 0, 4], i64)),
                          ops.constant(np.array([1, 1, 1], i64)), [0, 1, 0], [0, 1, 0],
                          [0, 1, 0], [1, 0, 0]),
        opset8.slice(v, ops.constant(np.array([5], i64)), ops.constant(np.array([0], i64)),
                     ops.constant(np.array([-2], i64)), ops.constant(np.array([1], i64))),
        ops.concat([v, x, v], 1),
        ops.reshape(v, ops.constant(np.array([0, 3, -1], i64)), True),
        ops.squeeze(ops.unsqueeze(v, ops.constant(np.array([0, 3], i64))),
                    ops.constant(np.array([0], i64))),
        ops.transpose(v, ops.constant(np.array([1, 0], i64))),
        opset8.gather(v, ops.constant(np.array([[5, 0], [-1, 2]], i64)),
                      ops.constant(i64(1)), 0),
        opset8.gather(v, ops.convert(ops.floor_mod(k, ops.constant(np.int32(6))), np.int64),
                      ops.constant(i64(1)), 1),
        opset8.gather(v, ops.convert(ops.floor_mod(k, ops.constant(np.int32(2))), np.int64),
                      ops.constant(i64(0)), 0),
        opset3.broadcast(v, ops.constant(np.array([3, 2, 6], i64))),
        opset3.broadcast(ops.constant(np.array([1.0, 2.0], np.float32)),
                         ops.constant(np.array([2, 3], i64)), ops.constant(np.array([0], i64)),
                         "explicit"),
        opset3.broadcast(ops.reshape(v, ops.constant(np.array([2, 1, 6], i64)), False),
                         ops.constant(np.array([4, 1], i64)), broadcast_spec="bidirectional"),
        ops.reshape(v, ops.concat([ops.gather(ops.shape_of(v), ops.constant(np.array([1], i64)),
                                              ops.constant(i64(0))),
                                   ops.constant(np.array([-1], i64))], 0), False),
        ops.abs(x),
        ops.abs(k),
        ops.negative(v),
        ops.negative(k),
        ops.log(ops.add(ops.abs(v), ops.constant(np.float32(0.01)))),
        ops.floor(ops.multiply(v, ops.constant(np.float32(3.0)))),
        ops.ceiling(ops.multiply(v, ops.constant(np.float32(3.0)))),
        ops.floor(k),
        ops.sqrt(ops.abs(v)),
        ops.sin(v),
        ops.cos(v),
        ops.erf(v),
        opset1.softmax(v, 1),
        ops.softmax(v, 0),
        opset8.softmax(ops.multiply(v, ops.constant(np.float32(4.0))), -2),
        ops.squared_difference(v, x),
        ops.squared_difference(k, ops.constant(np.int32(2))),
        ops.gelu(v, "erf"),
        ops.gelu(v, "tanh"),
        opset2.gelu(x),
        ops.hswish(ops.multiply(v, ops.constant(np.float32(4.0)))),
        ops.hsigmoid(ops.multiply(v, ops.constant(np.float32(4.0)))),
        ops.elu(x, 0.7),
        ops.swish(v),
        ops.swish(x, ops.constant(np.float32(1.7))),
        ops.prelu(x, ops.constant(np.float32(0.2))),
        ops.prelu(ops.reshape(x, ops.constant(np.array([2, 3, 2], i64)), False),
                  ops.constant(np.array([0.1, -0.5, 2.0], np.float32))),
        ops.mvn(v, ops.constant(np.array([1], i64)), True, 1e-3, "inside_sqrt"),
        ops.mvn(ops.reshape(v, ops.constant(np.array([2, 2, 3], i64)), False),
                ops.constant(np.array([0, 2], i64)), True, 1e-2, "outside_sqrt"),
        ops.mvn(v, ops.constant(np.array([-1], i64)), False, 1e-5, "inside_sqrt"),
        ops.reduce_min(v, ops.constant(np.array([1], i64)), True),
        ops.reduce_prod(ops.clamp(v, -1.5, 1.5), ops.constant(np.array([0, 1], i64)), False),
        ops.reduce_min(k, ops.constant(np.array([0], i64)), False),
        ops.tile(v, ops.constant(np.array([2, 1, 3], i64))),
        ops.tile(k, ops.constant(np.array([2], i64))),
        ops.pad(v, ops.constant(np.array([1, 2], i64)), ops.constant(np.array([0, 1], i64)),
                "constant", ops.constant(np.float32(-3.5))),
        ops.pad(k, ops.constant(np.array([0, 2], i64)), ops.constant(np.array([1, 0], i64)),
                "constant"),
        ops.pad(v, ops.constant(np.array([1, 3], i64)), ops.constant(np.array([1, 2], i64)),
                "edge"),
        ops.pad(v, ops.constant(np.array([1, 3], i64)), ops.constant(np.array([0, 2], i64)),
                "reflect"),
        ops.pad(v, ops.constant(np.array([2, 3], i64)), ops.constant(np.array([1, 2], i64)),
                "symmetric"),
        opset12.pad(v, ops.constant(np.array([-1, 2], i64)),
                    ops.constant(np.array([1, -3], i64)), "constant"),
    ]
    results = [ops.result(node) for node in nodes]
    return ov.Model(results, [ops.assign(ops.tanh(v), "s")], [x, k, flags], "ops")


# ---------------------------------------------------------------------------------------------
# Tests
# ---------------------------------------------------------------------------------------------


def test_accumulator(openvino_runtime: None, tmp_path: Path) -> None:
    assert run_differential(_save(accumulator_model(), tmp_path), Scenario(), "accumulator") \
        <= 1e-5


def test_a_model_openvino_miscomputes_is_refused(openvino_runtime: None, tmp_path: Path
                                                 ) -> None:
    """An Assign fed directly by a Parameter (OpenVINO aliases the input: a caveat of
    `OpenVINOSession`) is no oracle: the harness fails naming the caveat, compares nothing."""
    x = ops.parameter([2], np.float32, name="x")
    read = ops.read_value("last", np.float32, [2])
    model = ov.Model([ops.result(ops.add(read, x), name="y")], [ops.assign(x, "last")], [x],
                     "alias")
    with pytest.raises(pytest.fail.Exception, match=r"model.xml: OpenVINO cannot be trusted on "
                       r"this model, not compared: Assign .* \(last\) is fed directly by "
                       r"Parameter x: OpenVINO aliases the input"):
        run_differential(_save(model, tmp_path), Scenario(), "alias")
    assert "alias" not in MAX_ERRORS


def test_no_init_zeros(openvino_runtime: None, tmp_path: Path) -> None:
    run_differential(_save(no_init_model(), tmp_path), Scenario(), "no_init")


def test_opset3(openvino_runtime: None, tmp_path: Path) -> None:
    run_differential(_save(opset3_model(), tmp_path), Scenario(), "opset3")


def test_several_variables_of_different_types(openvino_runtime: None, tmp_path: Path) -> None:
    scenario = Scenario(steps=14, reset_name="s_f16", skip_states=frozenset({"s_i64"}),
                        keep_states=frozenset({"s_bf16"}))
    run_differential(_save(several_variables_model(), tmp_path), scenario, "several_variables")
    # The i64 variable is OpenVINO's empty start value, kept as it is.
    states = TosaStateSession(tmp_path / "model.xml").states()
    assert states["s_i64"].shape == (0,) and states["s_i32"].shape == ()


def test_reads_see_state_before_writes(openvino_runtime: None, tmp_path: Path) -> None:
    run_differential(_save(swap_model(), tmp_path), Scenario(), "swap")


@pytest.mark.parametrize("batch", [1, 3])
@pytest.mark.parametrize("primitive", [False, True], ids=["LSTMCell", "primitive"])
def test_lstm_cell(openvino_runtime: None, tmp_path: Path, batch: int, primitive: bool) -> None:
    xml = _save(lstm_cell_model(batch, primitive), tmp_path)
    run_differential(xml, Scenario(steps=16), f"lstm_cell[{batch},{primitive}]")


def test_lstm_cell_clip(openvino_runtime: None, tmp_path: Path) -> None:
    xml = _save(lstm_cell_model(2, primitive=False, clip=0.3), tmp_path)
    run_differential(xml, Scenario(), "lstm_cell_clip")


@pytest.mark.parametrize("batch", [1, 2])
@pytest.mark.parametrize("linear_before_reset", [False, True], ids=["lbr0", "lbr1"])
@pytest.mark.parametrize("primitive", [False, True], ids=["GRUCell", "primitive"])
def test_gru_cell(
    openvino_runtime: None, tmp_path: Path, batch: int, linear_before_reset: bool, primitive: bool
) -> None:
    xml = _save(gru_cell_model(batch, linear_before_reset, primitive), tmp_path)
    run_differential(xml, Scenario(steps=16),
                     f"gru_cell[{batch},{linear_before_reset},{primitive}]")


@pytest.mark.parametrize(("batch", "clip"), [(1, 0.0), (3, 0.0), (2, 0.4)])
def test_rnn_cell(openvino_runtime: None, tmp_path: Path, batch: int, clip: float) -> None:
    xml = _save(rnn_cell_model(batch, clip), tmp_path)
    assert 'type="RNNCell" version="opset1"' in xml.read_text()
    run_differential(xml, Scenario(steps=16), f"rnn_cell[{batch},{clip}]")


@pytest.mark.parametrize(
    ("batch", "steps", "direction"),
    [(1, 1, "forward"), (2, 1, "forward"), (1, 3, "forward"), (2, 4, "reverse")],
)
def test_lstm_sequence_low_latency(
    openvino_runtime: None, tmp_path: Path, batch: int, steps: int, direction: str
) -> None:
    xml = _save(lstm_sequence_low_latency(batch, steps, direction), tmp_path)
    text = xml.read_text()
    assert ('type="TensorIterator"' in text) == (steps > 1)
    assert ('type="LSTMCell"' in text) and 'type="ReadValue"' in text
    run_differential(xml, Scenario(), f"lstm_low_latency[{batch},{steps},{direction}]")


@pytest.mark.parametrize("linear_before_reset", [False, True], ids=["lbr0", "lbr1"])
def test_gru_tensor_iterator_low_latency(
    openvino_runtime: None, tmp_path: Path, linear_before_reset: bool
) -> None:
    xml = _save(gru_sequence_low_latency(3, linear_before_reset), tmp_path)
    assert 'type="TensorIterator"' in xml.read_text()
    run_differential(xml, Scenario(), f"gru_ti_low_latency[{linear_before_reset}]")


def test_dynamic_batch_with_input_shapes(openvino_runtime: None, tmp_path: Path) -> None:
    """OpenVINO runs the dynamic model; tosa-state runs it reshaped to batch 3 (the state
    shapes follow from the input's)."""
    run_differential(_save(dynamic_batch_lstm_model(), tmp_path),
                     Scenario(input_shapes={"x": [3, 4]}), "dynamic_batch_lstm")


def test_streaming_convolution(openvino_runtime: None, tmp_path: Path) -> None:
    run_differential(_save(streaming_convolution_model(), tmp_path), Scenario(),
                     "streaming_convolution")


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_sequences(openvino_runtime: None, tmp_path: Path, kind: str, direction: str) -> None:
    run_differential(_save(sequence_model(kind, direction), tmp_path), Scenario(),
                     f"{kind}_sequence[{direction}]")


@pytest.mark.parametrize("kind", ["lstm", "gru", "rnn"])
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_sequences_with_shorter_lengths(openvino_runtime: None, tmp_path: Path, kind: str,
                                        direction: str) -> None:
    """A reverse walk starts at each element's last step; padded steps output zeros."""
    run_differential(_save(sequence_model(kind, direction, [3, 1]), tmp_path), Scenario(),
                     f"{kind}_sequence[{direction}, lengths 3, 1]")


def test_make_stateful(openvino_runtime: None, tmp_path: Path) -> None:
    run_differential(_save(make_stateful_model(), tmp_path), Scenario(), "make_stateful")


@pytest.mark.parametrize("name", ["f16", "bf16"])
def test_narrow_float_state(openvino_runtime: None, tmp_path: Path, name: str) -> None:
    element, dtype = {"f16": (ov.Type.f16, np.dtype(np.float16)), "bf16": (ov.Type.bf16, BF16)}[
        name
    ]
    xml = _save(narrow_float_state_model(element, dtype), tmp_path)
    keep = frozenset({"s"}) if name == "bf16" else frozenset()
    scenario = Scenario(steps=14, narrow_eps=NARROW_EPS[dtype], keep_states=keep)
    run_differential(xml, scenario, f"{name}_state")


def test_init_computed_from_input(openvino_runtime: None, tmp_path: Path) -> None:
    xml = _save(computed_init_model(), tmp_path)
    # Without resets or set_state: the init is used on the first call only.
    run_differential(xml, Scenario(reset_all=frozenset(), reset_one=frozenset(),
                                   set_all=frozenset()), "computed_init")
    run_differential(xml, Scenario(reset_one=frozenset(), set_all=frozenset()),
                     "computed_init")


def test_init_computed_from_input_with_reset_and_set_state(
    openvino_runtime: None, tmp_path: Path
) -> None:
    xml = _save(computed_init_model(), tmp_path)
    names = [s.name for s in tosa_state.compile_model(xml).create_infer_request().query_state()]
    assert sorted(names) == ["state", "zeros"]
    run_differential(xml, Scenario(steps=14, reset_name="state",
                                   set_all=frozenset({1, 9})), "computed_init")


def test_op_coverage(openvino_runtime: None, tmp_path: Path) -> None:
    def inputs(rng: np.random.Generator, step: int) -> list[np.ndarray]:
        x = rng.standard_normal((2, 6)).astype(np.float32)
        k = rng.integers(0, 7, (2, 6)).astype(np.int32)
        return [x, k, rng.random((2, 6)) < 0.5]

    xml = _save(op_coverage_model(), tmp_path)
    # measured |ours - OpenVINO| / (1 + |OpenVINO|): 9.6e-7
    run_differential(xml, Scenario(inputs=inputs, f32_tolerance=5e-6), "op_coverage")


@pytest.mark.parametrize("pipeline", ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
@pytest.mark.parametrize("name", ["swap", "lstm", "several_variables"])
def test_lowering_pipelines(
    openvino_runtime: None, tmp_path: Path, pipeline: str, name: str
) -> None:
    """The converted model agrees with OpenVINO whichever way its variables are lowered."""
    model = {"swap": swap_model, "lstm": lambda: lstm_cell_model(2, primitive=False),
             "several_variables": several_variables_model}[name]()
    scenario = Scenario(skip_states=frozenset({"s_i64"}), keep_states=frozenset({"s_bf16"}))
    run_differential(_save(model, tmp_path), scenario, f"{name}[{pipeline}]", pipeline)
