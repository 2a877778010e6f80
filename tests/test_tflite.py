"""TFLite models exported by TensorFlow from Keras (tests/tflite_models, made by
make_tflite_models.py): tosa-state against Keras (the goldens) and against the LiteRT
interpreter, step by step with a reset in the middle."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import tflite
from ai_edge_litert.interpreter import Interpreter, OpResolverType
from peers.upstream_mlir import iree_opt

import tosa_state as ts
from tosa_state.frontends.tflite import import_tflite, supported_operators
from tosa_state.frontends.tflite.reader import OPERATOR_NAMES
from tosa_state.printing import print_module
from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass

MODELS = Path(__file__).parent / "tflite_models"
NAMES = sorted(p.stem for p in MODELS.glob("*.tflite"))
STATEFUL = ["conv1d_streaming", "gru_relu_batch3", "seed_lstm", "simple_rnn",
            "simple_rnn_relu_batch2", "stacked_lstm_batch2", "stateful_gru"]
TOLERANCE = 2e-6
"""|tosa-state - Keras| and |tosa-state - LiteRT| of the float models, outputs and states: 6.7x
the largest measured over every model and step (3.0e-7 from Keras, 2.4e-7 from LiteRT)."""


def _golden(name: str) -> dict[str, np.ndarray]:
    with np.load(MODELS / f"{name}_keras.npz") as data:
        return {k: data[k] for k in data.files}


class LiteRT:
    """The LiteRT interpreter; a reset recreates it (`reset_all_variables()` does not bring
    resource variables back, see docs/tflite.md). `builtin_kernels`: without the default
    delegate (XNNPACK), as the quantized models are compared."""

    def __init__(self, path: Path, builtin_kernels: bool = False):
        self.path = path
        self.options = {"experimental_op_resolver_type":
                        OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES} if builtin_kernels else {}
        self.reset_state()

    def reset_state(self) -> None:
        interpreter = Interpreter(model_path=str(self.path), **self.options)
        interpreter.allocate_tensors()
        self.runner = interpreter.get_signature_runner()
        (self.input_name,) = self.runner.get_input_details()

    def infer(self, x: np.ndarray) -> np.ndarray:
        (out,) = self.runner(**{self.input_name: x}).values()
        return out


def test_the_models_cover_the_ask() -> None:
    """The seed's model, a stateful GRU, a stacked stateful LSTM with batch 2 (and more)."""
    assert set(STATEFUL) <= set(NAMES)
    golden = _golden("stacked_lstm_batch2")
    assert golden["inputs"].shape[1] == 2 and len(golden["inputs"]) >= 10
    assert list(golden["reset_at"]) and 0 < golden["reset_at"][0] < len(golden["inputs"])


@pytest.mark.parametrize("name", NAMES)
def test_matches_keras_and_litert(name: str) -> None:
    golden = _golden(name)
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    litert = LiteRT(MODELS / f"{name}.tflite")
    resets = set(golden["reset_at"].tolist())
    for step, x in enumerate(golden["inputs"]):
        if step in resets:
            request.reset_state()
            litert.reset_state()
        (ours,) = request.infer([x])
        np.testing.assert_allclose(ours, golden["outputs"][step], rtol=0, atol=TOLERANCE,
                                   err_msg=f"{name}: step {step} vs Keras")
        np.testing.assert_allclose(ours, litert.infer(x), rtol=0, atol=TOLERANCE,
                                   err_msg=f"{name}: step {step} vs LiteRT")
    _check_final_state(request, golden)


def _check_final_state(request: ts.InferRequest, golden: dict[str, np.ndarray]) -> None:
    """Each Keras state variable (path P) is one of ours named P, P_1, P_2... (TensorFlow
    numbers repeated paths; a custom layer's weight may be numbered alone: 'buffer_1'; '*':
    a variable tensor, named by the converter)."""
    ours = {s.name: s.state for s in request.query_state()}
    kept = [(k.removeprefix("state/").split("#")[0], v) for k, v in golden.items()
            if k.startswith("state/")]
    assert len(ours) == len(kept)

    def fits(path: str, value: np.ndarray, name: str) -> bool:
        pattern = ".*" if path == "*" else re.escape(path) + r"(_\d+)?"
        state = ours[name]
        return (re.fullmatch(pattern, name) is not None and state.shape == value.shape
                and np.abs(state - value).max() <= TOLERANCE)

    def match(i: int, free: frozenset[str]) -> bool:
        """Whether Keras's states from `i` on pair one to one with the `free` ones of ours."""
        if i == len(kept):
            return True
        path, value = kept[i]
        return any(match(i + 1, free - {name}) for name in sorted(free)
                   if fits(path, value, name))

    assert match(0, frozenset(ours)), ([path for path, _ in kept], sorted(ours))


