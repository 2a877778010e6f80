"""ScatterUpdate-3, ScatterNDUpdate-3 / -15 and ScatterElementsUpdate-3 / -12.

Each op computes, for every update row, the flat row of `data` it lands on (negative indices
wrapped by the size of their dim, as OpenVINO does), then:

- `reduction = none`: one `tosa.scatter` of the update rows into `data` viewed as [N, K, C]
  (a repeated index keeps the last update, as OpenVINO's reference; TOSA leaves that
  implementation-defined, our interpreter writes in order); with more updates than rows (so
  some must repeat, and `tosa.scatter` requires W <= K) the one-hot form below, keeping for
  each row the update of the largest `w` that hits it;
- the reductions: a one-hot table `hits[w, k] = (row[w] == k)` over the W updates and K rows,
  the updates selected into it (the reduction's identity elsewhere) and reduced over `w` with
  `tosa.reduce_sum / _product / _min / _max`, then combined with `data` (`use_init_val` false:
  the rows hit take the reduced value alone; `mean` divides by the hit count, integers rounding
  toward zero). That is W * K * C elements (N * W * K * C over N batches): refused above
  `ONE_HOT_LIMIT` when the shapes are static. With dynamic dims the rows K are a run-time
  Range (at most `RANGE_CAPACITY`) and the table's size is only known at run time (a
  mixture-of-experts `index_add` of T tokens' expert outputs is quadratic in T).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant_ints,
    dims,
    dims_of,
    dtype_of,
    element,
    is_float,
    is_unsigned,
    normalize_axis,
    shape,
)

ONE_HOT_LIMIT = 1 << 22
"""The most elements (updates x rows x row length) a scatter reduction's one-hot table has."""


def wrapped(e: Emitter, indices: SSAValue, sizes: np.ndarray | Sequence[int | SSAValue]
            ) -> SSAValue:
    """`indices` as i32, negative ones plus the size of their dim (`sizes`, a 0-D array or
    one size per index of the last dim; sizes known at run time are shape values)."""
    index = e.cast(indices, i32)
    rank = len(dims(index))
    if isinstance(sizes, np.ndarray) or all(isinstance(s, int) for s in sizes):
        sizes = np.asarray(sizes)
        size = e.const(sizes.reshape((1,) * (rank - sizes.ndim) + sizes.shape), i32)
    else:
        pieces = [e.size_tensor(s, i32) for s in sizes]
        size = e.reshape(e.concat(pieces, 0), (1,) * (rank - 1) + (len(pieces),))
    negative = e.greater(e.scalar(0, i32, rank), index)
    return e.select(negative, e.add(index, size), index)


def element_rows(e: Emitter, indices: SSAValue, data_dims: Sequence[int],
                 axis: int) -> SSAValue:
    """The flat positions [1, W] in `data_dims` of the elements `indices` addresses along
    `axis` (GatherElements / ScatterElementsUpdate): each index's own position, its `axis`
    coordinate replaced by the (wrapped) index."""
    index_dims = shape(indices)
    count = math.prod(index_dims)
    strides = [math.prod(data_dims[d + 1:]) for d in range(len(data_dims))]
    positions = np.indices(index_dims).reshape(len(index_dims), -1)
    base = np.zeros(count, np.int64)
    for d in range(len(data_dims)):
        if d != axis:
            base += positions[d] * strides[d]
    index = wrapped(e, e.reshape(indices, [1, count]), np.array(data_dims[axis]))
    if strides[axis] != 1:
        index = e.mul(index, e.scalar(strides[axis], i32, 2))
    return e.add(index, e.const(base.reshape(1, count), i32)) if base.any() else index


def _reduce(e: Emitter, cls: type[tt.ReductionOperation], value: SSAValue,
            axis: int) -> SSAValue:
    return e.value(cls(value, axis))


def _identity(reduction: str, element_type: Attribute) -> float | int:
    if reduction in ("sum", "sub", "mean"):
        return 0
    if reduction == "prod":
        return 1
    if is_float(element_type):
        return math.inf if reduction == "min" else -math.inf
    info = np.iinfo(dtype_of(element_type))
    return int(info.max if reduction == "min" else info.min)


REDUCE: dict[str, type[tt.ReductionOperation]] = {
    "sum": tt.ReduceSumOp,
    "sub": tt.ReduceSumOp,
    "mean": tt.ReduceSumOp,
    "prod": tt.ReduceProductOp,
    "min": tt.ReduceMinOp,
    "max": tt.ReduceMaxOp,
}


