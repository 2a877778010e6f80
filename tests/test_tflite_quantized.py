"""Quantized TFLite models (tests/tflite_models/quantized, made by make_tflite_models.py)
against LiteRT's built-in kernels (not XNNPACK), step by step with resets: the
dynamic-range (int8 weights, float activations) stateful LSTM, GRU and Conv1D within
`TOLERANCE` (a few f32 ulps); the fused dynamic-range LSTM, the full-integer (int8)
stateful LSTM and GRU and a model of the other int8 operators bit-exactly; and the refusals
of what is not supported yet."""

from __future__ import annotations

import re
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import test_tflite

import tosa_state as ts
from tosa_state.frontends.tflite import TFLiteError, import_tflite
from tosa_state.printing import print_module
from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass

MODELS = Path(__file__).parent / "tflite_models" / "quantized"
HYBRID = ["conv1d_streaming_dynamic_range", "gru_dynamic_range", "seed_lstm_dynamic_range"]
FULL_INTEGER = ["gru_full_integer", "int8_ops_full_integer", "seed_lstm_full_integer"]
BIN = Path(sys.executable).parent
TOLERANCE = 1e-6
"""|tosa-state - LiteRT| of the hybrid seed LSTM, GRU and Conv1D (the unfused cells: their f32
products sum in another order than LiteRT's). Measured on the fixtures' 12 steps: seed LSTM
1.8e-7, GRU 2.4e-7, Conv1D 1.8e-7 (`tosa-state-run`: the GRU's 2.4e-7); 4x the largest.
The fused LSTM is compared bit for bit."""


def _golden(name: str) -> dict[str, np.ndarray]:
    with np.load(MODELS / f"{name}_keras.npz") as data:
        return {k: data[k] for k in data.files}


def builtin_litert(path: Path) -> test_tflite.LiteRT:
    """LiteRT with its built-in kernels; a reset recreates the interpreter."""
    return test_tflite.LiteRT(path, builtin_kernels=True)


@pytest.mark.parametrize("name", HYBRID)
def test_hybrid_matches_litert(name: str) -> None:
    """Within `TOLERANCE` of LiteRT's hybrid kernels at every step, with a reset; Keras's
    float model is further away (the int8 weights and the per-call input quantization:
    measured 5.1e-3 to 1.2e-2)."""
    golden = _golden(name)
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    litert = builtin_litert(MODELS / f"{name}.tflite")
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
    assert 1e-3 < float_gap < 0.1  # quantized, yet close to Keras's float model


def test_hybrid_fused_lstm_matches_litert() -> None:
    """The tf_keras LSTM fused to UNIDIRECTIONAL_SEQUENCE_LSTM with int8 weights: equal to
    LiteRT's hybrid kernel bit for bit at every step, with a reset (its h is kept across
    calls in variable tensors; docs/tflite.md: the lowering reproduces LiteRT's arithmetic)."""
    name = "tf_keras_lstm_dynamic_range"
    golden = _golden(name)
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    litert = builtin_litert(MODELS / f"{name}.tflite")
    for step, x in enumerate(golden["inputs"]):
        if step in set(golden["reset_at"].tolist()):
            request.reset_state()
            litert.reset_state()
        (ours,) = request.infer([x])
        np.testing.assert_array_equal(ours, litert.infer(x), err_msg=f"step {step}")
    names = [s.name for s in request.query_state()]
    assert len(names) == 2 and all(s.state.any() for s in request.query_state())


def test_hybrid_fused_lstm_equals_litert_on_a_long_randomized_run() -> None:
    """300 calls (3 steps each, a reset every 12) of seeded random inputs at three times the
    fixture's input scale: every output bitwise equal to LiteRT's.
    The lowering reproduces LiteRT's x86 hybrid cell exactly: its per-call input
    quantization and Eigen's sigmoid / tanh (docs/tflite.md). Before (`tosa.sigmoid` /
    `tosa.tanh`, the former quantization) no call here was bitwise equal and 5 were beyond
    1e-4 (up to 3.6e-3)."""
    name = "tf_keras_lstm_dynamic_range"
    scale = 3 * round(float(_golden(name)["inputs"].std()), 1)  # the fixture's std is 1.0
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    litert = builtin_litert(MODELS / f"{name}.tflite")
    rng = np.random.default_rng(1)
    different = []
    for call in range(300):
        if call and call % 12 == 0:
            request.reset_state()
            litert.reset_state()
        x = (rng.standard_normal((1, 3, 32)) * scale).astype(np.float32)
        (ours,) = request.infer([x])
        theirs = litert.infer(x)
        if not np.array_equal(ours, theirs):
            different.append((call, float(np.abs(ours - theirs).max())))
    assert not different, f"not bitwise equal to LiteRT on (call, max error) {different}"


