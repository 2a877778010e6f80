"""CumSum-3 as a Hillis-Steele scan: `ceil(log2 n)` steps of `x + shifted(x, 2^k)` (a
`tosa.pad` with zeros and a `tosa.slice`) along a static axis of a static shape. Exact for
integers (wrapping as OpenVINO's sums); floats sum in another order than OpenVINO's running
sum (within a few ulps). A matmul with a triangular constant would need floats and `n^2`
weights; a scan needs neither."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant_ints,
    element,
    is_unsigned,
    normalize_axis,
    shape,
    signless,
)


def shifted(e: Emitter, value: SSAValue, axis: int, by: int, reverse: bool) -> SSAValue:
    """`value` moved `by` places along `axis` (toward the end, or the start when `reverse`),
    zeros shifted in."""
    dims = shape(value)
    padding = [0] * (2 * len(dims))
    padding[2 * axis + (1 if reverse else 0)] = by
    start = [by if reverse and d == axis else 0 for d in range(len(dims))]
    return e.slice(e.pad(value, padding), start, dims)


class CumSum(OpenVINOPattern):
    """CumSum-3 with a constant axis (`exclusive`: shifted by one more place; `reverse`: the
    scan runs from the end). Unsigned integers sum in the signless type of their width."""

    OPS = (ov.CumSumOp,)

    def convert(self, op: ov.CumSumOp, e: Emitter) -> Sequence[SSAValue]:
        values = constant_ints(op.axis, "the axis")
        if len(values) != 1:
            raise Unsupported(f"the axis must hold one value, got {len(values)}")
        dims = shape(op.input)
        axis = normalize_axis(values[0], len(dims))
        reverse = bool(op.reverse.value.data)
        original = element(op.input)
        x = e.bitcast(op.input, signless(original)) if is_unsigned(original) else op.input
        step = 1
        while step < dims[axis]:
            x = e.add(x, shifted(e, x, axis, step, reverse))
            step *= 2
        if op.exclusive.value.data:
            x = shifted(e, x, axis, 1, reverse)
        return [e.bitcast(x, original)]


CUMULATIVE_PATTERNS = (CumSum,)
