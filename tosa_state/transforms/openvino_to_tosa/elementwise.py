"""Element-wise OpenVINO ops: arithmetic, comparison, logical, activations, Convert, Select.

Operands broadcast with numpy rules: the emitter reshapes them to one rank first, and TOSA
broadcasts size-1 dims. `auto_broadcast = "none"` needs no reshape (the shapes are equal).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerType, bf16, f16, f32, f64, i1
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    dtype_of,
    element,
    integer_type,
    is_float,
    is_unsigned,
    shape,
    signless,
    widened_for_division,
)
from tosa_state.transforms.openvino_to_tosa.shapes import (
    MixedShapeArithmetic,
    convert_shape,
    involves_runtime_shape,
    shape_arithmetic,
)


def _float_max(element_type: Attribute) -> float:
    return float(np.finfo(dtype_of(element_type)).max)


class SimpleBinary(OpenVINOPattern):
    """Add, Subtract, Multiply (shift 0), Maximum, Minimum, LogicalAnd / Or / Xor, BitwiseAnd /
    Or / Xor (logical ops on booleans). Unsigned integers are computed in the signless type of
    their width (`tensor.bitcast` in and out): the sums, differences and products wrap around
    as OpenVINO's do; Maximum / Minimum compare them as unsigned."""

    OPS = (
        ov.AddOp,
        ov.SubtractOp,
        ov.MultiplyOp,
        ov.MaximumOp,
        ov.MinimumOp,
        ov.LogicalAndOp,
        ov.LogicalOrOp,
        ov.LogicalXorOp,
        ov.BitwiseAndOp,
        ov.BitwiseOrOp,
        ov.BitwiseXorOp,
    )
    TOSA: dict[type[Operation], type[Operation]] = {
        ov.AddOp: tew.AddOp,
        ov.SubtractOp: tew.SubOp,
        ov.MaximumOp: tew.MaximumOp,
        ov.MinimumOp: tew.MinimumOp,
        ov.LogicalAndOp: tew.LogicalAndOp,
        ov.LogicalOrOp: tew.LogicalOrOp,
        ov.LogicalXorOp: tew.LogicalXorOp,
        ov.BitwiseAndOp: tew.BitwiseAndOp,
        ov.BitwiseOrOp: tew.BitwiseOrOp,
        ov.BitwiseXorOp: tew.BitwiseXorOp,
    }
    ON_BOOLEANS: dict[type[Operation], type[Operation]] = {
        ov.BitwiseAndOp: tew.LogicalAndOp,
        ov.BitwiseOrOp: tew.LogicalOrOp,
        ov.BitwiseXorOp: tew.LogicalXorOp,
    }

    def convert(self, op: ov.ElementwiseBinaryOp, e: Emitter) -> Sequence[SSAValue]:
        if involves_runtime_shape(e, op.lhs, op.rhs):
            try:
                return [shape_arithmetic(e, op)]
            except MixedShapeArithmetic:
                lhs, rhs = (e.shape_as_tensor(v) if v in e.lowering.shapes else v
                            for v in (op.lhs, op.rhs))
                return [self.compute(op, e, lhs, rhs)]
        return [self.compute(op, e, op.lhs, op.rhs)]

    def compute(self, op: ov.ElementwiseBinaryOp, e: Emitter, lhs: SSAValue,
                rhs: SSAValue) -> SSAValue:
        element_type = element(lhs)
        if element_type == i1 and type(op) in self.ON_BOOLEANS:
            return e.elementwise(self.ON_BOOLEANS[type(op)], lhs, rhs)
        if is_unsigned(element_type) and isinstance(op, ov.MaximumOp | ov.MinimumOp):
            first = e.greater(_ordered(e, lhs), _ordered(e, rhs))
            if isinstance(op, ov.MinimumOp):
                first = e.unary(tew.LogicalNotOp, first)
            return _select(e, first, lhs, rhs)
        a, b = _signless(e, lhs), _signless(e, rhs)
        if isinstance(op, ov.MultiplyOp):
            result = e.mul(a, b)
        else:
            result = e.elementwise(self.TOSA[type(op)], a, b)
        return e.bitcast(result, element_type)


def _signless(e: Emitter, value: SSAValue) -> SSAValue:
    """Unsigned values reinterpreted as the signless type of their width."""
    return e.bitcast(value, signless(element(value)))