def scatter_rows(e: Emitter, data: SSAValue, rows: SSAValue, updates: SSAValue, reduction: str,
                 use_init_val: bool = True) -> SSAValue:
    """`data` [N, K, C] with the update rows `updates` [N, W, C] written to (or reduced into)
    the rows `rows` [N, W] (i32, in range). Dims known or not: the one-hot table of a
    reduction is `[N, W, K, C]` (`[W, K, C]` for one batch), K's positions a run-time
    Range where K is dynamic (at most `RANGE_CAPACITY`)."""
    element_type = element(data)
    if reduction == "none" and (DYN in (dims(rows)[1], dims(data)[1])
                                or dims(rows)[1] <= dims(data)[1]):
        return e.value(tt.ScatterOp(data, rows, updates))
    n, k, c = e.sizes(data)
    w = e.size(rows, 1)
    if is_unsigned(element_type) or element_type == i1:
        raise Unsupported(f"scatter reductions of {element_type} values")
    table = [n, w, k, c] if n != 1 else [w, k, c]  # the one-hot table, batched or not
    if all(isinstance(d, int) for d in table) and math.prod(table) > ONE_HOT_LIMIT:
        raise Unsupported(f"the one-hot table of a scatter reduction would have "
                          f"{math.prod(table)} elements (limit {ONE_HOT_LIMIT})")
    batch = table[:-3]
    rank = len(table)
    axis = len(batch)  # the axis of the updates (w), reduced away

    def shaped(value: SSAValue, sizes: list[sz.Size]) -> SSAValue:
        return e.reshape_sizes(value, [*batch, *sizes])

    hits = e.elementwise(tew.EqualOp, shaped(rows, [w, 1, 1]),
                         e.reshape_sizes(_positions(e, k), [*([1] * len(batch)), 1, k, 1]),
                         result_element=i1)
    if reduction == "none":  # more updates than rows: the last update of a row wins
        order = e.reshape_sizes(_positions(e, w), [*([1] * len(batch)), w, 1, 1])
        last = _reduce(e, tt.ReduceMaxOp, e.select(hits, order, e.scalar(-1, i32, rank)), axis)
        hits = e.elementwise(tew.LogicalAndOp, hits,
                             e.elementwise(tew.EqualOp, order, last, result_element=i1))
        reduction, use_init_val = "max", False  # of the one update left per row, alone
    fill = e.scalar(_identity(reduction, element_type), element_type, rank)
    chosen = e.select(hits, shaped(updates, [w, 1, c]), fill)

    def reduced(cls: type[tt.ReductionOperation], value: SSAValue, last: sz.Size) -> SSAValue:
        """`value` reduced over the updates: [N, K, last] ([1, K, last] unbatched)."""
        result = _reduce(e, cls, value, axis)
        return e.reshape_sizes(result, [n, k, last]) if batch else result

    total = reduced(REDUCE[reduction], chosen, c)
    touched = reduced(tt.ReduceAnyOp, hits, 1)
    if reduction == "sub":
        return e.sub(data, total)
    if reduction == "mean":
        count = reduced(tt.ReduceSumOp, e.cast(hits, element_type), 1)
        if use_init_val:
            total = e.add(total, data)
            count = e.add(count, e.scalar(1, element_type, 3))
        else:
            count = e.elementwise(tew.MaximumOp, count, e.scalar(1, element_type, 3))
        if is_float(element_type):
            mean = e.mul(total, e.unary(tew.ReciprocalOp, count))
        else:
            mean = e.elementwise(tew.IntDivOp, total, count)
        return e.select(touched, mean, data)
    if not use_init_val:
        return e.select(touched, total, data)
    if reduction == "sum":
        return e.add(data, total)
    if reduction == "prod":
        return e.mul(data, total)
    cls = tew.MinimumOp if reduction == "min" else tew.MaximumOp
    return e.elementwise(cls, data, total)


def _positions(e: Emitter, count: sz.Size) -> SSAValue:
    """`[0, 1, ..., count)` as i32 (a run-time Range when `count` is known at run time)."""
    if isinstance(count, int):
        return e.const(np.arange(count), i32)
    return sz.positions(e, 0, count, i32)


def _axis(op: ov.ScatterUpdateOp | ov.ScatterElementsUpdateOp, rank: int) -> int:
    values = constant_ints(op.axis, "the axis")
    if len(values) != 1:
        raise Unsupported(f"the axis must hold one value, got {len(values)}")
    return normalize_axis(values[0], rank)


class ScatterUpdate(OpenVINOPattern):
    """ScatterUpdate-3: `data` as [outer, size along axis, inner], one `tosa.scatter` with
    the (wrapped) indices repeated for every outer index (dims known or not)."""

    OPS = (ov.ScatterUpdateOp,)

    def convert(self, op: ov.ScatterUpdateOp, e: Emitter) -> Sequence[SSAValue]:
        sizes = e.sizes(op.data)
        axis = _axis(op, len(sizes))
        outer, inner, size = e.product(sizes[:axis]), e.product(sizes[axis + 1:]), sizes[axis]
        count = e.product(e.sizes(op.indices))
        rows = e.reshape_sizes(op.indices, [1, count])
        rows = wrapped(e, rows, np.array(size) if isinstance(size, int) else [size])
        if not (isinstance(outer, int) and outer == 1):
            rows = e.tile(rows, [outer, 1])
        data = e.reshape_sizes(op.data, [outer, size, inner])
        updates = e.reshape_sizes(op.updates, [outer, count, inner])
        return [sz.reshape(e, scatter_rows(e, data, rows, updates, "none"), sizes)]


