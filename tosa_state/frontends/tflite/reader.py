"""Checked access to a `.tflite` flatbuffer (read with the `tflite` package's generated
schema classes).

The flatbuffer accessors trust every offset they read. Here every table, vector, buffer
range, tensor index, subgraph index and shape is checked before use; a malformed file gives a
`TFLiteError` (`model.tflite: error: ...`), never an exception from the accessors.
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

import numpy as np
import tflite
from tflite.BuiltinOperator import BuiltinOperator
from tflite.TensorType import TensorType as TflTensorType
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerType,
    Signedness,
    TensorType,
    f16,
    f32,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute

from tosa_state.diagnostics import ModelImportError, brief
from tosa_state.dialects.tfl.common import ResourceType
from tosa_state.dialects.tfl.quantized import Quantization

OPERATOR_NAMES = {
    v: k for k, v in vars(BuiltinOperator).items() if not k.startswith("_")
}
TENSOR_TYPE_NAMES = {v: k for k, v in vars(TflTensorType).items() if not k.startswith("_")}

ELEMENT_TYPES: dict[int, tuple[Attribute, np.dtype]] = {
    TflTensorType.FLOAT32: (f32, np.dtype("<f4")),
    TflTensorType.FLOAT16: (f16, np.dtype("<f2")),
    TflTensorType.INT32: (i32, np.dtype("<i4")),
    TflTensorType.INT64: (i64, np.dtype("<i8")),
    TflTensorType.INT16: (i16, np.dtype("<i2")),
    TflTensorType.INT8: (i8, np.dtype("i1")),
    TflTensorType.UINT8: (IntegerType(8, Signedness.UNSIGNED), np.dtype("u1")),
    TflTensorType.BOOL: (i1, np.dtype("?")),
}
MAX_RANK = 8

_T = TypeVar("_T")
_READ_ERRORS = (struct.error, IndexError, ValueError, OverflowError, TypeError,
                UnicodeDecodeError, MemoryError, AttributeError)


class TFLiteError(ModelImportError):
    """A `.tflite` file that cannot be imported."""


@dataclass(frozen=True)
class Where:
    """Where in the model a check failed, for messages."""

    path: str
    subgraph: str | None = None
    operator: str | None = None

    def error(self, message: str) -> TFLiteError:
        place = ""
        if self.operator is not None:
            place = f"{self.operator} in subgraph '{self.subgraph}': "
        elif self.subgraph is not None:
            place = f"subgraph '{self.subgraph}': "
        return TFLiteError(f"{self.path}: error: {place}{message}")


def guarded(where: Where, what: str, read: Callable[[], _T]) -> _T:
    """`read()`, with a flatbuffer accessor's failure (a bad offset) reported as `what`."""
    try:
        return read()
    except TFLiteError:
        raise
    except _READ_ERRORS as error:
        raise where.error(f"malformed flatbuffer while reading {what} ({error})") from None


@dataclass
class TensorInfo:
    """One tensor of a subgraph, checked."""

    index: int
    name: str
    type: Attribute
    """`TensorType` (static shape) or `ResourceType`."""
    buffer: int
    is_variable: bool
    quantization: Quantization | None = None
    """Its affine quantization (`real = scale * (q - zero_point)`), when it has one."""

    @property
    def quantized(self) -> bool:
        return self.quantization is not None


