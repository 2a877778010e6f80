"""Compressed OpenVINO weights against OpenVINO itself.

- Element types: a Constant of every type OpenVINO stores (u1, u4, i4, nf4, f8e4m3, f8e5m2
  packed; u8 ... u32, f16, bf16 as bytes), built with OpenVINO's Python API (which packs it),
  saved, imported and compared with what OpenVINO computes through a Convert to f32 (its own
  unpacking); Converts from and to unsigned types.
- NNCF's `compress_weights` (INT8_ASYM / INT8_SYM per channel, INT4_SYM / INT4_ASYM / NF4 in
  groups of 16) of a Linear model and of a stateful recurrent model built at test time: one
  `tosa_state.dequantize` per weight, the weights packed at every level, the constants at
  most 1.2x the `.bin`, results equal to OpenVINO CPU with `DYNAMIC_QUANTIZATION_GROUP_SIZE=0`
  within 1e-4 relative (the tiny Llama exports: `test_llm_compressed.py`).
"""

from __future__ import annotations

import math
from pathlib import Path

import nncf
import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from test_openvino_differential import _save
from xdsl.dialects.builtin import IntegerType

import tosa_state
from tosa_state.diagnostics import ModelImportError
from tosa_state.frontends.openvino.importer import import_openvino_ir
from tosa_state.packing import NF4_VALUES, packed_size, unpack

pytestmark = pytest.mark.peers

_CPU_F32 = {"INFERENCE_PRECISION_HINT": "f32"}


def _values(type_name: str, shape: tuple[int, ...], rng: np.random.Generator) -> np.ndarray:
    low, high = {
        "u1": (0, 2), "u4": (0, 16), "i4": (-8, 8), "nf4": (0, 16), "u8": (0, 256),
        "i8": (-128, 128), "u16": (0, 1 << 16), "i16": (-(1 << 15), 1 << 15),
        "u32": (0, 1 << 32), "u64": (0, 1 << 40),
    }.get(type_name, (None, None))
    if low is None:
        return rng.uniform(-200, 200, shape)
    return rng.integers(low, high, shape)


def _convert_model(type_name: str, shape: tuple[int, ...], values: np.ndarray,
                   destination: str = "f32") -> ov.Model:
    x = ops.parameter(list(shape), ov.Type.f32, name="x")
    const = ov.op.Constant(getattr(ov.Type, type_name), ov.Shape(list(shape)),
                           values.reshape(-1).tolist())
    converted = ops.convert(const, destination)
    out = ops.add(converted, ops.convert(x, destination)) if destination != "f32" else \
        ops.add(converted, x)
    return ov.Model([ops.result(out, name="y")], [x], "convert")


TYPES = ["u1", "u4", "i4", "nf4", "f8e4m3", "f8e5m2", "u8", "i8", "u16", "i16", "u32", "f16",
         "bf16"]


@pytest.mark.parametrize("type_name", TYPES)
@pytest.mark.parametrize("shape", [(3, 7), (2, 2, 9)])  # odd: the last byte is partial
def test_constant_as_openvino_unpacks_it(openvino_runtime: None, tmp_path: Path,
                                         type_name: str, shape: tuple[int, ...]) -> None:
    values = _values(type_name, shape, np.random.default_rng(len(shape)))
    xml = _save(_convert_model(type_name, shape, values), tmp_path)
    x = np.zeros(shape, np.float32)
    want = ov.Core().compile_model(str(xml), "CPU", _CPU_F32)([x])[0]
    got = tosa_state.compile_model(xml).create_infer_request().infer([x])[0]
    np.testing.assert_array_equal(got, want)
    if type_name in ("u1", "u4", "i4", "nf4"):
        constant = next(op for op in import_openvino_ir(xml, tosa_state.make_context()).walk()
                        if op.name == "openvino.packed_constant")
        assert constant.data.type.get_shape() == (packed_size(type_name, math.prod(shape)),)


