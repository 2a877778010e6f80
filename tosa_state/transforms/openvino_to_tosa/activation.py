"""Activation OpenVINO ops: ReLU, Clamp, Gelu, HSigmoid, HSwish, Elu, Swish, PRelu, SoftPlus,
ErfInv (Sigmoid, one TOSA op, is converted with the other one-op functions in `elementwise`)."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import f32, f64, i1
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    element,
    is_float,
    shape,
)
from tosa_state.transforms.tosa_builder.values import clamp_bounds


def float_input(op: Operation, value: SSAValue) -> Attribute:
    """The element type of `value`, which must be a float (TOSA's functions have no
    integer forms)."""
    element_type = element(value)
    if not is_float(element_type):
        raise Unsupported(f"{op.name} of {element_type} values (floats only)")
    return element_type


class Gelu(OpenVINOPattern):
    """Gelu-2 / -7: `0.5 x (1 + erf(x / sqrt 2))`; tanh mode:
    `0.5 x (1 + tanh(sqrt(2 / pi) (x + 0.044715 x^3)))`."""

    OPS = (ov.GeluOp,)

    def convert(self, op: ov.GeluOp, e: Emitter) -> Sequence[SSAValue]:
        element_type, rank = float_input(op, op.input), len(dims(op.input))
        x = op.input

        def scalar(number: float) -> SSAValue:
            return e.scalar(number, element_type, rank)

        if op.approximation_mode.data == "tanh":
            cube = e.mul(e.mul(x, x), x)
            inner = e.mul(e.add(x, e.mul(cube, scalar(0.044715))), scalar(math.sqrt(2 / math.pi)))
            curve = e.unary(tew.TanhOp, inner)
        else:
            curve = e.unary(tew.ErfOp, e.mul(x, scalar(1 / math.sqrt(2))))
        return [e.mul(e.mul(x, scalar(0.5)), e.add(curve, scalar(1.0)))]


def _hard_sigmoid(e: Emitter, x: SSAValue) -> SSAValue:
    """`min(max(x + 3, 0), 6) / 6`."""
    rank = len(dims(x))
    shifted = e.add(x, e.scalar(3.0, element(x), rank))
    return e.mul(e.clamp(shifted, 0.0, 6.0), e.scalar(1 / 6, element(x), rank))


class HardActivation(OpenVINOPattern):
    """HSigmoid-5: `min(max(x + 3, 0), 6) / 6`; HSwish-4: `x` times that."""

    OPS = (ov.HSigmoidOp, ov.HSwishOp)

    def convert(self, op: ov.HSigmoidOp | ov.HSwishOp, e: Emitter) -> Sequence[SSAValue]:
        float_input(op, op.input)
        gate = _hard_sigmoid(e, op.input)
        return [e.mul(op.input, gate) if isinstance(op, ov.HSwishOp) else gate]


class Elu(OpenVINOPattern):
    """Elu-1: `select(x > 0, x, alpha * (exp(x) - 1))`."""

    OPS = (ov.EluOp,)

    def convert(self, op: ov.EluOp, e: Emitter) -> Sequence[SSAValue]:
        element_type, rank = float_input(op, op.input), len(dims(op.input))
        x = op.input
        exp_minus_one = e.sub(e.unary(tew.ExpOp, x), e.scalar(1.0, element_type, rank))
        negative = e.mul(exp_minus_one, e.scalar(op.alpha.value.data, element_type, rank))
        positive = e.greater(x, e.scalar(0.0, element_type, rank))
        return [e.select(positive, x, negative)]


class Swish(OpenVINOPattern):
    """Swish-4: `x * sigmoid(beta * x)` (`beta` 1 when absent)."""

    OPS = (ov.SwishOp,)

    def convert(self, op: ov.SwishOp, e: Emitter) -> Sequence[SSAValue]:
        float_input(op, op.input)
        scaled = op.input if op.beta is None else e.mul(op.input, op.beta)
        return [e.mul(op.input, e.unary(tew.SigmoidOp, scaled))]


class PRelu(OpenVINOPattern):
    """PRelu-1: `select(x < 0, slope * x, x)`; a 1-D slope as long as dimension 1 of a
    rank >= 2 input is reshaped to `[1, C, 1, ...]` (per channel)."""

    OPS = (ov.PReluOp,)

    def convert(self, op: ov.PReluOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        dims, slope = shape(op.input), op.slope
        slope_dims = shape(slope)
        if len(slope_dims) == 1 and len(dims) >= 2 and slope_dims[0] == dims[1] != 1:
            slope = e.reshape(slope, [1, dims[1], *([1] * (len(dims) - 2))])
        negative = e.greater(e.scalar(0, element_type, len(dims)), op.input)
        return [e.select(negative, e.mul(op.input, slope), op.input)]


def _clamp(e: Emitter, value: SSAValue, low: float, high: float) -> SSAValue:
    if element(value) == i1:
        raise Unsupported("clamping boolean values")
    lo, hi = clamp_bounds(element(value), low, high)
    if not is_float(element(value)):
        lo, hi = int(lo), int(hi)
    return e.clamp(value, lo, hi)


class Relu(OpenVINOPattern):
    """ReLU-1: `tosa.clamp` to [0, max of the type]."""

    OPS = (ov.ReluOp,)

    def convert(self, op: ov.ReluOp, e: Emitter) -> Sequence[SSAValue]:
        return [_clamp(e, op.input, 0.0, float("inf"))]


class Clamp(OpenVINOPattern):
    """Clamp-1: `tosa.clamp`."""

    OPS = (ov.ClampOp,)

    def convert(self, op: ov.ClampOp, e: Emitter) -> Sequence[SSAValue]:
        return [_clamp(e, op.input, op.min.value.data, op.max.value.data)]


class SoftPlus(OpenVINOPattern):
    """SoftPlus-4 in the overflow-free form `max(x, 0) + log(1 + exp(-|x|))`: equal to
    `log(exp(x) + 1)` below OpenVINO's threshold and to `x` (within half an ulp) above it."""

    OPS = (ov.SoftPlusOp,)

    def convert(self, op: ov.SoftPlusOp, e: Emitter) -> Sequence[SSAValue]:
        x, element_type = op.input, element(op.input)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        rank = len(dims(x))
        positive = e.clamp(x, 0.0, float("inf"))
        minus_abs = e.sub(e.scalar(0.0, element_type, rank), e.unary(tew.AbsOp, x))
        one_plus = e.add(e.unary(tew.ExpOp, minus_abs), e.scalar(1.0, element_type, rank))
        return [e.add(positive, e.unary(tew.LogOp, one_plus))]


