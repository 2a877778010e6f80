"""QUANTIZE / DEQUANTIZE, and the integer arithmetic of full-integer (int8) TFLite models,
lowered as TensorFlow's TFLite -> TOSA legalisation does (`tosa.rescale` with a 32-bit
multiplier and a shift, i32 accumulators, `tosa.table` for LOGISTIC / TANH), with LiteRT's
built-in kernels' scales and rounding: TFLite's `QuantizeMultiplier` (`frexp`, the mantissa
rounded to 31 bits), `MultiplyByQuantizedMultiplier`'s rounding high multiply then rounding
shift (TOSA's DOUBLE_ROUND), the activation bounds of `CalculateActivationRangeQuantized`
and the lookup tables of `LUTPopulate`."""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

import numpy as np
from xdsl.dialects.builtin import BoolAttr, TensorType, f32, i1, i8, i32
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects.tfl.quantized import (
    DequantizeOp,
    Quantization,
    QuantizeOp,
    quantization,
)
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.tflite_to_tosa.common import TflPattern
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.scales import multiplier_shift
from tosa_state.transforms.tosa_builder.values import Unsupported, dims, element, shape

INT8_MIN, INT8_MAX = -128, 127


def rescale(e: Emitter, value: SSAValue, scales: Sequence[float] | float, out_element: object,
            input_zp: int = 0, output_zp: int = 0, double_round: bool = True) -> SSAValue:
    """`tosa.rescale` of `value` by `scales` (one, or one per channel of the last dim)."""
    factors = [scales] if isinstance(scales, float | int) else list(scales)
    pairs = [multiplier_shift(float(s)) for s in factors]
    in_element = element(value)
    zp_dtype = {i8: np.int8, i32: np.int32}
    op = tew.RescaleOp.create(
        operands=[value, e.const(np.array([m for m, _ in pairs], np.int32), i32),
                  e.const(np.array([s for _, s in pairs], np.int8), i8),
                  e.const(np.array([input_zp], zp_dtype[in_element]), in_element),
                  e.const(np.array([output_zp], zp_dtype[out_element]), out_element)],
        result_types=[TensorType(out_element, dims(value))],
        properties={
            "scale32": BoolAttr.from_bool(True),
            "rounding_mode": RoundingModeAttr(
                RoundingMode.DOUBLE_ROUND if double_round else RoundingMode.SINGLE_ROUND),
            "per_channel": BoolAttr.from_bool(len(pairs) > 1),
            "input_unsigned": BoolAttr.from_bool(False),
            "output_unsigned": BoolAttr.from_bool(False)})
    return e.value(op)


def to_i32(e: Emitter, value: SSAValue, zero_point: int, scale: float = 1.0) -> SSAValue:
    """An int8 tensor minus its zero point (times `scale`) in i32."""
    return rescale(e, value, scale, i32, input_zp=zero_point)


def activation_bounds(activation: str, q: Quantization) -> tuple[int, int]:
    """TFLite's `CalculateActivationRangeQuantized` for int8."""
    scale, zp = np.float32(q.scales[0]), q.zero_points[0]

    def quantize(x: float) -> int:
        return zp + int(round_half_away(float(np.float32(x) / scale)))

    low, high = {"NONE": (None, None), "RELU": (0.0, None), "RELU6": (0.0, 6.0),
                 "RELU_N1_TO_1": (-1.0, 1.0)}.get(activation, (None, None))
    if activation not in ("NONE", "RELU", "RELU6", "RELU_N1_TO_1"):
        raise Unsupported(f"fused activation {activation} on int8 tensors")
    lo = INT8_MIN if low is None else max(INT8_MIN, quantize(low))
    hi = INT8_MAX if high is None else min(INT8_MAX, quantize(high))
    return lo, hi


def clamp_int8(e: Emitter, value: SSAValue, activation: str, q: Quantization) -> SSAValue:
    low, high = activation_bounds(activation, q)
    if (low, high) == (INT8_MIN, INT8_MAX):
        return value
    return e.clamp(value, low, high)


def round_half_away(x: float) -> float:
    """`std::round`."""
    return math.copysign(math.floor(abs(x) + 0.5), x)


