"""Compressed OpenVINO weights against OpenVINO itself.

Element types: a Constant of every type OpenVINO stores (u1, u4, i4, nf4, f8e4m3, f8e5m2 packed;
u8 ... u64, f16, bf16 as bytes), built with OpenVINO's Python API (which packs it), saved,
imported and compared with what OpenVINO computes through a Convert to f32 (its own unpacking).
"""

from __future__ import annotations

import math
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from test_openvino_differential import _save

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
@pytest.mark.parametrize("shape", [(3, 7), (5,), (2, 2, 9)])
def test_constant_as_openvino_unpacks_it(openvino_runtime: None, tmp_path: Path,
                                         type_name: str, shape: tuple[int, ...]) -> None:
    values = _values(type_name, shape, np.random.default_rng(len(shape)))
    xml = _save(_convert_model(type_name, shape, values), tmp_path)
    x = np.zeros(shape, np.float32)
    want = ov.Core().compile_model(str(xml), "CPU", _CPU_F32)([x])[0]
    got = tosa_state.compile_model(xml).create_infer_request().infer([x])[0]
    np.testing.assert_array_equal(got, want)
    if type_name in ("u1", "u4", "i4", "nf4"):  # odd element counts: the last byte is partial
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
