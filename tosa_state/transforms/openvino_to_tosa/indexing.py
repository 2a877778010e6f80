"""Index-driven data movement: Roll-7 as slices and a concatenation per rolled axis;
GatherND-5 / -8 and GatherElements-6 as one `tosa.gather` of rows at flat positions computed
from the (wrapped) indices; NonZero-3 of a constant."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant,
    constant_ints,
    dims,
    dtype_of,
    element,
    normalize_axis,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.scatter import element_rows, wrapped


def roll_axis(e: Emitter, value: SSAValue, axis: int, by: int) -> SSAValue:
    """`value` rolled `by` (0 < by < size) places toward the end along a static `axis`:
    `concat(value[size - by:], value[:size - by])`."""
    sizes = dims(value)
    size = sizes[axis]

    def window(start: int, length: int) -> SSAValue:
        starts = [start if d == axis else 0 for d in range(len(sizes))]
        extents = [length if d == axis else s for d, s in enumerate(sizes)]
        return e.slice(value, starts, extents)

    return e.concat([window(size - by, by), window(0, size - by)], axis)


class Roll(OpenVINOPattern):
    """Roll-7 with constant `shift` and `axes` (one shift for every axis, or one each; shifts
    of a repeated axis add up; negative shifts roll toward the start). The rolled axes must
    be static; the other dims may be dynamic."""

    OPS = (ov.RollOp,)

    def convert(self, op: ov.RollOp, e: Emitter) -> Sequence[SSAValue]:
        shifts = constant_ints(op.shift, "shift")
        axes = constant_ints(op.axes, "axes")
        if len(shifts) == 1:
            shifts *= len(axes)
        if len(shifts) != len(axes):
            raise Unsupported(f"{len(shifts)} shifts for {len(axes)} axes")
        sizes = dims(op.input)
        total: dict[int, int] = {}
        for shift, axis in zip(shifts, axes, strict=True):
            axis = normalize_axis(axis, len(sizes))
            total[axis] = total.get(axis, 0) + shift
        result = op.input
        for axis, shift in sorted(total.items()):
            if sizes[axis] == DYN:
                raise Unsupported(f"rolling along the dynamic axis {axis}")
            if sizes[axis] and shift % sizes[axis]:
                result = roll_axis(e, result, axis, shift % sizes[axis])
        return [result]


def gather_rows(e: Emitter, values: SSAValue, rows: SSAValue) -> SSAValue:
    """`tosa.gather` of the rows `rows` [N, W] (i32, in range) of `values` [N, K, C]."""
    n, _, c = shape(values)
    width = shape(rows)[1]
    return e.value(tt.GatherOp(values, rows, TensorType(element(values), [n, width, c])))


class GatherND(OpenVINOPattern):
    """GatherND-5 / -8: per batch, an index tuple of k elements addresses a row of `data`
    viewed as [batch, prod(dims[b:b+k]), prod(dims[b+k:])]: one `tosa.gather`, reshaped to
    the result (both versions' batch layouts)."""

    OPS = (ov.GatherNDOp,)

    def convert(self, op: ov.GatherNDOp, e: Emitter) -> Sequence[SSAValue]:
        data_dims, index_dims = shape(op.input), shape(op.indices)
        batch = op.batch_dims.value.data
        depth = index_dims[-1]
        batches = math.prod(data_dims[:batch])
        width = math.prod(index_dims[batch:-1])
        tuple_dims = data_dims[batch:batch + depth]
        row = math.prod(data_dims[batch + depth:])
        if depth == 0:
            rows = e.const(np.zeros((batches, width)), i32)
        else:
            tuples = wrapped(e, e.reshape(op.indices, [batches * width, depth]),
                             np.array(tuple_dims))
            if depth > 1:
                strides = [math.prod(tuple_dims[d + 1:]) for d in range(depth)]
                scaled = e.mul(tuples, e.const(np.array(strides).reshape(1, depth), i32))
                tuples = e.value(tt.ReduceSumOp(scaled, 1))
            rows = e.reshape(tuples, [batches, width])
        values = e.reshape(op.input, [batches, math.prod(tuple_dims), row])
        gathered = gather_rows(e, values, rows)  # [batches, width, row]
        if len(dims(op.result)) == len(index_dims) - 1 + len(data_dims) - batch - depth:  # v8
            out = [*index_dims[:-1], *data_dims[batch + depth:]]
        else:  # GatherND-5: the batch dims folded into one
            out = [batches, *index_dims[batch:-1], *data_dims[batch + depth:]]
        return [e.reshape(gathered, out)]


class GatherElements(OpenVINOPattern):
    """GatherElements-6: one `tosa.gather` of single elements at the flat positions of
    `element_rows`."""

    OPS = (ov.GatherElementsOp,)

    def convert(self, op: ov.GatherElementsOp, e: Emitter) -> Sequence[SSAValue]:
        rank = len(dims(op.input))
        axis = normalize_axis(op.axis.value.data, rank)
        if DYN in dims(op.input) or DYN in dims(op.indices):
            return [_gather_elements_dynamic(e, op.input, op.indices, axis)]
        data_dims = shape(op.input)
        rows = element_rows(e, op.indices, data_dims, axis)
        values = e.reshape(op.input, [1, math.prod(data_dims), 1])
        return [e.reshape(gather_rows(e, values, rows), shape(op.indices))]


def _gather_elements_dynamic(e: Emitter, data: SSAValue, indices: SSAValue, axis: int
                             ) -> SSAValue:
    """GatherElements with dims known only at run time: with `axis` moved last, it is a
    Gather along the last axis whose batch dims are all the others (the indices share them,
    GatherElements-6 requires it)."""
    rank = len(dims(data))
    last = [d for d in range(rank) if d != axis] + [axis]
    back = [last.index(d) for d in range(rank)]
    moved = sz.gather(e, e.transpose(data, last), e.transpose(indices, last), rank - 1,
                      rank - 1)
    return e.transpose(moved, back)


class NonZero(OpenVINOPattern):
    """NonZero-3 of a constant: a constant. Its output length depends on the values, which
    TOSA's static shapes cannot express at run time: other inputs are refused."""

    OPS = (ov.NonZeroOp,)

    def convert(self, op: ov.NonZeroOp, e: Emitter) -> Sequence[SSAValue]:
        array = constant(op.input)
        if array is None:
            raise Unsupported("NonZero of values known only at run time (its output length "
                              "depends on them; only a constant input folds)")
        coordinates = np.array(np.nonzero(array), dtype_of(element(op.result)))
        return [e.const(coordinates.reshape(array.ndim, -1))]


INDEXING_PATTERNS = (Roll, GatherND, GatherElements, NonZero)
