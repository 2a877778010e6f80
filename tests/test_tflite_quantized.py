"""Quantized TFLite models (tests/tflite_models/quantized, made by make_tflite_models.py)
against LiteRT's built-in kernels (not XNNPACK), step by step with a reset in the middle:
the dynamic-range (int8 weights, float activations) stateful LSTM and GRU, and the refusals
of what is not supported yet."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter, OpResolverType

import tosa_state as ts
from tosa_state.frontends.tflite import TFLiteError, import_tflite
from tosa_state.printing import print_module
from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass

MODELS = Path(__file__).parent / "tflite_models" / "quantized"
HYBRID = ["gru_dynamic_range", "seed_lstm_dynamic_range"]
BIN = Path(sys.executable).parent
TOLERANCE = 1e-4


def _golden(name: str) -> dict[str, np.ndarray]:
    with np.load(MODELS / f"{name}_keras.npz") as data:
        return {k: data[k] for k in data.files}


class LiteRT:
    """LiteRT with its built-in kernels; a reset recreates the interpreter."""

    def __init__(self, path: Path):
        self.path = path
        self.reset_state()

    def reset_state(self) -> None:
        interpreter = Interpreter(
            model_path=str(self.path),
            experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
        interpreter.allocate_tensors()
        self.runner = interpreter.get_signature_runner()
        (self.input_name,) = self.runner.get_input_details()

    def infer(self, x: np.ndarray) -> np.ndarray:
        (out,) = self.runner(**{self.input_name: x}).values()
        return out


@pytest.mark.parametrize("name", HYBRID)
def test_hybrid_matches_litert(name: str) -> None:
    """Within 1e-4 of LiteRT's hybrid kernels at every step, with a reset; Keras's float
    model is further away (the int8 weights and the per-call input quantization)."""
    golden = _golden(name)
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    litert = LiteRT(MODELS / f"{name}.tflite")
    resets = set(golden["reset_at"].tolist())
    float_gap = 0.0
    for step, x in enumerate(golden["inputs"]):
        if step in resets:
            request.reset_state()
            litert.reset_state()
        (ours,) = request.infer([x])
        np.testing.assert_allclose(ours, litert.infer(x), rtol=0, atol=TOLERANCE,
                                   err_msg=f"{name}: step {step} vs LiteRT")
        float_gap = max(float_gap, float(np.abs(ours - golden["outputs"][step]).max()))
    assert 10 * TOLERANCE < float_gap < 0.1  # quantized, yet close to Keras's float model


def test_hybrid_state_is_settable() -> None:
    """set_state carries a run's state into another request: both then compute the same;
    after reset_state() the state is zeros and the output is a fresh request's."""
    golden = _golden("seed_lstm_dynamic_range")
    compiled = ts.compile_model(MODELS / "seed_lstm_dynamic_range.tflite")
    first, second = compiled.create_infer_request(), compiled.create_infer_request()
    for x in golden["inputs"][:3]:
        first.infer([x])
    states = {s.name: s.state for s in first.query_state()}
    assert set(states) == {"lstm/rnn_state", "lstm/rnn_state_1"}
    for s in second.query_state():
        s.state = states[s.name]
    x = golden["inputs"][3]
    np.testing.assert_array_equal(second.infer([x])[0], first.infer([x])[0])
    first.reset_state()
    assert all(not s.state.any() for s in first.query_state())
    np.testing.assert_array_equal(first.infer([x])[0],
                                  compiled.create_infer_request().infer([x])[0])