def test_state_is_visible_settable_and_resets_to_zeros() -> None:
    """The seed's model: state under the VAR_HANDLE names; set_state continues another run;
    reset_state() goes back to zeros (Keras's reset_states())."""
    golden = _golden("seed_lstm")
    compiled = ts.compile_model(MODELS / "seed_lstm.tflite")
    first, second = compiled.create_infer_request(), compiled.create_infer_request()
    for x in golden["inputs"][:3]:
        first.infer([x])
    states = {s.name: s for s in first.query_state()}
    assert set(states) == {"lstm/rnn_state", "lstm/rnn_state_1"}
    assert all(np.abs(s.state).max() > 0 and s.state.shape == (1, 20) for s in states.values())
    for s in second.query_state():
        assert not s.state.any()  # each request owns its state
        s.state = states[s.name].state
    x = golden["inputs"][3]
    np.testing.assert_array_equal(second.infer([x])[0], first.infer([x])[0])
    first.reset_state()
    assert all(not s.state.any() for s in first.query_state())
    fresh = compiled.create_infer_request()
    np.testing.assert_array_equal(first.infer([x])[0], fresh.infer([x])[0])


def _builtin_operators(path: Path) -> set[str]:
    data = path.read_bytes()
    model = tflite.Model.GetRootAsModel(data, 0)
    found = set()
    for i in range(model.OperatorCodesLength()):
        code = model.OperatorCodes(i)
        found.add(OPERATOR_NAMES[max(code.BuiltinCode(), code.DeprecatedBuiltinCode())])
    return found


def test_every_exported_operator_is_supported() -> None:
    """What TensorFlow 2.21 emits for these Keras models is what the frontend imports."""
    exported = set().union(*(_builtin_operators(MODELS / f"{n}.tflite") for n in NAMES))
    assert exported <= set(supported_operators())
    assert {"VAR_HANDLE", "READ_VARIABLE", "ASSIGN_VARIABLE", "CALL_ONCE", "WHILE"} <= exported


@pytest.mark.parametrize("name", STATEFUL)
def test_conversion_declares_the_variables_and_unrolls(name: str) -> None:
    module = import_tflite(MODELS / f"{name}.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    assert "tfl." not in text.replace("tfl.file", "")
    names = {s.name for s in ts.compile_model(module).create_infer_request().query_state()}
    for variable in names:
        assert f'tosa.variable @"{variable}" = dense<0.000000e+00>' in text


@pytest.mark.peers
@pytest.mark.parametrize("name", ["seed_lstm", "stacked_lstm_batch2"])
def test_upstream_mlir_parses_the_converted_model(upstream_mlir_tools: None, name: str) -> None:
    module = import_tflite(MODELS / f"{name}.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    out = iree_opt(print_module(module, spelling="upstream", generic=True), "--mlir-print-op-generic")
    assert out.count('"tosa.variable"') == len(ts.compile_model(module).create_infer_request()
                                                .query_state())


EXAMPLE = Path(__file__).parent.parent / "examples" / "keras_stateful_lstm.tflite"
BIN = Path(sys.executable).parent


def test_bundled_example_runs_as_litert(tmp_path: Path) -> None:
    """The README's command: 24 steps, a reset before step 21 (the document's loop)."""
    inputs = EXAMPLE.with_name("keras_stateful_lstm_inputs.npz")
    result = subprocess.run(
        [str(BIN / "tosa-state-run"), str(EXAMPLE), "--inputs", str(inputs), "--reset-at", "21",
         "-o", str(tmp_path / "out.npz")], capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    with np.load(inputs) as data:
        xs = data["keras_tensor"]
    with np.load(tmp_path / "out.npz") as out:
        ours, states = out["result0"], {k: out[k] for k in out.files if k.startswith("state/")}
    assert set(states) == {"state/lstm/rnn_state", "state/lstm/rnn_state_1"}
    litert = LiteRT(EXAMPLE)
    for step, x in enumerate(xs):
        if step == 21:
            litert.reset_state()
        np.testing.assert_allclose(ours[step], litert.infer(x), rtol=0, atol=TOLERANCE)


def test_opt_prints_the_tfl_module_and_its_conversion(tmp_path: Path) -> None:
    opt = str(BIN / "tosa-state-opt")
    imported = subprocess.run([opt, str(EXAMPLE)], capture_output=True, text=True, check=True)
    assert "tfl.while" in imported.stdout and "tfl.call_once" in imported.stdout
    (tmp_path / "m.mlir").write_text(imported.stdout)
    converted = subprocess.run([opt, str(tmp_path / "m.mlir"), "-p", "convert-tflite-to-tosa"],
                               capture_output=True, text=True, check=True).stdout
    direct = subprocess.run([opt, str(EXAMPLE), "-p", "convert-tflite-to-tosa"],
                            capture_output=True, text=True, check=True).stdout
    assert converted == direct
    assert 'tosa.variable @"lstm/rnn_state" = dense<0.000000e+00> : tensor<1x20xf32>' in direct
