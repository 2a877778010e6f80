"""Element types <-> numpy dtypes, and dense attributes <-> numpy arrays.

Tensors are numpy arrays at run time (0-D arrays for rank-0 tensors); `i1` is `bool`,
`bf16` is `ml_dtypes.bfloat16`. Dense attributes store little-endian packed bytes, so
decoding is one `frombuffer` (done once, at compile time, never per call).
"""

from __future__ import annotations

import math
from functools import lru_cache

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerType,
    Signedness,
    TensorType,
    bf16,
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

_UI = Signedness.UNSIGNED
_DTYPES: dict[Attribute, np.dtype] = {
    i1: np.dtype(np.bool_),
    i8: np.dtype(np.int8),
    i16: np.dtype(np.int16),
    i32: np.dtype(np.int32),
    i64: np.dtype(np.int64),
    IntegerType(8, _UI): np.dtype(np.uint8),
    IntegerType(16, _UI): np.dtype(np.uint16),
    IntegerType(32, _UI): np.dtype(np.uint32),
    IntegerType(64, _UI): np.dtype(np.uint64),
    f16: np.dtype(np.float16),
    bf16: np.dtype(ml_dtypes.bfloat16),
    f32: np.dtype(np.float32),
    f64: np.dtype(np.float64),
    IndexType(): np.dtype(np.int64),
}
_ELEMENT_TYPES: dict[np.dtype, Attribute] = {
    dtype: t for t, dtype in _DTYPES.items() if not isinstance(t, IndexType)
}


class UnsupportedElementType(ValueError):
    """An element type with no numpy counterpart here."""


def numpy_dtype(element_type: Attribute) -> np.dtype:
    """The numpy dtype of an MLIR element type (`f32` -> float32, `i1` -> bool, ...)."""
    try:
        return _DTYPES[element_type]
    except KeyError:
        raise UnsupportedElementType(f"element type '{element_type}' is not supported") from None


def element_type(dtype: np.dtype | type) -> Attribute:
    """The MLIR element type of a numpy dtype."""
    try:
        return _ELEMENT_TYPES[np.dtype(dtype)]
    except KeyError:
        raise UnsupportedElementType(f"numpy dtype '{np.dtype(dtype)}' is not supported") from None


def dense_to_numpy(attr: DenseIntOrFPElementsAttr) -> np.ndarray:
    """A read-only array holding the elements of `attr` (a one-element splat is expanded)."""
    dtype = numpy_dtype(attr.get_element_type())
    raw = attr.data.data
    if dtype == np.bool_:
        array = np.frombuffer(raw, dtype=np.int8) != 0
    else:
        array = np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype, copy=False)
    shape = tuple(attr.get_shape())
    if array.size == 1 and math.prod(shape) != 1:
        array = np.broadcast_to(array, shape).copy()
    array = array.reshape(shape)
    array.flags.writeable = False
    return array


@lru_cache(maxsize=8192)
def cached_tensor_type(element: Attribute, shape: tuple[int, ...]) -> TensorType:
    """`TensorType(element, shape)`, built once per type: types are immutable, and building
    one (its dims' attributes, their verification) costs more than a lookup; a model
    repeats a few hundred types thousands of times."""
    return TensorType(element, shape)


def numpy_to_dense(
    array: np.ndarray, element: Attribute | None = None
) -> DenseIntOrFPElementsAttr:
    """A dense attribute of type `tensor<shape x element>` holding `array` (converted to
    `element`'s dtype when given; nonzero is `true` for `i1`)."""
    array = np.asarray(array)
    if element is not None:
        array = array.astype(numpy_dtype(element), copy=False)
    tensor_type = cached_tensor_type(element_type(array.dtype), array.shape)
    if array.dtype == np.bool_:
        raw = np.where(array, -1, 0).astype(np.int8).tobytes()
    else:
        raw = array.astype(array.dtype.newbyteorder("<"), copy=False).tobytes()
    return DenseIntOrFPElementsAttr(tensor_type, BytesAttr(raw))


def tensor_shape(tensor_type: Attribute) -> tuple[int, ...]:
    """The static shape of a ranked tensor type."""
    assert isinstance(tensor_type, TensorType)
    return tuple(tensor_type.get_shape())
