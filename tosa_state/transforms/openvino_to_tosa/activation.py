"""Activations added for the optimum-intel architectures: SoftPlus-4, ErfInv-17."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import f32, f64, i1
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    element,
    is_float,
)


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


ACTIVATION_PATTERNS = (SoftPlus, ErfInv)
