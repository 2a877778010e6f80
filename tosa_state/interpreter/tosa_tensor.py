"""Numpy impls of the TOSA tensor-level operators (`tosa_state.dialects.tosa.tensor`).

Each impl is one or two numpy calls; everything an op's properties and types determine
(axes, permutations, dtypes, static shapes, the reduction to run) is decoded once per op
by a `per_op` decoder. Results have exactly the result type's dtype and shape (0-D
arrays, never numpy scalars). Inputs are never mutated; reshape, slice, transpose,
reverse and identity return views.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from functools import partial
from typing import Any, NamedTuple

import numpy as np
from xdsl.dialects.builtin import TensorType, bf16, i8
from xdsl.dialects.tosa import NanMode
from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    impl,
)
from xdsl.ir import Operation

from tosa_state.diagnostics import InferenceError, brief
from tosa_state.dialects.tosa.tensor import (
    ArgMaxOp,
    AvgPool2DOp,
    ConcatOp,
    ConstOp,
    ConstShapeOp,
    Conv2DOp,
    ConvOperation,
    DepthwiseConv2DOp,
    GatherOp,
    IdentityOp,
    MatMulOp,
    MaxPool2DOp,
    PadOp,
    ReduceAllOp,
    ReduceAnyOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProductOp,
    ReduceSumOp,
    ReductionOperation,
    ReshapeOp,
    ReverseOp,
    ScatterOp,
    SliceOp,
    TileOp,
    TransposeOp,
    constant_shape,
)
from tosa_state.dtypes import dense_to_numpy, numpy_dtype
from tosa_state.interpreter.im2col import (
    SHAPE_CACHE_LIMIT,
    Columns,
    Prepared,
    padder,
    windows,
    zero,
    zero_one,
)
from tosa_state.interpreter.op_cache import Kernel, Kernels, per_op
from tosa_state.interpreter.run_errors import IndexOutOfRange

_F32 = np.dtype(np.float32)
_BF16 = numpy_dtype(bf16)
_NARROW_FLOATS = (np.dtype(np.float16), _BF16)
"""Float types whose sums and products accumulate in f32."""


def _result_type(op: Operation, index: int = 0) -> TensorType:
    result_type = op.results[index].type
    assert isinstance(result_type, TensorType)
    return result_type


def _result_dtype(op: Operation) -> np.dtype:
    return numpy_dtype(_result_type(op).element_type)


def _static_result_shape(op: Operation) -> tuple[int, ...] | None:
    result_type = _result_type(op)
    return tuple(result_type.get_shape()) if result_type.has_static_shape() else None


def _fail(op: Operation, message: str) -> InferenceError:
    return InferenceError(f"error: '{op.name}' op {message}")


# ---------------------------------------------------------------------------------------
# Decoders (once per op)
# ---------------------------------------------------------------------------------------



@per_op
def _const_value(op: ConstOp) -> np.ndarray:
    return dense_to_numpy(op.values)


@per_op
def _const_shape(op: ConstShapeOp) -> tuple[int, ...]:
    return op.shape_values


_EXACT_INTEGERS = np.dtype(np.float64)
"""i8 products are computed in f64 by BLAS: every product of two zero-point-shifted i8 values
(|v| <= 255) and every partial sum of up to 2^37 of them is an integer below 2^53, so the sum
is exact in any order; numpy's integer matmul has no BLAS and was 10x slower on NNCF's int8
models. The exact sum is then wrapped to the result's width as an integer accumulator does."""


def _wrapped(acc: np.ndarray, output: np.dtype) -> np.ndarray:
    """An exact f64 integer accumulator as `output`, wrapping around (through i64: a float
    cast to a narrower integer does not wrap)."""
    return acc.astype(np.int64).astype(output)


class _MatMulKind(NamedTuple):
    compute: np.dtype  # the dtype the product is computed in
    output: np.dtype
    zero_points: bool  # subtract a_zp / b_zp (i8 only: they must be zero otherwise)


