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
from xdsl.dialects.builtin import BoolAttr, TensorType, f32, i8, i32
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects.tfl.quantized import (
    DequantizeOp,
    Quantization,
    QuantizeOp,
    quantization,
)
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    Unsupported,
    dims,
    element,
    shape,
)
from tosa_state.transforms.tflite_to_tosa.common import TflPattern

INT8_MIN, INT8_MAX = -128, 127


def multiplier_shift(scale: float) -> tuple[int, int]:
    """TOSA's (multiplier, shift) for a real `scale` (`scale ~ multiplier * 2**-shift`), as
    TFLite's `QuantizeMultiplier`: `frexp`, the mantissa rounded to 31 bits."""
    if scale <= 0.0:
        if scale == 0.0:
            return 0, 31
        raise Unsupported(f"a negative rescale factor {scale}")
    mantissa, exponent = math.frexp(scale)
    multiplier = math.floor(mantissa * (1 << 31) + 0.5)
    if multiplier == 1 << 31:
        multiplier //= 2
        exponent += 1
    shift = 31 - exponent
    if shift > 62:  # below 2**-31 TFLite gives 0; TOSA's shift stops at 62
        multiplier >>= min(31, shift - 62)
        shift = 62
    if shift < 2:
        raise Unsupported(f"a rescale factor {scale} too large for a 32-bit multiplier")
    return multiplier, shift


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


class Quantize(TflPattern):
    """QUANTIZE: `clamp(round(x * (1 / scale)) + zero_point)` in f32, cast to int8 (LiteRT:
    `round(x / scale)`; TOSA has no float division: the reciprocal can land one unit away
    when `x / scale` is within an ulp of a half)."""

    OPS = (QuantizeOp,)

    def convert(self, op: QuantizeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        q = op.params
        dims = _channel_shape(q, len(shape(x)))
        inverse = (np.float32(1.0) / np.asarray(q.scales, np.float32)).reshape(dims)
        scaled = emit_round_half_away(e, e.mul(x, e.const(inverse)))
        shifted = e.add(scaled, e.const(np.asarray(q.zero_points, np.float32).reshape(dims)))
        return [e.cast(e.clamp(shifted, float(INT8_MIN), float(INT8_MAX)), element(op.output))]


class Dequantize(TflPattern):
    """DEQUANTIZE: `scale * (q - zero_point)` in f32 (exactly LiteRT's double product
    rounded once to f32)."""

    OPS = (DequantizeOp,)

    def convert(self, op: DequantizeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        (x,) = operands
        q = op.params
        dims = _channel_shape(q, len(shape(x)))
        centred = e.sub(e.cast(x, f32), e.const(np.asarray(q.zero_points, np.float32)
                                                .reshape(dims)))
        return [e.mul(centred, e.const(np.asarray(q.scales, np.float32).reshape(dims)))]


QUANTIZED_PATTERNS = (Quantize, Dequantize)