def _select(e: Emitter, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
    """`tosa.select`, unsigned values selected as signless ones."""
    return e.bitcast(e.select(cond, _signless(e, a), _signless(e, b)), element(a))


def _ordered(e: Emitter, value: SSAValue) -> SSAValue:
    """Values TOSA's signed comparisons order as OpenVINO orders `value`: booleans as i8,
    unsigned integers reinterpreted as signed with the sign bit flipped (`x ^ 0x80..`)."""
    element_type = element(value)
    if element_type == i1:
        return e.cast(value, IntegerType(8))
    if not is_unsigned(element_type):
        return value
    width = element_type.width.data
    sign_bit = e.scalar(-(1 << (width - 1)), signless(element_type), len(dims(value)))
    return e.elementwise(tew.BitwiseXorOp, _signless(e, value), sign_bit)


class Comparison(OpenVINOPattern):
    """Greater, Less, GreaterEqual, LessEqual: `tosa.greater` / `tosa.greater_equal` (Less and
    LessEqual swap the operands); Equal, NotEqual: `tosa.equal` (negated), on booleans
    `logical_xor` (negated). Unsigned integers compare as unsigned."""

    OPS = (ov.GreaterOp, ov.LessOp, ov.GreaterEqualOp, ov.LessEqualOp, ov.EqualOp, ov.NotEqualOp)
    ORDER: dict[type[Operation], tuple[type[Operation], bool]] = {
        ov.GreaterOp: (tew.GreaterOp, False),
        ov.LessOp: (tew.GreaterOp, True),
        ov.GreaterEqualOp: (tew.GreaterEqualOp, False),
        ov.LessEqualOp: (tew.GreaterEqualOp, True),
    }

    def convert(self, op: ov.ElementwiseBinaryOp, e: Emitter) -> Sequence[SSAValue]:
        if isinstance(op, ov.EqualOp | ov.NotEqualOp):
            if element(op.lhs) == i1:
                equal = e.unary(tew.LogicalNotOp,
                                e.elementwise(tew.LogicalXorOp, op.lhs, op.rhs))
            else:
                equal = e.elementwise(tew.EqualOp, _signless(e, op.lhs), _signless(e, op.rhs),
                                      result_element=i1)
            return [e.unary(tew.LogicalNotOp, equal) if isinstance(op, ov.NotEqualOp) else equal]
        cls, swapped = self.ORDER[type(op)]
        lhs, rhs = _ordered(e, op.lhs), _ordered(e, op.rhs)
        if swapped:
            lhs, rhs = rhs, lhs
        return [e.elementwise(cls, lhs, rhs, result_element=i1)]


def _divide(e: Emitter, lhs: SSAValue, rhs: SSAValue, floor: bool) -> SSAValue:
    """Division: floats as `lhs * (1 / rhs)` (within 1 ulp; exact when `rhs` is a constant power
    of two; f16 / bf16 computed in f32 and rounded once), integers with `tosa.intdiv` (toward
    zero), corrected toward -inf when `floor`."""
    element_type = element(lhs)
    if element_type in (f16, bf16):
        quotient = _divide(e, e.cast(lhs, f32), e.cast(rhs, f32), floor)
        return e.cast(quotient, element_type)
    if is_float(element_type):
        return e.mul(lhs, e.unary(tew.ReciprocalOp, rhs))
    if integer_type(lhs) is None or is_unsigned(element_type):
        raise Unsupported(f"division of {element_type} values")
    a, b = widened_for_division(e, lhs), widened_for_division(e, rhs)
    quotient = e.elementwise(tew.IntDivOp, a, b)
    if floor:
        quotient = _floor_correction(e, a, b, quotient)
    return e.cast(quotient, element_type)


def _floor_correction(e: Emitter, a: SSAValue, b: SSAValue, quotient: SSAValue) -> SSAValue:
    """`q - 1` where the remainder is non-zero and its sign differs from the divisor's."""
    rank = len(dims(quotient))
    zero = e.scalar(0, element(a), rank)
    remainder = e.sub(a, e.mul(quotient, b))
    nonzero = e.unary(tew.LogicalNotOp, e.elementwise(tew.EqualOp, remainder, zero,
                                                      result_element=i1))
    signs_differ = e.elementwise(tew.LogicalXorOp, e.greater(zero, remainder), e.greater(zero, b))
    adjust = e.elementwise(tew.LogicalAndOp, nonzero, signs_differ)
    return e.sub(quotient, e.cast(adjust, element(a)))


class Divide(OpenVINOPattern):
    """Divide-1, honouring `m_pythondiv` (floor division of integers)."""

    OPS = (ov.DivideOp,)

    def convert(self, op: ov.DivideOp, e: Emitter) -> Sequence[SSAValue]:
        if involves_runtime_shape(e, op.lhs, op.rhs):  # sizes: floor and truncation agree
            return [shape_arithmetic(e, op)]
        return [_divide(e, op.lhs, op.rhs, floor=bool(op.m_pythondiv.value.data))]


def rounded_quotient(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """`a / b` rounded once to the type of f32 `a` and `b` as OpenVINO divides: the
    reciprocal product in f64 is within 2^-52 of the quotient, nearer than any f32 quotient
    comes to a rounding boundary. Other floats as `_divide`."""
    if element(a) != f32:
        return _divide(e, a, b, floor=False)
    wide = e.mul(e.cast(a, f64), e.unary(tew.ReciprocalOp, e.cast(b, f64)))
    return e.cast(wide, f32)


class Remainder(OpenVINOPattern):
    """Mod (sign of the dividend, `a - trunc(a / b) * b`) and FloorMod (sign of the divisor,
    `a - floor(a / b) * b`), as OpenVINO computes them: for floats the quotient rounded to
    the type first (a reciprocal product would move `trunc` by one near whole quotients)."""

    OPS = (ov.ModOp, ov.FloorModOp)

    def convert(self, op: ov.ModOp | ov.FloorModOp, e: Emitter) -> Sequence[SSAValue]:
        floor = isinstance(op, ov.FloorModOp)
        a, b = op.lhs, op.rhs
        if is_float(element(a)):
            ratio = rounded_quotient(e, a, b)
            whole = e.unary(tew.FloorOp, ratio) if floor else e.truncate(ratio)
            return [e.sub(a, e.mul(whole, b))]
        quotient = _divide(e, a, b, floor=floor)
        return [e.sub(a, e.mul(quotient, b))]


class Power(OpenVINOPattern):
    """`tosa.pow` on floats; integers through f64 (exact for results below 2**53)."""

    OPS = (ov.PowerOp,)

    def convert(self, op: ov.PowerOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.lhs)
        if is_float(element_type):
            return [e.elementwise(tew.PowOp, op.lhs, op.rhs)]
        result = e.elementwise(tew.PowOp, e.cast(op.lhs, f64), e.cast(op.rhs, f64))
        return [e.cast(result, element_type)]


class Select(OpenVINOPattern):
    """Select-1: `tosa.select` with the three operands broadcast to one rank."""

    OPS = (ov.SelectOp,)

    def convert(self, op: ov.SelectOp, e: Emitter) -> Sequence[SSAValue]:
        return [_select(e, op.cond, op.then_value, op.else_value)]


class Activation(OpenVINOPattern):
    """Sigmoid, Tanh, Exp, Log, Sin, Cos, Erf, Floor, Ceiling, Abs, LogicalNot, BitwiseNot: one
    TOSA op each (BitwiseNot of booleans is `logical_not`). Floor and Ceiling of integers are
    the integers; the other float functions reject integer inputs (TOSA has none)."""

    OPS = (ov.SigmoidOp, ov.TanhOp, ov.ExpOp, ov.LogOp, ov.SinOp, ov.CosOp, ov.ErfOp,
           ov.FloorOp, ov.CeilingOp, ov.AbsOp, ov.LogicalNotOp, ov.BitwiseNotOp)
    TOSA: dict[type[Operation], type[Operation]] = {
        ov.SigmoidOp: tew.SigmoidOp,
        ov.TanhOp: tew.TanhOp,
        ov.ExpOp: tew.ExpOp,
        ov.LogOp: tew.LogOp,
        ov.SinOp: tew.SinOp,
        ov.CosOp: tew.CosOp,
        ov.ErfOp: tew.ErfOp,
        ov.FloorOp: tew.FloorOp,
        ov.CeilingOp: tew.CeilOp,
        ov.AbsOp: tew.AbsOp,
        ov.LogicalNotOp: tew.LogicalNotOp,
    }
    ANY_ELEMENT_TYPE = (ov.AbsOp, ov.LogicalNotOp)

    def convert(self, op: ov.ElementwiseUnaryOp, e: Emitter) -> Sequence[SSAValue]:
        if isinstance(op, ov.BitwiseNotOp):
            if element(op.input) == i1:
                return [e.unary(tew.LogicalNotOp, op.input)]
            inverted = e.unary(tew.BitwiseNotOp, _signless(e, op.input))
            return [e.bitcast(inverted, element(op.input))]
        if not isinstance(op, self.ANY_ELEMENT_TYPE) and not is_float(element(op.input)):
            if isinstance(op, ov.FloorOp | ov.CeilingOp):
                return [op.input]
            raise Unsupported(f"{op.name} of {element(op.input)} values (floats only)")
        return [e.unary(self.TOSA[type(op)], op.input)]


class Negative(OpenVINOPattern):
    """Negative-1: `tosa.negate` on floats; `0 - x` on integers (wrapping, as OpenVINO does;
    TOSA's integer negate saturates)."""

    OPS = (ov.NegativeOp,)

    def convert(self, op: ov.NegativeOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        if is_float(element_type):
            zero = e.const(np.zeros(1), element_type)
            return [e.value(tew.NegateOp(op.input, zero, zero))]
        if integer_type(op.input) is None:
            raise Unsupported(f"{op.name} of {element_type} values")
        return [e.sub(e.scalar(0, element_type, len(dims(op.input))), op.input)]


class Sqrt(OpenVINOPattern):
    """Sqrt-1 on floats: `x ** 0.5` (TOSA has no square root; `pow` is within an ulp)."""

    OPS = (ov.SqrtOp,)

    def convert(self, op: ov.SqrtOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        half = e.scalar(0.5, element_type, len(dims(op.input)))
        return [e.elementwise(tew.PowOp, op.input, half)]


class SquaredDifference(OpenVINOPattern):
    """SquaredDifference-1: `(lhs - rhs) * (lhs - rhs)`."""

    OPS = (ov.SquaredDifferenceOp,)

    def convert(self, op: ov.SquaredDifferenceOp, e: Emitter) -> Sequence[SSAValue]:
        difference = e.sub(op.lhs, op.rhs)
        return [e.mul(difference, difference)]


def _float_input(op: Operation, value: SSAValue) -> Attribute:
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
        element_type, rank = _float_input(op, op.input), len(dims(op.input))
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
        _float_input(op, op.input)
        gate = _hard_sigmoid(e, op.input)
        return [e.mul(op.input, gate) if isinstance(op, ov.HSwishOp) else gate]


class Elu(OpenVINOPattern):
    """Elu-1: `select(x > 0, x, alpha * (exp(x) - 1))`."""

    OPS = (ov.EluOp,)

    def convert(self, op: ov.EluOp, e: Emitter) -> Sequence[SSAValue]:
        element_type, rank = _float_input(op, op.input), len(dims(op.input))
        x = op.input
        exp_minus_one = e.sub(e.unary(tew.ExpOp, x), e.scalar(1.0, element_type, rank))
        negative = e.mul(exp_minus_one, e.scalar(op.alpha.value.data, element_type, rank))
        positive = e.greater(x, e.scalar(0.0, element_type, rank))
        return [e.select(positive, x, negative)]


class Swish(OpenVINOPattern):
    """Swish-4: `x * sigmoid(beta * x)` (`beta` 1 when absent)."""

    OPS = (ov.SwishOp,)

    def convert(self, op: ov.SwishOp, e: Emitter) -> Sequence[SSAValue]:
        _float_input(op, op.input)
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


def clamp_bounds(element_type: Attribute, low: float, high: float) -> tuple[float, float]:
    """Bounds for `tosa.clamp` on `element_type`: integer bounds round inward (OpenVINO's
    Clamp on integers) and saturate to the type's range."""
    if is_float(element_type):
        limit = _float_max(element_type)
        return max(low, -limit), min(high, limit)
    info = np.iinfo(dtype_of(element_type))
    return max(np.ceil(low), info.min), min(np.floor(high), info.max)


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


class Identity(OpenVINOPattern):
    """Identity-16: its input, forwarded (no TOSA op, no run-time copy; as upstream's
    `tosa.identity` folder). Results never alias state: the runtime copies what it returns."""

    OPS = (ov.IdentityOp,)

    def convert(self, op: ov.IdentityOp, e: Emitter) -> Sequence[SSAValue]:
        return [op.input]


class Clamp(OpenVINOPattern):
    """Clamp-1: `tosa.clamp`."""

    OPS = (ov.ClampOp,)

    def convert(self, op: ov.ClampOp, e: Emitter) -> Sequence[SSAValue]:
        return [_clamp(e, op.input, op.min.value.data, op.max.value.data)]


class Convert(OpenVINOPattern):
    """Convert-1: `tosa.cast`; floats to integers round toward zero first, as OpenVINO does."""

    OPS = (ov.ConvertOp,)

    def convert(self, op: ov.ConvertOp, e: Emitter) -> Sequence[SSAValue]:
        if involves_runtime_shape(e, op.input):
            return [convert_shape(e, op)]
        target = op.destination_type
        value = op.input
        if is_float(element(value)) and isinstance(target, IntegerType) and target != i1:
            value = e.truncate(value)
        return [e.cast(value, target)]


ELEMENTWISE_PATTERNS = (
    SimpleBinary,
    Comparison,
    Divide,
    Remainder,
    Power,
    Select,
    Activation,
    Negative,
    Sqrt,
    SquaredDifference,
    Gelu,
    HardActivation,
    Elu,
    Swish,
    PRelu,
    Relu,
    Identity,
    Clamp,
    Convert,
)
