"""Device `iree` (`compile_model(..., device="iree")`) against the interpreter and the peers
(OpenVINO; Keras goldens and LiteRT for the `.tflite` models), over sequences with
`set_state`, a per-variable reset and `reset_state`, states compared after every step.

Compiled artifacts go to pytest's cache dir (`TOSA_STATE_IREE_CACHE`), so a rerun reuses
them; from a fresh clone each model costs one iree-compile (docs/runtime.md gives the time).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import iree.runtime  # noqa: F401  (the 'iree' extra, in the 'test' extra: missing fails)
import numpy as np
import openvino as ov
import pytest
from peers.openvino_runtime import MAX_ERRORS, trusted_session
from test_openvino_differential import (
    Scenario,
    TosaStateSession,
    _compare,
    _random,
    _save,
)
from test_tflite import TOLERANCE as TFLITE_TOLERANCE
from test_tflite import LiteRT

import tosa_state as ts
from tosa_state.devices.iree_compile import CACHE_ENV, cache_dir, clear_cache

pytestmark = [
    pytest.mark.peers,
    # OpenVINO's PyTorch frontend traces the torch modules with torch.jit (its choice)
    pytest.mark.filterwarnings("ignore:`torch.jit.trace:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning"),
]

ROOT = Path(__file__).resolve().parent.parent
TFLITE = ROOT / "tests" / "tflite_models"


@pytest.fixture(scope="module", autouse=True)
def artifact_cache(request: pytest.FixtureRequest) -> Iterator[Path]:
    folder = request.config.cache.mkdir("iree_artifacts")
    before = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(folder)
    yield folder
    if before is None:
        del os.environ[CACHE_ENV]
    else:
        os.environ[CACHE_ENV] = before


def run_three_ways(xml: Path, scenario: Scenario, key: str, pipeline: str | None = None
                   ) -> None:
    """`scenario` on OpenVINO, the interpreter and IREE: outputs and states agree with
    OpenVINO, and IREE's with the interpreter's, after every step."""
    theirs = trusted_session(xml)
    ours = TosaStateSession(xml, None, scenario.input_shapes)
    iree = TosaStateSession(xml, pipeline, scenario.input_shapes, device="iree")
    assert iree.compiled.inputs == ours.compiled.inputs
    assert iree.compiled.outputs == ours.compiled.outputs
    names = sorted(theirs.variables)
    assert sorted(s.name for s in iree.request.query_state()) == names
    rng = np.random.default_rng(scenario.seed)
    worst = 0.0
    for step in range(scenario.steps):
        sessions = (theirs, ours, iree)
        if step in scenario.reset_all:
            for session in sessions:
                session.reset_state()
        if step in scenario.reset_one and names:
            for session in sessions:
                session.reset_variable(scenario.reset_name or names[0])
        if step in scenario.set_all:
            for name, value in ours.states().items():
                new = _random(rng, value.dtype, value.shape)
                for session in sessions:
                    session.set_state(name, new)
        inputs = (scenario.inputs(rng, step) if scenario.inputs is not None
                  else [_random(rng, p.dtype, p.shape) for p in ours.compiled.inputs])
        want, interpreted, got = (session.infer(inputs) for session in sessions)
        for i, (a, b, c) in enumerate(zip(got, want, interpreted, strict=True)):
            assert a.dtype == c.dtype and a.shape == c.shape
            worst = max(worst, _compare(f"step {step} output {i}", a, b,
                                        f32_tolerance=scenario.f32_tolerance))
            _compare(f"step {step} output {i} (vs the interpreter)", a, c,
                     f32_tolerance=scenario.f32_tolerance)
        iree_states, our_states = iree.states(), ours.states()
        assert iree_states.keys() == our_states.keys()
        for name, value in theirs.states().items():
            worst = max(worst, _compare(f"step {step} state {name}", iree_states[name], value,
                                        f32_tolerance=scenario.f32_tolerance))
            _compare(f"step {step} state {name} (vs the interpreter)", iree_states[name],
                     our_states[name], f32_tolerance=scenario.f32_tolerance)
    MAX_ERRORS[f"iree:{key}"] = max(MAX_ERRORS.get(f"iree:{key}", 0.0), worst)


def test_lstm_cell_example(openvino_runtime: None) -> None:
    run_three_ways(ROOT / "examples" / "lstm_cell.xml", Scenario(steps=12), "lstm_cell")


def test_silero_vad(openvino_runtime: None, tmp_path: Path) -> None:
    from streaming_vad import audio_chunks, silero_stateful_ir

    chunks = audio_chunks(16, seed=1)
    scenario = Scenario(steps=16, reset_all=frozenset({6}), reset_one=frozenset({9}),
                        set_all=frozenset({12}), inputs=lambda rng, step: [chunks[step]],
                        f32_tolerance=2e-5)  # measured 3.1e-6 (|a - b| / (1 + |b|))
    run_three_ways(silero_stateful_ir(tmp_path), scenario, "silero_vad")


@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_torch_two_layer_rnn(openvino_runtime: None, tmp_path: Path, kind: str) -> None:
    from test_torch_exports import Config, export

    config = (Config("LSTM", inputs=40, hidden=64, batch=1) if kind == "LSTM"
              else Config("GRU", log_softmax=True))
    run_three_ways(export(config, tmp_path), Scenario(), f"torch_{kind}")


def test_tensor_iterator(openvino_runtime: None, tmp_path: Path) -> None:
    """A TensorIterator (its loop unrolled by tosa-unroll-loops for IREE)."""
    from test_tensor_iterator import api_model

    run_three_ways(_save(api_model(5), tmp_path), Scenario(), "tensor_iterator")


@pytest.mark.parametrize("name", ["stacked_lstm_batch2", "stateful_gru", "conv1d_streaming"])
def test_keras_tflite(name: str) -> None:
    """Keras goldens and LiteRT; the interpreter for the state after set_state / reset. Within
    test_tflite's tolerance (measured here: at most 2.4e-7, from LiteRT)."""
    path = TFLITE / f"{name}.tflite"
    with np.load(TFLITE / f"{name}_keras.npz") as data:
        golden = {k: data[k] for k in data.files}
    iree = ts.compile_model(path, device="iree").create_infer_request()
    ours = ts.compile_model(path).create_infer_request()
    litert = LiteRT(path)
    resets = set(golden["reset_at"].tolist())
    for step, x in enumerate(golden["inputs"]):
        if step in resets:
            iree.reset_state()
            ours.reset_state()
            litert.reset_state()
        (got,) = iree.infer([x])
        np.testing.assert_allclose(got, golden["outputs"][step], atol=TFLITE_TOLERANCE, rtol=0)
        np.testing.assert_allclose(got, litert.infer(x), atol=TFLITE_TOLERANCE, rtol=0)
        np.testing.assert_allclose(got, ours.infer([x])[0], atol=TFLITE_TOLERANCE, rtol=0)
    rng = np.random.default_rng(0)
    for mine, theirs in zip(iree.query_state(), ours.query_state(), strict=True):
        assert mine.name == theirs.name
        np.testing.assert_allclose(mine.state, theirs.state, atol=TFLITE_TOLERANCE, rtol=0)
        new = rng.standard_normal(theirs.state.shape).astype(np.float32)
        mine.state, theirs.state = new, new
    x = golden["inputs"][0]
    np.testing.assert_allclose(iree.infer([x])[0], ours.infer([x])[0], atol=TFLITE_TOLERANCE, rtol=0)
    first = iree.query_state()[0]
    first.reset()
    assert not np.any(first.state)