@pytest.mark.parametrize("type_name, destination", [
    ("u8", "i32"), ("u8", "f16"), ("u16", "i32"), ("u4", "i32"), ("i4", "f16"),
    ("nf4", "f16"), ("u8", "u16"), ("i32", "u8"), ("f32", "u8"),
])
def test_convert_between_unsigned_and_other_types(openvino_runtime: None, tmp_path: Path,
                                                  type_name: str, destination: str) -> None:
    rng = np.random.default_rng(3)
    values = np.abs(_values(type_name, (4, 5), rng)) if type_name in ("i32", "f32") else \
        _values(type_name, (4, 5), rng)
    if type_name == "i32":
        values = values.astype(np.int64) + 1000  # wraps modulo 256
    xml = _save(_convert_model(type_name, (4, 5), values, destination), tmp_path)
    x = np.zeros((4, 5), np.float32)
    want = ov.Core().compile_model(str(xml), "CPU", _CPU_F32)([x])[0]
    got = tosa_state.compile_model(xml).create_infer_request().infer([x])[0]
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_unpack_layouts() -> None:
    """The bit order of each packed type, by hand: low nibble first, u1 most significant first."""
    raw = np.array([0x21, 0xF8], np.uint8)
    np.testing.assert_array_equal(unpack(raw, "u4", (4,)), [1, 2, 8, 15])
    np.testing.assert_array_equal(unpack(raw, "i4", (4,)), [1, 2, -8, -1])
    np.testing.assert_array_equal(unpack(raw, "nf4", (3,)), NF4_VALUES[[1, 2, 8]])
    np.testing.assert_array_equal(unpack(raw, "u1", (9,)), [0, 0, 1, 0, 0, 0, 0, 1, 1])


def test_truncated_packed_constant_names_the_layer(openvino_runtime: None,
                                                   tmp_path: Path) -> None:
    values = np.arange(32) % 16
    xml = _save(_convert_model("u4", (4, 8), values), tmp_path)
    data = xml.with_suffix(".bin").read_bytes()
    xml.with_suffix(".bin").write_bytes(data[:-3])
    with pytest.raises(ModelImportError) as caught:
        tosa_state.read_model(xml)
    message = str(caught.value)
    assert "type='Const'" in message
    assert "runs past the end of 'model.bin'" in message
    assert "size=16" in message


def test_packed_size_mismatch_names_the_layer(openvino_runtime: None, tmp_path: Path) -> None:
    xml = _save(_convert_model("i4", (3, 3), np.zeros(9, int)), tmp_path)
    text = xml.read_text()
    assert 'element_type="i4"' in text and 'size="5"' in text
    xml.write_text(text.replace('size="5"', 'size="9"'))
    with pytest.raises(ModelImportError, match=r"type='Const'.*size=9 does not match shape \[3,3\] x i4 "
                       r"\(5 bytes\)"):
        tosa_state.read_model(xml)


# ---------------------------------------------------------------------------------------------
# Weights compressed by NNCF: one tosa_state.dequantize per weight, equal to OpenVINO CPU
# ---------------------------------------------------------------------------------------------

