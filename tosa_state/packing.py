"""OpenVINO's packed element layouts: sub-byte and 8-bit float elements as stored on disk.

The frontend reads constants of these types as raw bytes, and the interpreter decodes them
(the `tosa_state.dequantize` op); both use this one decoder. Layouts, as OpenVINO's
`ov::element` stores them:

- `u4`, `i4`, `nf4`: two elements per byte, the first in the low nibble (bits 0-3);
- `u1`: eight elements per byte, the first in the most significant bit;
- `nf4` codes index OpenVINO's 16 NormalFloat values (`NF4_VALUES`);
- `f8e4m3` (no infinities, max 448) and `f8e5m2`: one byte each, as `ml_dtypes`'
  `float8_e4m3fn` and `float8_e5m2`;
- the byte-sized and wider types (`u8`, `i8`, `f16`, `bf16`, `f32`, ...): little endian.

A tensor of N elements of b bits takes `ceil(N * b / 8)` bytes.
"""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np

NF4_VALUES = np.array(
    [
        -1.0, -0.6961928009986877, -0.5250730514526367, -0.39491748809814453,
        -0.28444138169288635, -0.18477343022823334, -0.09105003625154495, 0.0,
        0.07958029955625534, 0.16093020141124725, 0.24611230194568634, 0.33791524171829224,
        0.44070982933044434, 0.5626170039176941, 0.7229568362236023, 1.0,
    ],
    np.float32,
)
"""OpenVINO's `ov::ConvertNF4` table: the value of each 4-bit code."""

_BITS = {"u1": 1, "u4": 4, "i4": 4, "nf4": 4}

_DTYPES: dict[str, np.dtype] = {
    "f8e4m3": np.dtype(ml_dtypes.float8_e4m3fn),
    "f8e5m2": np.dtype(ml_dtypes.float8_e5m2),
    "u8": np.dtype("u1"),
    "i8": np.dtype("i1"),
    "u16": np.dtype("<u2"),
    "i16": np.dtype("<i2"),
    "u32": np.dtype("<u4"),
    "i32": np.dtype("<i4"),
    "u64": np.dtype("<u8"),
    "i64": np.dtype("<i8"),
    "f16": np.dtype("<f2"),
    "bf16": np.dtype(ml_dtypes.bfloat16),
    "f32": np.dtype("<f4"),
    "f64": np.dtype("<f8"),
}

STORED_TYPES = frozenset({*_BITS, *_DTYPES})
"""The OpenVINO element type names `unpack` decodes."""


def bits(name: str) -> int:
    """The bits one element of type `name` takes on disk."""
    return _BITS.get(name) or _DTYPES[name].itemsize * 8


def packed_size(name: str, count: int) -> int:
    """The bytes `count` elements of type `name` take on disk."""
    return math.ceil(count * bits(name) / 8)


def unpack(raw: np.ndarray | bytes, name: str, shape: tuple[int, ...]) -> np.ndarray:
    """The elements of `shape` stored in `raw` (at least `packed_size` bytes) as type `name`:
    `u1` / `u4` as uint8, `i4` as int8, `nf4` as float32 (the table's values), the others as
    their numpy dtype."""
    count = math.prod(shape)
    data = np.frombuffer(raw, np.uint8) if isinstance(raw, bytes) else raw.view(np.uint8)
    if name in _DTYPES:
        dtype = _DTYPES[name]
        return data[: count * dtype.itemsize].view(dtype).reshape(shape)
    if name == "u1":
        return np.unpackbits(data, count=count, bitorder="big").reshape(shape)
    nibbles = np.empty(2 * len(data), np.uint8)
    np.bitwise_and(data, 15, out=nibbles[0::2])
    np.right_shift(data, 4, out=nibbles[1::2])
    codes = nibbles[:count].reshape(shape)
    if name == "u4":
        return codes
    if name == "i4":
        return ((codes ^ 8).astype(np.int8) - 8).astype(np.int8)
    return NF4_VALUES[codes]
