"""Shape tensors known only at run time: OpenVINO's shape arithmetic as TOSA shape ops.

A model with dynamic dimensions computes shapes from `ShapeOf` (a KV cache initialised as
`Broadcast(0, Concat(Gather(ShapeOf(input_ids), 0), [2, 0, 16]))`, a Reshape to
`[batch, -1, heads, dim]`, ...). The conversion keeps what it knows: each size of such a
`RuntimeShape` is an int or a `!tosa.shape<1>` value (a `tosa.dim` of a tensor, or shape
arithmetic on those). `ShapeOf`, `Gather`, `Concat`, `Squeeze`, `Unsqueeze` and `Reshape`
of shape tensors are in `data_movement`; here: `Convert`, and `Add`, `Subtract`,
`Multiply`, `Divide`, `Maximum`, `Minimum` as `tosa.add_shape` and friends (ints fold).
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from dataclasses import replace

from xdsl.ir import Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import shape as tts
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import Emitter, RuntimeShape, Unsupported

_ARITHMETIC: dict[type[Operation], tuple[type[tts.ShapeBinaryOperation], Callable]] = {
    ov.AddOp: (tts.AddShapeOp, operator.add),
    ov.SubtractOp: (tts.SubShapeOp, operator.sub),
    ov.MultiplyOp: (tts.MulShapeOp, operator.mul),
    ov.DivideOp: (tts.DivFloorShapeOp, operator.floordiv),
    ov.MaximumOp: (tts.MaxShapeOp, max),
    ov.MinimumOp: (tts.MinShapeOp, min),
}


class MixedShapeArithmetic(Unsupported):
    """A shape known at run time meets a computed tensor: the shape becomes a tensor."""


def involves_runtime_shape(e: Emitter, *values: SSAValue) -> bool:
    return any(v in e.lowering.shapes for v in values)


def shape_arithmetic(e: Emitter, op: ov.ElementwiseBinaryOp) -> SSAValue:
    """`op` on shape tensors, size by size (numpy broadcasting of one-size operands)."""
    if type(op) not in _ARITHMETIC:
        raise Unsupported(f"'{op.name}' of a shape known only at run time")
    shape_op, fold = _ARITHMETIC[type(op)]
    a, b = e.shape_elements(op.lhs), e.shape_elements(op.rhs)
    if a is None or b is None:
        raise MixedShapeArithmetic("arithmetic between a run-time shape and a computed tensor")
    left, right = list(a.elements), list(b.elements)
    if len(left) == 1:
        left *= len(right)
    if len(right) == 1:
        right *= len(left)
    if len(left) != len(right):
        raise Unsupported(f"shapes of ranks {len(a.elements)} and {len(b.elements)} do not "
                          "broadcast")
    sizes = [sz.combine(e, shape_op, fold, x, y) for x, y in zip(left, right, strict=True)]
    scalar = a.scalar and b.scalar
    return e.shape_tensor(RuntimeShape(tuple(sizes), scalar, a.element_type))


def convert_shape(e: Emitter, op: ov.ConvertOp) -> SSAValue:
    """Convert of a run-time shape: the same sizes in another integer type."""
    found = e.lowering.shapes[op.input]
    return e.shape_tensor(replace(found, element_type=op.destination_type))


__all__ = ["convert_shape", "involves_runtime_shape", "shape_arithmetic"]