def emit_round_half_away(e: Emitter, value: SSAValue) -> SSAValue:
    """`std::round` on f32 tensors: floor(v + 0.5) for v >= 0, ceil(v - 0.5) below."""
    rank = len(shape(value))
    half = e.const(np.full((1,) * rank, 0.5, np.float32))
    negative = e.greater(e.const(np.zeros((1,) * rank, np.float32)), value)
    return e.select(negative, e.unary(tew.CeilOp, e.sub(value, half)),
                    e.unary(tew.FloorOp, e.add(value, half)))


def _scalar(e: Emitter, value: float, like: SSAValue) -> SSAValue:
    return e.const(np.full((1,) * len(shape(like)), value, np.float32))


def split(e: Emitter, v: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Veltkamp's split of f32 `v` into two halves of 12 bits (`v = high + low` exactly)."""
    scaled = e.mul(v, _scalar(e, 4097.0, v))
    high = e.sub(scaled, e.sub(scaled, v))
    return high, e.sub(v, high)


def product_error(e: Emitter, a: SSAValue, b: SSAValue, product: SSAValue) -> SSAValue:
    """Dekker's `a * b - product` for `product = fl(a * b)`: exact, from the split halves."""
    a_high, a_low = split(e, a)
    b_high, b_low = split(e, b)
    error = e.add(e.sub(e.mul(a_high, b_high), product), e.mul(a_high, b_low))
    return e.add(e.add(error, e.mul(a_low, b_high)), e.mul(a_low, b_low))


def divide(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a / b` rounded once to f32 (as `divps`) from TOSA ops, which have no float division:
    `y = a * (1 / b)`, the exact residual `a - y b` and one correction `y + residual / b`.
    Equal to numpy's f32 division on 2 x 2^20 random pairs and LiteRT's sigmoid / tanh
    operands (docs/tflite.md)."""
    inverse = e.unary(tew.ReciprocalOp, b)
    y = e.mul(a, inverse)
    product = e.mul(y, b)
    residual = e.sub(e.sub(a, product), product_error(e, y, b, product))
    return e.add(y, e.mul(residual, inverse))


def _two_sum(e: Emitter, a: SSAValue, b: SSAValue) -> tuple[SSAValue, SSAValue]:
    """Knuth's TwoSum: `s = fl(a + b)` and the exact `a + b - s`."""
    total = e.add(a, b)
    b_part = e.sub(total, a)
    a_part = e.sub(total, b_part)
    return total, e.add(e.sub(a, a_part), e.sub(b, b_part))


def _times_255_over(e: Emitter, v: SSAValue, spread: SSAValue) -> tuple[SSAValue, SSAValue]:
    """`255 v / spread` as an unevaluated f32 pair (about 48 bits): the quotient rounded
    once, its residual over `spread`, times 255 with Dekker's product."""
    quotient = divide(e, v, spread)
    product = e.mul(quotient, spread)
    residual = e.sub(e.sub(v, product), product_error(e, quotient, spread, product))
    tail = e.mul(residual, e.unary(tew.ReciprocalOp, spread))
    c255 = _scalar(e, 255.0, v)
    head = e.mul(quotient, c255)
    return head, e.add(product_error(e, quotient, c255, head), e.mul(tail, c255))


def _round_pair(e: Emitter, head: SSAValue, tail: SSAValue) -> SSAValue:
    """`head + tail` (|tail| below an ulp of head) rounded half away from zero: `head`
    rounded, except on a tie of `head` alone, which `tail`'s sign decides."""
    rounded = emit_round_half_away(e, head)
    zero = _scalar(e, 0.0, head)
    tie = e.elementwise(tew.EqualOp, e.unary(tew.AbsOp, e.sub(rounded, head)),
                        _scalar(e, 0.5, head), result_element=i1)
    positive = e.greater(head, zero)
    down = e.elementwise(tew.LogicalAndOp, positive, e.greater(zero, tail))
    up = e.elementwise(tew.LogicalAndOp, e.greater(zero, head), e.greater(tail, zero))
    one = _scalar(e, 1.0, head)
    adjusted = e.select(down, e.sub(rounded, one), e.select(up, e.add(rounded, one), rounded))
    return e.select(tie, adjusted, rounded)


def nudged_zero_point(e: Emitter, low: SSAValue, high: SSAValue, spread: SSAValue
                      ) -> SSAValue:
    """LiteRT's zero point of an asymmetric row quantization, computed in doubles there:
    `-128 - low / s` or `127 - high / s` (`s = spread / 255` unrounded), whichever has
    the smaller error term (`|low / s| + 1 < |high / s|` picks the first), clamped to
    [-128, 127] and rounded half away; here with f32 pairs (about 48 bits), so that only
    a value within ~1e-11 of a rounding tie could round otherwise."""
    negated = e.sub(_scalar(e, 0.0, low), low)
    # |low / s| + 1 < |high / s|; where the two sides nearly tie the zero point is about -1,
    # far from a rounding boundary, so an f32 comparison picks as well
    use_min = e.greater(high, e.add(negated, e.mul(spread, _scalar(e, 1 / 255, low))))
    head, tail = _times_255_over(e, e.select(use_min, negated, high), spread)
    base = e.select(use_min, _scalar(e, -128.0, low), _scalar(e, 127.0, low))
    head, error = _two_sum(e, base, e.select(use_min, head, e.sub(_scalar(e, 0.0, low), head)))
    tail = e.add(error, e.select(use_min, tail, e.sub(_scalar(e, 0.0, low), tail)))
    return e.clamp(_round_pair(e, head, tail), -128.0, 127.0)


def lookup_table(input_q: Quantization, output_q: Quantization,
                 function: Callable[[np.ndarray], np.ndarray]) -> np.ndarray:
    """The 256 int8 outputs of `function` as LiteRT's `LUTPopulate` computes them in f32:
    `clamp(round(f(s_in * (q - z_in)) * (1 / s_out)) + z_out)`."""
    values = np.arange(INT8_MIN, INT8_MAX + 1, dtype=np.int32)
    real = np.float32(input_q.scales[0]) * (values - input_q.zero_points[0]).astype(np.float32)
    transformed = function(real.astype(np.float64)).astype(np.float32)  # correctly rounded
    inverse = np.float32(1.0) / np.float32(output_q.scales[0])
    scaled = (transformed * inverse).astype(np.float32).astype(np.float64)
    rounded = np.copysign(np.floor(np.abs(scaled) + 0.5), scaled).astype(np.float32)
    quantized = (rounded + np.float32(output_q.zero_points[0])).astype(np.int32)
    return np.clip(quantized, INT8_MIN, INT8_MAX).astype(np.int8)


def sigmoid_f32(x: np.ndarray) -> np.ndarray:
    """`1.0f / (1.0f + std::exp(-x))` in f32 (exp correctly rounded)."""
    exp = np.exp(-x).astype(np.float32)
    return (np.float32(1.0) / (np.float32(1.0) + exp)).astype(np.float32)


def table(e: Emitter, value: SSAValue, values: np.ndarray) -> SSAValue:
    return e.value(tew.TableOp.create(operands=[value, e.const(values, i8)],
                                      result_types=[value.type]))


def per_tensor(q: Quantization | None, what: str) -> Quantization:
    if q is None:
        raise Unsupported(f"{what} is not quantized")
    if q.per_channel:
        raise Unsupported(f"{what} is quantized per channel ({len(q.scales)} scales)")
    return q


def require_same_quantization(op: Operation) -> None:
    """Data movement on int8 tensors keeps the values: the quantized inputs and results must
    share one scale and zero point (TFLite's converter makes them so)."""
    found = quantization(op)
    if found is None:
        return
    params = {q for q in [*found[0], *found[1]] if q is not None}
    if len(params) > 1:
        raise Unsupported("int8 inputs and results with different scales or zero points "
                          "(requantizing data movement is not supported)")


def _channel_shape(q: Quantization, rank: int) -> tuple[int, ...]:
    if not q.per_channel:
        return (1,) * rank
    return tuple(len(q.scales) if d == q.dimension else 1 for d in range(rank))


LANES = 8
"""LiteRT's int8 QUANTIZE and DEQUANTIZE (`optimized_ops::AffineQuantize` / `Dequantize`,
NEON and its SSE port) handle the flattened tensor 8 values at a time and the last
`size % 8` values one by one, with other arithmetic (measured on its x86-64 build: every
element of the LSTM's and GRU's states, tests/test_integer_state.py):

- QUANTIZE: 8 at a time `x * f32(1 / scale)` in f32 rounded half to even; one by one
  `x / scale` in doubles rounded half away from zero;
- DEQUANTIZE: 8 at a time `q * scale + f32(-zero_point * scale)` in f32 (two roundings); one
  by one the double product `scale * (q - zero_point)`, rounded once."""

RINT_MAGIC = 12582912.0
"""1.5 * 2^23: `(v + RINT_MAGIC) - RINT_MAGIC` is `v` rounded half to even for |v| < 2^22."""


def _lanes(x: SSAValue, q: Quantization) -> tuple[int, int] | None:
    """`(size, vectorised)` of LiteRT's per-tensor int8 kernels on `x`; None where the
    lowering keeps one formula (per channel, dynamic shapes)."""
    sizes = shape(x)
    if q.per_channel or any(d < 0 for d in sizes):
        return None
    size = math.prod(sizes)
    return size, size // LANES * LANES


def _by_lanes(e: Emitter, x: SSAValue, size: int, vectorised: int,
              vector: Callable[[], SSAValue], scalar: Callable[[], SSAValue]) -> SSAValue:
    if vectorised == size:
        return vector()
    if vectorised == 0:
        return scalar()
    lanes = (np.arange(size) < vectorised).reshape(shape(x))
    return e.select(e.const(lanes), vector(), scalar())


class Quantize(TflPattern):
    """QUANTIZE as LiteRT's int8 kernel (`LANES`): `x * f32(1 / scale)` rounded half to
    even (the magic-number addition) where it is vectorised, the exact quotient `x / scale`
    rounded half away from zero elsewhere (`divide`, its residual deciding a tie of the f32
    quotient), `+ zero_point`, clamped, cast to int8. Per channel: `x * (1 / scale)`
    rounded half away (one quotient within an ulp of a half may round otherwise)."""

    OPS = (QuantizeOp,)

    def convert(self, op: QuantizeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        q = op.params
        dims = _channel_shape(q, len(shape(x)))
        scales = np.asarray(q.scales, np.float32).reshape(dims)
        inverse = (1.0 / scales.astype(np.float64)).astype(np.float32)
        lanes = _lanes(x, q) if element(op.output) == i8 else None

        def vector() -> SSAValue:
            scaled = e.clamp(e.mul(x, e.const(inverse)), -1024.0, 1024.0)
            magic = _scalar(e, RINT_MAGIC, x)
            return e.sub(e.add(scaled, magic), magic)

        def scalar() -> SSAValue:
            divisor = e.const(scales)
            head = divide(e, x, divisor)
            product = e.mul(head, divisor)
            residual = e.sub(e.sub(x, product), product_error(e, head, divisor, product))
            return _round_pair(e, head, e.mul(residual, e.const(inverse)))

        if lanes is None:
            rounded = emit_round_half_away(e, e.mul(x, e.const(inverse)))
        else:
            rounded = _by_lanes(e, x, *lanes, vector, scalar)
        shifted = e.add(rounded, e.const(np.asarray(q.zero_points, np.float32).reshape(dims)))
        return [e.cast(e.clamp(shifted, float(INT8_MIN), float(INT8_MAX)), element(op.output))]


class Dequantize(TflPattern):
    """DEQUANTIZE as LiteRT's int8 kernel (`LANES`): `cast(q) * scale + offset` where it
    is vectorised, `(cast(q) - zero_point) * scale` (the double product rounded once)
    elsewhere, per channel and for other types."""

    OPS = (DequantizeOp,)

    def convert(self, op: DequantizeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        q = op.params
        dims = _channel_shape(q, len(shape(x)))
        floats = e.cast(x, f32)
        scale = e.const(np.asarray(q.scales, np.float32).reshape(dims))

        def product() -> SSAValue:
            zero_point = np.asarray(q.zero_points, np.float32).reshape(dims)
            return e.mul(e.sub(floats, e.const(zero_point)), scale)

        def fused() -> SSAValue:
            offset = np.float32(-q.zero_points[0] * np.float64(np.float32(q.scales[0])))
            return e.add(e.mul(floats, scale), e.const(np.full(dims, offset, np.float32)))

        lanes = _lanes(x, q) if element(x) == i8 else None
        if lanes is None:
            return [product()]
        return [_by_lanes(e, x, *lanes, fused, product)]


QUANTIZED_PATTERNS = (Quantize, Dequantize)
