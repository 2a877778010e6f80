"""OpenVINO element types: their IR spellings, MLIR types and numpy dtypes."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BFloat16Type,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerType,
    Signedness,
    UnrankedTensorType,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute

from tosa_state.dialects.openvino.compression import NF4Type
from tosa_state.dtypes import cached_tensor_type


@dataclass(frozen=True)
class ElementType:
    """One OpenVINO element type: its IR spelling, MLIR type and numpy dtype (little endian)."""

    name: str
    mlir: Attribute
    dtype: np.dtype
    packed: bool = False
    """Stored packed (`tosa_state/packing.py`): imported as `openvino.packed_constant`, its
    bytes as on disk; `dtype` is then what `packing.unpack` decodes it to."""


def _unsigned(width: int) -> IntegerType:
    return IntegerType(width, Signedness.UNSIGNED)


ELEMENT_TYPES: dict[str, ElementType] = {
    e.name: e
    for e in (
        ElementType("f32", f32, np.dtype("<f4")),
        ElementType("f16", f16, np.dtype("<f2")),
        ElementType("bf16", BFloat16Type(), np.dtype(ml_dtypes.bfloat16)),
        ElementType("f64", f64, np.dtype("<f8")),
        ElementType("i8", i8, np.dtype("i1")),
        ElementType("u8", _unsigned(8), np.dtype("u1")),
        ElementType("i16", i16, np.dtype("<i2")),
        ElementType("u16", _unsigned(16), np.dtype("<u2")),
        ElementType("i32", i32, np.dtype("<i4")),
        ElementType("u32", _unsigned(32), np.dtype("<u4")),
        ElementType("i64", i64, np.dtype("<i8")),
        ElementType("u64", _unsigned(64), np.dtype("<u8")),
        ElementType("boolean", i1, np.dtype("u1")),
        ElementType("u1", _unsigned(1), np.dtype("u1"), packed=True),
        ElementType("u4", _unsigned(4), np.dtype("u1"), packed=True),
        ElementType("i4", IntegerType(4), np.dtype("i1"), packed=True),
        ElementType("nf4", NF4Type(), np.dtype("<f4"), packed=True),
        ElementType("f8e4m3", Float8E4M3FNType(), np.dtype(ml_dtypes.float8_e4m3fn), packed=True),
        ElementType("f8e5m2", Float8E5M2Type(), np.dtype(ml_dtypes.float8_e5m2), packed=True),
    )
}
"""The element types tosa-state imports, by OpenVINO spelling."""


KNOWN_UNSUPPORTED_ELEMENT_TYPES = frozenset(
    {"u2", "u3", "u6", "f4e2m1", "f8e8m0", "string"}
)


DYNAMIC_ELEMENT_TYPES = frozenset({"dynamic", "undefined"})


PRECISIONS = {
    "FP32": "f32",
    "FP16": "f16",
    "BF16": "bf16",
    "FP64": "f64",
    "I8": "i8",
    "U8": "u8",
    "I16": "i16",
    "U16": "u16",
    "I32": "i32",
    "U32": "u32",
    "I64": "i64",
    "U64": "u64",
    "U1": "u1",
    "U4": "u4",
    "I4": "i4",
    "NF4": "nf4",
    "F8E4M3": "f8e4m3",
    "F8E5M2": "f8e5m2",
    "BOOL": "boolean",
    "BOOLEAN": "boolean",
    "UNSPECIFIED": "dynamic",
    "DYNAMIC": "dynamic",
    "UNDEFINED": "dynamic",
}


_MLIR_TO_OPENVINO = {str(e.mlir): e.name for e in ELEMENT_TYPES.values()}


def openvino_element_name(type_: Attribute) -> str:
    """The OpenVINO spelling (`f32`, `u8`, `boolean`) of an MLIR element type."""
    return _MLIR_TO_OPENVINO.get(str(type_), str(type_))


def tensor_type(element: Attribute, dims: Sequence[int] | None) -> Attribute:
    if dims is None:
        return UnrankedTensorType(element)
    return cached_tensor_type(element, tuple(DYNAMIC_INDEX if d < 0 else d for d in dims))


class ElementTypeError(Exception):
    """An element type that cannot be imported; the message says why."""


def parse_element_type(name: str) -> ElementType:
    if name in ELEMENT_TYPES:
        return ELEMENT_TYPES[name]
    if name in DYNAMIC_ELEMENT_TYPES:
        raise ElementTypeError("dynamic element types are not supported; the type must be static")
    if name in KNOWN_UNSUPPORTED_ELEMENT_TYPES:
        raise ElementTypeError(f"element type '{name}' is not supported")
    raise ElementTypeError(f"unknown element type '{name}'")