def test_requests_are_independent_and_results_are_copies() -> None:
    compiled = ts.compile_model(ROOT / "examples" / "lstm_cell.xml", device="iree")
    a, b = compiled.create_infer_request(), compiled.create_infer_request()
    x = np.ones((1, 8), np.float32)
    first = a.infer([x])[0]
    kept = first.copy()
    second = a.infer([x])[0]
    np.testing.assert_array_equal(first, kept)  # not overwritten by the next call
    assert not np.array_equal(first, second)  # the state moved on
    np.testing.assert_array_equal(b.infer({"x": x})["h"], kept)  # b starts fresh
    with pytest.raises(ts.TosaStateError, match="input 'x' has shape"):
        a.infer([np.ones((2, 8), np.float32)])
    with pytest.raises(ts.TosaStateError, match="expected shape"):
        a.query_state()[0].state = np.ones((3,), np.float32)
    (h, _) = a.query_state()
    a._busy.acquire()  # as while another thread runs it: the request guard of every device
    try:
        with pytest.raises(RuntimeError, match="infer request is busy"):
            a.infer([x])
        with pytest.raises(RuntimeError, match="infer request is busy"):
            _ = h.state
        b.infer([x])  # another request is not held up
    finally:
        a._busy.release()


def test_computed_init_is_pending_until_the_next_inference(tmp_path: Path) -> None:
    """A ReadValue whose init comes from an input: no value before the first call and
    after a reset (as the interpreter), then the init; a state set replaces it."""
    from openvino import opset6 as ops

    x = ops.parameter([1, 4], np.float32, name="x")
    state = ops.read_value(ops.multiply(x, ops.constant(np.float32(2))), "s", np.float32,
                           [1, 4])
    total = ops.add(state, x)
    model = ov.Model([ops.result(total, name="y")], [ops.assign(total, "s")], [x], "init")
    compiled = ts.compile_model(_save(model, tmp_path), device="iree")
    request = compiled.create_infer_request()
    (variable,) = request.query_state()
    with pytest.raises(ts.TosaStateError, match="has no value yet"):
        _ = variable.state
    ones = np.ones((1, 4), np.float32)
    np.testing.assert_array_equal(request.infer([ones])[0], 3 * ones)
    np.testing.assert_array_equal(variable.state, 3 * ones)
    request.reset_state()
    with pytest.raises(ts.TosaStateError, match="has no value yet"):
        _ = variable.state
    variable.state = 10 * ones
    np.testing.assert_array_equal(request.infer([ones])[0], 11 * ones)


