"""Sizes known at compile time or at run time: the one mechanism behind dynamic shapes.

Every size, bound, index, repeat count or split length the conversion handles is a `Size`:
an `int` when it is known, or a `!tosa.shape<1>` value (a `tosa.dim`, or shape arithmetic
on those) when it is known only at run time. The arithmetic here folds ints and emits
`tosa.add_shape` / `sub_shape` / `mul_shape` / `div_floor_shape` / `max_shape` /
`min_shape` otherwise, so the patterns are written once for both cases:

- `slice_ranges` is numpy slicing (`start:stop:step` per axis, negative bounds counted from
  the end, clamped to the dim, `INT64_MAX` / `INT64_MIN` meaning "to the end") on any dims:
  one `tosa.slice` of the bounding window, then a `tosa.reverse` and a strided gather on
  the axes that need them. Slice-8, StridedSlice-1, Split-1, VariadicSplit-1 use it.
- `gather` is Gather-1/7/8 (`batch_dims`, negative indices, constant or computed indices)
  on any dims: constant indices become windows, computed ones one `tosa.gather`.
- `Emitter.size_tensor` turns a run-time size into the integer tensor OpenVINO has there (a
  `tosa.reduce_sum` of a run-time `tosa.tile` of ones: exact, no table, no bound); a shape
  reaching an op that takes tensors is given to it that way (`common.ShapeOperand`).

A computed bound counts from the end when the shape arithmetic makes it non-positive
(`sign`), else it is taken as non-negative; constant bounds may be either. Out-of-range
windows fail at run time in the op's kernel, naming the layer.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import shape as tts
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    Unsupported,
    constant,
    dims,
    dtype_of,
    element,
)

Size = int | SSAValue
"""A size known at compile time (int) or at run time (a `!tosa.shape<1>` value)."""

BIG = 1 << 62
"""Bounds at or beyond this mean "to the end" (exports write INT64_MAX / INT64_MIN)."""


# ---------------------------------------------------------------------------------------------
# Arithmetic on sizes
# ---------------------------------------------------------------------------------------------


def as_shape(e: Emitter, size: Size) -> SSAValue:
    return size if isinstance(size, SSAValue) else e.const_shape([int(size)])


def combine(e: Emitter, op: type[tts.ShapeBinaryOperation], fold, a: Size, b: Size) -> Size:
    """`fold(a, b)` when both are known, else `op` (a `tosa.*_shape`) on them."""
    if isinstance(a, int) and isinstance(b, int):
        return int(fold(a, b))
    return e.shape_op(op, as_shape(e, a), as_shape(e, b))


def add(e: Emitter, a: Size, b: Size) -> Size:
    if b == 0 and isinstance(b, int):
        return a
    if a == 0 and isinstance(a, int):
        return b
    return combine(e, tts.AddShapeOp, lambda x, y: x + y, a, b)


def sub(e: Emitter, a: Size, b: Size) -> Size:
    if isinstance(b, int) and b == 0:
        return a
    return combine(e, tts.SubShapeOp, lambda x, y: x - y, a, b)


def mul(e: Emitter, a: Size, b: Size) -> Size:
    if isinstance(b, int) and b == 1:
        return a
    if isinstance(a, int) and a == 1:
        return b
    return combine(e, tts.MulShapeOp, lambda x, y: x * y, a, b)


def floordiv(e: Emitter, a: Size, b: Size) -> Size:
    if isinstance(b, int) and b == 1:
        return a
    return combine(e, tts.DivFloorShapeOp, lambda x, y: x // y, a, b)


def minimum(e: Emitter, a: Size, b: Size) -> Size:
    return combine(e, tts.MinShapeOp, min, a, b)


def maximum(e: Emitter, a: Size, b: Size) -> Size:
    return combine(e, tts.MaxShapeOp, max, a, b)


def clamp(e: Emitter, size: Size, low: Size, high: Size) -> Size:
    return minimum(e, maximum(e, size, low), high)


def static(size: Size) -> int:
    """The value of a size in the static result type: the int, or `DYN`."""
    return size if isinstance(size, int) else DYN


def held_size(value: SSAValue) -> Size | None:
    """The size every element of `value` holds when it is built by `size_tensor` (through
    casts, and tiles and reshapes that only repeat it: `Broadcast(T, [batch])`), or is a
    constant of equal elements; else None."""
    while isinstance(owner := value.owner, tew.CastOp | tt.TileOp | tt.ReshapeOp):
        value = owner.input if isinstance(owner, tew.CastOp) else owner.input1
    found = constant(value)
    if found is not None:
        flat = np.asarray(found).reshape(-1)
        return int(flat[0]) if flat.size and (flat == flat[0]).all() else None
    owner = value.owner
    if not (isinstance(owner, tt.ReduceSumOp) and isinstance(owner.input.owner, tt.TileOp)):
        return None
    tile = owner.input.owner
    ones = constant(tile.input1)
    if ones is None or ones.shape != (1,) or ones[0] != 1:
        return None
    multiples = tile.multiples
    return None if isinstance(multiples.owner, tts.ConcatShapeOp) else multiples


def same(a: Size, b: Size) -> bool:
    """Whether two sizes are known to be equal: equal ints, or the same run-time size once
    each `tosa.dim` is traced back through reshapes to given sizes (a result reshaped to
    `[N, T, H]` has the T of the `tosa.dim` it was given) and transposes."""
    return _traced(a) == _traced(b)


def _traced(size: Size) -> int | tuple[SSAValue, int] | SSAValue:
    """`size` as an int, or as (tensor, axis) for a dim of a tensor that no reshape or
    transpose produced with a known size there, or the shape value itself."""
    if isinstance(size, int):
        return size
    dim = size.owner
    if not isinstance(dim, tts.DimOp):
        return size
    value, axis = dim.input1, dim.axis.value.data
    while True:
        source = value.owner
        if isinstance(source, tt.TransposeOp):
            value, axis = source.input1, int(source.perms.get_values()[axis])
        elif isinstance(source, tt.ReshapeOp) and (
                found := _shape_element(source.shape, axis)) is not None:
            return _traced(found)
        else:
            break
        if dims(value)[axis] != DYN:
            return dims(value)[axis]
    return value, axis


def _shape_element(shape_value: SSAValue, index: int) -> Size | None:
    """Element `index` of a shape built by `tosa.const_shape` / `tosa.concat_shape` (a
    `-1` is unknown), else None."""
    owner = shape_value.owner
    if isinstance(owner, tt.ConstShapeOp):
        found = owner.shape_values[index]
        return None if found < 0 else found
    if isinstance(owner, tts.ConcatShapeOp):
        for piece in owner.input1:
            rank = piece.type.rank  # type: ignore[attr-defined]
            if index < rank:
                return piece if rank == 1 and not isinstance(piece.owner, tt.ConstShapeOp) \
                    else _shape_element(piece, index)
            index -= rank
    return None


RANGE_CAPACITY = 8192
"""The longest Range with bounds known only at run time: TOSA has no iota, so such a Range is
a `tosa.slice` of the constant `[0, 1, ..., RANGE_CAPACITY)` (positions of a sequence, in a
decoder LLM). A Range `[0, m * k)` whose length has a static factor `m` is built from `k`
positions, so it may be `m * RANGE_CAPACITY` long."""


def positions(e: Emitter, first: Size, count: Size, element_type: Attribute) -> SSAValue:
    """`[first, first + 1, ..., first + count)` as a 1-D tensor, for sizes known at run time:
    a `tosa.slice` of the constant `[0, ..., RANGE_CAPACITY)` (a bound beyond it fails at run
    time, naming the layer); from 0, a length `m * k` with a static `m > 1` is `k` rows of
    `m`: `i * m + [0, m)`."""
    dtype = dtype_of(element_type)
    table = e.const(np.arange(RANGE_CAPACITY, dtype=dtype))
    factor, rest = _static_factor(e, count)
    if first == 0 and factor > 1 and isinstance(rest, SSAValue):
        rows = e.value(tt.SliceOp(table, e.shape_operand([0]), rest,
                                  TensorType(element_type, [DYN])))
        starts = e.mul(e.reshape_sizes(rows, [rest, 1]),
                       e.const(np.full((1, 1), factor, dtype=dtype)))
        grid = e.add(starts, e.const(np.arange(factor, dtype=dtype).reshape(1, factor)))
        return e.reshape_sizes(grid, [count])
    result_type = TensorType(element_type, [static(count)])
    return e.value(tt.SliceOp(table, e.shape_operand([first]), as_shape(e, count), result_type))


def _static_factor(e: Emitter, count: Size) -> tuple[int, Size]:
    """`count` as `m * k`: `m` the product of the static factors of its `tosa.mul_shape`s."""
    factor, dynamic, stack = 1, [], [count]
    while stack:
        size = stack.pop()
        owner = size.owner if isinstance(size, SSAValue) else None
        if isinstance(size, int):
            factor *= size
        elif isinstance(owner, tt.ConstShapeOp):
            factor *= owner.shape_values[0]
        elif isinstance(owner, tts.MulShapeOp):
            stack += [owner.input1, owner.input2]
        else:
            dynamic.append(size)
    if factor < 1 or not dynamic:
        return 1, count
    return factor, e.product(dynamic)


# ---------------------------------------------------------------------------------------------
# Slicing
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class AxisSlice:
    """numpy's `start:stop:step` on one axis (None: from the beginning / to the end)."""

    start: Size | None = None
    stop: Size | None = None
    step: int = 1


