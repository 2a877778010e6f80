"""ADD, SUB, MUL (with fused activations), LESS, LOGICAL_AND, RELU, LOGISTIC, TANH."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl import elementwise as ew
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import Emitter
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate, relu


class Arithmetic(TflPattern):
    """ADD / SUB / MUL: numpy broadcasting, then the fused activation."""

    OPS = (ew.AddOp, ew.SubOp, ew.MulOp)

    def convert(self, op: ew.ArithmeticOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        a, b = operands
        build = {ew.AddOp: e.add, ew.SubOp: e.sub, ew.MulOp: e.mul}[type(op)]
        return [activate(e, build(a, b), op.fused_activation_function)]


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
    """RELU (`tosa.clamp`), LOGISTIC (`tosa.sigmoid`), TANH (`tosa.tanh`)."""

    OPS = (ew.ReluOp, ew.LogisticOp, ew.TanhOp)

    def convert(self, op: ew.UnaryOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        if isinstance(op, ew.ReluOp):
            return [relu(e, x, 0.0, float("inf"))]
        return [e.unary(tew.SigmoidOp if isinstance(op, ew.LogisticOp) else tew.TanhOp, x)]


ELEMENTWISE_PATTERNS = (Arithmetic, Less, LogicalAnd, Activation)