class CheckedModel:
    """The file's bytes and its root `Model` table, with checked accessors."""

    def __init__(self, path: str, data: bytes):
        self.path, self.data = path, data
        where = Where(path)
        if len(data) < 8:
            raise where.error(f"file too short ({len(data)} bytes) to be a TFLite flatbuffer")
        if data[4:8] != b"TFL3":
            raise where.error(
                f"not a TFLite model (file identifier {data[4:8]!r}, expected b'TFL3')"
            )
        self.model = guarded(where, "the model table",
                             lambda: tflite.Model.GetRootAsModel(data, 0))
        version = guarded(where, "the schema version", self.model.Version)
        if version != 3:
            raise where.error(f"schema version {version} (only version 3 is supported)")
        self.where = where
        self.num_buffers = self.length("buffers", self.model.BuffersLength)
        self.num_subgraphs = self.length("subgraphs", self.model.SubgraphsLength)
        if self.num_subgraphs == 0:
            raise where.error("the model has no subgraph")
        self.opcodes = self._read_opcodes()

    def length(self, what: str, read: Callable[[], int], where: Where | None = None) -> int:
        """A vector's length, which cannot exceed the file's size."""
        where = where or self.where
        count = guarded(where, f"the length of {what}", read)
        if not 0 <= count <= len(self.data):
            raise where.error(f"malformed flatbuffer: {what} claims {count} entries")
        return count

    def _read_opcodes(self) -> list[int]:
        codes = []
        for i in range(self.length("operator codes", self.model.OperatorCodesLength)):
            def read(i: int = i) -> int:
                code = self.model.OperatorCodes(i)
                return max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
            codes.append(guarded(self.where, f"operator code #{i}", read))
        return codes

    def subgraph_name(self, index: int) -> str:
        def read() -> str:
            raw = self.model.Subgraphs(index).Name()
            return raw.decode("utf-8") if raw else ""
        name = guarded(self.where, f"the name of subgraph #{index}", read)
        return name or f"subgraph{index}"

    def check_subgraph_index(self, index: int, where: Where, what: str) -> None:
        if not 0 <= index < self.num_subgraphs:
            raise where.error(
                f"{what} subgraph index {index} is out of range [0, {self.num_subgraphs})"
            )

    def buffer_bytes(self, index: int, where: Where) -> bytes:
        """The data of buffer `index` (empty when the buffer holds none)."""
        if not 0 <= index < self.num_buffers:
            raise where.error(f"buffer index {index} is out of range [0, {self.num_buffers})")

        def read() -> bytes:
            buffer = self.model.Buffers(index)
            offset, size = buffer.Offset(), buffer.Size()
            if offset > 1:  # data stored after the flatbuffer (models over 2 GB)
                if offset + size > len(self.data):
                    raise where.error(
                        f"buffer {index} [{offset}, {offset + size}) lies outside the file "
                        f"({len(self.data)} bytes)"
                    )
                return self.data[offset : offset + size]
            length = self.length(f"buffer {index}", buffer.DataLength, where)
            if length == 0:
                return b""
            start = buffer._tab.Vector(buffer._tab.Offset(4))
            if start + length > len(self.data):
                raise where.error(
                    f"buffer {index} [{start}, {start + length}) lies outside the file "
                    f"({len(self.data)} bytes)"
                )
            return self.data[start : start + length]

        return guarded(where, f"buffer {index}", read)


def tensor_type(type_code: int, shape: list[int], where: Where, what: str) -> Attribute:
    """The MLIR type of a TFLite tensor (static shapes only)."""
    if type_code == TflTensorType.RESOURCE:
        return ResourceType()
    if type_code not in ELEMENT_TYPES:
        name = TENSOR_TYPE_NAMES.get(type_code, f"#{type_code}")
        raise where.error(f"{what} has element type {name}, which tosa-state does not support")
    if len(shape) > MAX_RANK or any(d < -1 for d in shape):
        raise where.error(f"{what} has shape {brief(shape)}: tosa-state takes ranks <= {MAX_RANK} "
                          "and dims >= 0 (-1 for a dynamic one)")
    if math.prod(abs(d) for d in shape) > 1 << 31:
        raise where.error(f"{what} has shape {brief(shape)}, too many elements")
    return TensorType(ELEMENT_TYPES[type_code][0], [DYNAMIC_INDEX if d == -1 else d
                                                    for d in shape])


def constant_array(info: TensorInfo, raw: bytes, where: Where) -> np.ndarray:
    """The array a constant tensor's buffer holds (size checked against the shape)."""
    assert isinstance(info.type, TensorType)
    dtype = next(d for t, d in ELEMENT_TYPES.values() if t == info.type.element_type)
    shape = tuple(info.type.get_shape())
    if DYNAMIC_INDEX in shape:
        raise where.error(f"constant tensor #{info.index} ('{info.name}') has a dynamic shape")
    expected = math.prod(shape) * dtype.itemsize
    if len(raw) != expected:
        raise where.error(
            f"tensor #{info.index} ('{info.name}') of shape {brief(list(shape))} needs "
            f"{expected} bytes but its buffer {info.buffer} has {len(raw)}"
        )
    return np.frombuffer(raw, dtype).reshape(shape)