def sign(size: Size) -> int | None:
    """1 when `size` is known to be >= 0, -1 when <= 0, None when unknown: dims are >= 0,
    and the sign follows the shape arithmetic (torch's `x[..., -T:]` computes `-T` as
    `T * -1`)."""
    if isinstance(size, int):
        return 1 if size >= 0 else -1
    owner = size.owner
    if isinstance(owner, tts.DimOp):
        return 1
    if isinstance(owner, tt.ConstShapeOp):
        values = list(owner.shape_values)
        return 1 if all(v >= 0 for v in values) else -1 if all(v <= 0 for v in values) else None
    if not isinstance(owner, tts.ShapeBinaryOperation):
        return None
    a, b = (sign(v) for v in owner.operands)
    if a is None or b is None:
        return None
    if isinstance(owner, tts.MulShapeOp | tts.DivFloorShapeOp):
        return a * b
    if isinstance(owner, tts.AddShapeOp):
        return a if a == b else None
    if isinstance(owner, tts.SubShapeOp):
        return a if a == -b else None
    if isinstance(owner, tts.MaxShapeOp):
        return 1 if 1 in (a, b) else -1
    if isinstance(owner, tts.MinShapeOp):
        return -1 if -1 in (a, b) else 1
    return None


def _bound(e: Emitter, bound: Size | None, dim: Size, step: int, default_end: bool) -> Size:
    """`bound` normalised as Python's `slice.indices` does: negative ints count from the
    end, then clamped to `[0, dim]` (`[-1, dim - 1]` for a negative step)."""
    low, high = (0, dim) if step > 0 else (-1, sub(e, dim, 1))
    if bound is None:
        return (high if step > 0 else low) if default_end else (low if step > 0 else high)
    if isinstance(bound, int):
        if bound >= BIG:
            return high
        if bound <= -BIG:
            return low
        if bound < 0:
            return maximum(e, add(e, dim, bound), low)
        return minimum(e, bound, high)
    if sign(bound) == -1:  # counted from the end (a bound of exactly 0 would be too)
        return maximum(e, add(e, dim, bound), low)
    return clamp(e, bound, low, high)  # taken as >= 0