# Giles' single-precision rational approximation of erfinv(x) / x in w = -log(1 - x^2)
# (M. Giles, "Approximating the erfinv function", GPU Computing Gems Jade, 2011), highest
# power first: the centre branch in w - 2.5 for w < 5, the tail branch in sqrt(w) - 3.
_ERFINV_CENTRE = (2.81022636e-08, 3.43273939e-07, -3.5233877e-06, -4.39150654e-06,
                  0.00021858087, -0.00125372503, -0.00417768164, 0.246640727, 1.50140941)
_ERFINV_TAIL = (-0.000200214257, 0.000100950558, 0.00134934322, -0.00367342844,
                0.00573950773, -0.0076224613, -0.00943887047, 1.00167406, 2.83297682)


class ErfInv(OpenVINOPattern):
    """ErfInv-17 as OpenVINO's reference computes it: Giles' approximation `x * p(w)` with
    `w = -log((1 - x)(1 + x))` (f32 for f16 / bf16 / f32, f64 for f64; `sqrt(w)` as
    `w ** 0.5`), `x * inf` at |x| = 1 and NaN beyond (the log of a negative)."""

    OPS = (ov.ErfInvOp,)

    def convert(self, op: ov.ErfInvOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        compute = f64 if element_type == f64 else f32
        x = e.cast(op.input, compute)
        rank = len(dims(x))

        def number(value: float) -> SSAValue:
            return e.scalar(value, compute, rank)

        one = number(1.0)
        w = e.unary(tew.LogOp, e.mul(e.sub(one, x), e.add(one, x)))
        w = e.sub(number(0.0), w)
        centre = _horner(e, _ERFINV_CENTRE, e.sub(w, number(2.5)), number)
        root = e.elementwise(tew.PowOp, w, number(0.5))
        tail = _horner(e, _ERFINV_TAIL, e.sub(root, number(3.0)), number)
        in_centre = e.greater(number(5.0), w)
        result = e.mul(e.select(in_centre, centre, tail), x)
        at_one = e.elementwise(tew.EqualOp, e.unary(tew.AbsOp, x), one, result_element=i1)
        infinite = e.mul(x, number(float(np.inf)))
        return [e.cast(e.select(at_one, infinite, result), element_type)]


def _horner(e: Emitter, coefficients: Sequence[float], s: SSAValue, number) -> SSAValue:
    """`c0 * s^n + ... + cn` by Horner's rule."""
    result = number(coefficients[0])
    for c in coefficients[1:]:
        result = e.add(number(c), e.mul(result, s))
    return result


ACTIVATION_PATTERNS = (Relu, Clamp, Gelu, HardActivation, Elu, Swish, PRelu, SoftPlus, ErfInv)
