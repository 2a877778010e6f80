"""FULLY_CONNECTED: rows of the input times the transposed filter (`tosa.matmul`), plus bias,
then the fused activation. The hybrid form (int8 filter, float activations) quantizes each
input row per call as LiteRT does and multiplies in int8 with an i32 accumulator; the
full-integer form (int8 input, filter and output) accumulates in i32 and rescales."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, f32, i1, i8, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.matrix import FullyConnectedOp
from tosa_state.dialects.tfl.quantized import Quantization, quantization
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate
from tosa_state.transforms.tflite_to_tosa.quantized import (
    clamp_int8,
    emit_round_half_away,
    nudged_zero_point,
    per_tensor,
)
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.products import matmul
from tosa_state.transforms.tosa_builder.rescale import multiplier_shift, rescale
from tosa_state.transforms.tosa_builder.values import Unsupported, require_constant, shape


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
        found = quantization(op)
        if found is not None:
            product = integer_matmul(e, rows, require_constant(w, "the int8 filter"),
                                     operands[2] if len(operands) > 2 else None, found)
            product = clamp_int8(e, product, op.fused_activation_function.data, found[1][0])
        elif op.filter_scale is not None:
            if not op.asymmetric_quantize_inputs.value.data:
                raise Unsupported("a hybrid FULLY_CONNECTED with symmetric input quantization "
                                  "(asymmetric_quantize_inputs = false) is not supported yet")
            scales = np.asarray(op.filter_scale.get_values(), np.float32)
            product = hybrid_matmul(e, rows, require_constant(w, "the int8 filter"), scales)
        else:
            product = matmul(e, rows, w, transpose_b=True)
        if len(operands) > 2 and found is None:
            product = e.add(product, operands[2])
        if found is None:
            product = activate(e, product, op.fused_activation_function)
        if op.keep_num_dims.value.data:
            product = e.reshape(product, (*dims[:-1], units))
        return [product]


def _reduce(e: Emitter, cls: type[tt.ReduceMinOp | tt.ReduceMaxOp], value: SSAValue) -> SSAValue:
    rows = shape(value)[0]
    return e.value(cls(value, 1, TensorType(f32, [rows, 1])))


def _divide_by_255(e: Emitter, spread: SSAValue) -> SSAValue:
    """`spread / 255` rounded once to f32, as LiteRT computes the scale (`NeonAsymmetric
    QuantizeFloats`: the f32 difference `max - min`, divided in doubles, then to float; the
    double rounding never matters, 1/255 having a periodic 8-bit expansion), with f32 TOSA
    ops: a first quotient `y0 = spread * fl(1/255)`, the exact remainder `spread - 255 y0`
    (`y0` split in halves of 12 bits, whose products by 255 are exact) and one correction.
    A plain f32 `spread * fl(1/255)` differs by an ulp in two rows of three."""
    def const(value: float) -> SSAValue:
        return e.const(np.full((1, 1), value, np.float32))

    inverse = const(1 / 255)
    first = e.mul(spread, inverse)
    scaled = e.mul(first, const(4097.0))
    upper = e.sub(scaled, e.sub(scaled, first))
    lower = e.sub(first, upper)
    remainder = e.sub(e.sub(spread, e.mul(upper, const(255.0))), e.mul(lower, const(255.0)))
    return e.add(first, e.mul(remainder, inverse))


def quantize_rows(e: Emitter, rows: SSAValue) -> tuple[SSAValue, SSAValue, SSAValue]:
    """Each row of `rows [B, K]` (f32) quantized to int8 as LiteRT's
    `AsymmetricQuantizeFloats` (x86: `NeonAsymmetricQuantizeFloats`): scale
    `s = (max(x, 0) - min(x, 0)) / 255` (1 for a row of zeros), zero point
    `z = round(-128 - min(x, 0) / s)` and values `round(x * (1 / s)) + z`, rounded half away
    from zero (`trunc(v + copysign(0.5, v))` in f32, as LiteRT's `RoundToNearest`), then
    clamped to int8. Returns the i8 rows, `s` and `z` ([B, 1], f32)."""
    zero = e.const(np.zeros((1, 1), np.float32))
    low = e.elementwise(tew.MinimumOp, _reduce(e, tt.ReduceMinOp, rows), zero)
    high = e.elementwise(tew.MaximumOp, _reduce(e, tt.ReduceMaxOp, rows), zero)
    spread = e.sub(high, low)
    flat = e.elementwise(tew.EqualOp, spread, zero, result_element=i1)
    one = e.const(np.ones((1, 1), np.float32))
    scale = e.select(flat, one, _divide_by_255(e, spread))
    inverse = e.unary(tew.ReciprocalOp, scale)
    point = e.select(flat, zero, nudged_zero_point(e, low, high, e.select(flat, one, spread)))
    quantized = e.clamp(e.add(emit_round_half_away(e, e.mul(rows, inverse)), point),
                        -128.0, 127.0)
    return e.cast(quantized, i8), scale, point


def dequantize_products(e: Emitter, acc: SSAValue, point: SSAValue, row_sums: np.ndarray,
                        scale: SSAValue, channel_scales: np.ndarray) -> SSAValue:
    """LiteRT's hybrid accumulation: `(acc - z * rowsum(w)) * (s * scale[n])` in f32, `acc`
    [..., N] i32 and `z`, `s` broadcast against it."""
    units = row_sums.shape[-1]
    rank = len(shape(acc))
    sums = e.const(row_sums.astype(np.int32).reshape((1,) * (rank - 1) + (units,)), i32)
    centred = e.sub(acc, e.mul(e.cast(point, i32), sums))
    channel = e.const(np.broadcast_to(channel_scales, (units,)).astype(np.float32)
                      .reshape((1,) * (rank - 1) + (units,)))
    return e.mul(e.cast(centred, f32), e.mul(scale, channel))


def hybrid_matmul(e: Emitter, rows: SSAValue, weight: np.ndarray,
                  scales: np.ndarray) -> SSAValue:
    """`rows [B, K]` (f32) times the int8 `weight [N, K]` transposed, as LiteRT's hybrid
    kernel (`MatrixBatchVectorMultiplyAccumulate`): the rows quantized (`quantize_rows`),
    `tosa.matmul` i8 x i8 -> i32, minus zero point x the weight's row sums, times row scale
    x channel scale in f32."""
    batch = shape(rows)[0]
    q8, scale, point = quantize_rows(e, rows)
    q8 = e.reshape(q8, (1, batch, weight.shape[1]))
    w8 = e.const(np.ascontiguousarray(weight.T.reshape(1, *weight.T.shape)), i8)
    zp = e.const(np.zeros(1, np.int8), i8)
    units = weight.shape[0]
    dot = e.value(tt.MatMulOp(q8, w8, zp, zp, TensorType(i32, [1, batch, units])))
    return dequantize_products(e, e.reshape(dot, (batch, units)), point,
                               weight.astype(np.int32).sum(axis=1), scale, scales)


def integer_matmul(e: Emitter, rows: SSAValue, weight: np.ndarray, bias: SSAValue | None,
                   found: tuple[list[Quantization | None], list[Quantization | None]],
                   ) -> SSAValue:
    """int8 `rows [B, K]` times the int8 `weight [N, K]` transposed (`tosa.matmul` with the
    input's zero point, into i32), plus the i32 bias, rescaled to the output per channel by
    `s_in * s_w[n] / s_out` (LiteRT: in doubles per channel, the f32 product per tensor),
    rounding once (SINGLE_ROUND) as LiteRT's GEMM does."""
    q_in = per_tensor(found[0][0], "the input")
    q_w, q_out = found[0][1], per_tensor(found[1][0], "the result")
    if q_w is None or any(q_w.zero_points):
        raise Unsupported("the int8 filter needs symmetric quantization (zero points 0)")
    batch, depth = shape(rows)
    units = weight.shape[0]
    a = e.reshape(rows, (1, batch, depth))
    w8 = e.const(np.ascontiguousarray(weight.T.reshape(1, depth, units)), i8)
    a_zp = e.const(np.array([q_in.zero_points[0]], np.int8), i8)
    b_zp = e.const(np.zeros(1, np.int8), i8)
    acc = e.reshape(e.value(tt.MatMulOp(a, w8, a_zp, b_zp, TensorType(i32, [1, batch, units]))),
                    (batch, units))
    if bias is not None:
        acc = e.add(acc, bias)
    s_in, s_out = np.float32(q_in.scales[0]), float(np.float32(q_out.scales[0]))
    if q_w.per_channel:
        scales = [float(s_in) * float(np.float32(s)) / s_out for s in q_w.scales]
    else:
        scales = [float(s_in * np.float32(q_w.scales[0])) / s_out]
    return gemm_rescale(e, acc, scales, q_out.zero_points[0])


def gemm_rescale(e: Emitter, acc: SSAValue, scales: Sequence[float], output_zp: int
                 ) -> SSAValue:
    """The i32 accumulators to int8 as LiteRT's GEMM (ruy's x86 kernels) does: the
    rounding doubling high multiply by the 31-bit multiplier (one `tosa.rescale` with shift
    31, rounding half up where ruy rounds half away: they differ only when the product is
    exactly a negative half), then the right shift by the exponent rounding half up (a
    second one, by 2**-exponent). TOSA's DOUBLE_ROUND rounds that second step half away
    from zero, as gemmlowp does: one int8 unit away on such ties."""
    pairs = [multiplier_shift(s) for s in scales]
    if any(shift <= 31 for _, shift in pairs):  # scales >= 0.5: one rounding
        return rescale(e, acc, scales, i8, output_zp=output_zp, double_round=False)
    mantissas = [m / float(1 << 31) for m, _ in pairs]  # exactly the 31-bit multipliers
    high = rescale(e, acc, mantissas, i32, double_round=False)
    return rescale(e, high, [2.0 ** (31 - shift) for _, shift in pairs], i8,
                   output_zp=output_zp, double_round=False)


MATRIX_PATTERNS = (FullyConnected,)