class ScatterNDUpdate(OpenVINOPattern):
    """ScatterNDUpdate-3 / -15: index tuples of k elements address rows of `data` viewed
    as [prod(dims[:k]), prod(dims[k:])]; the row is the dot product of the wrapped tuple with
    the row strides."""

    OPS = (ov.ScatterNDUpdateOp,)

    def convert(self, op: ov.ScatterNDUpdateOp, e: Emitter) -> Sequence[SSAValue]:
        data_dims, index_dims = dims(op.data), dims(op.indices)
        depth = index_dims[-1]
        if depth in (0, DYN):
            raise Unsupported("index tuples of no elements" if depth == 0 else
                              "index tuples of a dynamic length")
        sizes, index_sizes = e.sizes(op.data), e.sizes(op.indices)
        count = e.product(index_sizes[:-1])
        rows_k, row_c = e.product(sizes[:depth]), e.product(sizes[depth:])
        tuples = wrapped(e, e.reshape_sizes(op.indices, [count, depth]), sizes[:depth])
        flat = tuples
        if depth > 1:
            if DYN in data_dims[1:depth]:
                raise Unsupported("index tuples into dynamic dims after the first")
            strides = np.array([math.prod(data_dims[d + 1:depth]) for d in range(depth)])
            scaled = e.mul(tuples, e.const(strides.reshape(1, depth), i32))
            flat = _reduce(e, tt.ReduceSumOp, scaled, 1)
        data = e.reshape_sizes(op.data, [1, rows_k, row_c])
        updates = e.reshape_sizes(op.updates, [1, count, row_c])
        result = scatter_rows(e, data, e.reshape_sizes(flat, [1, count]), updates,
                              op.reduction.data)
        return [e.reshape_sizes(result, sizes)]


class ScatterElementsUpdate(OpenVINOPattern):
    """ScatterElementsUpdate-3 / -12: every element of `updates` addresses one element of
    `data` (its own position, the axis coordinate from `indices`): the flat position is a
    constant base plus the wrapped index times the axis stride."""

    OPS = (ov.ScatterElementsUpdateOp,)

    def convert(self, op: ov.ScatterElementsUpdateOp, e: Emitter) -> Sequence[SSAValue]:
        if DYN in dims_of(op.data) + dims_of(op.indices):
            return [self.along_rows(op, e)]
        dims = shape(op.data)
        axis = _axis(op, len(dims))
        count, total = math.prod(shape(op.indices)), math.prod(dims)
        flat = element_rows(e, op.indices, dims, axis)
        data = e.reshape(op.data, [1, total, 1])
        updates = e.reshape(op.updates, [1, count, 1])
        result = scatter_rows(e, data, flat, updates, op.reduction.data,
                              bool(op.use_init_val.value.data))
        return [e.reshape(result, dims)]


    @staticmethod
    def along_rows(op: ov.ScatterElementsUpdateOp, e: Emitter) -> SSAValue:
        """Dynamic shapes: the axis moved last, every other position a row of a batched
        `tosa.scatter` (`none`) or one-hot reduction (indices must then span data's other
        dims, as exports' `scatter_` of TopK indices and `index_add` of expert outputs do; a
        dynamic dim of indices is taken to span data's, static or not: a call where it does
        not fails at the reshape to data's rows)."""
        data_dims, index_dims = dims_of(op.data), dims_of(op.indices)
        axis = _axis(op, len(data_dims))
        others = [d for d in range(len(data_dims)) if d != axis]
        if any(index_dims[d] not in (DYN, data_dims[d]) for d in others):
            raise Unsupported(f"indices {ov.format_shape(index_dims)} that do not span the "
                              f"other dims of data {ov.format_shape(data_dims)} (dynamic shapes)")
        order = [*others, axis]
        outer = [e.size(op.data, d) for d in others]
        rows, size = e.product(outer), e.size(op.data, axis)
        count = e.size(op.indices, axis)
        data = e.reshape_sizes(e.transpose(op.data, order), [rows, size, 1])
        index = e.reshape_sizes(e.transpose(op.indices, order), [rows, count])
        updates = e.reshape_sizes(e.transpose(op.updates, order), [rows, count, 1])
        result = scatter_rows(e, data, wrapped(e, index, [size]), updates, op.reduction.data,
                              bool(op.use_init_val.value.data))
        return e.transpose(e.reshape_sizes(result, [*outer, size]), list(np.argsort(order)))


SCATTER_PATTERNS = (ScatterUpdate, ScatterNDUpdate, ScatterElementsUpdate)
