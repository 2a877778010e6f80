"""ADD, SUB, MUL (with fused activations), LESS, LOGICAL_AND, RELU, LOGISTIC, TANH."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import i1, i8, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl import elementwise as ew
from tosa_state.dialects.tfl.quantized import Quantization, quantization
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate, relu
from tosa_state.transforms.tflite_to_tosa.quantized import (
    clamp_int8,
    lookup_table,
    per_tensor,
    sigmoid_f32,
    table,
)
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.rescale import rescale, to_i32


class Arithmetic(TflPattern):
    """ADD / SUB / MUL: numpy broadcasting, then the fused activation; on int8 tensors as
    LiteRT's integer kernels."""

    OPS = (ew.AddOp, ew.SubOp, ew.MulOp)

    def convert(self, op: ew.ArithmeticOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        a, b = operands
        found = quantization(op)
        if found is not None:
            return [_integer_arithmetic(op, a, b, found, e)]
        build = {ew.AddOp: e.add, ew.SubOp: e.sub, ew.MulOp: e.mul}[type(op)]
        return [activate(e, build(a, b), op.fused_activation_function)]


ADD_LEFT_SHIFT = 20
"""LiteRT's int8 ADD / SUB work on the inputs shifted left by 20 bits."""


def _integer_arithmetic(op: ew.ArithmeticOp, a: SSAValue, b: SSAValue,
                        found: tuple[list[Quantization | None], list[Quantization | None]],
                        e: Emitter) -> SSAValue:
    """int8 ADD / SUB (each input to i32 shifted left 20 bits, rescaled to twice the larger
    input scale, summed, rescaled to the output) and MUL (the i32 product of the centred
    inputs rescaled by s1 * s2 / s_out), then the activation's int8 bounds."""
    qa, qb = (per_tensor(q, f"input {i}") for i, q in enumerate(found[0]))
    out = per_tensor(found[1][0], "the result")
    sa, sb, so = (float(np.float32(q.scales[0])) for q in (qa, qb, out))
    if isinstance(op, ew.MulOp):
        product = e.elementwise(tew.MulOp, to_i32(e, a, qa.zero_points[0]),
                                to_i32(e, b, qb.zero_points[0]),
                                extra=[e.const(np.zeros(1, np.int8), i8)])
        result = rescale(e, product, sa * sb / so, i8, output_zp=out.zero_points[0])
    else:
        twice_max = 2 * max(sa, sb)
        shifted = [rescale(e, to_i32(e, v, q.zero_points[0], float(1 << ADD_LEFT_SHIFT)),
                           s / twice_max, i32) for v, q, s in ((a, qa, sa), (b, qb, sb))]
        total = (e.add if isinstance(op, ew.AddOp) else e.sub)(*shifted)
        result = rescale(e, total, twice_max / ((1 << ADD_LEFT_SHIFT) * so), i8,
                         output_zp=out.zero_points[0])
    return clamp_int8(e, result, op.fused_activation_function.data, out)


class Less(TflPattern):
    """LESS: `tosa.greater` with the operands swapped."""

    OPS = (ew.LessOp,)

    def convert(self, op: ew.LessOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        a, b = operands
        return [e.greater(b, a)]


class LogicalAnd(TflPattern):
    """LOGICAL_AND: `tosa.logical_and`."""

    OPS = (ew.LogicalAndOp,)

    def convert(self, op: ew.LogicalAndOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        return [e.elementwise(tew.LogicalAndOp, *operands, result_element=i1)]


class Activation(TflPattern):
    """RELU (`tosa.clamp`), LOGISTIC (`tosa.sigmoid`), TANH (`tosa.tanh`); on int8 tensors
    RELU is a rescale to the output's scale and a clamp at its zero point, LOGISTIC and TANH
    a `tosa.table` of LiteRT's lookup table."""

    OPS = (ew.ReluOp, ew.LogisticOp, ew.TanhOp)

    def convert(self, op: ew.UnaryOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        found = quantization(op)
        if found is not None:
            q_in = per_tensor(found[0][0], "the input")
            q_out = per_tensor(found[1][0], "the result")
            if isinstance(op, ew.ReluOp):
                ratio = float(np.float32(q_in.scales[0]) / np.float32(q_out.scales[0]))
                moved = rescale(e, x, ratio, i8, q_in.zero_points[0], q_out.zero_points[0])
                return [clamp_int8(e, moved, "RELU", q_out)]
            function = sigmoid_f32 if isinstance(op, ew.LogisticOp) else np.tanh
            return [table(e, x, lookup_table(q_in, q_out, function))]
        if isinstance(op, ew.ReluOp):
            return [relu(e, x, 0.0, float("inf"))]
        return [e.unary(tew.SigmoidOp if isinstance(op, ew.LogisticOp) else tew.TanhOp, x)]


ELEMENTWISE_PATTERNS = (Arithmetic, Less, LogicalAnd, Activation)