def _count(e: Emitter, start: Size, stop: Size, step: int) -> Size:
    """How many of `start, start + step, ...` lie before `stop`: ceil((stop - start) / step),
    at least 0."""
    distance = sub(e, stop, start) if step > 0 else sub(e, start, stop)
    stride = abs(step)
    if stride != 1:
        distance = floordiv(e, add(e, distance, stride - 1), stride)
    return maximum(e, distance, 0)


def window(e: Emitter, value: SSAValue, starts: Sequence[Size], sizes: Sequence[Size]
           ) -> SSAValue:
    """`tosa.slice` of `value` at `starts` with extents `sizes`, each known or not."""
    whole = all(
        isinstance(b, int) and b == 0 and (s == d if isinstance(s, int) else _same_dim(s, value, i))
        for i, (b, s, d) in enumerate(zip(starts, sizes, dims(value), strict=True))
    )
    if whole:
        return value
    if all(isinstance(s, int) for s in (*starts, *sizes)):
        return e.slice(value, [int(s) for s in starts], [int(s) for s in sizes])
    result_type = TensorType(element(value), [static(s) for s in sizes])
    if 0 in result_type.get_shape():
        raise Unsupported("an empty window of a tensor with dynamic dims")
    return e.value(tt.SliceOp(value, e.shape_operand(list(starts)),
                              e.shape_operand(list(sizes)), result_type))