def litert_sigmoid(x: np.ndarray) -> np.ndarray:
    """LiteRT's x86 f32 sigmoid (Eigen's `scalar_logistic_op<float>::packetOp`, SSE, no
    FMA), each operation rounded to f32 as there (constants from its binary)."""
    f32 = np.float32
    x = x.astype(f32)
    t = np.minimum(x, f32(16.63553237915039)) * f32(0.5)
    m = np.floor(t * f32(1.4426950216293335) + f32(0.5))
    r = m * f32(-0.693359375) + t
    r = m * f32(2.1219444170128554e-4) + r
    r2 = r * r
    even = r2 * f32(0.04189866781234741) + f32(0.49999141693115234)
    odd = r2 * f32(0.00833471305668354) + f32(0.16666877269744873)
    p = r2 * (r * odd + even) + (r + f32(1))
    power = (np.clip(m + f32(127), 0, 255).astype(np.int32) << 23).view(f32) * p
    squared = power * power
    return np.where(x < f32(-104), f32(0), squared / (squared + f32(1)))


def litert_tanh(x: np.ndarray) -> np.ndarray:
    """LiteRT's x86 f32 tanh (Eigen's `ptanh_float`, SSE, no FMA)."""
    f32 = np.float32
    x = np.clip(x.astype(f32), f32(-7.9073896408081055), f32(7.9073896408081055))
    x2 = x * x
    p = f32(1.3945536281312343e-08)
    for c in (2.1027335606049746e-05, 0.0035207567270845175, 0.1340216100215912):
        p = p * x2 + f32(c)
    q = f32(8.015776984393597e-07)
    for c in (0.0003326951409690082, 0.02597254514694214, 0.46735483407974243, 1.0):
        q = q * x2 + f32(c)
    return (p * (x * x2) + x) / q


def _folded(function: Callable[..., object], *arrays: np.ndarray) -> np.ndarray:
    """`function(emitter, *constants)` folded to a constant by the conversion's emitter
    (which runs the interpreter's kernels on constant operands)."""
    from tosa_state.transforms.tosa_builder.emitter import Emitter, Lowering
    from tosa_state.transforms.tosa_builder.values import constant

    e = Emitter(Lowering(), None)
    return np.asarray(constant(function(e, *(e.const(a) for a in arrays))))


def test_hybrid_lstm_arithmetic_equals_litert_bit_for_bit() -> None:
    """The lowered pieces of the hybrid LSTM, on random values over their whole ranges (the
    cut-offs included), against numpy replicas of LiteRT's x86 code: sigmoid and tanh, the
    correctly rounded division, and the zero point of the per-row input quantization
    (doubles in LiteRT: `-128 - min / s` or `127 - max / s`)."""
    from tosa_state.transforms.tflite_to_tosa.quantized import divide, nudged_zero_point
    from tosa_state.transforms.tflite_to_tosa.rnn import eigen_sigmoid, eigen_tanh

    rng = np.random.default_rng(7)
    n = 1 << 16
    x = np.concatenate([rng.uniform(-120, 20, n), rng.standard_normal(n) * 3,
                        [-104, -104.0001, -103.9999, 0, 16.63553, 16.6356, 7.90739, -7.9074]])
    x = x.astype(np.float32).reshape(1, -1)
    np.testing.assert_array_equal(_folded(eigen_sigmoid, x), litert_sigmoid(x))
    np.testing.assert_array_equal(_folded(eigen_tanh, x), litert_tanh(x))
    a = (rng.uniform(-1e4, 1e4, n) * 2.0 ** rng.integers(-40, 40, n)).astype(np.float32)
    b = (rng.uniform(0.5, 2, n) * 2.0 ** rng.integers(-20, 40, n)).astype(np.float32)
    np.testing.assert_array_equal(_folded(divide, a[None], b[None]), (a / b)[None])

    low = -(rng.uniform(0, 1, n) ** 2 * rng.choice([1e-3, 1, 10, 100], n)).astype(np.float32)
    high = (rng.uniform(0, 1, n) ** 2 * rng.choice([1e-3, 1, 10, 100], n)).astype(np.float32)
    low[:100], high[100:200] = 0, 0
    spread = high - low
    scale = spread.astype(np.float64) / 255
    from_min = -128 - low / scale
    from_max = 127 - high / scale
    point = np.where(128 + np.abs(low / scale) < 127 + np.abs(high / scale), from_min, from_max)
    expected = np.clip(np.trunc(point + np.copysign(0.5, point)), -128, 127)
    ours = _folded(nudged_zero_point, low[:, None], high[:, None], spread[:, None]).ravel()
    np.testing.assert_array_equal(ours, expected)


