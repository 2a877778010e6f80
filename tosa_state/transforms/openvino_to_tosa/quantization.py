"""FakeQuantize-1, and the int8 convolutions and matrix products of NNCF-quantized models.

FakeQuantize follows OpenVINO's reference (`openvino/reference/fake_quantize.hpp`) operation
by operation in f32: `d = x - input_low`, the quotient `d / (input_high - input_low)` rounded
once, times `levels - 1`, rounded half to even, divided by `levels - 1`, times
`output_high - output_low`, plus `output_low`. With constant bounds (a non-empty range) that
is computed in f32 and i32 TOSA ops only (`quantization_levels`: the quotient by a
reciprocal product corrected by its exact residual, checked against the reference around
every level's threshold; each level's value from a table); bounds computed at run time
(or an empty or inverted range) take the quotient in f64 (`rounded_quotient`: TOSA has no
float division; no profile has f64, so such a model is no TOSA artifact). `output_low`
where `x <= min(input_low, input_high)` and `output_high` where `x > max(...)`; NaN stays
NaN. Bounds may be computed
tensors; they broadcast as numpy. f16 / bf16 are computed in f32 and rounded once at the end.

An int8 quantize / dequantize pair (levels 255 or 256, constant per-tensor bounds, the output
range equal to the input range, every one of the `levels` outputs reproduced by
`(q - z) * s` within two ulps) becomes integer-profile TOSA: the level index rounded and cast
to i32, `tosa.rescale` to i8 (`q - 128`: output zero point -128), then `tosa.rescale` to
i32 subtracting the pair's zero point, `tosa.cast` to f32 and one multiply by the scale.

A Convolution, depthwise GroupConvolution or MatMul whose input is such a pair and whose
constant weights are int8 multiples of a per-output-channel scale (NNCF's `i8 Constant ->
Convert -> Multiply`, or a FakeQuantize of constant weights, both folded to f32 constants
before the product is converted) multiplies the i8 values directly: `tosa.conv2d` /
`tosa.depthwise_conv2d` / `tosa.matmul` i8 x i8 with the input's zero point into i32, then one
multiply by `s_x * s_w[channel]` in f32. The integer sums are exact, so the result is the float
formula's up to the f32 rounding of the float products and sums.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import TensorType, f32, i1, i8, i32
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa_state import DequantizeOp
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant,
    dims,
    element,
)
from tosa_state.transforms.openvino_to_tosa.convolution import convolve
from tosa_state.transforms.openvino_to_tosa.elementwise import rounded_quotient
from tosa_state.transforms.openvino_to_tosa.quantization_levels import (
    LevelPlan,
    emit_levels,
    emit_values,
    level_values,
    plan_levels,
)
from tosa_state.transforms.tosa_builder.rescale import rescale, to_i32

INT8_OFFSET = 128
"""The i8 value of level `q` is `q - 128` (levels 255 and 256 both fit)."""


@dataclass(frozen=True)
class Int8Pair:
    """A FakeQuantize that is an int8 quantize / dequantize pair: `y = (q - zero_point) *
    scale` for the i8 level `q` (`level - 128`)."""

    scale: np.float32
    zero_point: int


def int8_pair(levels: int, bounds: Sequence[np.ndarray | None]) -> Int8Pair | None:
    """The pair a FakeQuantize with constant `bounds` is, or None. Checked on every level:
    `(q - z) * s` must give the reference's output within two ulps of the range."""
    if levels not in (255, 256) or any(b is None or b.size != 1 for b in bounds):
        return None
    low, high, out_low, out_high = (np.float32(np.asarray(b).reshape(())) for b in bounds)
    if (low, high) != (out_low, out_high) or not high > low:
        return None
    steps = np.float32(levels - 1)
    scale = np.float32((high - low) / steps)
    zero = round(float(-low / scale))
    if not -128 <= zero - INT8_OFFSET <= 127:
        return None
    q = np.arange(levels, dtype=np.float32)
    reference = (q / steps * (out_high - out_low)).astype(np.float32) + out_low
    integer = ((q - np.float32(zero)) * scale).astype(np.float32)
    tolerance = 2 * np.spacing(max(abs(out_low), abs(out_high)))
    if np.max(np.abs(reference - integer)) > tolerance:
        return None
    return Int8Pair(scale, zero - INT8_OFFSET)