def test_artifact_cache_is_reused_and_cleared(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                              ) -> None:
    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    source = ROOT / "examples" / "lstm_cell.mlir"
    first = ts.compile_model(source, device="iree")
    assert first.executable.vmfb.parent == cache_dir() == tmp_path / "cache"
    stamp = first.executable.vmfb.stat().st_mtime_ns
    again = ts.compile_model(source, device="iree")
    assert again.executable.vmfb == first.executable.vmfb and again.executable.vmfb.stat().st_mtime_ns == stamp
    assert len(list(cache_dir().glob("*.record"))) == 1  # devices/iree_record.py
    assert clear_cache() == 1 and not first.executable.vmfb.exists()
    assert not list(cache_dir().glob("*.record*"))


def test_a_progress_bar_while_iree_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    """`progress=True` on a terminal names the iree-compile stage; a cached artifact
    compiles nothing, so the stage is not shown."""
    import sys

    from test_progress import Terminal

    from tosa_state import progress

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    monkeypatch.setattr(progress, "DELAY", 0.0)
    source = ROOT / "examples" / "lstm_cell.mlir"
    for shown in (True, False):
        stream = Terminal()
        monkeypatch.setattr(sys, "stderr", stream)
        ts.compile_model(source, device="iree", progress=True)
        assert ("compiling: iree-compile" in stream.getvalue()) == shown
        # The bar is drawn either way (which short stages it names depends on timing: rich
        # gets an update at most every 0.1 s).
        assert "compiling: reading" in stream.getvalue()


def test_errors_are_one_line() -> None:
    with pytest.raises(ts.TosaStateError, match="unknown device 'gpu'"):
        ts.compile_model(ROOT / "examples" / "lstm_cell.mlir", device="gpu")
    with pytest.raises(ts.TosaStateError, match="end the pipeline with tosa-to-mlprogram"):
        ts.compile_model(ROOT / "examples" / "lstm_cell.mlir", device="iree",
                         pipeline="convert-tosa-variables-to-memref")


