"""Index-driven data movement: Roll-7 as slices and a concatenation per rolled axis."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant_ints,
    dims,
    normalize_axis,
)


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


INDEXING_PATTERNS = (Roll,)
