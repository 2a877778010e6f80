"""Checked access to a `.tflite` flatbuffer (read with the `tflite` package's generated
schema classes).

The flatbuffer accessors trust every offset they read. Here every table, vector, buffer
range, tensor index, subgraph index and shape is checked before use; a malformed file gives a
`TFLiteError` (`model.tflite: error: ...`), never an exception from the accessors.

The file is memory-mapped read-only (`map_file`), never read as a whole, as OpenVINO's
`.bin` (`frontends/openvino/weights.py`). A constant of at least `MAPPED_MIN_BYTES` becomes a
dense attribute over a `memoryview` of the mapping (`resources.mapped`) when its bytes are
usable as they are (any element type but bool, its address a multiple of its element size:
TFLite stores elements little-endian, as dense attributes hold them), which the passes and
the interpreter use in place; one at an unaligned address (a flatbuffer writer that does not
align buffers) is copied once into an aligned buffer, also held by a `memoryview`; smaller
ones are copied into their attributes. Buffers stored after the flatbuffer (`offset` /
`size`, as the converter writes models over 2 GB) are mapped alike. The file must not be
changed or truncated while a model compiled from it is alive.
"""

from __future__ import annotations

import math
import mmap
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
    BytesAttr,
    DenseIntOrFPElementsAttr,
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
from tosa_state.dtypes import numpy_to_dense
from tosa_state.resources import MAPPED_MIN_BYTES, address, read_into

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


def map_file(path: str) -> memoryview:
    """The file's bytes: a read-only view of its mapping, or of its contents read when it
    cannot be mapped (empty, or not a regular file); `OSError` if it cannot be read."""
    with open(path, "rb") as file:
        try:
            return memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))
        except (OSError, ValueError):  # empty (ValueError), a pipe, a device
            return memoryview(file.read()).toreadonly()


class CheckedModel:
    """The file's bytes and its root `Model` table, with checked accessors."""

    def __init__(self, path: str, data: bytes | memoryview):
        self.path, self.data = path, memoryview(data).cast("B")
        data = self.data
        where = Where(path)
        if len(data) < 8:
            raise where.error(f"file too short ({len(data)} bytes) to be a TFLite flatbuffer")
        if data[4:8] != b"TFL3":
            raise where.error(
                f"not a TFLite model (file identifier {bytes(data[4:8])!r}, expected b'TFL3')"
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

    def buffer_bytes(self, index: int, where: Where) -> memoryview:
        """The data of buffer `index` (empty when the buffer holds none): a view of the
        file's bytes, not a copy."""
        if not 0 <= index < self.num_buffers:
            raise where.error(f"buffer index {index} is out of range [0, {self.num_buffers})")

        def read() -> memoryview:
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
                return self.data[:0]
            start = buffer._tab.Vector(buffer._tab.Offset(4))
            if start + length > len(self.data):
                raise where.error(
                    f"buffer {index} [{start}, {start + length}) lies outside the file "
                    f"({len(self.data)} bytes)"
                )
            return self.data[start : start + length]

        return guarded(where, f"buffer {index}", read)

    def constant(self, info: TensorInfo, raw: memoryview, where: Where
                 ) -> DenseIntOrFPElementsAttr:
        """The dense attribute of a constant tensor whose buffer is `raw` (size checked
        against the shape): over `raw` itself when it is large and usable as it is, over one
        aligned copy when only its address is not, else a copy (see the module's
        docstring)."""
        assert isinstance(info.type, TensorType)
        dtype = next(d for t, d in ELEMENT_TYPES.values() if t == info.type.element_type)
        shape = tuple(info.type.get_shape())
        if DYNAMIC_INDEX in shape:
            raise where.error(f"constant tensor #{info.index} ('{info.name}') has a dynamic "
                              "shape")
        expected = math.prod(shape) * dtype.itemsize
        if len(raw) != expected:
            raise where.error(
                f"tensor #{info.index} ('{info.name}') of shape {brief(list(shape))} needs "
                f"{expected} bytes but its buffer {info.buffer} has {len(raw)}"
            )
        if dtype == np.bool_ or expected < MAPPED_MIN_BYTES:
            return numpy_to_dense(np.frombuffer(raw, dtype).reshape(shape))
        if address(raw) % dtype.itemsize:
            raw = self._aligned_copy(raw, where)
        return DenseIntOrFPElementsAttr(info.type, BytesAttr(raw))

    def _aligned_copy(self, raw: memoryview, where: Where) -> memoryview:
        """`raw` copied into numpy's memory (aligned to at least 16 bytes): read from the
        file, not through the mapping, whose pages stay untouched."""
        copy = np.empty(len(raw), np.uint8)
        if not isinstance(self.data.obj, mmap.mmap):
            copy[:] = np.frombuffer(raw, np.uint8)
            return memoryview(copy).toreadonly()
        offset = address(raw) - address(self.data)
        try:
            done = read_into(self.path, offset, memoryview(copy))
        except OSError as error:
            raise where.error(f"cannot read the model: {error.strerror}") from None
        if done < len(raw):
            raise where.error(f"the file ended while reading a buffer at {offset}")
        return memoryview(copy).toreadonly()



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
