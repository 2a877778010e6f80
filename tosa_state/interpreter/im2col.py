"""im2col for the convolution and pooling kernels: the windows of a padded NHWC input as a
strided view (`windows`), the columns of a convolution gathered through an index array
computed once per input shape (`Columns`), and weights prepared once per constant
(`Prepared`)."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

import numpy as np

SHAPE_CACHE_LIMIT = 64
"""Layouts checked once per input shape are kept for at most this many shapes per op."""

GATHER_LIMIT = 1 << 16
"""Largest im2col matrix (elements) gathered through a precomputed index array."""


def _identity(x: np.ndarray) -> np.ndarray:
    return x


def windows(
    x: np.ndarray, kernel: Sequence[int], stride: Sequence[int], dilation: Sequence[int] = (1, 1)
) -> np.ndarray:
    """The windows of a padded NHWC `x` as one strided view `[N, OH, OW, KH, KW, C]` (no
    copy; not to be written to): `windows[n, y, x, ky, kx] = x[n, y*sy + ky*dy, x*sx + kx*dx]`."""
    (kh, kw), (sy, sx), (dy, dx) = kernel, stride, dilation
    x = np.ascontiguousarray(x)
    n, height, width, channels = x.shape
    out_h = (height - (kh - 1) * dy - 1) // sy + 1
    out_w = (width - (kw - 1) * dx - 1) // sx + 1
    s_n, s_h, s_w, s_c = x.strides
    # The ndarray constructor: a fifth of `as_strided`'s cost, which counts on small inputs.
    return np.ndarray((n, out_h, out_w, kh, kw, channels), x.dtype, x, 0,
                      (s_n, s_h * sy, s_w * sx, s_h * dy, s_w * dx, s_c))


def padder(pad: Sequence[int], fill: Any = 0) -> Callable[[np.ndarray], np.ndarray]:
    """`x` padded in H and W by TOSA's `[top, bottom, left, right]` with `fill` (`x` itself
    when there is no padding; `np.pad` costs tens of microseconds more per call)."""
    top, bottom, left, right = pad
    if not any(pad):
        return _identity

    def padded(x: np.ndarray) -> np.ndarray:
        n, height, width, channels = x.shape
        out = np.full((n, top + height + bottom, left + width + right, channels), fill, x.dtype)
        out[:, top : top + height, left : left + width] = x
        return out

    return padded


class Prepared:
    """A weight operand turned into the matrix a kernel multiplies by, remembered for the
    array it came from: a plan passes the same read-only constant on every call, which is
    then prepared once. Writable arrays (which a caller could change in place) are
    prepared on every call."""

    def __init__(self, prepare: Callable[[np.ndarray, np.ndarray], np.ndarray]):
        self._prepare = prepare
        self._key: tuple[np.ndarray, np.ndarray] | None = None
        self._value: np.ndarray | None = None

    def __call__(self, w: np.ndarray, w_zp: np.ndarray) -> np.ndarray:
        key = self._key
        if key is not None and key[0] is w and key[1] is w_zp:
            return self._value  # type: ignore[return-value]
        value = self._prepare(w, w_zp)
        if not (w.flags.writeable or w_zp.flags.writeable):
            self._key, self._value = (w, w_zp), value
        return value


class Columns:
    """The im2col matrix of a convolution's padded input: `[P, KH*KW*C]` rows of patches
    (`[C, P, KH*KW]` for a depthwise one), `P = N*OH*OW` output positions.

    For each input shape an index array is computed once, by running the very same gather
    (`patches` of the padding) on the element numbers of the input; the padding's number
    picks a zero appended to the flattened input. Each call is then a single fancy index.
    `index(..., ones=True)` ends each row with a 1 (picked from behind the zero): the bias
    then rides in the matmul as the weights' last column. Gathers larger than
    `GATHER_LIMIT` elements (images) copy the strided view instead."""

    def __init__(self, pad: Sequence[int], stride: Sequence[int], dilation: Sequence[int],
                 depthwise: bool):
        self._pad_values, self._stride, self._dilation = pad, stride, dilation
        self._depthwise = depthwise
        self.padded = any(pad)
        self._pad = padder(pad)  # zeros: the zero point, once it is subtracted
        self._indices: dict[tuple[Any, ...], tuple[np.ndarray | None, tuple[int, ...]]] = {}

    def _layout(self, patches: np.ndarray) -> np.ndarray:
        n, out_h, out_w, kh, kw, channels = patches.shape
        if self._depthwise:
            return patches.reshape(n * out_h * out_w, kh * kw, channels).transpose(2, 0, 1)
        return patches.reshape(n * out_h * out_w, kh * kw * channels)

    def positions(self, shape: tuple[int, ...], kernel: tuple[int, int]) -> int:
        """The number of output positions `N*OH*OW` for an input of `shape`."""
        (top, bottom, left, right), (sy, sx), (dy, dx) = (
            self._pad_values, self._stride, self._dilation)
        n, height, width, _ = shape
        out_h = (height + top + bottom - (kernel[0] - 1) * dy - 1) // sy + 1
        out_w = (width + left + right - (kernel[1] - 1) * dx - 1) // sx + 1
        return n * out_h * out_w

    def index(self, shape: tuple[int, ...], kernel: tuple[int, int], ones: bool,
              gather: bool = False) -> tuple[np.ndarray | None, tuple[int, ...]]:
        """The gathering index into the flattened input (followed by `[0, 1]`; with `ones`
        each row ends with the 1) and the output's `(N, OH, OW)`; no index for gathers
        beyond `GATHER_LIMIT` unless `gather` (few positions: a gather whatever their
        length)."""
        size = math.prod(shape)
        numbers = padder(self._pad_values, size)(np.arange(size).reshape(shape))
        patches = windows(numbers, kernel, self._stride, self._dilation)
        index = self._layout(patches)
        if ones:
            index = np.concatenate((index, np.full((len(index), 1), size + 1)), axis=1)
        index = np.ascontiguousarray(index)
        gather = gather or index.size <= GATHER_LIMIT
        return (index if gather else None), patches.shape[:3]

    def __call__(self, x: np.ndarray, kernel: tuple[int, int]
                 ) -> tuple[np.ndarray, tuple[int, ...]]:
        """The columns of `x` and the output's `(N, OH, OW)`."""
        key = (x.shape, kernel)
        if (known := self._indices.get(key)) is None:
            if len(self._indices) >= SHAPE_CACHE_LIMIT:  # shapes that keep changing
                self._indices.clear()
            known = self._indices[key] = self.index(x.shape, kernel, ones=False)
        index, positions = known
        if index is None:
            patches = windows(self._pad(x), kernel, self._stride, self._dilation)
            # A copy: the reshape may give an overlapping view, which BLAS cannot take.
            return np.ascontiguousarray(self._layout(patches)), positions
        flat = x.reshape(-1)
        if self.padded:
            flat = np.concatenate((flat, zero_one(x.dtype)))
        return flat.take(index), positions


@cache
def zero_one(dtype: np.dtype) -> np.ndarray:
    """`[0, 1]` of `dtype` (read-only): the elements the padding's and the bias column's
    indices pick."""
    zero_one = np.array([0, 1], dtype)
    zero_one.flags.writeable = False
    return zero_one


@cache
def zero(dtype: np.dtype) -> np.ndarray:
    """`[0]` of `dtype` (read-only)."""
    zero = np.zeros(1, dtype)
    zero.flags.writeable = False
    return zero


__all__ = [
    "GATHER_LIMIT",
    "SHAPE_CACHE_LIMIT",
    "Columns",
    "Prepared",
    "padder",
    "windows",
    "zero",
    "zero_one",
]
