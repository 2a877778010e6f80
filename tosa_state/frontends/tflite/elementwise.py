"""ADD, SUB, MUL, LESS, LOGICAL_AND, RELU, LOGISTIC, TANH."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Operation

from tosa_state.dialects.tfl import elementwise as ew
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _arithmetic(cls: type[ew.ArithmeticOp], options: type, code: int) -> Builder:
    def build(op: OperatorInput) -> Operation:
        activation = op.activation(op.options(options, code))
        return cls(op.operand(0, "lhs"), op.operand(1, "rhs"), op.result(),
                   {"fused_activation_function": StringAttr(activation)})
    return Builder(build, (2, 2))


def _binary(cls: type[ew.BinaryOp]) -> Builder:
    return Builder(lambda op: cls(op.operand(0, "lhs"), op.operand(1, "rhs"), op.result()),
                   (2, 2))


def _unary(cls: type[ew.UnaryOp]) -> Builder:
    return Builder(lambda op: cls(op.operand(0, "x"), op.result()), (1, 1))


BUILDERS: dict[int, Builder] = {
    B.ADD: _arithmetic(ew.AddOp, tflite.AddOptions, O.AddOptions),
    B.SUB: _arithmetic(ew.SubOp, tflite.SubOptions, O.SubOptions),
    B.MUL: _arithmetic(ew.MulOp, tflite.MulOptions, O.MulOptions),
    B.LESS: _binary(ew.LessOp),
    B.LOGICAL_AND: _binary(ew.LogicalAndOp),
    B.RELU: _unary(ew.ReluOp),
    B.LOGISTIC: _unary(ew.LogisticOp),
    B.TANH: _unary(ew.TanhOp),
}