def test_hybrid_fused_lstm_set_state_matches_litert() -> None:
    """set_state on the variable tensors (h, c) and LiteRT's set_tensor on the same tensors:
    the next calls agree bit for bit (measured: equal with seeds 3 to 6)."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    name = "tf_keras_lstm_dynamic_range"
    interpreter = Interpreter(
        model_path=str(MODELS / f"{name}.tflite"),
        experimental_op_resolver_type=OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    interpreter.allocate_tensors()
    runner = interpreter.get_signature_runner()
    (input_name,) = runner.get_input_details()
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    index = {d["name"]: d["index"] for d in interpreter.get_tensor_details()}
    rng = np.random.default_rng(3)
    golden = _golden(name)
    for state in request.query_state():
        value = rng.uniform(-0.9, 0.9, state.state.shape).astype(np.float32)
        state.state = value
        interpreter.set_tensor(index[state.name], value)
    for x in golden["inputs"][:3]:
        (theirs,) = runner(**{input_name: x}).values()
        np.testing.assert_array_equal(request.infer([x])[0], theirs)


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
    """The converted modules hold the int8 weights (FULLY_CONNECTED's and the LSTM's
    transposed) and no f32 copy of them; the hybrid CONV_2D is an i8 tosa.conv2d into
    i32."""
    module = import_tflite(MODELS / "seed_lstm_dynamic_range.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    assert text.count("-> tensor<1x64x80xi8>") == 1 and text.count("-> tensor<1x20x80xi8>") == 1
    for f32_copy in ("tensor<1x64x80xf32>", "tensor<64x80xf32>", "tensor<80x64xf32>",
                     "tensor<20x80xf32>", "tensor<80x20xf32>"):
        assert f32_copy not in text
    assert "tosa.matmul" in text and "xi8>) -> tensor<1x1x80xi32>" in text
    module = import_tflite(MODELS / "conv1d_streaming_dynamic_range.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    assert "-> tensor<32x1x3x16xi8>" in text and "xf32>) -> tensor<32x1x3x16xf32>" not in text
    assert "{acc_type = i32," in text
    module = import_tflite(MODELS / "tf_keras_lstm_dynamic_range.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    for shape in ("1x32x64", "1x64x64"):  # one int8 constant per gate, shared by the steps
        assert len(re.findall(rf'"tosa\.const"\(\) .*-> tensor<{shape}xi8>', text)) == 4
        assert f"tensor<{shape}xf32>" not in text


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
    litert = builtin_litert(MODELS / f"{name}.tflite")
    for step, x in enumerate(golden["inputs"]):
        if step == reset:
            litert.reset_state()
        np.testing.assert_allclose(ours[step], litert.infer(x), rtol=0, atol=TOLERANCE)


def _quantized_inputs(name: str, litert: test_tflite.LiteRT) -> list[np.ndarray]:
    """The goldens' float inputs quantized with the model's input scale and zero point, then
    uniform random int8 steps (saturating the arithmetic)."""
    golden = _golden(name)
    detail = litert.runner.get_input_details()[litert.input_name]
    scale, zero = detail["quantization"]
    steps = [np.clip(np.round(x / scale) + zero, -128, 127).astype(np.int8)
             for x in golden["inputs"]]
    rng = np.random.default_rng(18)
    shape = golden["inputs"].shape[1:]
    steps += [rng.integers(-128, 128, shape).astype(np.int8) for _ in range(3 * len(steps))]
    return steps


@pytest.mark.parametrize("name", FULL_INTEGER)
def test_full_integer_matches_litert_bit_exactly(name: str) -> None:
    """int8 in, int8 out, equal to LiteRT's built-in kernels at every step, with resets; the
    state (f32 variables between QUANTIZE / DEQUANTIZE) carried across calls."""
    litert = builtin_litert(MODELS / f"{name}.tflite")
    request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    steps = _quantized_inputs(name, litert)
    resets = {int(_golden(name)["reset_at"][0]), len(steps) // 2}
    for step, x in enumerate(steps):
        if step in resets:
            request.reset_state()
            litert.reset_state()
        (ours,) = request.infer([x])
        assert ours.dtype == np.int8
        np.testing.assert_array_equal(ours, litert.infer(x), err_msg=f"{name}: step {step}")


def test_full_integer_state_is_settable_and_float() -> None:
    compiled = ts.compile_model(MODELS / "seed_lstm_full_integer.tflite")
    first, second = compiled.create_infer_request(), compiled.create_infer_request()
    steps = _quantized_inputs("seed_lstm_full_integer",
                              builtin_litert(MODELS / "seed_lstm_full_integer.tflite"))
    for x in steps[:4]:
        first.infer([x])
    states = {s.name: s.state for s in first.query_state()}
    assert set(states) == {"lstm/rnn_state", "lstm/rnn_state_1"}
    assert all(v.dtype == np.float32 and v.any() for v in states.values())
    for s in second.query_state():
        s.state = states[s.name]
    np.testing.assert_array_equal(second.infer([steps[4]])[0], first.infer([steps[4]])[0])
    first.reset_state()
    assert all(not s.state.any() for s in first.query_state())


def test_full_integer_runs_in_tosa_state_run(tmp_path: Path) -> None:
    name = "seed_lstm_full_integer"
    litert = builtin_litert(MODELS / f"{name}.tflite")
    steps = np.stack(_quantized_inputs(name, litert)[:12])
    np.savez(tmp_path / "in.npz", keras_tensor=steps)
    result = subprocess.run(
        [str(BIN / "tosa-state-run"), str(MODELS / f"{name}.tflite"), "--inputs",
         str(tmp_path / "in.npz"), "--reset-at", "6", "-o", str(tmp_path / "out.npz")],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    with np.load(tmp_path / "out.npz") as out:
        ours = out["result0"]
    for step, x in enumerate(steps):
        if step == 6:
            litert.reset_state()
        np.testing.assert_array_equal(ours[step], litert.infer(x))


def test_full_integer_lowers_to_the_integer_profile() -> None:
    """int8 FULLY_CONNECTED is an i8 x i8 -> i32 tosa.matmul with the input's zero point and
    rescales; LOGISTIC a tosa.table; no float op but at QUANTIZE / DEQUANTIZE."""
    module = import_tflite(MODELS / "seed_lstm_full_integer.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    text = print_module(module)
    assert "tfl." not in text.replace("tfl.file", "")
    assert text.count("tosa.table") == 3 and text.count("tosa.matmul") == 3
    assert "(tensor<1x1x64xi8>, tensor<1x64x80xi8>, tensor<1xi8>, tensor<1xi8>) -> " \
           "tensor<1x1x80xi32>" in text
    assert "rounding_mode = DOUBLE_ROUND" in text and "per_channel = true" in text
    assert "tosa.sigmoid" not in text and "xf32> -> tensor<1x64x80xf32>" not in text


def _quantize_op(model: object) -> object:
    """The first QUANTIZE of the full-integer model's main subgraph."""
    main = model.Subgraphs(0)  # type: ignore[attr-defined]
    for i in range(main.OperatorsLength()):
        code = model.OperatorCodes(main.Operators(i).OpcodeIndex())  # type: ignore[attr-defined]
        if code.DeprecatedBuiltinCode() == 114:  # QUANTIZE
            return main.Operators(i)
    raise AssertionError("no QUANTIZE")


