"""FULLY_CONNECTED: rows of the input times the transposed filter (`tosa.matmul`), plus bias,
then the fused activation. The hybrid form (int8 filter, float activations) quantizes each
input row per call as LiteRT does and multiplies in int8 with an i32 accumulator."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, f32, i1, i8, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.matrix import FullyConnectedOp
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    Unsupported,
    require_constant,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.matrix import matmul
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate


class FullyConnected(TflPattern):
    """FULLY_CONNECTED (DEFAULT weights; `keep_num_dims`), float or hybrid."""

    OPS = (FullyConnectedOp,)

    def convert(self, op: FullyConnectedOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        x, w = operands[0], operands[1]
        dims = shape(x)
        units, depth = shape(w)
        if math.prod(dims) % depth:
            raise Unsupported(f"input {list(dims)} is not made of rows of {depth}")
        rows = e.reshape(x, (math.prod(dims) // depth, depth))
        if op.filter_scale is not None:
            if not op.asymmetric_quantize_inputs.value.data:
                raise Unsupported("a hybrid FULLY_CONNECTED with symmetric input quantization "
                                  "(asymmetric_quantize_inputs = false) is not supported yet")
            scales = np.asarray(op.filter_scale.get_values(), np.float32)
            product = hybrid_matmul(e, rows, require_constant(w, "the int8 filter"), scales)
        else:
            product = matmul(e, rows, w, transpose_b=True)
        if len(operands) > 2:
            product = e.add(product, operands[2])
        product = activate(e, product, op.fused_activation_function)
        if op.keep_num_dims.value.data:
            product = e.reshape(product, (*dims[:-1], units))
        return [product]


def _reduce(e: Emitter, cls: type[tt.ReduceMinOp | tt.ReduceMaxOp], value: SSAValue) -> SSAValue:
    rows = shape(value)[0]
    return e.value(cls(value, 1, TensorType(f32, [rows, 1])))


def _round_half_away(e: Emitter, value: SSAValue) -> SSAValue:
    """`std::round`: floor(v + 0.5) for v >= 0, ceil(v - 0.5) below."""
    half = e.const(np.full((1, 1), 0.5, np.float32))
    negative = e.greater(e.const(np.zeros((1, 1), np.float32)), value)
    return e.select(negative, e.unary(tew.CeilOp, e.sub(value, half)),
                    e.unary(tew.FloorOp, e.add(value, half)))


def hybrid_matmul(e: Emitter, rows: SSAValue, weight: np.ndarray,
                  scales: np.ndarray) -> SSAValue:
    """`rows [B, K]` (f32) times the int8 `weight [N, K]` transposed, as LiteRT's hybrid
    kernel (`AsymmetricQuantizeFloats`, `MatrixBatchVectorMultiplyAccumulate`): each row is
    quantized to int8 with its own scale `s = (max(x, 0) - min(x, 0)) / 255` and zero point
    `z = round(-128 - min(x, 0) / s)`; `tosa.matmul` i8 x i8 -> i32; minus `z * rowsum(w)`;
    times `s * scale[n]` in f32."""
    batch = shape(rows)[0]
    zero = e.const(np.zeros((1, 1), np.float32))
    low = e.elementwise(tew.MinimumOp, _reduce(e, tt.ReduceMinOp, rows), zero)
    high = e.elementwise(tew.MaximumOp, _reduce(e, tt.ReduceMaxOp, rows), zero)
    spread = e.sub(high, low)
    flat = e.elementwise(tew.EqualOp, spread, zero, result_element=i1)
    one = e.const(np.ones((1, 1), np.float32))
    scale = e.select(flat, one, e.mul(spread, e.const(np.full((1, 1), 1 / 255, np.float32))))
    inverse = e.unary(tew.ReciprocalOp, scale)
    point = e.clamp(e.sub(e.const(np.full((1, 1), -128.0, np.float32)), e.mul(low, inverse)),
                    -128.0, 127.0)
    point = e.select(flat, zero, _round_half_away(e, point))
    quantized = e.clamp(_round_half_away(e, e.add(point, e.mul(rows, inverse))), -128.0, 127.0)
    q8 = e.reshape(e.cast(quantized, i8), (1, batch, weight.shape[1]))
    w8 = e.const(np.ascontiguousarray(weight.T.reshape(1, *weight.T.shape)), i8)
    zp = e.const(np.zeros(1, np.int8), i8)
    units = weight.shape[0]
    dot = e.value(tt.MatMulOp(q8, w8, zp, zp, TensorType(i32, [1, batch, units])))
    row_sums = e.const(weight.astype(np.int32).sum(axis=1).reshape(1, units), i32)
    dot = e.sub(e.reshape(dot, (batch, units)), e.mul(e.cast(point, i32), row_sums))
    channel = e.const(np.broadcast_to(scales, (units,)).reshape(1, units).copy())
    return e.mul(e.cast(dot, f32), e.mul(scale, channel))


MATRIX_PATTERNS = (FullyConnected,)
