"""Element-wise OpenVINO ops: arithmetic, comparison, logical, Convert, Select (the
activations but those with one TOSA op each are in `activation`).

Operands broadcast with numpy rules: the emitter reshapes them to one rank first, and TOSA
broadcasts size-1 dims. `auto_broadcast = "none"` needs no reshape (the shapes are equal).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import IntegerType, bf16, f16, f32, f64, i1
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    element,
    integer_type,
    is_float,
    is_unsigned,
    signless,
    widened_for_division,
)
from tosa_state.transforms.openvino_to_tosa.shapes import (
    MixedShapeArithmetic,
    convert_shape,
    involves_runtime_shape,
    shape_arithmetic,
)
from tosa_state.transforms.tosa_builder.values import constant


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
    """`tosa.pow` on floats, but `x * x` for a constant exponent of 2 (the same correctly
    rounded result; TOSA leaves `pow` of a negative base unpredictable, and the reference
    model refuses it, where a square is defined everywhere); integers through f64 (exact
    for results below 2**53)."""

    OPS = (ov.PowerOp,)

    def convert(self, op: ov.PowerOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.lhs)
        if is_float(element_type):
            exponent = constant(op.rhs)
            if (exponent is not None and exponent.size == 1 and np.all(exponent == 2)
                    and exponent.ndim <= len(dims(op.lhs))):
                return [e.mul(op.lhs, op.lhs)]
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


class Identity(OpenVINOPattern):
    """Identity-16: its input, forwarded (no TOSA op, no run-time copy; as upstream's
    `tosa.identity` folder). Results never alias state: the runtime copies what it returns."""

    OPS = (ov.IdentityOp,)

    def convert(self, op: ov.IdentityOp, e: Emitter) -> Sequence[SSAValue]:
        return [op.input]


class Convert(OpenVINOPattern):
    """Convert-1: `tosa.cast`; floats to integers round toward zero first, as OpenVINO does."""

    OPS = (ov.ConvertOp,)

    def convert(self, op: ov.ConvertOp, e: Emitter) -> Sequence[SSAValue]:
        if involves_runtime_shape(e, op.input):
            return [convert_shape(e, op)]
        target = op.destination_type
        value = _zero_extended(e, op.input)
        if is_float(element(value)) and isinstance(target, IntegerType) and target != i1:
            value = e.truncate(value)
            if is_unsigned(target):  # through i64, then wrapping as a C++ cast does
                value = e.cast(value, IntegerType(64))
        if is_unsigned(target):
            return [e.bitcast(e.cast(value, signless(target)), target)]
        return [e.cast(value, target)]


_WIDER = {8: 16, 16: 32, 32: 64}


def _zero_extended(e: Emitter, value: SSAValue) -> SSAValue:
    """Unsigned values (ui8, ui16, ui32) as the signed integers of twice their width, which
    hold them exactly (TOSA has no unsigned casts); others unchanged."""
    source = element(value)
    if not is_unsigned(source):
        return value
    width = source.width.data
    if width not in _WIDER:
        raise Unsupported(f"a Convert from {source} is not supported")
    wide = e.cast(e.bitcast(value, signless(source)), IntegerType(_WIDER[width]))
    mask = e.scalar((1 << width) - 1, IntegerType(_WIDER[width]), len(dims(value)))
    return e.elementwise(tew.BitwiseAndOp, wide, mask)


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
    Identity,
    Convert,
)