_CPU_COMPRESSED = {**_CPU_F32, "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}
MODES = ["INT8_ASYM", "INT8_SYM", "INT4_SYM", "INT4_ASYM", "NF4"]


def _compress(model: ov.Model, mode: str) -> ov.Model:
    options: dict[str, object] = {"mode": getattr(nncf.CompressWeightsMode, mode)}
    if not mode.startswith("INT8"):
        options.update(group_size=16, ratio=1.0, all_layers=True)
    return nncf.compress_weights(model, **options)


def _linear(rng: np.random.Generator) -> ov.Model:
    x = ops.parameter([2, 64], ov.Type.f32, name="x")
    w1 = ops.constant(rng.standard_normal((48, 64)).astype(np.float32))
    w2 = ops.constant(rng.standard_normal((48, 32)).astype(np.float32))
    hidden = ops.relu(ops.matmul(x, w1, False, True))
    return ov.Model([ops.result(ops.matmul(hidden, w2, False, False), name="y")], [x], "linear")


def _stateful_rnn(rng: np.random.Generator) -> ov.Model:
    """h <- tanh(x W^T + h R^T + b), the state in a variable; y = h V^T."""
    x = ops.parameter([1, 32], ov.Type.f32, name="x")
    h = ops.read_value(ops.constant(np.zeros((1, 48), np.float32)), "h", np.float32, [1, 48])
    weights = [ops.constant(rng.standard_normal(s).astype(np.float32) * 0.3)
               for s in ((48, 32), (48, 48), (16, 48))]
    pre = ops.add(ops.matmul(x, weights[0], False, True), ops.matmul(h, weights[1], False, True))
    new_h = ops.tanh(ops.add(pre, ops.constant(rng.standard_normal((1, 48)).astype(np.float32))))
    assign = ops.assign(new_h, "h")
    y = ops.matmul(new_h, weights[2], False, True)
    return ov.Model([ops.result(y, name="y")], [assign], [x], "rnn")


def _dequantize_ops(compiled: object) -> list[object]:
    return [op for op in compiled.module.walk() if op.name == "tosa_state.dequantize"]


def _assert_weights_stay_compressed(compiled: object, xml: Path, count: int) -> None:
    """`count` dequantize ops run on every call, no float copy of a weight is kept, and the
    constants take at most 1.2x the `.bin`."""
    from compressed_llm import resident_weight_bytes

    assert len(_dequantize_ops(compiled)) == count
    per_call = [op.name for op in compiled.executable.plan.ops_per_call]
    assert per_call.count("tosa_state.dequantize") == count
    largest_float = max((c.size for c in compiled.executable.plan.constants
                         if isinstance(c, np.ndarray) and c.dtype.kind == "f"), default=0)
    assert largest_float < 48 * 16  # scales and biases only, never a weight matrix
    resident, _ = resident_weight_bytes(compiled)
    assert resident <= 1.2 * xml.with_suffix(".bin").stat().st_size


@pytest.mark.parametrize("mode", MODES)
def test_nncf_linear_as_openvino(openvino_runtime: None, tmp_path: Path, mode: str) -> None:
    rng = np.random.default_rng(4)
    xml = _save(_compress(_linear(rng), mode), tmp_path)
    expected_types = {"INT8_ASYM": "u8", "INT8_SYM": "i8", "INT4_SYM": "i4",
                      "INT4_ASYM": "u4", "NF4": "nf4"}[mode]
    compiled = tosa_state.compile_model(xml)
    assert {op.weight_type.data for op in _dequantize_ops(compiled)} == {expected_types}
    _assert_weights_stay_compressed(compiled, xml, 2)
    theirs = ov.Core().compile_model(str(xml), "CPU", _CPU_COMPRESSED)
    request = compiled.create_infer_request()
    for _ in range(3):
        x = rng.standard_normal((2, 64)).astype(np.float32)
        want = theirs([x])[0]
        got = request.infer([x])[0]
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * np.abs(want).max())


def _convolution_and_embedding(rng: np.random.Generator) -> ov.Model:
    x = ops.parameter([1, 16, 20], ov.Type.f32, name="x")
    ids = ops.parameter([1, 4], ov.Type.i64, name="ids")
    kernel = ops.constant(rng.standard_normal((32, 16, 3)).astype(np.float32))
    table = ops.constant(rng.standard_normal((50, 32)).astype(np.float32))
    y = ops.convolution(x, kernel, [1], [1], [1], [1])
    return ov.Model([ops.result(y, name="y"), ops.result(ops.gather(table, ids, 0), name="e")],
                    [x, ids], "conv_embedding")


