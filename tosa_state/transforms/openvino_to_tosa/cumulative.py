"""CumSum-3 as a Hillis-Steele scan: `ceil(log2 n)` steps of `x + shifted(x, 2^k)` (a
`tosa.pad` with zeros and a `tosa.slice`) along a static axis of a static shape. Exact for
integers (wrapping as OpenVINO's sums); floats sum in another order than OpenVINO's running
sum (within a few ulps). A matmul with a triangular constant would need floats and `n^2`
weights; a scan needs neither.

With dynamic dims the number of steps is unknown: then a triangular table `pos_j <= pos_i`
(positions from `sizes.positions`, at most `RANGE_CAPACITY` long) selects the terms of each
sum, reduced with `tosa.reduce_sum` (n * n elements per row)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import i1, i32
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant_ints,
    dims,
    element,
    is_unsigned,
    normalize_axis,
    shape,
    signless,
)
from tosa_state.transforms.openvino_to_tosa.sizes import positions


def shifted(e: Emitter, value: SSAValue, axis: int, by: int, reverse: bool) -> SSAValue:
    """`value` moved `by` places along `axis` (toward the end, or the start when `reverse`),
    zeros shifted in."""
    dims = shape(value)
    padding = [0] * (2 * len(dims))
    padding[2 * axis + (1 if reverse else 0)] = by
    start = [by if reverse and d == axis else 0 for d in range(len(dims))]
    return e.slice(e.pad(value, padding), start, dims)


def table_scan(e: Emitter, x: SSAValue, axis: int, reverse: bool, exclusive: bool) -> SSAValue:
    """The running sums of `x` along `axis` from a triangular table over run-time positions:
    `sum_j x_j [pos_j <= pos_i]` (`<` when `exclusive`, `>=` / `>` when `reverse`)."""
    rank = len(dims(x))
    order = [d for d in range(rank) if d != axis] + [axis]
    outer = [e.size(x, d) for d in order[:-1]]
    rows, n = e.product(outer), e.size(x, axis)
    pos = e.const(np.arange(n), i32) if isinstance(n, int) else positions(e, 0, n, i32)
    pos_i, pos_j = e.reshape_sizes(pos, [1, n, 1]), e.reshape_sizes(pos, [1, 1, n])
    first, second = (pos_j, pos_i) if reverse else (pos_i, pos_j)
    cls = tew.GreaterOp if exclusive else tew.GreaterEqualOp
    counted = e.elementwise(cls, first, second, result_element=i1)  # [1, i, j]
    x_j = e.reshape_sizes(e.transpose(x, order), [rows, 1, n])
    terms = e.select(counted, x_j, e.scalar(0, element(x), 3))  # [rows, i, j]
    sums = e.value(tt.ReduceSumOp(terms, 2))  # [rows, n, 1]
    return e.transpose(e.reshape_sizes(sums, [*outer, n]), list(np.argsort(order)))


class CumSum(OpenVINOPattern):
    """CumSum-3 with a constant axis (`exclusive`: shifted by one more place; `reverse`: the
    scan runs from the end). Unsigned integers sum in the signless type of their width."""

    OPS = (ov.CumSumOp,)

    def convert(self, op: ov.CumSumOp, e: Emitter) -> Sequence[SSAValue]:
        values = constant_ints(op.axis, "the axis")
        if len(values) != 1:
            raise Unsupported(f"the axis must hold one value, got {len(values)}")
        axis = normalize_axis(values[0], len(dims(op.input)))
        reverse, exclusive = bool(op.reverse.value.data), bool(op.exclusive.value.data)
        original = element(op.input)
        x = e.bitcast(op.input, signless(original)) if is_unsigned(original) else op.input
        if DYN in dims(op.input):
            return [e.bitcast(table_scan(e, x, axis, reverse, exclusive), original)]
        dims_ = shape(op.input)
        step = 1
        while step < dims_[axis]:
            x = e.add(x, shifted(e, x, axis, step, reverse))
            step *= 2
        if exclusive:
            x = shifted(e, x, axis, 1, reverse)
        return [e.bitcast(x, original)]


CUMULATIVE_PATTERNS = (CumSum,)