@pytest.mark.parametrize(("element", "message"), [
    (None, r"tensor #\d+ \('.*'\) is float while others of the operator are quantized, which "
           r"tosa-state does not support for this operator yet"),
    (7, r"output tensor #\d+ \('tfl.quantize'\) is quantized \(i16, per-tensor\), which "
        r"tosa-state does not support for this operator yet")])
def test_unsupported_quantized_forms_are_refused_naming_the_operator(
        tmp_path: Path, element: int | None, message: str) -> None:
    """The QUANTIZE turned into a RESHAPE of a float tensor into a quantized one (int8: a
    float and a quantized tensor mixed; int16 with the output's type patched: int16
    activations): refused, naming the operator."""
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
    with pytest.raises(TFLiteError, match=r"operator #\d+ \(RESHAPE\) in subgraph 'main': "
                       + message):
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


@pytest.mark.peers
def test_the_tosa_reference_model_runs_the_full_integer_lstm(tosa_reference_tools: None) -> None:
    """The lowered full-integer LSTM parses in upstream MLIR and runs in the TOSA reference
    model with the interpreter's outputs and states, bit for bit, over steps with a reset."""
    from peers.tosa_reference import run_reference

    name = "seed_lstm_full_integer"
    module = import_tflite(MODELS / f"{name}.tflite")
    ConvertTFLiteToTosaPass().apply(ts.make_context(), module)
    steps = [[x] for x in _quantized_inputs(name, builtin_litert(MODELS / f"{name}.tflite"))[:8]]
    reference = run_reference(print_module(module, spelling="upstream"), steps, {5})
    request = ts.compile_model(module).create_infer_request()
    for k, (x,) in enumerate(steps):
        if k == 5:
            request.reset_state()
        (ours,) = request.infer([x])
        np.testing.assert_array_equal(ours, reference.outputs[k][0], err_msg=f"step {k}")
        for state in request.query_state():
            np.testing.assert_array_equal(state.state, reference.state[k][state.name])