def test_hybrid_weights_stay_int8() -> None:
    """The converted module holds the int8 weights (transposed) and no f32 copy of them."""
    module = import_tflite(MODELS / "seed_lstm_dynamic_range.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    assert text.count("-> tensor<1x64x80xi8>") == 1 and text.count("-> tensor<1x20x80xi8>") == 1
    for f32_copy in ("tensor<1x64x80xf32>", "tensor<64x80xf32>", "tensor<80x64xf32>",
                     "tensor<20x80xf32>", "tensor<80x20xf32>"):
        assert f32_copy not in text
    assert "tosa.matmul" in text and "xi8>) -> tensor<1x1x80xi32>" in text


def test_hybrid_runs_in_tosa_state_run(tmp_path: Path) -> None:
    name = "gru_dynamic_range"
    golden = _golden(name)
    inputs = tmp_path / "in.npz"
    np.savez(inputs, keras_tensor=golden["inputs"])
    reset = int(golden["reset_at"][0])
    result = subprocess.run(
        [str(BIN / "tosa-state-run"), str(MODELS / f"{name}.tflite"), "--inputs", str(inputs),
         "--reset-at", str(reset), "-o", str(tmp_path / "out.npz")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "out.npz") as out:
        ours = out["result0"]
    litert = LiteRT(MODELS / f"{name}.tflite")
    for step, x in enumerate(golden["inputs"]):
        if step == reset:
            litert.reset_state()
        np.testing.assert_allclose(ours[step], litert.infer(x), rtol=0, atol=TOLERANCE)


def test_full_integer_is_refused_naming_the_operator() -> None:
    """The full-integer LSTM (int8 activations) is not supported yet: the first operator
    that needs it is named."""
    path = MODELS / "seed_lstm_full_integer.tflite"
    with pytest.raises(TFLiteError, match=r"seed_lstm_full_integer\.tflite: error: operator "
                       r"#\d+ \(QUANTIZE\) in subgraph 'main': the builtin operator QUANTIZE "
                       r"is not supported"):
        import_tflite(path)
    result = subprocess.run([str(BIN / "tosa-state-run"), str(path)], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 1 and "Traceback" not in result.stderr
    assert "(QUANTIZE)" in result.stderr


def _quantize_op(model: object) -> object:
    """The first QUANTIZE of the full-integer model's main subgraph."""
    main = model.Subgraphs(0)  # type: ignore[attr-defined]
    for i in range(main.OperatorsLength()):
        code = model.OperatorCodes(main.Operators(i).OpcodeIndex())  # type: ignore[attr-defined]
        if code.DeprecatedBuiltinCode() == 114:  # QUANTIZE
            return main.Operators(i)
    raise AssertionError("no QUANTIZE")


@pytest.mark.parametrize(("element", "form"), [(None, "i8, per-tensor"), (7, "i16, per-tensor")])
def test_quantized_activations_are_refused_naming_the_operator(
        tmp_path: Path, element: int | None, form: str) -> None:
    """The QUANTIZE turned into a RESHAPE (supported) of a float tensor into a quantized one
    (int8, or int16 with the output's type patched): refused, naming the operator."""
    from test_tflite_errors import _field, _patched

    def opcode(slot: int) -> Callable[[object], int]:
        return lambda m: _field(m.OperatorCodes(_quantize_op(m).OpcodeIndex()), slot)

    def output_type(m: object) -> int:
        op = _quantize_op(m)
        return _field(m.Subgraphs(0).Tensors(op.Outputs(0)), 6)  # type: ignore[attr-defined]

    patches: list = [(opcode(10), "<i", 22)]  # builtin_code = RESHAPE
    if element is not None:
        patches.append((output_type, "<B", element))
    path = tmp_path / "patched.tflite"
    path.write_bytes(_patched("quantized/seed_lstm_full_integer", opcode(4), "<b", 22,
                              *patches))
    with pytest.raises(TFLiteError, match=rf"operator #\d+ \(RESHAPE\) in subgraph 'main': "
                       rf"output tensor #\d+ \('tfl.quantize'\) is quantized \({form}\), which "
                       r"tosa-state does not support for this operator yet"):
        import_tflite(path)


def test_a_hybrid_weight_with_a_zero_point_is_refused(tmp_path: Path) -> None:
    """LiteRT's hybrid kernels take symmetric int8 weights: a zero point is refused."""
    from test_tflite_errors import _patched, _vector_element

    def zero_point(m: object) -> int:
        body = next(m.Subgraphs(i) for i in range(m.SubgraphsLength())  # type: ignore[attr-defined]
                    if m.Subgraphs(i).Name().endswith(b"while_body"))  # type: ignore[attr-defined]
        weight = next(body.Tensors(i) for i in range(body.TensorsLength())
                      if body.Tensors(i).Name().endswith(b"lstm_cell_1/MatMul_1"))
        return _vector_element(weight.Quantization(), 10, 0, size=8)

    path = tmp_path / "patched.tflite"
    path.write_bytes(_patched("quantized/seed_lstm_dynamic_range", zero_point, "<q", 3))
    with pytest.raises(TFLiteError, match=r"operator #\d+ \(FULLY_CONNECTED\) in subgraph "
                       r"'functional_1/lstm_1/while_body': input tensor #\d+ \('.*MatMul_1'\): "
                       r"a hybrid weight must be a constant int8 tensor with zero points 0, "
                       r"got i8, per-channel \(80 scales, dimension 0\)"):
        import_tflite(path)


@pytest.mark.peers
def test_upstream_mlir_parses_the_converted_hybrid_model(upstream_mlir_tools: None) -> None:
    from peers.upstream_mlir import iree_opt

    module = import_tflite(MODELS / "seed_lstm_dynamic_range.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    out = iree_opt(print_module(module, spelling="upstream", generic=True),
                   "--mlir-print-op-generic")
    assert out.count('"tosa.variable"') == 2 and '"tosa.matmul"' in out
    assert "tensor<1x64x80xi8>" in out