def slice_ranges(e: Emitter, value: SSAValue, axes: Sequence[AxisSlice | None]) -> SSAValue:
    """`value[s0, s1, ...]` with one `AxisSlice` (or None: all of it) per dim."""
    sizes = e.sizes(value)
    specs = [spec or AxisSlice() for spec in axes]
    if any(spec.step == 0 for spec in specs):
        raise Unsupported("a step is 0")
    firsts: list[Size] = []
    counts: list[Size] = []
    for dim, spec in zip(sizes, specs, strict=True):
        if spec == AxisSlice():  # the whole axis
            firsts.append(0)
            counts.append(dim)
            continue
        firsts.append(_bound(e, spec.start, dim, spec.step, default_end=False))
        last = _bound(e, spec.stop, dim, spec.step, default_end=True)
        counts.append(_count(e, firsts[-1], last, spec.step))
    if any(isinstance(c, int) and c == 0 for c in counts):
        if not all(isinstance(c, int) for c in counts):
            raise Unsupported("an empty slice of a tensor with dynamic dims")
        return e.const(np.zeros([int(c) for c in counts], dtype_of(element(value))))
    starts: list[Size] = []
    extents: list[Size] = []
    for first, count, spec in zip(firsts, counts, specs, strict=True):
        # The window [low, low + extent) covers every index the axis takes.
        if abs(spec.step) == 1:
            extent = count
        else:
            extent = add(e, mul(e, sub(e, count, 1), abs(spec.step)), 1)
            if not isinstance(count, int):
                extent = maximum(e, extent, 0)  # no element: an empty window
        starts.append(first if spec.step > 0 else sub(e, first, sub(e, extent, 1)))
        extents.append(extent)
    result = window(e, value, starts, extents)
    for axis, (spec, count) in enumerate(zip(specs, counts, strict=True)):
        if spec.step < 0:
            result = e.value(tt.ReverseOp(result, axis))
        if abs(spec.step) != 1:
            result = _every(e, result, axis, abs(spec.step), count)
    return result


def _every(e: Emitter, value: SSAValue, axis: int, stride: int, count: Size) -> SSAValue:
    """Every `stride`-th element along `axis` (from the first), `count` of them."""
    if isinstance(count, int):
        return take(e, value, axis, list(range(0, (count - 1) * stride + 1, stride)))
    indices = positions(e, 0, count, i32)
    indices = e.mul(indices, e.const(np.array([stride]), i32))
    return gather(e, value, indices, axis, 0, wrap=False)


# ---------------------------------------------------------------------------------------------
# Gathering
# ---------------------------------------------------------------------------------------------


def take(e: Emitter, value: SSAValue, axis: int, indices: Sequence[int]) -> SSAValue:
    """`value[..., indices, ...]` along `axis` for constant, non-negative indices (in range:
    checked here for a static axis, at run time otherwise); runs of consecutive indices
    are windows (one slice, or a reverse), others a gather."""
    indices = [int(i) for i in indices]
    size = dims(value)[axis]
    if size != DYN and any(not 0 <= i < size for i in indices):
        raise Unsupported(f"an index is out of range for dim {size}")
    if not indices:
        raise Unsupported("no indices to take")
    if _is_run(indices):
        return _run_window(e, value, axis, indices)
    return gather(e, value, e.const(np.asarray(indices, np.int32)), axis, 0, wrap=False)