def test_cond_if_workaround_and_a_dynamic_state() -> None:
    """The reproducer of IREE 3.13's cond_if miscompile (lit_tests/iree/Inputs/
    cond-if-miscompile.mlir) as a model: a cache growing by each call's input. Without
    tosa-sink-cond-if-inputs IREE returns [1], [0, 2, 3], [0, 0, 0, 4, 5, 6]."""
    source = ROOT / "lit_tests" / "iree" / "Inputs" / "cond-if-miscompile.mlir"
    request = ts.compile_model(source, entry="main", pipeline="", device="iree"
                               ).create_infer_request()
    calls = [[1.0], [2.0, 3.0], [4.0, 5.0, 6.0]]
    got = [request.infer([np.array(c, np.float32)])[0].tolist() for c in calls]
    assert got == [[1.0], [1.0, 2.0, 3.0], [1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]
    kv = next(s for s in request.query_state() if s.name == "kv")
    assert kv.state.tolist() == got[-1]
    kv.state = np.array([7.0, 8.0], np.float32)  # another length: the variable is dynamic
    assert request.infer([np.array([9.0], np.float32)])[0].tolist() == [7.0, 8.0, 9.0]
    kv.reset()
    assert kv.state.shape == (0,)
    request.reset_state()
    assert request.infer([np.array([5.0], np.float32)])[0].tolist() == [5.0]


def test_cli_run_validate_compile_and_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                            ) -> None:
    from test_error_paths import assert_clean_failure, cli

    from tosa_state.tools import main as tosa_state_main
    from tosa_state.tools import run as tosa_state_run

    xml = str(ROOT / "examples" / "lstm_cell.xml")
    inputs = str(ROOT / "examples" / "lstm_cell_inputs.npz")
    for device in ("interpreter", "iree"):
        code, _, err = cli(tosa_state_run.main, xml, "--inputs", inputs, "--reset-at", "3",
                           "--device", device, "-o", str(tmp_path / f"{device}.npz"), "-q")
        assert code == 0, err
    with np.load(tmp_path / "iree.npz") as got, np.load(tmp_path / "interpreter.npz") as want:
        assert sorted(got.files) == sorted(want.files)
        for key in want.files:
            np.testing.assert_allclose(got[key], want[key], rtol=0, atol=3e-7,  # measured 6e-8
                                       err_msg=key)

    code, stdout, err = cli(tosa_state_main.main, "validate", xml, "--steps", "6",
                            "--levels", "memref", "--devices", "interpreter,iree")
    assert code == 0, err
    assert "level memref (" in stdout and "level iree (tosa-to-mlprogram)" in stdout
    assert stdout.splitlines()[-1] == "PASSED: tosa-state agrees with OpenVINO"
    code, _, err = cli(tosa_state_main.main, "validate", xml, "--devices", "iree,npu")
    assert_clean_failure(code, err, "error: unknown device 'npu' (devices: interpreter, iree, reference)")

    vmfb = tmp_path / "lstm_cell.vmfb"
    code, _, err = cli(tosa_state_main.main, "compile", xml, "-o", str(vmfb), "-q")
    assert code == 0, err
    assert vmfb.read_bytes() == ts.compile_model(xml, device="iree").executable.vmfb.read_bytes()
    # deployed without Python: IREE's own runner, one call from the initial state
    import subprocess
    import sys

    runner = Path(sys.executable).parent / "iree-run-module"
    done = subprocess.run([str(runner), f"--module={vmfb}", "--function=main",
                           "--input=1x8xf32=1", "--output=@" + str(tmp_path / "h.npy")],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    first = ts.compile_model(xml).create_infer_request().infer([np.ones((1, 8), np.float32)])
    np.testing.assert_allclose(np.load(tmp_path / "h.npy"), first[0], rtol=0,
                               atol=3e-7)  # measured 3e-8

    monkeypatch.setenv(CACHE_ENV, str(tmp_path / "cache"))
    code, stdout, _ = cli(tosa_state_main.main, "cache")
    assert (code, stdout) == (0, f"{tmp_path / 'cache'}\n")
    cli(tosa_state_main.main, "compile", xml, "-o", str(vmfb), "-q")
    code, stdout, _ = cli(tosa_state_main.main, "cache", "--clear")
    assert (code, stdout) == (0, f"removed 1 artifact(s) from {tmp_path / 'cache'}\n")


def test_the_documented_loader_runs_a_compiled_model(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """The Python loader of docs/runtime.md (iree.runtime only, no tosa-state) on the
    output of `tosa-state compile`: the state persists between calls, resets, and is set."""
    from tosa_state.tools import main as tosa_state_main

    text = (ROOT / "docs" / "runtime.md").read_text()
    snippet = text.split("<!-- loader -->\n```python\n", 1)[1].split("```", 1)[0]
    assert tosa_state_main.main(["compile", str(ROOT / "examples" / "lstm_cell.xml"),
                                 "-o", str(tmp_path / "model.vmfb"), "-q"]) == 0
    monkeypatch.chdir(tmp_path)
    scope: dict[str, object] = {}
    exec(snippet, scope)
    request = ts.compile_model(ROOT / "examples" / "lstm_cell.xml").create_infer_request()
    x = np.ones((1, 8), np.float32)
    want = [request.infer([x])[0] for _ in range(2)]
    tolerance = 3e-7  # measured: 6e-8
    np.testing.assert_allclose(scope["first"], want[0], rtol=0, atol=tolerance)
    np.testing.assert_allclose(scope["second"], want[1], rtol=0, atol=tolerance)
    np.testing.assert_allclose(scope["after_reset"], want[0], rtol=0, atol=tolerance)
    np.testing.assert_array_equal(scope["h"], np.full((1, 8), 0.5, np.float32))


def test_i64_is_computed_in_i32(openvino_runtime: None, tmp_path: Path) -> None:
    """An i64 input and output (index math, as ONNX exports have; OpenVINO's CPU plugin
    keeps no i64 state), and an i64 variable against the interpreter: the module is demoted
    to i32 (tosa-demote-i64); the API keeps i64 and checks the range."""
    from openvino import opset13 as ops
    from openvino.opset6 import assign, read_value

    x = ops.parameter([1, 4], np.int64, name="x")
    count = read_value(ops.constant(np.zeros((1, 4), np.int32)), "count", np.int32, [1, 4])
    total = ops.add(ops.convert(ops.add(x, ops.constant(np.int64(7))), np.int32), count)
    model = ov.Model([ops.result(ops.convert(total, np.float32), name="y"),
                      ops.result(ops.convert(total, np.int64), name="total")],
                     [assign(total, "count")], [x], "i64")
    xml = _save(model, tmp_path)
    run_three_ways(xml, Scenario(), "i64_index_math")
    request = ts.compile_model(xml, device="iree").create_infer_request()
    assert request.infer([np.full((1, 4), 3, np.int64)])["total"].dtype == np.int64
    with pytest.raises(ts.TosaStateError, match="input 'x' has values beyond int32"):
        request.infer([np.full((1, 4), 2**40, np.int64)])

    source = tmp_path / "counter.mlir"
    source.write_text(
        "tosa.variable @n = dense<5> : tensor<2xi64>\n"
        "func.func @main(%x: tensor<2xi64>) -> tensor<2xi64> {\n"
        "  %n = tosa.variable.read @n : tensor<2xi64>\n"
        "  %s = tosa.add %n, %x : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>\n"
        "  tosa.variable.write @n, %s : tensor<2xi64>\n"
        "  return %s : tensor<2xi64>\n}\n")
    iree = ts.compile_model(source, device="iree").create_infer_request()
    ours = ts.compile_model(source).create_infer_request()
    for step in range(4):
        if step == 2:
            for request in (iree, ours):
                request.query_state()[0].state = np.array([2**31 - 10, -4], np.int64)
        x = np.array([step, -step], np.int64)
        np.testing.assert_array_equal(iree.infer([x])[0], ours.infer([x])[0])
        (mine,), (theirs,) = iree.query_state(), ours.query_state()
        assert mine.state.dtype == np.int64
        np.testing.assert_array_equal(mine.state, theirs.state)
    with pytest.raises(ts.TosaStateError, match="the new state of 'n' has values beyond"):
        iree.query_state()[0].state = np.array([2**33, 0], np.int64)


RUN_TIME_TILE_AND_PAD = """
func.func @main(%x: tensor<?x3xf32>, %y: tensor<2x3xf32>, %p: tensor<?x4xf32>)
    -> (tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x?xf32>) {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<?x3xf32>) -> !tosa.shape<1>
  %two = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %times = tosa.concat_shape %two, %d0 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %t = tosa.tile %y, %times : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %u = tosa.tile %x, %times : (tensor<?x3xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %m = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %v = tosa.tile %x, %m : (tensor<?x3xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %pads = tosa.concat_shape %one, %d0, %zero, %two
      : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<4>
  %c = "tosa.const"() <{values = dense<7.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %q = tosa.pad %p, %pads, %c : (tensor<?x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
  func.return %t, %u, %v, %q : tensor<?x?xf32>, tensor<?x?xf32>, tensor<?x6xf32>, tensor<?x?xf32>
}
"""


def test_tiles_and_pads_by_run_time_sizes(tmp_path: Path) -> None:
    """tosa-lower-shape-ops' general tile (dims of size > 1 repeated by run-time
    multiples, a dynamic input tiled by constants) and pad (run-time sizes) run on IREE
    as numpy's tile and pad, for several run-time sizes in one compiled model."""
    source = tmp_path / "tile_pad.mlir"
    source.write_text(RUN_TIME_TILE_AND_PAD)
    iree = ts.compile_model(source, device="iree").create_infer_request()
    ours = ts.compile_model(source).create_infer_request()
    rng = np.random.default_rng(0)
    for n in (1, 3, 2):
        x, y, p = (rng.standard_normal(shape).astype(np.float32)
                   for shape in ((n, 3), (2, 3), (n, 4)))
        got = iree.infer([x, y, p])
        want = [np.tile(y, (2, n)), np.tile(x, (2, n)), np.tile(x, (3, 2)),
                np.pad(p, ((1, n), (0, 2)), constant_values=7)]
        for a, b, c in zip(got, want, ours.infer([x, y, p]), strict=True):
            np.testing.assert_array_equal(a, b)
            np.testing.assert_array_equal(a, c)


def test_bf16_inputs_outputs_and_state() -> None:
    """bf16 (numpy arrays of `ml_dtypes.bfloat16`) in and out of device iree, the state
    included: IREE 3.13's Python API maps the dtype, so no conversion at the boundary;
    the same values as the interpreter over set_state, reset and steps."""
    import ml_dtypes

    source = ROOT / "lit_tests" / "iree" / "Inputs" / "bf16-accumulator.mlir"
    iree = ts.compile_model(source, device="iree").create_infer_request()
    ours = ts.compile_model(source).create_infer_request()
    rng = np.random.default_rng(1)
    for step in range(5):
        if step == 2:
            new = rng.standard_normal((1, 4)).astype(ml_dtypes.bfloat16)
            for request in (iree, ours):
                request.query_state()[0].state = new
        if step == 4:
            for request in (iree, ours):
                request.reset_state()
        x = rng.standard_normal((1, 4)).astype(ml_dtypes.bfloat16)
        got, want = iree.infer([x]), ours.infer([x])
        assert [v.dtype for v in got] == [np.dtype(ml_dtypes.bfloat16), np.float32]
        for a, b in zip(got, want, strict=True):
            np.testing.assert_array_equal(a, b)
        (mine,), (theirs,) = iree.query_state(), ours.query_state()
        assert mine.state.dtype == ml_dtypes.bfloat16
        np.testing.assert_array_equal(mine.state, theirs.state)


@pytest.mark.parametrize("family", ["llama", "qwen2", "gpt2"])
def test_a_decoders_checks_are_one_assertion(llm_exports: dict[str, Path], family: str) -> None:
    """IREE closes an execution region at each assertion: a decoder's step keeps every
    check (docs/passes.md `hoist-runtime-checks`) in one, before its first op, and reads
    nothing back: the inputs' indices are checked from their extents (arguments), the causal
    mask's gather from its indices' span (ranges: dims only)."""
    from tosa_state.devices import DEFAULT_PIPELINES, IREE
    from tosa_state.devices.iree import prepare_module

    module = ts.compile_model(llm_exports[family], pipeline=DEFAULT_PIPELINES[IREE]).module
    text, _ = prepare_module(module)
    step = text.split("func.func @main(", 1)[1].split("\n  func.func ", 1)[0]
    assert "tosa_state.max_of" in step
    assert step.count("cf.assert") == 1, step.count("cf.assert")
    assert "tensor.extract " not in step  # no reduction read back
    (line,) = (line for line in step.splitlines() if "cf.assert" in line)
    assert line.count("index out of range") >= 3, line  # the mask's gather's among them
    assert line.count("\\0A") + 1 >= 20, line  # the checks are merged, not dropped
    body = step.split("\n", 1)[1]
    assert "tosa.matmul" not in body.split("cf.assert", 1)[0]  # before the step's work


@pytest.mark.parametrize("family", ["llama", "qwen2", "gpt2"])
def test_llm_decoder_with_a_growing_kv_cache(llm_exports: dict[str, Path], family: str
                                             ) -> None:
    """The tiny Llama, Qwen2 and GPT-2 (optimum-intel exports, KV caches in dynamic
    variables, run-time shapes lowered by tosa-lower-shape-ops) on device iree against
    OpenVINO: a prompt and greedy steps, reset_state and a second prompt, a batch of 2 with
    a beam reorder that swaps then duplicates the rows; logits, tokens and caches after
    every call."""
    import llm_models

    xml = llm_exports[family]
    pair = llm_models.GenerationPair(xml, ts.compile_model(xml, device="iree"))
    llm_models.run_generation(pair)
    tokens = pair.call(llm_models.prompt(2, 1, seed=4))
    (cache, *_) = pair.ours.query_state()
    value = cache.state
    cache.reset()  # its initial value is computed from the inputs: pending until a call
    with pytest.raises(ts.TosaStateError, match="has no value yet"):
        _ = cache.state
    cache.state = value  # set back: the next call continues as OpenVINO's
    np.testing.assert_array_equal(cache.state, value)
    pair.call(tokens)
