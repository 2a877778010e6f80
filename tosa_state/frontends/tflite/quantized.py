"""QUANTIZE (f32 to int8) and DEQUANTIZE (int8 to f32), and the builtin operators that run
on int8 tensors (full-integer models)."""

from __future__ import annotations

from tflite.BuiltinOperator import BuiltinOperator as B
from xdsl.ir import Operation

from tosa_state.dialects.tfl.quantized import DequantizeOp, QuantizeOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _quantize(op: OperatorInput) -> Operation:
    params = op.result_quantization[0] if op.result_quantization else None
    if params is None or (op.quantization and op.quantization[0] is not None):
        raise op.where.error("QUANTIZE from a float tensor to a quantized one is supported "
                             "(requantization is not)")
    return QuantizeOp(op.operand(0, "input"), op.result(), params)


def _dequantize(op: OperatorInput) -> Operation:
    params = op.quantization[0] if op.quantization else None
    if params is None:
        raise op.where.error("DEQUANTIZE of a tensor that is not quantized (f16 weights are "
                             "not supported)")
    return DequantizeOp(op.operand(0, "input"), op.result(), params)


BUILDERS: dict[int, Builder] = {
    B.QUANTIZE: Builder(_quantize, (1, 1)),
    B.DEQUANTIZE: Builder(_dequantize, (1, 1)),
}

INTEGER_OPERATORS: frozenset[int] = frozenset({
    B.QUANTIZE, B.DEQUANTIZE, B.FULLY_CONNECTED, B.ADD, B.SUB, B.MUL, B.LOGISTIC, B.TANH,
    B.RELU, B.CONCATENATION, B.RESHAPE, B.UNPACK, B.SPLIT, B.STRIDED_SLICE,
})
"""The builtin operators imported with int8 tensors (and their scales): the conversion
lowers them to TOSA's integer profile."""
