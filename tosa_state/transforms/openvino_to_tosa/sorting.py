"""TopK-1 / -3 / -11 by ranks (TOSA has no sort): along an axis of n elements, the rank of
element i is the number of elements before it in the order (`x_j > x_i`, or equal with
`j < i`: ties in index order, OpenVINO's stable order), from an n x n comparison table
summed with `tosa.reduce_sum`; output slot p takes the element of rank p (a one-hot select
reduced with `tosa.reduce_max` for the values, `tosa.reduce_sum` for the indices). `sort =
index` ranks the chosen elements by index instead. Exact for any k; n * n * (rows) elements,
refused above `TABLE_LIMIT`. k constant or computed from shapes; along a dynamic axis (a sort
of a run-time length, granitemoe's router) the tables are built at run time (positions from
the 8192-entry table, n x n at run time: no limit checked before the call).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    dtype_of,
    element,
    is_float,
    is_unsigned,
    normalize_axis,
)

TABLE_LIMIT = 1 << 22
"""The most elements (rows x n x n) TopK's comparison table has."""


def _lowest(e: Emitter, element_type: object) -> SSAValue:
    """The least value of the type, as a [1, 1, 1] constant (the fill of a max-reduction)."""
    if is_float(element_type):
        return e.scalar(-math.inf, element_type, 3)
    return e.scalar(int(np.iinfo(dtype_of(element_type)).min), element_type, 3)


def _count(e: Emitter, table: SSAValue, axis: int) -> SSAValue:
    """How many entries of a boolean table are true along `axis` (i32)."""
    return e.value(tt.ReduceSumOp(e.cast(table, i32), axis))


def _arange(e: Emitter, count: sz.Size) -> SSAValue:
    """`[0, 1, ..., count)` as i32: a constant, or a window of the position table when the
    count is known at run time only (a sort along a dynamic axis)."""
    if isinstance(count, int):
        return e.const(np.arange(count), i32)
    return sz.positions(e, 0, count, i32)


def _earlier(e: Emitter, n: sz.Size) -> SSAValue:
    """`[1, n, n]` booleans: whether column j comes before row i (`j < i`)."""
    if isinstance(n, int):
        return e.const(np.tril(np.ones((n, n), bool), -1).reshape(1, n, n), i1)
    positions = _arange(e, n)
    return e.greater(e.reshape_sizes(positions, [1, n, 1]),
                     e.reshape_sizes(positions, [1, 1, n]))


class TopK(OpenVINOPattern):
    """TopK with a constant k: ranks from a comparison table (see the module docstring)."""

    OPS = (ov.TopKOp,)

    def convert(self, op: ov.TopKOp, e: Emitter) -> Sequence[SSAValue]:
        input_dims, element_type = dims(op.input), element(op.input)
        if is_unsigned(element_type) or element_type == i1:
            raise Unsupported(f"TopK of {element_type} values")
        axis = normalize_axis(op.axis.value.data, len(input_dims))
        found = e.shape_elements(op.k)
        if found is None or len(found.elements) != 1:
            raise Unsupported("k must be one count, a constant or computed from shapes")
        (k,) = found.elements
        n: sz.Size = input_dims[axis] if input_dims[axis] != DYN else e.size(op.input, axis)
        if isinstance(k, int) and isinstance(n, int) and not 0 < k <= n:
            raise Unsupported(f"k = {k} is not a count in [1, {n}] (the axis size)")
        order = [d for d in range(len(input_dims)) if d != axis] + [axis]
        outer = [e.size(op.input, d) for d in order[:-1]]
        rows = e.product(outer)
        if isinstance(n, int) and (rows if isinstance(rows, int) else 1) * n * n > TABLE_LIMIT:
            raise Unsupported(f"TopK's comparison table would have {n * n} elements per row "
                              f"(limit {TABLE_LIMIT} in all)")
        moved = e.transpose(op.input, order)
        x_i = e.reshape_sizes(moved, [rows, n, 1])
        x_j = e.reshape_sizes(moved, [rows, 1, n])
        first, second = (x_j, x_i) if op.mode.data == "max" else (x_i, x_j)
        before = e.greater(first, second)  # [rows, i, j]: j comes before i
        earlier = _earlier(e, n)
        tie = e.elementwise(tew.LogicalAndOp,
                            e.elementwise(tew.EqualOp, x_j, x_i, result_element=i1), earlier)
        rank = _count(e, e.elementwise(tew.LogicalOrOp, before, tie), 2)  # [rows, n, 1]
        if op.sort.data == "index":
            chosen = e.greater(e.scalar(k, i32, 3), rank)  # [rows, n, 1]
            chosen_j = e.reshape_sizes(chosen, [rows, 1, n])
            rank = _count(e, e.elementwise(tew.LogicalAndOp, chosen_j, earlier), 2)
            rank = e.select(chosen, rank, e.scalar(n, i32, 3))
        slots = e.elementwise(tew.EqualOp, rank, e.reshape_sizes(_arange(e, k), [1, 1, k]),
                              result_element=i1)  # [rows, n, k]
        values = e.value(tt.ReduceMaxOp(e.select(slots, x_i, _lowest(e, element_type)), 1))
        positions = e.reshape_sizes(_arange(e, n), [1, n, 1])
        indices = e.value(tt.ReduceSumOp(e.select(slots, positions, e.scalar(0, i32, 3)), 1))
        inverse = list(np.argsort(order))
        results = []
        for value, element_out in ((values, element_type), (indices, element(op.indices))):
            value = e.reshape_sizes(e.cast(value, element_out), [*outer, k])
            results.append(e.transpose(value, inverse))
        return results


SORTING_PATTERNS = (TopK,)