@pytest.mark.parametrize("mode", ["INT8_ASYM", "INT4_ASYM"])
def test_nncf_convolution_and_embedding_as_openvino(openvino_runtime: None, tmp_path: Path,
                                                    mode: str) -> None:
    """The weights of a Convolution and the table of a Gather, compressed."""
    rng = np.random.default_rng(11)
    xml = _save(_compress(_convolution_and_embedding(rng), mode), tmp_path)
    compiled = tosa_state.compile_model(xml)
    assert len(_dequantize_ops(compiled)) == 2
    inputs = [rng.standard_normal((1, 16, 20)).astype(np.float32), np.array([[1, 5, 49, 0]])]
    want = ov.Core().compile_model(str(xml), "CPU", _CPU_COMPRESSED)(inputs)
    got = compiled.create_infer_request().infer(inputs)
    for index in range(2):
        np.testing.assert_allclose(got[index], want[index], rtol=1e-4,
                                   atol=1e-5 * np.abs(want[index]).max())


@pytest.mark.parametrize("mode", ["INT8_ASYM", "INT4_ASYM"])
def test_nncf_stateful_rnn_as_openvino(openvino_runtime: None, tmp_path: Path,
                                       mode: str) -> None:
    """A stateful model, several steps with a reset, at every lowering level (`validate`)."""
    xml = _save(_compress(_stateful_rnn(np.random.default_rng(5)), mode), tmp_path)
    compiled = tosa_state.compile_model(xml)
    _assert_weights_stay_compressed(compiled, xml, 3)
    report = tosa_state.validate(xml, steps=8, reset_at=[5], rtol=1e-4, atol=1e-5)
    assert report.ok, report


def test_dequantize_in_ml_program_and_tosa_levels(openvino_runtime: None,
                                                  tmp_path: Path) -> None:
    """The op survives each lowering unchanged: the weights stay packed at every level."""
    from tosa_state.frontends.openvino.importer import import_openvino_ir
    from tosa_state.transforms.pipeline import apply_pipeline

    xml = _save(_compress(_stateful_rnn(np.random.default_rng(6)), "INT4_ASYM"), tmp_path)
    for pipeline in ("convert-openvino-to-tosa",
                     "convert-openvino-to-tosa,convert-tosa-variables-to-memref",
                     "convert-openvino-to-tosa,tosa-to-mlprogram"):
        ctx = tosa_state.make_context()
        module = import_openvino_ir(xml, ctx)
        apply_pipeline(ctx, module, pipeline)
        ops_ = [op for op in module.walk() if op.name == "tosa_state.dequantize"]
        assert len(ops_) == 3, pipeline
        assert all(op.weights.type.element_type == IntegerType(8) for op in ops_)


def test_tosa_state_run_of_a_compressed_model(openvino_runtime: None, tmp_path: Path) -> None:
    """`tosa-state-run` over several steps (state kept) equals OpenVINO's CPU plugin."""
    from tosa_state.tools import run

    xml = _save(_compress(_stateful_rnn(np.random.default_rng(7)), "INT4_ASYM"), tmp_path)
    xs = np.random.default_rng(8).standard_normal((5, 1, 32)).astype(np.float32)
    request = ov.Core().compile_model(str(xml), "CPU", _CPU_COMPRESSED).create_infer_request()
    want = np.stack([request.infer([x])[0] for x in xs])
    np.savez(tmp_path / "in.npz", x=xs)
    assert run.main([str(xml), "--inputs", str(tmp_path / "in.npz"), "-q",
                     "-o", str(tmp_path / "out.npz")]) == 0
    with np.load(tmp_path / "out.npz") as out:
        np.testing.assert_allclose(out["y"], want, rtol=1e-4, atol=1e-5 * np.abs(want).max())
        np.testing.assert_allclose(out["state/h"], request.query_state()[0].state.data,
                                   rtol=1e-4, atol=1e-6)


# ---------------------------------------------------------------------------------------------
# tosa_state.dequantize itself: the interpreter and the TOSA lowering against numpy
# ---------------------------------------------------------------------------------------------


