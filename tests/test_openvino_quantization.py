"""FakeQuantize-1 against OpenVINO's reference formula (`fake_quantize.hpp`, re-stated in
numpy below) and the OpenVINO runtime, and an NNCF-quantized streaming convolution model
(`nncf.quantize` at test time, benchmarks/nncf_stream.py) against OpenVINO CPU's int8 result and the float formula,
through `compile_model`, `tosa-state-run` and `tosa-state validate`."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from nncf_stream import CHANNELS, FRAMES, HIDDEN, KERNEL, UNITS, quantized_stream
from peers.upstream_mlir import iree_opt
from test_error_paths import _edit, assert_clean_failure, cli, opt_xml_fails
from test_run_tool import npz

import tosa_state as ts
from tosa_state.tools import main as tosa_state_main
from tosa_state.tools import opt, run
from tosa_state.transforms.openvino_to_tosa.quantization import int8_pair, int8_weights

pytestmark = pytest.mark.peers

F32 = {"INFERENCE_PRECISION_HINT": "f32"}
FORMULA_TOLERANCE = 2e-6
"""|tosa-state - the reference formula| (numpy): at least 5.9x the largest measured by the
tests using it (FakeQuantize alone: 0 to 2.4e-7; the int8 products: 2.7e-7, 3.4e-7)."""
CPU_TOLERANCE = 4e-6
"""|OpenVINO CPU - the formula| and |tosa-state - OpenVINO CPU| on random values: 5.6x the
largest seen (7.2e-7; 2.4e-7 and 4.8e-7 in the last measurement)."""


def reference(x: np.ndarray, low: np.ndarray, high: np.ndarray, out_low: np.ndarray,
              out_high: np.ndarray, levels: int) -> np.ndarray:
    """OpenVINO's `reference::fake_quantize` for f32: every operation rounded to f32,
    `std::nearbyint` (half to even)."""
    x, low, high, out_low, out_high = np.broadcast_arrays(
        *(np.asarray(a, np.float32) for a in (x, low, high, out_low, out_high)))
    steps = np.float32(levels - 1)
    with np.errstate(all="ignore"):
        ratio = ((x - low) / (high - low)).astype(np.float32)
        level = np.rint((ratio * steps).astype(np.float32))
        value = ((level / steps).astype(np.float32) * (out_high - out_low)).astype(np.float32)
        value = (value + out_low).astype(np.float32)
    return np.where(x <= np.minimum(low, high), out_low,
                    np.where(x > np.maximum(low, high), out_high, value)).astype(np.float32)


def _ties(rng: np.random.Generator, low: np.ndarray, high: np.ndarray, levels: int,
          shape: tuple[int, ...]) -> np.ndarray:
    """Inputs on (or within an ulp of) the midpoints between levels: rounding ties."""
    k = rng.integers(0, levels - 1, np.broadcast_shapes(low.shape, shape))
    return (low + ((k + 0.5) / (levels - 1)) * (high - low)).astype(np.float32)


SHAPE = (2, 3, 40)
BOUND_SHAPES = {"per_tensor": (), "per_channel": (1, 3, 1), "broadcast": (3, 1),
                "trailing": (40,)}


def _bounds(rng: np.random.Generator, shape: tuple[int, ...], inverted: bool = False
            ) -> list[np.ndarray]:
    low = rng.uniform(-3, 0.5, shape).astype(np.float32)
    high = (low + rng.uniform(0.2, 4, shape)).astype(np.float32)
    out_low = rng.uniform(-2, 1, shape).astype(np.float32)
    out_high = rng.uniform(-1, 3, shape).astype(np.float32)  # may lie below out_low
    if inverted:
        low, high = high, low
    return [low, high, out_low, out_high]


@pytest.mark.parametrize("levels", [2, 16, 255, 256])
def test_fake_quantize_matches_the_reference_formula(openvino_runtime: None, tmp_path: Path,
                                                     levels: int) -> None:
    """Random ranges per tensor, per channel and numpy-broadcast (one of them inverted, one
    empty, one computed from an input), on random values and on rounding ties: within
    `FORMULA_TOLERANCE` of the reference formula (in fact equal); OpenVINO CPU agrees on the random values (its own
    decomposition rounds some ties the other way: there it is one level away; it refuses
    bounds along the last axis and reads inverted and empty ranges otherwise, so those are
    checked against the formula only)."""
    rng = np.random.default_rng(levels)
    bounds = {name: _bounds(rng, shape) for name, shape in BOUND_SHAPES.items()}
    bounds["inverted"] = _bounds(rng, (1, 3, 1), inverted=True)
    bounds["computed"] = _bounds(rng, (1, 3, 1))
    bounds["empty"] = _bounds(rng, (1, 3, 1))  # input_low == input_high in one channel
    bounds["empty"][1][0, 1, 0] = bounds["empty"][0][0, 1, 0]
    params = {name: ops.parameter(SHAPE, np.float32, name=name) for name in bounds}
    computed_low = ops.parameter((1, 3, 1), np.float32, name="low")
    outputs = []
    for name, (low, high, out_low, out_high) in bounds.items():
        if name == "computed":
            high_value = ops.add(computed_low, ops.constant(high - low))
            outputs.append(ops.fake_quantize(params[name], computed_low, high_value,
                                             ops.constant(out_low), ops.constant(out_high),
                                             levels))
        else:
            outputs.append(ops.fake_quantize(params[name], *map(ops.constant, bounds[name]),
                                             levels))
    model = ov.Model(outputs, [*params.values(), computed_low])
    ov.save_model(model, tmp_path / "fq.xml", compress_to_fp16=False)
    compiled = ts.compile_model(tmp_path / "fq.xml")
    # The CPU plugin takes bounds per tensor or per channel (axis 0 or 1) only, and gives
    # inverted ranges (input_low > input_high) another meaning than the reference, and NaN
    # for an empty one.
    cpu = [name for name in bounds if name not in ("trailing", "inverted", "empty")]
    theirs = ov.Core().compile_model(
        ov.Model([outputs[list(bounds).index(n)] for n in cpu],
                 [*(params[n] for n in cpu), computed_low]), "CPU", F32)

    random = {name: rng.uniform(-5, 5, SHAPE).astype(np.float32) for name in bounds}
    ties = {name: _ties(rng, *np.broadcast_arrays(b[0], b[1], random[name])[:2], levels, ())
            for name, b in bounds.items()}
    for values in (random, ties):
        inputs = {**values, "low": bounds["computed"][0]}
        ours = compiled.create_infer_request().infer(inputs)
        ov_out = dict(zip(cpu, theirs({k: v for k, v in inputs.items()
                                       if k in (*cpu, "low")}).to_tuple(), strict=True))
        for i, (name, b) in enumerate(bounds.items()):
            want = reference(values[name], *b, levels)
            np.testing.assert_allclose(ours[i], want, rtol=0, atol=FORMULA_TOLERANCE,
                                       err_msg=name)
            if name not in cpu:
                continue
            if values is random:
                np.testing.assert_allclose(ov_out[name], want, rtol=0, atol=CPU_TOLERANCE,
                                           err_msg=name)
            else:
                step = np.abs(np.broadcast_to(b[3] - b[2], SHAPE)) / (levels - 1)
                assert np.all(np.abs(ov_out[name] - want) <= step + 1e-5), name


def _openvino_reference(values: np.ndarray, bounds: list[np.ndarray], levels: int) -> np.ndarray:
    """OpenVINO's own `reference::fake_quantize` (`Node.evaluate`, as constant folding runs
    it)."""
    node = ops.fake_quantize(ops.parameter(list(values.shape), np.float32),
                             *(ops.constant(b) for b in bounds), levels)
    out = ov.Tensor(np.zeros(values.shape, np.float32))
    assert node.evaluate([out], [ov.Tensor(values), *(ov.Tensor(b) for b in bounds)])
    return out.data.copy()


def _near_thresholds(low: np.ndarray, high: np.ndarray, levels: int, ulps: int) -> np.ndarray:
    """Per channel (axis 1): every f32 within `ulps` of each midpoint between levels."""
    k = np.arange(levels - 1, dtype=np.float64)
    mids = (low.astype(np.float64).reshape(-1, 1)
            + (k + 0.5) / (levels - 1) * (high - low).astype(np.float64).reshape(-1, 1)
            ).astype(np.float32)
    offsets = np.arange(-ulps, ulps + 1, dtype=np.int64)
    bits = mids.view(np.int32).astype(np.int64)[:, :, None] + np.where(
        mids[:, :, None] < 0, -offsets, offsets)
    values = bits.astype(np.int32).view(np.float32).reshape(1, len(mids), -1)
    return np.where(np.isfinite(values), values, np.float32(0))


@pytest.mark.parametrize("levels", [2, 16, 255, 256])
def test_fake_quantize_is_openvino_s_reference_bit_for_bit(tmp_path: Path, levels: int) -> None:
    """Constant bounds (per channel; one an int8 pair's range): the lowering in f32 / i32
    TOSA ops (no f64) gives OpenVINO's own reference implementation's result bit for bit on
    a dense sweep — every f32 within 300 ulps of each rounding threshold of each channel,
    plus 20 000 random values per channel and the infinities — and the TOSA target check
    admits it for PRO-FP."""
    rng = np.random.default_rng(levels + 100)
    channels = 3
    low = rng.uniform(-3, 0.5, (1, channels, 1)).astype(np.float32)
    high = (low + rng.uniform(0.2, 4, (1, channels, 1))).astype(np.float32)
    low[0, 0, 0], high[0, 0, 0] = -38 * np.float32(0.013), (255 - 38) * np.float32(0.013)
    out_low = rng.uniform(-2, 1, (1, channels, 1)).astype(np.float32)
    out_high = rng.uniform(-1, 3, (1, channels, 1)).astype(np.float32)
    bounds = [low, high, out_low, out_high]
    values = np.concatenate(
        [_near_thresholds(low, high, levels, 300),
         rng.uniform(-6, 6, (1, channels, 20000)).astype(np.float32),
         np.broadcast_to(np.array([np.inf, -np.inf, 0, -0.0], np.float32), (1, channels, 4))],
        axis=2).astype(np.float32)
    x = ops.parameter(list(values.shape), np.float32, name="x")
    model = ov.Model([ops.fake_quantize(x, *(ops.constant(b) for b in bounds), levels)], [x])
    xml = tmp_path / "fq.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    ours = ts.compile_model(xml).create_infer_request().infer({"x": values})[0]
    theirs = _openvino_reference(values, bounds, levels)
    np.testing.assert_array_equal(ours, theirs)
    np.testing.assert_array_equal(ours, reference(values, *bounds, levels))
    artifact = ts.compile_tosa(xml, profiles="pro_fp", extensions="")
    assert artifact.ok, artifact.report()


@pytest.mark.parametrize(
    ("name", "low", "high", "levels"),
    [("u8", 0.0, 2.7, 256), ("i8 symmetric", -1.3 * 128 / 127, 1.3, 256),
     ("asymmetric", -38 * 0.013, (255 - 38) * 0.013, 256), ("narrow", -0.9, 0.9, 255)],
)
def test_int8_pairs_become_integer_profile_ops(openvino_runtime: None, tmp_path: Path,
                                               name: str, low: float, high: float,
                                               levels: int) -> None:
    """NNCF's activation ranges (unsigned, signed, asymmetric, narrow): `tosa.rescale` to i8
    and back with the zero point; within `FORMULA_TOLERANCE` of the reference formula on ties
    too."""
    bounds = [np.array(v, np.float32) for v in (low, high, low, high)]
    pair = int8_pair(levels, bounds)
    assert pair is not None
    x = ops.parameter((4, 500), np.float32, name="x")
    consts = [ops.constant(b) for b in bounds[:2]]
    model = ov.Model([ops.fake_quantize(x, consts[0], consts[1], consts[0], consts[1], levels)],
                     [x])
    xml = tmp_path / "pair.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    code, lowered, err = cli(opt.main, str(xml), "-p", "convert-openvino-to-tosa")
    assert code == 0, err
    assert "-> tensor<4x500xi8>" in lowered and lowered.count("tosa.rescale") == 2
    assert "tosa.select" not in lowered
    rng = np.random.default_rng(7)
    values = np.concatenate([rng.uniform(-3, 3, (2, 500)),
                             _ties(rng, bounds[0], bounds[1], levels, (2, 500))]
                            ).astype(np.float32)
    ours = ts.compile_model(xml).create_infer_request().infer({"x": values})[0]
    np.testing.assert_allclose(ours, reference(values, *bounds, levels), rtol=0,
                               atol=FORMULA_TOLERANCE)


@pytest.mark.parametrize("dtype", [np.float16, np.float32])
def test_nan_and_half_precision(openvino_runtime: None, tmp_path: Path, dtype: type) -> None:
    """NaN stays NaN, as in the reference (the CPU plugin gives output_low); f16 is computed
    in f32 and rounded once, as the CPU plugin does."""
    x = ops.parameter((2, 50), dtype, name="x")
    low, high = ops.constant(np.array(-1.1, dtype)), ops.constant(np.array(2.3, dtype))
    model = ov.Model([ops.fake_quantize(x, low, high, low, high, 16)], [x])
    ov.save_model(model, tmp_path / "fq.xml", compress_to_fp16=False)
    values = np.random.default_rng(0).uniform(-3, 3, (2, 50)).astype(dtype)
    values[0, 0] = np.nan
    ours = ts.compile_model(tmp_path / "fq.xml").create_infer_request().infer({"x": values})[0]
    assert ours.dtype == dtype and np.isnan(ours[0, 0])
    theirs = ov.Core().compile_model(model, "CPU", F32)({"x": values})[0]
    np.testing.assert_allclose(ours.reshape(-1)[1:], theirs.reshape(-1)[1:], rtol=0,
                               atol=4 * np.finfo(dtype).eps)  # a few ulps of the range
    bounds = [np.float32(dtype(v)) for v in (-1.1, 2.3, -1.1, 2.3)]
    want = reference(values.astype(np.float32), *bounds, 16).astype(dtype)
    np.testing.assert_array_equal(ours, want)


def test_dynamic_dims(openvino_runtime: None, tmp_path: Path) -> None:
    """An input of shape [?, ?, 8]: the int8 pair and its i8 `tosa.matmul` keep the dynamic
    dims (`tensor<1x?x8xi8>`), and so does the float form; two shapes per compiled model."""
    x = ops.parameter([-1, -1, 8], np.float32, name="x")
    low, high = ops.constant(np.float32(0)), ops.constant(np.float32(2.55))
    weights = (np.random.default_rng(0).integers(-127, 128, (8, 4)) * np.float32(0.01)
               ).astype(np.float32)
    weights[0] = np.float32(1.27)
    product = ops.matmul(ops.fake_quantize(x, low, high, low, high, 256), ops.constant(weights),
                         False, False)
    float_form = ops.fake_quantize(x, ops.constant(np.float32(-1)), ops.constant(np.float32(1)),
                                   low, high, 16)
    model = ov.Model([product, float_form], [x])
    xml = tmp_path / "dynamic.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    code, lowered, err = cli(opt.main, str(xml), "-p", "convert-openvino-to-tosa")
    assert code == 0, err
    assert "(tensor<1x?x8xi8>, tensor<1x8x4xi8>, tensor<1xi8>, tensor<1xi8>) -> " \
           "tensor<1x?x4xi32>" in lowered
    compiled = ts.compile_model(xml)
    theirs = ov.Core().compile_model(model, "CPU", F32)
    for shape in ((2, 3, 8), (1, 5, 8)):
        values = np.random.default_rng(1).uniform(-1, 3, shape).astype(np.float32)
        ours = compiled.create_infer_request().infer({"x": values})
        np.testing.assert_allclose(ours[0], theirs({"x": values})[0], rtol=0,
                                   atol=CPU_TOLERANCE)
        np.testing.assert_allclose(ours[1], reference(values, -1, 1, 0, 2.55, 16), rtol=0,
                                   atol=FORMULA_TOLERANCE)


def test_ranges_that_are_not_int8_pairs_stay_float() -> None:
    f = np.float32
    assert int8_pair(256, [f(-1), f(1), f(-1), f(1)]) is None  # zero point 127.5
    assert int8_pair(256, [f(0), f(1), f(0), f(2)]) is None  # output range differs
    assert int8_pair(16, [f(0), f(1), f(0), f(1)]) is None
    assert int8_pair(256, [f(0), f(1), None, f(1)]) is None  # computed bound
    assert int8_pair(256, [np.zeros(3, f), f(1), f(0), f(1)]) is None  # per channel


def test_int8_weights_are_recovered_only_when_exact() -> None:
    rng = np.random.default_rng(0)
    q = rng.integers(-127, 128, (6, 4, 3)).astype(np.int8)
    q[:, 0, 0] = 127
    scales = rng.uniform(1e-3, 1e-1, 6).astype(np.float32)
    weights = (q.astype(np.float32) * scales[:, None, None]).astype(np.float32)
    found = int8_weights(weights, 0)
    assert found is not None and np.array_equal(found[0], q)
    np.testing.assert_allclose(found[1], scales, rtol=2e-7)
    assert int8_weights(weights + np.float32(1e-4), 0) is None
    assert int8_weights(rng.normal(size=(6, 4)).astype(np.float32), 0) is None


# ---------------------------------------------------------------------------------------------
# An NNCF-quantized streaming convolution
# ---------------------------------------------------------------------------------------------

def _constants(model: ov.Model) -> dict[str, np.ndarray]:
    return {op.get_friendly_name(): op.get_data() for op in model.get_ordered_ops()
            if op.get_type_name() == "Constant"}


def _float_formula(model: ov.Model, steps: list[np.ndarray], reset_at: int) -> list[np.ndarray]:
    """The quantized model in numpy, float64 products, FakeQuantize by `reference`."""
    fqs = [op for op in model.get_ordered_ops() if op.get_type_name() == "FakeQuantize"]
    params = [([n.get_data() for n in (op.input_value(i).get_node() for i in range(1, 5))],
               op.get_levels()) for op in fqs]
    weights = [op for op in model.get_ordered_ops() if op.get_type_name() == "Multiply"
               and op.input_value(0).get_node().get_type_name() == "Convert"]
    conv_w, linear_w = (
        (op.input_value(0).get_node().input_value(0).get_node().get_data().astype(np.float32)
         * op.input_value(1).get_node().get_data()).astype(np.float32) for op in weights)
    bias = next(v for k, v in _constants(model).items() if v.shape == (1, HIDDEN, 1))
    frames = np.zeros((1, CHANNELS, KERNEL - 1), np.float32)
    outputs = []
    for step, x in enumerate(steps):
        if step == reset_at:
            frames[...] = 0
        window = np.concatenate([frames, x], 2)
        q = reference(window, *params[0][0], params[0][1]).astype(np.float64)
        conv = np.stack([np.einsum("ck,hck->h", q[0, :, t:t + KERNEL], conv_w)
                         for t in range(FRAMES)], 1)[None]
        act = np.maximum(conv + bias, 0).astype(np.float32)
        act = reference(act, *params[1][0], params[1][1]).astype(np.float64)
        outputs.append((act.transpose(0, 2, 1) @ linear_w).astype(np.float32))
        frames = window[:, :, FRAMES:]
    return outputs


@pytest.fixture(scope="module")
def nncf_stream(tmp_path_factory: pytest.TempPathFactory
                ) -> tuple[ov.Model, Path, dict[str, object]]:
    """The streaming model quantized by `nncf.quantize` (once per module: about 6 s of
    CPU), its `.xml`, and the state of the generator after it (the first test's data)."""
    rng = np.random.default_rng(3)
    xml = tmp_path_factory.mktemp("nncf") / "quantized.xml"
    quantized = quantized_stream(rng, xml)
    return quantized, xml, rng.bit_generator.state


@pytest.mark.usefixtures("upstream_mlir_tools")
def test_nncf_quantized_streaming_convolution(
        openvino_runtime: None, tosa_reference_tools: None, tmp_path: Path,
        nncf_stream: tuple[ov.Model, Path, dict[str, object]]) -> None:
    """`nncf.quantize` (activations u8/i8 per tensor, weights i8 per channel with Convert +
    Multiply): the Convolution and the MatMul become i8 x i8 `tosa.conv2d` / `tosa.matmul`
    into i32; over 8 steps with a reset the outputs are within one quantization step of
    OpenVINO CPU's int8 result and within 5e-6 of the float reference formula, and the
    first 3 equal on device `reference` (the TOSA reference model); the lowered module
    parses in upstream MLIR (iree-opt)."""
    quantized, xml, state = nncf_stream
    rng = np.random.default_rng(3)
    rng.bit_generator.state = state
    assert sum(op.get_type_name() == "FakeQuantize" for op in quantized.get_ordered_ops()) == 2

    code, lowered, err = cli(opt.main, str(xml), "-p", "convert-openvino-to-tosa")
    assert code == 0, err
    assert "tosa.conv2d" in lowered and "-> tensor<1x1x5x8xi32>" in lowered
    assert "tosa_state.dequantize" not in lowered  # the stored int8 weights feed the products
    assert "(tensor<1x5x8xi8>, tensor<1x8x6xi8>, tensor<1xi8>, tensor<1xi8>) -> " \
           "tensor<1x5x6xi32>" in lowered
    code, upstream, err = cli(opt.main, str(xml), "-p",
                              "convert-openvino-to-tosa,tosa-to-mlprogram",
                              "--tosa-spelling", "upstream")
    assert code == 0, err
    assert "tosa.rescale" in iree_opt(upstream)  # upstream MLIR parses and verifies it

    steps, reset_at = [rng.normal(0, 1.5, (1, CHANNELS, FRAMES)).astype(np.float32)
                       for _ in range(8)], 5
    request = ts.compile_model(xml).create_infer_request()
    theirs = ov.Core().compile_model(quantized, "CPU", F32).create_infer_request()
    formula = _float_formula(quantized, steps, reset_at)
    fq_act = [op for op in quantized.get_ordered_ops() if op.get_type_name() == "FakeQuantize"][1]
    low, high = (fq_act.input_value(i).get_node().get_data() for i in (1, 2))
    linear = quantized.get_ordered_ops()
    w_abs = max(np.abs(_float_weights(linear)).sum(axis=0))
    one_step = float((high - low) / 255 * w_abs)  # a level of the MatMul's input, through it
    ours_all = []
    for step, x in enumerate(steps):
        if step == reset_at:
            request.reset_state()
            theirs.reset_state()
        ours = request.infer({"x": x})[0]
        ov_out = theirs.infer({"x": x})[0]
        assert np.abs(ours - ov_out).max() <= one_step, step
        np.testing.assert_allclose(ours, formula[step], rtol=0, atol=5e-6,  # measured 9.5e-7
                                   err_msg=str(step))
        ours_all.append(ours)
    # the float model (its FakeQuantize in f32 ops, no f64) on device `reference` too
    reference_request = ts.compile_model(xml, device="reference").create_infer_request()
    for step, x in enumerate(steps[:3]):
        np.testing.assert_array_equal(reference_request.infer({"x": x})[0], ours_all[step])

    out = tmp_path / "out.npz"
    code, _, err = cli(run.main, str(xml), "-q", "--inputs", npz(tmp_path, x=np.stack(steps)),
                       "--reset-at", str(reset_at), "-o", str(out))
    assert code == 0, err
    np.testing.assert_array_equal(np.load(out)["result0"], np.stack(ours_all))
    code, stdout, err = cli(tosa_state_main.main, "validate", str(xml), "--steps", "9", "-q",
                            "--atol", f"{one_step:.6g}", "--rtol", "0")
    assert code == 0, stdout + err
    assert "PASSED" in stdout


NPU_STEPS, NPU_RESETS, NPU_SET_STATE_AT = 24, {8, 16}, 12
ACCELERATORS = ["ethos-u55-128", "ethos-u85-256"]


@pytest.mark.usefixtures("upstream_mlir_tools")
def test_nncf_streaming_convolution_wholly_on_the_npu(
        openvino_runtime: None, tosa_reference_tools: None, tmp_path: Path,
        nncf_stream: tuple[ov.Model, Path, dict[str, object]]) -> None:
    """`tosa-state compile --target tosa --profile pro_int` of the NNCF model: int8 frames
    (`tosa-integer-frames`), integer requantization (`tosa-integer-requantize`), an int8
    input and the i32 output with its scales (`tosa-integer-io`), no float op left; Vela
    5.2.0 places every operator on the NPU of an ethos-u55-128 and an ethos-u85-256; the
    file read back runs on device `reference` bit-exact with OpenVINO CPU (given the
    dequantized input levels and frames; its f32 output equals `f32(q) * scale`) over 24
    steps with two resets and a set_state, and equal to the interpreter's run of it."""
    import json

    from peers.vela import compile_tosa
    from test_integer_state import _float_ops

    quantized, xml, _ = nncf_stream
    tosa = tmp_path / "stream.tosa"
    code, _, err = cli(tosa_state_main.main, "compile", str(xml), "--target", "tosa",
                       "--profile", "pro_int", "--extensions", "variable,doubleround",
                       "-o", str(tosa))
    assert code == 0, err
    assert _float_ops(ts.read_model(tosa)) == []
    manifest = json.loads(Path(f"{tosa}.json").read_text())
    (x_port,), (y_port,) = manifest["inputs"], manifest["outputs"]
    (frames,) = manifest["variables"]
    assert (x_port["dtype"], y_port["dtype"], frames["dtype"]) == ("int8", "int32", "int8")
    assert frames["size_bytes"] == CHANNELS * (KERNEL - 1)
    assert frames["quantization"] == x_port["quantization"]  # one FakeQuantize for both
    scale, zero_point = (np.float32(x_port["quantization"][k]) for k in ("scale", "zero_point"))
    out_scale = np.array(y_port["quantization"]["scale"], np.float32)
    assert out_scale.shape == (UNITS,) and y_port["quantization"]["zero_point"] == 0
    for accelerator in ACCELERATORS:
        result = compile_tosa(tosa, accelerator, tmp_path / accelerator)
        assert result.all_on_npu, (accelerator, result.operators)

    def real(levels: np.ndarray) -> np.ndarray:
        return ((levels.astype(np.float32) - zero_point) * scale).astype(np.float32)

    rng = np.random.default_rng(11)
    reference = ts.compile_model(tosa, device="reference").create_infer_request()
    interpreter = ts.compile_model(tosa).create_infer_request()
    cpu = ov.Core().compile_model(quantized, "CPU", F32).create_infer_request()
    for k in range(NPU_STEPS):
        if k in NPU_RESETS:
            for request in (reference, interpreter, cpu):
                request.reset_state()
        if k == NPU_SET_STATE_AT:
            past = rng.integers(-128, 128, (1, CHANNELS, KERNEL - 1)).astype(np.int8)
            for request in (reference, interpreter):
                (variable,) = request.query_state()
                variable.state = past
            (variable,) = cpu.query_state()
            variable.state = ov.Tensor(real(past))
        q = rng.integers(-128, 128, (1, CHANNELS, FRAMES)).astype(np.int8)
        (ours,) = reference.infer([q])
        assert ours.dtype == np.int32
        np.testing.assert_array_equal(ours, interpreter.infer([q])[0], err_msg=str(k))
        theirs = cpu.infer({"x": real(q)})[0]
        np.testing.assert_array_equal(ours.astype(np.float32) * out_scale, theirs,
                                      err_msg=f"step {k}")
        (state,) = reference.query_state()
        np.testing.assert_array_equal(state.state, q[:, :, FRAMES - KERNEL + 1:])


def _quantized_product(tmp_path: Path, x: object, low: np.float32, high: np.float32,
                       weights: np.ndarray, build: object) -> tuple[ov.Model, Path, str]:
    """`build(FakeQuantize(x), FakeQuantize(weights))` with an input pair on [low, high]
    (256 levels) and symmetric 255-level weights per filter (axis 0, and 1 when 4-D), saved
    and converted: (model, xml, lowered text)."""
    act = ops.fake_quantize(x, *(ops.constant(v) for v in (low, high, low, high)), 256)
    reduced = tuple(range(weights.ndim - 2 if weights.ndim == 4 else 1, weights.ndim))
    limit = np.abs(weights).max(axis=reduced, keepdims=True).astype(np.float32)
    fq_w = ops.fake_quantize(ops.constant(weights), *(ops.constant(v) for v in
                                                      (-limit, limit, -limit, limit)), 255)
    model = ov.Model([build(act, fq_w)], [x])
    xml = tmp_path / "product.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    code, lowered, err = cli(opt.main, str(xml), "-p", "convert-openvino-to-tosa")
    assert code == 0, err
    return model, xml, lowered


def _weights_formula(weights: np.ndarray) -> np.ndarray:
    reduced = tuple(range(weights.ndim - 2 if weights.ndim == 4 else 1, weights.ndim))
    limit = np.abs(weights).max(axis=reduced, keepdims=True).astype(np.float32)
    return reference(weights, -limit, limit, -limit, limit, 255).astype(np.float64)


def test_weights_with_their_own_fake_quantize(openvino_runtime: None, tmp_path: Path) -> None:
    """A Convolution whose f32 weights pass through a per-channel symmetric FakeQuantize
    (levels 255, as NNCF's weight quantizers before compression): the FakeQuantize folds,
    the integers are recovered, and the product is an i8 `tosa.conv2d`; equal to the CPU
    plugin's int8 result within one step of the input's levels. The input's zero point is
    not 0: the padded positions count as real zeros, as OpenVINO pads."""
    rng = np.random.default_rng(5)
    x = ops.parameter([2, 3, 9], np.float32, name="x")
    low, high = np.float32(-0.5), np.float32(-0.5 + 255 * 0.01)  # zero point 50: padding
    weights = rng.normal(0, 0.4, (5, 3, 3)).astype(np.float32)
    model, xml, lowered = _quantized_product(
        tmp_path, x, low, high, weights, lambda a, w: ops.convolution(a, w, [1], [1], [1], [1]))
    assert "(tensor<2x1x9x3xi8>, tensor<5x1x3x3xi8>, tensor<5xi32>, tensor<1xi8>, " \
           "tensor<1xi8>) -> tensor<2x1x9x5xi32>" in lowered
    assert 'dense<-78> : tensor<1xi8>' in lowered  # the zero point 50 - 128
    values = rng.normal(0, 1, (2, 3, 9)).astype(np.float32)
    ours = ts.compile_model(xml).create_infer_request().infer({"x": values})[0]
    theirs = ov.Core().compile_model(model, "CPU", F32)({"x": values})[0]
    step = (high - low) / 255 * np.abs(weights).sum(axis=(1, 2)).max()
    assert np.abs(ours - theirs).max() <= step
    q_x = reference(values, low, high, low, high, 256).astype(np.float64)
    q_w = _weights_formula(weights)
    padded = np.pad(q_x, ((0, 0), (0, 0), (1, 1)))
    want = np.stack([np.einsum("nck,ock->no", padded[:, :, t:t + 3], q_w) for t in range(9)], 2)
    np.testing.assert_allclose(ours, want, rtol=0, atol=FORMULA_TOLERANCE)


def test_depthwise_group_convolution(openvino_runtime: None, tmp_path: Path) -> None:
    """A depthwise GroupConvolution (4 groups of 2 filters, padding) of an asymmetric int8
    pair by per-filter FakeQuantized weights: an i8 `tosa.depthwise_conv2d` into i32; equal
    to the formula within `FORMULA_TOLERANCE` and to the CPU plugin within one input level."""
    rng = np.random.default_rng(6)
    x = ops.parameter([2, 4, 10], np.float32, name="x")
    low, high = np.float32(-0.3), np.float32(-0.3 + 255 * 0.02)
    weights = rng.normal(0, 0.4, (4, 2, 1, 3)).astype(np.float32)
    model, xml, lowered = _quantized_product(
        tmp_path, x, low, high, weights,
        lambda a, w: ops.group_convolution(a, w, [1], [2], [1], [1]))
    assert "tosa.depthwise_conv2d" in lowered and "-> tensor<2x1x11x8xi32>" in lowered
    values = rng.normal(1, 1.5, (2, 4, 10)).astype(np.float32)
    ours = ts.compile_model(xml).create_infer_request().infer({"x": values})[0]
    q_x = np.pad(reference(values, low, high, low, high, 256).astype(np.float64),
                 ((0, 0), (0, 0), (2, 1)))
    q_w = _weights_formula(weights)[:, :, 0]
    want = np.stack([np.einsum("ngk,gmk->ngm", q_x[:, :, t:t + 3], q_w).reshape(2, 8)
                     for t in range(11)], 2)
    np.testing.assert_allclose(ours, want, rtol=0, atol=FORMULA_TOLERANCE)
    theirs = ov.Core().compile_model(model, "CPU", F32)({"x": values})[0]
    assert np.abs(ours - theirs).max() <= (high - low) / 255 * np.abs(weights).sum(axis=3).max()


def _float_weights(ops_: list) -> np.ndarray:
    """The MatMul's dequantized weights (i8 Constant -> Convert -> Multiply)."""
    matmul = next(op for op in ops_ if op.get_type_name() == "MatMul")
    multiply = matmul.input_value(1).get_node()
    q = multiply.input_value(0).get_node().input_value(0).get_node().get_data()
    return q.astype(np.float32) * multiply.input_value(1).get_node().get_data()


# ---------------------------------------------------------------------------------------------
# Errors
# ---------------------------------------------------------------------------------------------


def _fq_xml(tmp_path: Path) -> Path:
    x = ops.parameter([2, 3], np.float32, name="x")
    low, high = ops.constant(np.float32(-1)), ops.constant(np.float32(1))
    model = ov.Model([ops.fake_quantize(x, low, high, low, high, 16, name="fq")], [x])
    xml = tmp_path / "fq.xml"
    ov.save_model(model, xml, compress_to_fp16=False)
    return xml


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('levels="16"', 'levels="1"', "levels=1: FakeQuantize needs at least 2 levels"),
        ('levels="16"', 'levels="many"', "attribute levels='many' is not an integer"),
        ('auto_broadcast="numpy"', 'auto_broadcast="pdpd"',
         "auto_broadcast='pdpd' is not supported (supported: numpy, none)"),
        ('auto_broadcast="numpy"', 'auto_broadcast="none"',
         'with auto_broadcast = "none" the operand shapes must match, got [2,3] and []'),
    ],
)
def test_bad_fake_quantize_names_the_layer(tmp_path: Path, old: str, new: str,
                                           message: str) -> None:
    xml = _fq_xml(tmp_path)
    _edit(xml, old, new)
    opt_xml_fails(xml, f"name='fq' type='FakeQuantize' (opset1): {message}")


def test_bad_fake_quantize_input_type_names_the_layer(tmp_path: Path) -> None:
    xml = _fq_xml(tmp_path)
    text = xml.read_text()
    first = text.index('element_type="f32"')
    xml.write_text(text[:first] + 'element_type="i32"' + text[first + 18:])
    code, _, err = cli(opt.main, str(xml))
    assert_clean_failure(code, err, "type='FakeQuantize' (opset1)")