def _steps(e: Emitter, op: ov.FakeQuantizeOp, x: SSAValue, low: SSAValue,
           high: SSAValue) -> SSAValue:
    """`(x - low) / (high - low) * (levels - 1)`, each operation rounded to f32. An empty
    range divides by 1 instead (no infinities: every `x` is at or beyond such bounds)."""
    steps = float(op.levels.value.data - 1)
    span = e.sub(high, low)
    one = e.scalar(1.0, f32, len(dims(span)))
    empty = e.elementwise(tew.EqualOp, span, e.scalar(0.0, f32, len(dims(span))),
                          result_element=i1)
    ratio = rounded_quotient(e, _minus(e, x, low), e.select(empty, one, span))
    return e.mul(ratio, e.scalar(steps, f32, len(dims(ratio))))


def _is_zero(value: SSAValue) -> bool:
    found = constant(value)
    return found is not None and not np.any(found)


def _minus(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a - b`; `a` itself when `b` is a constant zero (the same floats)."""
    return a if _is_zero(b) and dims(b) == tuple(1 for _ in dims(b)) else e.sub(a, b)


def _f32(e: Emitter, value: SSAValue) -> SSAValue:
    return e.cast(value, f32)


def _level_plan(op: ov.FakeQuantizeOp) -> tuple[LevelPlan, tuple[int, ...]] | None:
    """How to compute the levels exactly in f32 ops (constant bounds, a non-empty range
    everywhere, an input computed at run time), and the bounds' broadcast shape."""
    bounds = _bounds(op)
    if any(b is None for b in bounds) or constant(op.input) is not None:
        return None  # a constant input folds (the f64 form folds into constants too)
    arrays = [np.asarray(b, np.float32) for b in bounds if b is not None]
    shape = np.broadcast_shapes(*(a.shape for a in arrays))
    span = (np.broadcast_to(arrays[1], shape) - np.broadcast_to(arrays[0], shape)
            ).astype(np.float32)
    plan = plan_levels(span, op.levels.value.data - 1)
    return None if plan is None else (plan, shape)


def fake_quantize(e: Emitter, op: ov.FakeQuantizeOp) -> SSAValue:
    """The reference formula in f32 TOSA ops (see the module docstring)."""
    x, low, high, out_low, out_high = (_f32(e, v) for v in (op.input, *op.bounds()))
    rank = max(len(dims(v)) for v in (x, low, high, out_low, out_high))
    steps_count = op.levels.value.data - 1
    planned = _level_plan(op)
    if planned is not None:
        plan, shape = planned
        bounds = [np.broadcast_to(np.asarray(b, np.float32), shape) for b in _bounds(op)]
        index = emit_levels(e, _minus(e, x, low), plan)
        value = emit_values(e, index, steps_count, shape,
                            level_values(steps_count, bounds[2], bounds[3]))
    else:
        steps = e.scalar(float(steps_count), f32, rank)
        index = e.cast(e.cast(_steps(e, op, x, low, high), i32), f32)  # half to even
        value = e.mul(rounded_quotient(e, index, steps), _minus(e, out_high, out_low))
        value = value if _is_zero(out_low) else e.add(value, out_low)
    below = e.elementwise(tew.GreaterEqualOp, e.elementwise(tew.MinimumOp, low, high), x,
                          result_element=i1)
    above = e.greater(x, e.elementwise(tew.MaximumOp, low, high))
    result = e.select(below, out_low, e.select(above, out_high, value))
    number = e.elementwise(tew.EqualOp, x, x, result_element=i1)  # NaN stays NaN
    return e.cast(e.select(number, result, x), element(op.result))


def quantize_int8(e: Emitter, op: ov.FakeQuantizeOp, x: SSAValue) -> SSAValue:
    """The i8 levels of `x`: the level rounded half to even into i32 (`tosa.cast`), then
    `tosa.rescale` to i8 with the output zero point -128."""
    low, high = op.input_low, op.input_high
    planned = _level_plan(op)
    levels = (_steps(e, op, x, low, high) if planned is None
              else emit_levels(e, _minus(e, x, low), planned[0]))
    level = e.clamp(levels, 0.0, float(op.levels.value.data - 1))
    return rescale(e, e.cast(level, i32), 1.0, i8, output_zp=-INT8_OFFSET)


def dequantize_int8(e: Emitter, q: SSAValue, pair: Int8Pair) -> SSAValue:
    """`(q - zero_point) * scale`: `tosa.rescale` to i32 with the input zero point, cast,
    multiply."""
    centred = e.cast(to_i32(e, q, pair.zero_point), f32)
    return e.mul(centred, e.scalar(float(pair.scale), f32, len(dims(q))))


def _bounds(op: ov.FakeQuantizeOp) -> list[np.ndarray | None]:
    return [constant(v) for v in op.bounds()]


class FakeQuantize(OpenVINOPattern):
    """FakeQuantize-1: an int8 pair in integer-profile ops, otherwise the float formula."""

    OPS = (ov.FakeQuantizeOp,)

    def convert(self, op: ov.FakeQuantizeOp, e: Emitter) -> Sequence[SSAValue]:
        if element(op.input) != f32:
            return [fake_quantize(e, op)]
        pair = int8_pair(op.levels.value.data, _bounds(op))
        if pair is None or dims(op.input) != dims(op.result):
            return [fake_quantize(e, op)]
        return [dequantize_int8(e, quantize_int8(e, op, op.input), pair)]


# ---------------------------------------------------------------------------------------------
# Integer products of quantized inputs
# ---------------------------------------------------------------------------------------------


def quantized_input(e: Emitter, value: SSAValue) -> tuple[SSAValue, int, np.float32] | None:
    """(i8 levels, zero point, scale) when `value` is `dequantize_int8`'s result, or a
    `tosa.transpose` / static `tosa.reshape` of one (the same then applied to the levels)."""
    owner = value.owner
    if isinstance(owner, tt.TransposeOp | tt.ReshapeOp):
        inner = quantized_input(e, owner.input1)
        if inner is None or (isinstance(owner, tt.ReshapeOp) and DYN in dims(value)):
            return None
        levels = (e.transpose(inner[0], list(owner.perms.get_values()))
                  if isinstance(owner, tt.TransposeOp) else e.reshape(inner[0], dims(value)))
        return levels, inner[1], inner[2]
    if not isinstance(owner, tew.MulOp):
        return None
    scale = constant(owner.operands[1])
    cast = owner.operands[0].owner
    if scale is None or scale.size != 1 or not isinstance(cast, tew.CastOp):
        return None
    rescale = cast.operands[0].owner
    if not isinstance(rescale, tew.RescaleOp) or element(rescale.input) != i8:
        return None
    zero_point = constant(rescale.input_zp)
    if zero_point is None or constant(rescale.multiplier) is None:
        return None
    return rescale.input, int(zero_point.reshape(-1)[0]), np.float32(scale.reshape(-1)[0])


def int8_weights(weights: np.ndarray | None, axis: int) -> tuple[np.ndarray, np.ndarray] | None:
    """(int8 values, f32 scale per slice along `axis`) whose products reproduce the f32
    `weights` within two ulps of each slice's largest magnitude, or None. The scale is the
    largest magnitude over 127 (NNCF's symmetric 8-bit weights) or 128, or over 63 or 64
    (the 7-bit weights NNCF gives the first layers for CPUs without VNNI)."""
    if weights is None or weights.dtype != np.float32 or weights.ndim < 2:
        return None
    moved = np.moveaxis(weights, axis, 0).reshape(weights.shape[axis], -1)
    largest = np.max(np.abs(moved), axis=1)
    best = None
    for divisor in (127, 128, 63, 64):
        scales = np.where(largest > 0, largest / np.float32(divisor), 1).astype(np.float32)
        q = np.rint(moved / scales[:, None])
        if q.min() < -128 or q.max() > 127:
            continue
        error = np.abs((q * scales[:, None]).astype(np.float32) - moved).max(axis=1)
        if np.all(error <= 2 * np.spacing(largest)):
            best = (np.moveaxis(q.astype(np.int8).reshape(np.moveaxis(weights, axis, 0).shape),
                                0, axis), scales)
            break
    return best


def _compressed_int8(value: SSAValue) -> tuple[np.ndarray, np.ndarray] | None:
    """(int8 values, f32 scales broadcast to their shape) of a compressed i8 weight without a
    zero point (`tosa_state.dequantize` of NNCF's `i8 -> Convert -> Multiply`, the form
    `ov.save_model` stores a quantized model's weights in), as stored; else None."""
    owner = value.owner
    if (not isinstance(owner, DequantizeOp) or owner.weight_type.data != "i8"
            or owner.zero_point is not None or dims(value) != owner.shape_of_weights):
        return None
    stored, scale = constant(owner.weights), constant(owner.scale)
    if stored is None or scale is None:
        return None
    shape = owner.shape_of_weights
    w8 = stored.view(np.int8).reshape(shape)
    return w8, np.broadcast_to(scale.astype(np.float32), shape)


def int8_weights_of(value: SSAValue, axis: int, shape: Sequence[int] | None = None
                    ) -> tuple[np.ndarray, np.ndarray] | None:
    """(int8 values, f32 scale per slice along `axis`) of the weights `value` (viewed with
    `shape` when given): a compressed i8 weight with one scale per slice as stored, or f32
    constants that are int8 multiples (`int8_weights`); else None."""
    compressed = _compressed_int8(value)
    if compressed is None:
        weights = constant(value)
        return int8_weights(weights if shape is None or weights is None
                            else weights.reshape(shape), axis)
    w8, scales = (a if shape is None else a.reshape(shape) for a in compressed)
    per_slice = np.moveaxis(scales, axis, 0).reshape(scales.shape[axis], -1)
    if not np.all(per_slice == per_slice[:, :1]):
        return None
    return w8, per_slice[:, 0].copy()


class QuantizedConvolution(OpenVINOPattern):
    """Convolution-1 of an int8 pair by int8 weights: one i8 `tosa.conv2d` into i32, then
    `s_x * s_w[o]` in f32. Other convolutions are left to `Convolution`."""

    OPS = (ov.ConvolutionOp,)

    def convert(self, op: ov.ConvolutionOp, e: Emitter) -> Sequence[SSAValue]:
        found = quantized_input(e, op.input)
        weights = None if found is None else int8_weights_of(op.filter, 0)
        if found is None or weights is None:
            raise Unsupported("not an int8 convolution")
        q, zero_point, scale = found
        w8, w_scales = weights
        acc = convolve(e, op, q, e.const(w8, i8), input_zp=zero_point)
        return [_scaled(e, acc, scale * w_scales)]


class QuantizedGroupConvolution(OpenVINOPattern):
    """A depthwise GroupConvolution-1 (one input channel per group) of an int8 pair by int8
    weights (a scale per output channel): one i8 `tosa.depthwise_conv2d` into i32, then
    `s_x * s_w[o]`. Other group convolutions are left to `GroupConvolution`."""

    OPS = (ov.GroupConvolutionOp,)

    def convert(self, op: ov.GroupConvolutionOp, e: Emitter) -> Sequence[SSAValue]:
        found = quantized_input(e, op.input)
        filter_dims = dims(op.filter)
        if found is None or len(filter_dims) < 4 or filter_dims[2] != 1 or DYN in filter_dims:
            raise Unsupported("not an int8 depthwise convolution")
        groups, per_group, _, *kernel = filter_dims
        recovered = int8_weights_of(op.filter, 0, (groups * per_group, *kernel))
        if recovered is None:
            raise Unsupported("not an int8 depthwise convolution")
        q, zero_point, scale = found
        w8, w_scales = recovered
        filters = e.const(w8.reshape(groups, per_group, *kernel), i8)
        acc = convolve(e, op, q, filters, depthwise=True, input_zp=zero_point)
        return [_scaled(e, acc, scale * w_scales)]


def _scaled(e: Emitter, acc: SSAValue, factors: np.ndarray) -> SSAValue:
    """The i32 accumulators `[N, C, spatial...]` in f32 times a factor per channel."""
    rank = len(dims(acc))
    column = factors.astype(np.float32).reshape(1, -1, *(1,) * (rank - 2))
    return e.mul(e.cast(acc, f32), e.const(column))


class QuantizedMatMul(OpenVINOPattern):
    """MatMul-1 of an int8 pair by constant 2-D int8 weights (`transpose_b` allowed): one i8
    `tosa.matmul` with the input's zero point into i32, then `s_x * s_w[n]` in f32. Other
    products are left to `MatMul`."""

    OPS = (ov.MatMulOp,)

    def convert(self, op: ov.MatMulOp, e: Emitter) -> Sequence[SSAValue]:
        found = quantized_input(e, op.a)
        if found is None or op.transpose_a.value.data:  # before reading every weight
            raise Unsupported("not an int8 matrix product")
        transpose_b = bool(op.transpose_b.value.data)
        weights = int8_weights_of(op.b, 0 if transpose_b else 1)
        if weights is None:
            raise Unsupported("not an int8 matrix product")
        q, zero_point, scale = found
        w8, w_scales = weights
        w8 = w8.T if transpose_b else w8
        depth, units = w8.shape
        leading = e.sizes(q)[:-1]
        if len(leading) == 0 or e.size(q, -1) != depth:
            raise Unsupported("not an int8 matrix product")
        rows = e.reshape_sizes(q, (1, e.product(leading), depth))
        zero = e.const(np.zeros(1), i8)
        acc = tt.MatMulOp(rows, e.const(np.ascontiguousarray(w8[None]), i8),
                          e.const(np.array([zero_point]), i8), zero,
                          TensorType(i32, [1, dims(rows)[1], units]))
        product = e.reshape_sizes(e.value(acc), [*leading, units])
        factors = (scale * w_scales).astype(np.float32)
        return [e.mul(e.cast(product, f32), e.const(factors.reshape((1,) * len(leading)
                                                                     + (units,))))]


QUANTIZATION_PATTERNS = (FakeQuantize, QuantizedConvolution, QuantizedGroupConvolution,
                         QuantizedMatMul)