@per_op
def _matmul_kind(op: MatMulOp) -> _MatMulKind:
    a_type = op.a.type
    assert isinstance(a_type, TensorType)
    output = _result_dtype(op)
    if a_type.element_type == i8:
        return _MatMulKind(_EXACT_INTEGERS, output, True)
    return _MatMulKind(_F32, output, False)


class _ArgMaxKind(NamedTuple):
    axis: int
    ignore_nan: bool
    output: np.dtype


@per_op
def _argmax_kind(op: ArgMaxOp) -> _ArgMaxKind:
    input_type = op.input.type
    assert isinstance(input_type, TensorType)
    ignore = op.nan_mode.data == NanMode.IGNORE
    is_float = _is_floating(numpy_dtype(input_type.element_type))
    return _ArgMaxKind(op.axis.value.data, ignore and is_float, _result_dtype(op))


def _is_floating(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype == _BF16


def _accumulated(
    reduce: Callable[..., np.ndarray], axis: int, compute: np.dtype, output: np.dtype
) -> Callable[[np.ndarray], np.ndarray]:
    """`reduce` computed in `compute`, the result rounded to `output`."""

    def run(x: np.ndarray) -> np.ndarray:
        return reduce(x, axis=axis, dtype=compute, keepdims=True).astype(output)

    return run


def _upcast(
    reduce: Callable[..., np.ndarray], axis: int, compute: np.dtype, output: np.dtype
) -> Callable[[np.ndarray], np.ndarray]:
    """`reduce` on `x` converted to `compute` (exact for max / min), back to `output`."""

    def run(x: np.ndarray) -> np.ndarray:
        return reduce(x.astype(compute), axis=axis, keepdims=True).astype(output)

    return run


@per_op
def _reducer(op: ReductionOperation) -> Callable[[np.ndarray], np.ndarray]:
    """The numpy reduction of a `tosa.reduce_*` op, with its axis and dtypes bound."""
    axis = op.axis.value.data
    dtype = _result_dtype(op)
    if isinstance(op, ReduceSumOp | ReduceProductOp):
        ufunc = np.add if isinstance(op, ReduceSumOp) else np.multiply
        if dtype in _NARROW_FLOATS:
            return _accumulated(ufunc.reduce, axis, _F32, dtype)
        return partial(ufunc.reduce, axis=axis, dtype=dtype, keepdims=True)
    if isinstance(op, ReduceAllOp | ReduceAnyOp):
        ufunc = np.logical_and if isinstance(op, ReduceAllOp) else np.logical_or
        return partial(ufunc.reduce, axis=axis, keepdims=True)
    assert isinstance(op, ReduceMaxOp | ReduceMinOp)
    ignore = op.nan_mode.data == NanMode.IGNORE
    if isinstance(op, ReduceMaxOp):
        ufunc = np.fmax if ignore else np.maximum
    else:
        ufunc = np.fmin if ignore else np.minimum
    if dtype == _BF16:
        # ml_dtypes' bfloat16 loops warn on NaN; f32 holds every bf16 value exactly.
        return _upcast(ufunc.reduce, axis, _F32, dtype)
    return partial(ufunc.reduce, axis=axis, keepdims=True)


def _static_input_shape(op: SliceOp | PadOp) -> tuple[int, ...] | None:
    input_type = op.input1.type
    assert isinstance(input_type, TensorType)
    return tuple(input_type.get_shape()) if input_type.has_static_shape() else None


@per_op
def _static_window(op: SliceOp) -> tuple[slice, ...] | None:
    """The window of a slice of a static shape by constant shapes (the common case)."""
    shape = _static_input_shape(op)
    start, size = constant_shape(op.start), constant_shape(op.size)
    if shape is None or start is None or size is None:
        return None
    return _window(op, shape, start, size)


@per_op
def _static_padding(op: PadOp) -> tuple[tuple[int, ...], tuple[slice, ...]] | None:
    """The layout of a pad of a static shape by a constant padding (the common case)."""
    shape = _static_input_shape(op)
    padding = constant_shape(op.padding)
    if shape is None or padding is None:
        return None
    return _padded(op, shape, padding)


@per_op
def _pad_cache(op: PadOp) -> dict[tuple[Any, ...], tuple[tuple[int, ...], tuple[slice, ...]]]:
    """Layouts by (input shape, padding), for pads that are not static."""
    return {}


def _window(
    op: SliceOp, shape: tuple[int, ...], start: tuple[int, ...], size: tuple[int, ...]
) -> tuple[slice, ...]:
    """The slices of `tosa.slice` (checked against the input shape once per key). An empty
    window (a run-time size of 0, as a slice past the end of a dynamic dim gives in
    OpenVINO) is allowed: TOSA forbids size 0, but sizes computed at run time can be."""
    window: list[slice] = []
    for dim, (begin, extent, length) in enumerate(zip(start, size, shape, strict=True)):
        end = length if extent == -1 else begin + extent
        if begin < 0 or end > length or end < begin:
            raise _fail(
                op,
                f"slice [{begin}, {end}) is out of bounds of dimension {dim} (size {length})",
            )
        window.append(slice(begin, end))
    return tuple(window)


def _padded(
    op: PadOp, shape: tuple[int, ...], padding: tuple[int, ...]
) -> tuple[tuple[int, ...], tuple[slice, ...]]:
    """The output shape of `tosa.pad` and where the input goes in it."""
    if any(p < 0 for p in padding):
        raise _fail(op, f"padding {brief(list(padding))} has negative values")
    out_shape = tuple(
        padding[2 * d] + length + padding[2 * d + 1] for d, length in enumerate(shape)
    )
    interior = tuple(
        slice(padding[2 * d], padding[2 * d] + length) for d, length in enumerate(shape)
    )
    return out_shape, interior


def _argmax_ignoring_nan(x: np.ndarray, axis: int) -> np.ndarray:
    """First index of the largest non-NaN value; the first non-NaN one if all are -inf;
    0 if all are NaN (the spec's `nan_mode = IGNORE`)."""
    nan = np.isnan(x)
    if not nan.any():
        return np.argmax(x, axis=axis)
    index = np.argmax(np.where(nan, -np.inf, x), axis=axis)
    picked_nan = np.take_along_axis(nan, np.expand_dims(index, axis), axis=axis)
    first_number = np.argmax(~nan, axis=axis)
    return np.where(np.squeeze(picked_nan, axis=axis), first_number, index)


# ---------------------------------------------------------------------------------------
# Kernels (built once per op; the impls of these ops are nothing but a kernel call)
# ---------------------------------------------------------------------------------------

_KERNELS = Kernels("tosa_tensor")


@_KERNELS.builds(IdentityOp)
def _identity_kernel(op: IdentityOp) -> Kernel:
    return _identity


_STREAMED_BYTES = 1 << 18
"""From this size on, the weights of a one-row product (`[1, 1, K] x [1, K, N]`) are taken
to stream from memory (an LLM decode step reads every weight once): stored `[N, K]` and used
transposed, as MatMul's `transpose_b` converts, BLAS's gemm/gemv streams them at 13 GB/s,
numpy's contiguous dot products (`einsum`) at 18-20 GB/s (measured on the 135M decoder's 210
weight matrices; below this size, in cache, BLAS is faster)."""


def _identity(x: np.ndarray) -> np.ndarray:
    return x


@_KERNELS.builds(MatMulOp)
def _matmul_kernel(op: MatMulOp) -> Kernel:
    kind = _matmul_kind(op)
    compute, output = kind.compute, kind.output
    if kind.zero_points:

        def matmul_zero_points(
            a: np.ndarray, b: np.ndarray, a_zp: np.ndarray, b_zp: np.ndarray
        ) -> np.ndarray:
            a = a.astype(compute) - a_zp.astype(compute)
            b = b.astype(compute) - b_zp.astype(compute)
            return _wrapped(np.matmul(a, b), output)

        return matmul_zero_points

    def matmul(a: np.ndarray, b: np.ndarray, a_zp: np.ndarray, b_zp: np.ndarray) -> np.ndarray:
        if a.dtype != compute:
            a = a.astype(compute)
            b = b.astype(compute)
        if (a.shape[1] == 1 and b.shape[0] == 1 and b.nbytes >= _STREAMED_BYTES
                and b.strides[1] == b.itemsize):
            result = np.einsum("bk,bnk->bn", a[:, 0], b.transpose(0, 2, 1))[:, None]
        else:
            result = np.matmul(a, b)
        return result if result.dtype == output else result.astype(output)

    return matmul


_FEW_POSITIONS = 16
"""Up to this many output positions (a streaming chunk), a convolution computes
`weights @ columns.T`: OpenBLAS multiplies a few rows by a wide matrix about twice as fast
as the other way round; beyond it (images), `columns @ weights.T` wins."""


@_KERNELS.builds(Conv2DOp, DepthwiseConv2DOp)
def _conv_kernel(op: ConvOperation) -> Kernel:
    """One matmul (im2col): the `[P, KH*KW*IC]` columns of the padded input times the
    weights as an `[OC, KH*KW*IC]` matrix; a depthwise conv is one batched matmul over the
    channels (`[C, P, KH*KW] @ [C, KH*KW, M]`). Integers (i8) have their zero points
    subtracted and accumulate exactly in f64 (`_EXACT_INTEGERS`), then wrap to i32."""
    output = _result_dtype(op)
    integer = output.kind == "i"
    compute = _EXACT_INTEGERS if integer else _F32
    depthwise = isinstance(op, DepthwiseConv2DOp)
    pad, stride = op.pad.get_values(), op.stride.get_values()
    columns_of = Columns(pad, stride, op.dilation.get_values(), depthwise)

    def weights(w: np.ndarray, w_zp: np.ndarray) -> np.ndarray:
        w = w.astype(compute) - w_zp.astype(compute) if integer else w.astype(compute)
        if depthwise:  # [KH, KW, C, M] -> [C, KH*KW, M]
            kh, kw, channels, multiplier = w.shape
            return np.ascontiguousarray(
                w.reshape(kh * kw, channels, multiplier).transpose(1, 0, 2))
        return np.ascontiguousarray(w.reshape(w.shape[0], -1))  # [OC, KH*KW*IC]

    prepared = Prepared(weights)

    def with_bias(w: np.ndarray, bias: np.ndarray) -> tuple[np.ndarray | None, bool]:
        """For few positions: the float weights with the bias as last column `[OC, K + 1]`
        (None when the bias is all zeros), and whether the bias is still to be added
        (integers: the ones column would miss the zero points)."""
        if integer:
            return None, bool(bias.any())
        if not bias.any():
            return None, False
        matrix = weights(w, zero(w.dtype))
        column = np.broadcast_to(bias.astype(compute).reshape(-1, 1), (len(matrix), 1))
        return np.ascontiguousarray(np.concatenate((matrix, column), axis=1)), False

    biased = Prepared(with_bias)
    plain = not depthwise and not any(pad) and tuple(stride) == (1, 1)
    appended = zero_one(compute)
    paths: dict[tuple[Any, ...], Any] = {}
    """How an input shape (with a weights shape) is computed: "pointwise" (a 1x1 kernel on
    the input as it is), "many" output positions, or for few positions a dict of the
    gathering index and output shape by whether the columns end with a 1."""

    def path(x_shape: tuple[int, ...], w_shape: tuple[int, ...]) -> Any:
        if len(paths) >= SHAPE_CACHE_LIMIT:
            paths.clear()
        kernel = w_shape[:2] if depthwise else w_shape[1:3]
        if plain and kernel == (1, 1):
            found: Any = "pointwise"
        elif not depthwise and columns_of.positions(x_shape, kernel) <= _FEW_POSITIONS:
            found = {}
            for ones in (False, True):
                index, positions = columns_of.index(x_shape, kernel, ones, gather=True)
                found[ones] = (index, (*positions, w_shape[0]))
        else:
            found = "many"
        paths[x_shape, w_shape] = found
        return found

    def conv(x: np.ndarray, w: np.ndarray, bias: np.ndarray, x_zp: np.ndarray,
             w_zp: np.ndarray) -> np.ndarray:
        if integer:
            x = x.astype(compute) - x_zp.astype(compute)
        elif x.dtype != compute:
            x = x.astype(compute)
        how = paths.get((x.shape, w.shape)) or path(x.shape, w.shape)
        if type(how) is dict:
            # Few positions: `matrix @ columns.T` (OpenBLAS: twice as fast as the other way
            # round), the bias riding in as the matrix's last column against the columns'
            # ones; the result is a transposed view
            matrix_b, add_bias = biased(w, bias)
            ones = matrix_b is not None
            index, out_shape = how[ones]
            flat = x.reshape(-1)
            if ones or columns_of.padded:
                flat = np.concatenate((flat, appended))
            acc = (prepared(w, w_zp) if matrix_b is None else matrix_b) @ flat.take(index).T
            acc = acc.T.reshape(out_shape)  # [OC, P] -> [N, OH, OW, OC]
            if add_bias:
                acc += bias.astype(compute)
            return _wrapped(acc, output) if integer else acc.astype(output, copy=False)
        matrix = prepared(w, w_zp)
        if how == "pointwise":
            columns, positions = x.reshape(-1, x.shape[3]), x.shape[:3]
        else:
            columns, positions = columns_of(x, w.shape[:2] if depthwise else w.shape[1:3])
        # depthwise: [P, C, M]
        acc = np.matmul(columns, matrix).transpose(1, 0, 2) if depthwise else columns @ matrix.T
        acc = acc.reshape(*positions, -1)
        acc += bias if bias.dtype == compute else bias.astype(compute)
        return _wrapped(acc, output) if integer else acc.astype(output, copy=False)

    return conv


def _pooled(
    op: MaxPool2DOp | AvgPool2DOp
) -> tuple[tuple[int, int], tuple[int, int], tuple[int, int, int, int]]:
    return (tuple(op.kernel.get_values()), tuple(op.stride.get_values()),  # type: ignore
            tuple(op.pad.get_values()))


@_KERNELS.builds(MaxPool2DOp)
def _max_pool_kernel(op: MaxPool2DOp) -> Kernel:
    """The largest value of each window (one reduction over the gathered windows of the
    input padded with the lowest value)."""
    kernel, stride, pad_values = _pooled(op)
    dtype = _result_dtype(op)
    compute = _F32 if dtype == _BF16 else dtype  # ml_dtypes' bf16 max warns on NaN
    lowest = -np.inf if _is_floating(dtype) else np.iinfo(dtype).min
    larger = np.fmax if op.nan_mode.data == NanMode.IGNORE else np.maximum
    pad = padder(pad_values, lowest)

    def max_pool(x: np.ndarray) -> np.ndarray:
        patches = windows(pad(x.astype(compute, copy=False)), kernel, stride)
        return larger.reduce(patches, axis=(3, 4)).astype(dtype, copy=False)

    return max_pool


def _reciprocal_scales(counts: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """TOSA's `reciprocal_scale` of each count: (multiplier, shift) with
    `multiplier / 2**shift` close to `1 / count`."""
    bits = np.array([int(c - 1).bit_length() for c in counts.reshape(-1)],
                    np.int64).reshape(counts.shape)
    numerator = np.left_shift(np.int64((1 << 30) + 1), bits)
    return numerator // counts, 30 + bits


@_KERNELS.builds(AvgPool2DOp)
def _avg_pool_kernel(op: AvgPool2DOp) -> Kernel:
    """Sums of the gathered windows of a zero-padded input (zero points subtracted first),
    divided by how many input elements each window holds (a pooled mask of ones): in
    floating point, or for i8 by TOSA's fixed-point reciprocal, rounding half up, then
    `output_zp`."""
    kernel, stride, pad_values = _pooled(op)
    dtype = _result_dtype(op)
    integer = dtype.kind == "i"
    accumulate = np.dtype(np.int64) if integer else numpy_dtype(op.acc_type)
    pad = padder(pad_values)
    counts: dict[tuple[int, ...], Any] = {}

    def divisor(shape: tuple[int, ...]) -> Any:
        if (known := counts.get(shape)) is None:
            mask = pad(np.ones((1, *shape[1:3], 1), np.int64))
            count = windows(mask, kernel, stride).sum(axis=(3, 4))
            known = counts[shape] = _reciprocal_scales(count) if integer else \
                count.astype(accumulate)
        return known

    def avg_pool(x: np.ndarray, input_zp: np.ndarray, output_zp: np.ndarray) -> np.ndarray:
        values = x.astype(accumulate)
        if integer:
            values -= input_zp.astype(accumulate)
        total = windows(pad(values), kernel, stride).sum(axis=(3, 4))
        if not integer:
            return (total / divisor(x.shape)).astype(dtype)
        multiplier, shift = divisor(x.shape)
        scaled = (total * multiplier + np.left_shift(1, shift - 1)) >> shift
        info = np.iinfo(dtype)
        return np.clip(scaled + output_zp.astype(np.int64), info.min, info.max).astype(dtype)

    return avg_pool


@_KERNELS.builds(ReduceAllOp, ReduceAnyOp, ReduceMaxOp, ReduceMinOp, ReduceProductOp,
                 ReduceSumOp)
def _reduce_kernel(op: ReductionOperation) -> Kernel:
    return _reducer(op)


@_KERNELS.builds(ReshapeOp)
def _reshape_kernel(op: ReshapeOp) -> Kernel:
    static = _static_result_shape(op)
    if static is None:
        return np.reshape

    def reshape(x: np.ndarray, shape: tuple[int, ...]) -> np.ndarray:
        return x.reshape(static)

    return reshape


@_KERNELS.builds(SliceOp)
def _slice_kernel(op: SliceOp) -> Kernel:
    window = _static_window(op)
    if window is not None:

        def static_slice(x: np.ndarray, start: tuple[int, ...], size: tuple[int, ...]):
            return x[window]

        return static_slice
    seen: dict[tuple[Any, ...], tuple[slice, ...]] = {}
    """Windows by (input shape, start, size), each checked once."""
    located = partial(_window, op)

    def dynamic_slice(x: np.ndarray, start: tuple[int, ...], size: tuple[int, ...]):
        key = (x.shape, start, size)
        if (found := seen.get(key)) is None:
            if len(seen) >= SHAPE_CACHE_LIMIT:  # shapes that keep changing (a KV cache)
                seen.clear()
            found = seen[key] = located(x.shape, start, size)
        return x[found]

    return dynamic_slice


@_KERNELS.builds(ReverseOp)
def _reverse_kernel(op: ReverseOp) -> Kernel:
    axis = op.axis.value.data
    window = (slice(None),) * axis + (slice(None, None, -1),)

    def reverse(x: np.ndarray) -> np.ndarray:
        return x[window]  # a view, as `np.flip` gives, at a tenth of its cost

    return reverse


@_KERNELS.builds(TransposeOp)
def _transpose_kernel(op: TransposeOp) -> Kernel:
    perms = tuple(op.perms.get_values())

    def transpose(x: np.ndarray) -> np.ndarray:
        return x.transpose(perms)  # the method: a fifth of `np.transpose`'s cost

    return transpose


@_KERNELS.builds(ConcatOp)
def _concat_kernel(op: ConcatOp) -> Kernel:
    axis = op.axis.value.data

    def concat(*xs: np.ndarray) -> np.ndarray:
        return np.concatenate(xs, axis)

    return concat


@_KERNELS.builds(GatherOp)
def _gather_kernel(op: GatherOp) -> Kernel:
    def gather(values: np.ndarray, indices: np.ndarray) -> np.ndarray:
        if indices.shape == (1, 1):  # a step of a loop over time: a view, as a slice
            index = indices.item()
            if not 0 <= index < values.shape[1]:
                _check_indices(op, indices, values.shape[1])
            return values[:, index:index + 1]
        _check_indices(op, indices, values.shape[1])
        if indices.shape[1] == values.shape[1] and _is_identity(indices):
            return values  # a beam reorder that keeps every row in place: a view
        if values.shape[0] == 1:  # one batch: one `take`
            return values[0].take(indices[0], axis=0)[np.newaxis]
        return values[np.arange(values.shape[0])[:, np.newaxis], indices]

    return gather


def gather_rows(reshape_in: Kernel, gather: Kernel, reshape_out: Kernel) -> Kernel:
    """The kernel of `reshape_out(gather(reshape_in(x, [1, n, m]), indices), shape)`, how a
    Gather of whole rows of `x` (an LLM's beam reorder of a KV cache) reaches TOSA: `x`
    itself when the indices keep every row in place and the shapes say that the reshapes
    only flatten and restore `x`'s trailing dims, with no copy (the flattening of a cache
    that is the corner of a larger buffer would copy it); else the three kernels."""

    def rows(x: np.ndarray, flat: tuple[int, ...], indices: np.ndarray,
             shape: tuple[int, ...]) -> np.ndarray:
        n = x.shape[0] if x.ndim else -1
        if (indices.shape == (1, n) and tuple(shape) == x.shape
                and tuple(flat) == (1, n, math.prod(x.shape[1:])) and _is_identity(indices)):
            return x
        return reshape_out(gather(reshape_in(x, flat), indices), shape)

    return rows


@_KERNELS.builds(TileOp)
def _tile_kernel(op: TileOp) -> Kernel:
    return tile


def tile(x: np.ndarray, multiples: tuple[int, ...]) -> np.ndarray:
    """`tosa.tile`: repeats along axes of one element only (an LLM's K/V heads repeated
    for grouped-query attention) are a read-only broadcast view, copied only where a later
    op needs the copy (see `grouped_product`); other repeats, `np.tile`."""
    if all(m == 1 or n == 1 for m, n in zip(multiples, x.shape, strict=True)):
        return np.broadcast_to(x, tuple(m * n for m, n in zip(multiples, x.shape, strict=True)))
    return np.tile(x, multiples)


def shape_only(x: np.ndarray) -> np.ndarray:
    """An array of `x`'s shape and dtype over one element (every stride 0): reshapes and
    transposes of it give their result's shape without touching memory."""
    return np.lib.stride_tricks.as_strided(np.zeros(1, x.dtype), x.shape, (0,) * x.ndim)


def grouped_product(matmul: Kernel, reshapes: Sequence[Kernel], transpose: Kernel | None
                    ) -> Kernel:
    """The kernel of `matmul(a, transpose(reshape_n(... reshape_1(t, s_1) ..., s_n)), ...)`
    where `t` is a `tosa.tile` result (the transpose optional: `[0, 2, 1]`), as grouped-query
    attention reaches TOSA: K / V of `h` heads tiled to `h * g`, flattened to the product's
    batch. When `t` repeats exactly one axis `i` (`tile` made it a broadcast view) and the
    reshapes make the axes up to `i` the batch (so batch `n` is group `n // g`, repeat
    `n % g`), the `g` products of a group share one matrix: `a` is reshaped to
    `[batch / g, g * rows, k]` and multiplied by the un-repeated matrices, with no copy of
    the repeated ones (at 2048 positions, 2 x 9 MiB per layer and step of the 135M decoder).
    Otherwise the kernels, one by one."""

    def reshaped(x: np.ndarray, shapes: tuple[tuple[int, ...], ...]) -> np.ndarray:
        for reshape, shape in zip(reshapes, shapes, strict=True):
            x = reshape(x, shape)
        return x

    def product(a: np.ndarray, t: np.ndarray, a_zp: np.ndarray, b_zp: np.ndarray,
                *shapes: tuple[int, ...]) -> np.ndarray:
        repeated = [i for i, (n, s) in enumerate(zip(t.shape, t.strides, strict=True))
                    if s == 0 and n > 1]
        if len(repeated) == 1 and a.ndim == 3:
            i = repeated[0]
            b = reshaped(shape_only(t), shapes)  # the result's shape, checked by the kernels
            groups, g = math.prod(t.shape[:i]), t.shape[i]
            if (b.ndim == 3 and b.shape[0] == groups * g == a.shape[0]
                    and b.shape[1] * b.shape[2] == math.prod(t.shape[i + 1:])):
                one = t[(slice(None),) * i + (slice(0, 1),)].reshape(groups, *b.shape[1:])
                if transpose is not None:
                    one = transpose(one)
                rows, k = a.shape[1:]
                out = matmul(a.reshape(groups, g * rows, k), one, a_zp, b_zp)
                return out.reshape(groups * g, rows, out.shape[-1])
        b = reshaped(t, shapes)
        return matmul(a, b if transpose is None else transpose(b), a_zp, b_zp)

    return product


def _is_identity(indices: np.ndarray) -> bool:
    """Whether every row of `indices` is `0, 1, ..., n-1`."""
    return bool((indices == np.arange(indices.shape[1])).all())


def scatter_into(
    op: Operation, values: np.ndarray, indices: np.ndarray, update: np.ndarray
) -> np.ndarray:
    """`tosa.scatter` writing into `values` itself (which the caller owns); returns it."""
    if indices.shape == (1, 1):  # a step of a loop over time: one row
        index = indices.item()
        if not 0 <= index < values.shape[1]:
            _check_indices(op, indices, values.shape[1])
        values[0, index] = update[0, 0]
        return values
    _check_indices(op, indices, values.shape[1])
    if values.shape[0] == 1:
        values[0, indices[0]] = update[0]
    else:
        values[np.arange(values.shape[0])[:, np.newaxis], indices] = update
    return values


_UNSIGNED = {np.dtype(np.int32): np.dtype(np.uint32), np.dtype(np.int64): np.dtype(np.uint64)}


def _check_indices(op: Operation, indices: np.ndarray, size: int) -> None:
    """Indices in [0, size), checked with one reduction (negatives wrap to huge unsigned);
    a few (a batch's step of a loop) in Python, which costs less than a reduction."""
    if indices.size <= 16:
        found = indices.ravel().tolist()
        in_range = not found or (min(found) >= 0 and max(found) < size)
    else:
        in_range = indices.view(_UNSIGNED[indices.dtype]).max() < size
    if not in_range:
        raise IndexOutOfRange(op, size, (indices.min(), indices.max()))


# ---------------------------------------------------------------------------------------
# Impls
# ---------------------------------------------------------------------------------------


@_KERNELS.impls
class TosaTensorFunctions(InterpreterFunctions):
    """Numpy impls of the TOSA tensor, reduction, data-layout, gather, data-node, shape
    and control-flow operators: the ops with a kernel run it (`Kernels.impls`); the others
    are below."""

    # -- data nodes and shapes ----------------------------------------------------------

    @impl(ConstOp)
    def run_const(self, interpreter: Interpreter, op: ConstOp, args: PythonValues):
        return (_const_value(op),)

    @impl(ConstShapeOp)
    def run_const_shape(self, interpreter: Interpreter, op: ConstShapeOp, args: PythonValues):
        return (_const_shape(op),)

    # -- tensor operators ---------------------------------------------------------------

    @impl(ArgMaxOp)
    def run_argmax(self, interpreter: Interpreter, op: ArgMaxOp, args: PythonValues):
        kind = _argmax_kind(op)
        x = args[0]
        if kind.ignore_nan:
            index = _argmax_ignoring_nan(x, kind.axis)
        else:
            index = np.argmax(x, axis=kind.axis)
        return (np.asarray(index, dtype=kind.output),)

    # -- data layout --------------------------------------------------------------------

    @impl(PadOp)
    def run_pad(self, interpreter: Interpreter, op: PadOp, args: PythonValues):
        x, padding, pad_const = args
        layout = _static_padding(op)
        if layout is None:
            cache = _pad_cache(op)
            key = (x.shape, padding)
            layout = cache.get(key)
            if layout is None:
                if len(cache) >= SHAPE_CACHE_LIMIT:
                    cache.clear()
                layout = cache[key] = _padded(op, x.shape, padding)
        out_shape, interior = layout
        out = np.full(out_shape, pad_const[0], dtype=x.dtype)
        out[interior] = x
        return (out,)

    # -- scatter / gather ---------------------------------------------------------------

    @impl(ScatterOp)
    def run_scatter(self, interpreter: Interpreter, op: ScatterOp, args: PythonValues):
        values_in, indices, update = args
        return (scatter_into(op, values_in.copy(), indices, update),)