def gather(e: Emitter, data: SSAValue, indices: SSAValue, axis: int, batch: int,
           wrap: bool = True) -> SSAValue:
    """Gather-8 along `axis` with `batch` leading batch dims (shared by data and indices):
    `tosa.gather` on the data as [batches * between, K, inner] with the index table
    [batches * between, W]; negative indices count from the end when `wrap`."""
    data_dims, index_dims = dims(data), dims(indices)
    if not 0 <= batch <= min(axis, len(index_dims)):
        raise Unsupported(f"batch_dims {batch} is out of range")
    sizes = e.sizes(data)
    index_sizes = e.sizes(indices)
    out_sizes = [*sizes[:axis], *index_sizes[batch:], *sizes[axis + 1:]]
    found = constant(indices)
    if found is not None and not wrap and (found < 0).any():
        raise Unsupported("a negative index, which this Gather version does not count from "
                          "the end (OpenVINO gives zeros there)")
    if found is not None and batch == 0:
        flat = [int(i) for i in found.reshape(-1)]
        if data_dims[axis] != DYN:
            flat = [i + data_dims[axis] if i < 0 else i for i in flat]
            if any(not 0 <= i < data_dims[axis] for i in flat):
                raise Unsupported(f"an index is out of range for dim {data_dims[axis]}")
        if flat and _is_run(flat) and (all(i >= 0 for i in flat) or all(i < 0 for i in flat)):
            return reshape(e, _run_window(e, data, axis, flat), out_sizes)
    table = _index_table(e, indices, sizes[axis], wrap)
    batches = e.product(sizes[:batch])
    between = e.product(sizes[batch:axis])
    inner = e.product(sizes[axis + 1:])
    width = e.product(index_sizes[batch:])
    rows = mul(e, batches, between)
    values = e.reshape_sizes(data, [rows, sizes[axis], inner])
    if not (isinstance(between, int) and between == 1):  # the same indices for each row
        table = e.tile(e.reshape_sizes(table, [batches, 1, width]), [1, between, 1])
    table = e.reshape_sizes(table, [rows, width])
    result_type = TensorType(element(data), [static(rows), static(width), static(inner)])
    gathered = e.value(tt.GatherOp(values, table, result_type))
    return reshape(e, gathered, out_sizes)


def _run_window(e: Emitter, value: SSAValue, axis: int, indices: Sequence[int]) -> SSAValue:
    """`value[..., indices, ...]` for consecutive constant indices of one sign: a window of
    `len(indices)` from the lowest (counted from the end of the dim when negative; out of
    range fails at run time in the slice), reversed when they descend."""
    sizes = e.sizes(value)
    low = min(indices)
    starts: list[Size] = [0] * len(sizes)
    starts[axis] = low if low >= 0 else add(e, sizes[axis], low)
    extents = list(sizes)
    extents[axis] = len(indices)
    result = window(e, value, starts, extents)
    if len(indices) > 1 and indices[1] < indices[0]:
        result = e.value(tt.ReverseOp(result, axis))
    return result


def _is_run(indices: Sequence[int]) -> bool:
    """Consecutive indices, ascending or descending: a window (and a reverse)."""
    first, count = indices[0], len(indices)
    return indices in (list(range(first, first + count)), list(range(first, first - count, -1)))


def _index_table(e: Emitter, indices: SSAValue, size: Size, wrap: bool) -> SSAValue:
    """Indices as i32 / i64 with negative ones counted from the end (when `wrap`)."""
    index_type = element(indices)
    if not isinstance(index_type, IntegerType) or index_type == i1:
        raise Unsupported(f"indices of type {index_type}")
    if index_type.width.data < 32:
        indices = e.cast(indices, i32)
        index_type = i32
    found = constant(indices)
    if not wrap or (found is not None and (found >= 0).all()):
        return indices
    rank = len(dims(indices))
    zero = e.scalar(0, index_type, rank)
    if isinstance(size, int):
        bound = e.scalar(size, index_type, rank)
    else:
        bound = e.reshape(e.size_tensor(size, index_type), (1,) * rank)
    wrapped = e.add(indices, bound)
    return e.select(e.greater(zero, indices), wrapped, indices)


def reshape(e: Emitter, value: SSAValue, sizes: Sequence[Size]) -> SSAValue:
    """`value` reshaped to `sizes` (known or not), skipped when it already has them."""
    if len(sizes) == len(dims(value)) and all(
        (isinstance(s, int) and s == d) or (isinstance(s, SSAValue) and d == DYN and
                                            _same_dim(s, value, i))
        for i, (s, d) in enumerate(zip(sizes, dims(value), strict=True))
    ):
        return value
    return e.reshape_sizes(value, list(sizes))


def _same_dim(size: SSAValue, value: SSAValue, axis: int) -> bool:
    owner = size.owner
    return (isinstance(owner, tts.DimOp) and owner.input1 is value
            and owner.axis.value.data == axis)


__all__ = [
    "BIG",
    "RANGE_CAPACITY",
    "AxisSlice",
    "Size",
    "add",
    "as_shape",
    "clamp",
    "combine",
    "floordiv",
    "gather",
    "held_size",
    "maximum",
    "minimum",
    "mul",
    "positions",
    "reshape",
    "same",
    "slice_ranges",
    "static",
    "sub",
    "take",
    "window",
]