def _dequantize_module(weight_type: str, shape: tuple[int, ...], zero_point: str | None,
                       rng: np.random.Generator) -> tuple[object, np.ndarray]:
    """A module returning one dequantized weight, and the value numpy computes for it."""
    from xdsl.dialects import func
    from xdsl.dialects.builtin import ModuleOp, TensorType, f16, f32

    from tosa_state.dialects.tosa.tensor import ConstOp
    from tosa_state.dialects.tosa_state import DequantizeOp
    from tosa_state.dtypes import numpy_to_dense

    def stored(type_name: str, dims: tuple[int, ...]) -> np.ndarray:
        return rng.integers(-128, 128, packed_size(type_name, math.prod(dims)), np.int8)

    groups = (shape[0], shape[1] // 4, 4)
    weights = stored(weight_type, groups)
    scale = rng.uniform(0.01, 0.1, (shape[0], groups[1], 1)).astype(np.float16)
    want = unpack(weights, weight_type, groups).astype(np.float32)
    ops_ = [ConstOp(numpy_to_dense(weights)), ConstOp(numpy_to_dense(scale))]
    zp = None
    if zero_point is not None:
        zp_values = stored(zero_point, (shape[0], 1, 1))
        ops_.append(ConstOp(numpy_to_dense(zp_values)))
        zp = (ops_[-1].results[0], zero_point, (shape[0], 1, 1))
        want = want - unpack(zp_values, zero_point, (shape[0], 1, 1)).astype(np.float32)
    want = (want * scale.astype(np.float32)).reshape(shape)
    result_type = TensorType(f32 if weight_type != "i8" else f16, shape)
    ops_.append(DequantizeOp(ops_[0].results[0], weight_type, groups, ops_[1].results[0],
                             result_type, zp))
    body = func.FuncOp("main", ((), (result_type,)))
    body.body.block.add_ops([*ops_, func.ReturnOp(ops_[-1].results[0])])
    return ModuleOp([body]), want.astype(np.float16 if weight_type == "i8" else np.float32)


@pytest.mark.parametrize("weight_type, zero_point", [
    ("u8", "u8"), ("i8", None), ("u4", "u4"), ("i4", None), ("nf4", None), ("u1", "u8"),
    ("u4", "f16"),
])
def test_dequantize_and_its_tosa_lowering(weight_type: str, zero_point: str | None) -> None:
    """The interpreter's kernel and `tosa-expand-dequantize` (run by the interpreter) both
    compute numpy's `(decode(w) - decode(z)) * scale`, bit for bit."""
    rng = np.random.default_rng(9)
    for expand in (False, True):
        module, want = _dequantize_module(weight_type, (6, 8), zero_point, rng)
        pipeline = ("tosa-expand-dequantize," if expand else "") + \
            "convert-tosa-variables-to-memref"
        compiled = tosa_state.compile_model(module, pipeline=pipeline)
        names = {op.name for op in compiled.module.walk()}
        assert ("tosa_state.dequantize" in names) != expand
        np.testing.assert_array_equal(compiled.create_infer_request().infer([])[0], want)


def test_iree_device_runs_compressed_weights(openvino_runtime: None, tmp_path: Path) -> None:
    """The `iree` device lowers the op with `tosa-expand-dequantize` (the weights stay packed
    in the IR it compiles) and agrees with OpenVINO."""
    rng = np.random.default_rng(10)
    xml = _save(_compress(_linear(rng), "INT4_ASYM"), tmp_path)
    x = rng.standard_normal((2, 64)).astype(np.float32)
    want = ov.Core().compile_model(str(xml), "CPU", _CPU_COMPRESSED)([x])[0]
    got = tosa_state.compile_model(xml, device="iree").create_infer_request().infer([x])[0]
    np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-5 * np.abs(want).max())


def test_xdsl_opt_plugin_knows_dequantize(tmp_path: Path) -> None:
    """Plain `xdsl-opt` (our `xdsl.universe` plugin) parses and prints the op."""
    import subprocess

    source = (Path(__file__).parent.parent / "lit_tests" / "tosa_state" / "dequantize.mlir")
    result = subprocess.run(["xdsl-opt", str(source), "--split-input-file"],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert result.stdout.count("tosa_state.dequantize %w scale %s") == 2
