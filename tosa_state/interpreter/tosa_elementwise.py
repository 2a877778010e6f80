"""numpy implementations of the TOSA elementwise operators.

Every impl runs a *kernel*: a small function specialised for its op's element types and
properties, built once per op (`Kernels`) and then called with the operand arrays. A kernel
makes one to a few numpy calls, returns a fresh array of exactly the result's dtype and
shape (0-D for rank 0) and never writes to its inputs.

Semantics follow the TOSA 1.0 pseudo-code (see each op's docstring in
`tosa_state.dialects.tosa.elementwise`). Choices where the specification leaves results
UNPREDICTABLE or where this implementation is approximate:

- Integer add / sub / mul / abs / intdiv overflow wraps around (two's complement).
- `tosa.intdiv` by zero raises `InferenceError`.
- `tosa.cast` from floating-point to integer maps NaN to 0 (and saturates infinities).
- `tosa.sigmoid` is `1 / (1 + exp(-x))` in f32 (f64 for f64), within 3 ulp of the exact
  result; the argument of `exp` is clipped to avoid overflow, so for `x < -88.7` (f32) the
  result is about 2.9e-39 instead of a smaller subnormal or 0.
- `tosa.erf` uses the Taylor series for `|x| < 1` and Abramowitz & Stegun 7.1.26 above,
  computed in f64: the relative error is below 1.8e-7 (about 2 ulp of f32), fine for f16 /
  bf16 / f32 but not f64 precision.
- numpy may emit `RuntimeWarning`s for IEEE special cases (overflow to inf, `log(0)`, `1/0`,
  NaN operands of bf16 min/max); results are the IEEE ones. Callers that want silence
  should run a whole model under one `np.errstate(all="ignore")` (per op it costs ~2 µs).
"""

from __future__ import annotations

import math
from collections.abc import Callable

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import TensorType
from xdsl.interpreter import InterpreterFunctions
from xdsl.ir import Operation, SSAValue

from tosa_state.diagnostics import InferenceError, error_at
from tosa_state.dialects.tosa.elementwise import (
    AbsOp,
    AddOp,
    ArithmeticRightShiftOp,
    BitwiseAndOp,
    BitwiseNotOp,
    BitwiseOrOp,
    BitwiseXorOp,
    CastOp,
    CeilOp,
    ClampOp,
    ClzOp,
    CosOp,
    EqualOp,
    ErfOp,
    ExpOp,
    FloorOp,
    GreaterEqualOp,
    GreaterOp,
    IntDivOp,
    LogicalAndOp,
    LogicalLeftShiftOp,
    LogicalNotOp,
    LogicalOrOp,
    LogicalRightShiftOp,
    LogicalXorOp,
    LogOp,
    MaximumOp,
    MinimumOp,
    MulOp,
    NegateOp,
    PowOp,
    ReciprocalOp,
    RescaleOp,
    RsqrtOp,
    SelectOp,
    SigmoidOp,
    SinOp,
    SubOp,
    TableOp,
    TanhOp,
    constant_values,
)
from tosa_state.dtypes import numpy_dtype
from tosa_state.interpreter.op_cache import Kernel, Kernels

_BF16 = np.dtype(ml_dtypes.bfloat16)
_F16 = np.dtype(np.float16)
_F32 = np.dtype(np.float32)
_F64 = np.dtype(np.float64)
_HALF = (_F16, _BF16)


def _dtype(value: SSAValue) -> np.dtype:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return numpy_dtype(value_type.element_type)


def _is_float(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype == _BF16


def _compute_dtype(dtype: np.dtype) -> np.dtype:
    """Half-precision math is done in f32 and rounded once."""
    return _F32 if dtype in _HALF else dtype


# ---------------------------------------------------------------------------------------
# Kernel construction
# ---------------------------------------------------------------------------------------


def _rank0_aware(op: Operation, built: Kernel) -> Kernel:
    """`built`, adapted to 0-D operands when `op`'s result is 0-D."""
    result_type = op.results[0].type
    if isinstance(result_type, TensorType) and result_type.get_num_dims() == 0:
        return _on_rank0(built)
    return built


_KERNELS = Kernels("tosa_elementwise", finish=_rank0_aware)
_builds = _KERNELS.builds
kernel = _KERNELS.of
"""The kernel of `op`, built on first use."""


def _on_rank0(built: Kernel) -> Kernel:
    """Runs `built` on 1-element arrays: numpy ufuncs return scalars for 0-D inputs."""

    def run(*args: np.ndarray) -> np.ndarray:
        ones = (a.reshape(1) if a.ndim == 0 else a for a in args)
        return np.asarray(built(*ones)).reshape(())

    return run


_UFUNCS: dict[type[Operation], np.ufunc] = {
    AddOp: np.add,
    SubOp: np.subtract,
    LogicalAndOp: np.logical_and,
    LogicalOrOp: np.logical_or,
    LogicalXorOp: np.logical_xor,
    BitwiseAndOp: np.bitwise_and,
    BitwiseOrOp: np.bitwise_or,
    BitwiseXorOp: np.bitwise_xor,
    BitwiseNotOp: np.invert,
    SinOp: np.sin,
    CosOp: np.cos,
    EqualOp: np.equal,
    GreaterOp: np.greater,
    GreaterEqualOp: np.greater_equal,
    AbsOp: np.abs,
    ExpOp: np.exp,
    LogOp: np.log,
    ReciprocalOp: np.reciprocal,
    FloorOp: np.floor,
    CeilOp: np.ceil,
    LogicalNotOp: np.logical_not,
    TanhOp: np.tanh,
}
"""Ops that are one numpy ufunc on same-dtype operands. numpy (f16) and ml_dtypes (bf16)
evaluate half-precision ufuncs in f32 and round once; integers wrap around."""


@_builds(*_UFUNCS)
def _ufunc_kernel(op: Operation) -> Kernel:
    return _UFUNCS[type(op)]


_CONSTANT_POWERS: dict[float, np.ufunc] = {2.0: np.square, 0.5: np.sqrt}
"""`pow(x, c)` for a constant exponent `c` that numpy has a cheaper ufunc for (a fifth of
`np.power`'s time): squaring is exact, `sqrt` correctly rounded (`powf` may be 1 ulp off).
They differ from `np.power` only where TOSA leaves `pow` undefined (`x < 0`), at `-0`
and `-inf`."""


@_builds(PowOp)
def _pow_kernel(op: PowOp) -> Kernel:
    """`np.power`, or `np.square` / `np.sqrt` when the exponent is a constant 2 / 0.5 that
    does not broadcast `x` (the squared magnitude and its root of an STFT, say)."""
    exponent_type = op.input2.type
    if (
        _is_float(_dtype(op.output))
        and op.input1.type == op.output.type
        and isinstance(exponent_type, TensorType)
        and math.prod(exponent_type.get_shape()) == 1
        and (values := constant_values(op.input2)) is not None
        and (special := _CONSTANT_POWERS.get(float(values[0]))) is not None
    ):

        def power(x: np.ndarray, exponent: np.ndarray) -> np.ndarray:
            return special(x)

        power.ufunc = special  # type: ignore[attr-defined]
        return power
    return np.power


@_builds(MaximumOp, MinimumOp)
def _min_max_kernel(op: MaximumOp | MinimumOp) -> Kernel:
    ignore = op.ignores_nan and _is_float(_dtype(op.output))
    if isinstance(op, MaximumOp):
        return np.fmax if ignore else np.maximum
    return np.fmin if ignore else np.minimum


@_builds(ClampOp)
def _clamp_kernel(op: ClampOp) -> Kernel:
    dtype = _dtype(op.output)
    low = dtype.type(op.min_val.value.data)
    high = dtype.type(op.max_val.value.data)
    if op.ignores_nan and _is_float(dtype):
        lower, upper = np.fmax, np.fmin  # NaN input -> min_val
    elif dtype.kind in "fiu":  # numpy's own types: one `clip` (NaN input -> NaN)

        def clip(x: np.ndarray) -> np.ndarray:
            return x.clip(low, high)

        return clip
    else:
        lower, upper = np.maximum, np.minimum  # NaN input -> NaN

    def clamp(x: np.ndarray) -> np.ndarray:
        clamped = lower(x, low)
        return upper(clamped, high, out=clamped)

    return clamp


@_builds(MulOp)
def _mul_kernel(op: MulOp) -> Kernel:
    in_dtype, out_dtype = _dtype(op.input1), _dtype(op.output)
    if _is_float(out_dtype):

        def mul_float(a: np.ndarray, b: np.ndarray, shift: np.ndarray) -> np.ndarray:
            return np.multiply(a, b)

        return mul_float

    if in_dtype != np.int32:

        def mul_int(a: np.ndarray, b: np.ndarray, shift: np.ndarray) -> np.ndarray:
            return np.multiply(a, b, dtype=out_dtype)

        return mul_int

    bad_shift = error_at(op, f"'{op.name}' op shift must be in [0, 63], got ")

    def mul_i32(a: np.ndarray, b: np.ndarray, shift: np.ndarray) -> np.ndarray:
        s = int(shift[0])
        if s == 0:
            return np.multiply(a, b, dtype=out_dtype)
        if not 0 < s <= 63:
            raise InferenceError(f"{bad_shift}{s}")
        product = np.multiply(a, b, dtype=np.int64)
        if s == 1:
            product += 1
        else:
            # (p + 2**(s-1)) >> s == ((p >> 1) + 2**(s-2)) >> (s-1), which cannot overflow
            # int64 even for p = (-2**31)**2 = 2**62 and s = 63.
            product >>= 1
            product += 1 << (s - 2)
            s -= 1
        product >>= s
        return product.astype(out_dtype)

    return mul_i32


@_builds(IntDivOp)
def _intdiv_kernel(op: IntDivOp) -> Kernel:
    by_zero = error_at(op, f"'{op.name}' op division by zero")

    def intdiv(a: np.ndarray, b: np.ndarray) -> np.ndarray:
        if not b.all():
            raise InferenceError(by_zero)
        # a - fmod(a, b) is an exact multiple of b (no overflow: it lies between 0 and a),
        # so floor division of it truncates toward zero.
        return np.floor_divide(np.subtract(a, np.fmod(a, b)), b)

    return intdiv


@_builds(SelectOp)
def _select_kernel(op: SelectOp) -> Kernel:
    return np.where


@_builds(ClzOp)
def _clz_kernel(op: ClzOp) -> Kernel:
    dtype = _dtype(op.output)
    bits = dtype.itemsize * 8
    unsigned = np.dtype(f"u{dtype.itemsize}")

    def clz(x: np.ndarray) -> np.ndarray:
        # bit length by binary search over the (unsigned) value, then width - length
        rest = x.view(unsigned).astype(np.uint64)
        length = np.zeros(x.shape, np.int64)
        for step in (32, 16, 8, 4, 2, 1):
            high = rest >> np.uint64(step)
            wide = high != 0
            length += wide * step
            rest = np.where(wide, high, rest)
        length += rest != 0
        return (bits - length).astype(dtype)

    return clz


def _shift_amount_check(op: Operation) -> Callable[[np.ndarray], None]:
    """Raises for shift amounts outside [0, width - 1] (the spec's REQUIRE)."""
    max_shift = _dtype(op.results[0]).itemsize * 8 - 1
    out_of_range = error_at(op, f"'{op.name}' op shift amount out of range [0, {max_shift}]")

    def check(amount: np.ndarray) -> None:
        if amount.size and (amount.min() < 0 or amount.max() > max_shift):
            raise InferenceError(out_of_range)

    return check


@_builds(LogicalLeftShiftOp, LogicalRightShiftOp)
def _logical_shift_kernel(op: LogicalLeftShiftOp | LogicalRightShiftOp) -> Kernel:
    dtype = _dtype(op.output)
    unsigned = np.dtype(f"u{dtype.itemsize}")
    check = _shift_amount_check(op)
    left = isinstance(op, LogicalLeftShiftOp)

    def logical_shift(value: np.ndarray, amount: np.ndarray) -> np.ndarray:
        check(amount)
        # in 64 bits, then truncated to the element width (bits shifted out are dropped)
        wide = value.view(unsigned).astype(np.uint64)
        shift = amount.astype(np.uint64)
        shifted = np.left_shift(wide, shift) if left else np.right_shift(wide, shift)
        return shifted.astype(unsigned).view(dtype)

    return logical_shift


@_builds(ArithmeticRightShiftOp)
def _arithmetic_right_shift_kernel(op: ArithmeticRightShiftOp) -> Kernel:
    dtype = _dtype(op.output)
    check = _shift_amount_check(op)
    rounding = bool(op.round.value.data)

    def arithmetic_right_shift(value: np.ndarray, amount: np.ndarray) -> np.ndarray:
        check(amount)
        wide, shift = value.astype(np.int64), amount.astype(np.int64)
        result = np.right_shift(wide, shift)
        if rounding:  # + the last bit shifted out, when something was shifted
            last_out = np.right_shift(wide, np.maximum(shift - 1, 0)) & 1
            result += np.where(shift > 0, last_out, 0)
        return result.astype(dtype)

    return arithmetic_right_shift


@_builds(TableOp)
def _table_kernel(op: TableOp) -> Kernel:
    """TOSA 1.0 TABLE: an i8 lookup, or i16 linear interpolation into i32."""
    if _dtype(op.input1) == np.int8:

        def table_i8(x: np.ndarray, table: np.ndarray) -> np.ndarray:
            return table[x.astype(np.int64) + 128]

        return table_i8

    def table_i16(x: np.ndarray, table: np.ndarray) -> np.ndarray:
        offset = x.astype(np.int64) + 32768
        index, fraction = offset >> 7, offset & 0x7F
        base, following = table.astype(np.int64)[index], table.astype(np.int64)[index + 1]
        return ((base << 7) + (following - base) * fraction).astype(np.int32)

    return table_i16


@_builds(RescaleOp)
def _rescale_kernel(op: RescaleOp) -> Kernel:
    """TOSA 1.0 RESCALE: in 64-bit integers (Python integers when a product could overflow
    them), `apply_scale_32` with optional double rounding or `apply_scale_16`, then the
    output zero point and saturation to the (unsigned) output range."""
    out_dtype = _dtype(op.output)
    in_unsigned = bool(op.input_unsigned.value.data)
    out_unsigned = bool(op.output_unsigned.value.data)
    double_round = bool(op.scale32.value.data) and op.rounding_mode.data == "DOUBLE_ROUND"
    per_channel = bool(op.per_channel.value.data)
    out_bits = out_dtype.itemsize * 8
    low, high = (0, (1 << out_bits) - 1) if out_unsigned else \
        (-(1 << (out_bits - 1)), (1 << (out_bits - 1)) - 1)
    bad_shift = error_at(op, f"'{op.name}' op shift must be in [2, 62]")

    def widen(x: np.ndarray, unsigned: bool) -> np.ndarray:
        if unsigned:
            x = x.view(np.dtype(f"u{x.dtype.itemsize}"))
        return x.astype(np.int64)

    def rescale(x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray, in_zp: np.ndarray,
                out_zp: np.ndarray) -> np.ndarray:
        shifts = shift.astype(np.int64)
        if shifts.size and (shifts.min() < 2 or shifts.max() > 62):
            raise InferenceError(bad_shift)
        value = widen(x, in_unsigned) - widen(in_zp, in_unsigned)
        multipliers = multiplier.astype(np.int64)
        if not per_channel:
            multipliers, shifts = multipliers.reshape(()), shifts.reshape(())
        rounding = np.left_shift(np.int64(1), shifts - 1)
        if double_round:
            adjust = np.where(shifts > 31, np.int64(1 << 30), np.int64(0))
            rounding = rounding + np.where(value >= 0, adjust, -adjust)
        if value.size and int(np.abs(value).max()) * int(multipliers.max(initial=0)) \
                + int(np.max(rounding, initial=0)) >= 1 << 62:
            value, multipliers = value.astype(object), multipliers.astype(object)
            rounding = np.asarray(rounding).astype(object)
        scaled = (value * multipliers + rounding) >> shifts
        result = np.clip(scaled + widen(out_zp, out_unsigned), low, high).astype(np.int64)
        return narrow(result)

    def narrow(result: np.ndarray) -> np.ndarray:
        if out_unsigned:
            return result.astype(np.dtype(f"u{out_dtype.itemsize}")).view(out_dtype)
        return result.astype(out_dtype)

    constants = [constant_values(v) for v in (op.multiplier, op.shift, op.input_zp,
                                                op.output_zp)]
    if any(c is None for c in constants):
        return rescale
    # Constant multiplier, shift and zero points (what the conversions emit): prepared once.
    multipliers = np.array(constants[0], np.int64)
    shifts = np.array(constants[1], np.int64)
    if shifts.size and (shifts.min() < 2 or shifts.max() > 62):
        return rescale  # raises at run time, as the general path
    if not per_channel:
        multipliers, shifts = multipliers.reshape(()), shifts.reshape(())
    rounding = np.left_shift(np.int64(1), shifts - 1)
    adjust = np.where(shifts > 31, np.int64(1 << 30), np.int64(0)) if double_round else 0
    up, down = rounding + adjust, rounding - adjust
    in_bits, out_bits_zp = _dtype(op.input_zp).itemsize * 8, _dtype(op.output_zp).itemsize * 8
    in_zp = int(constants[2][0]) & ((1 << in_bits) - 1) if in_unsigned else int(constants[2][0])
    out_zp = int(constants[3][0]) & ((1 << out_bits_zp) - 1) if out_unsigned \
        else int(constants[3][0])
    # |x - zp| < 2**17 for 8 / 16-bit inputs: the products cannot overflow int64
    wide_input = _dtype(op.input).itemsize > 2
    bound = int(multipliers.max(initial=0)), int(np.max(up, initial=0))
    floor, ceiling = np.int64(low), np.int64(high)

    def rescale_constant(x: np.ndarray, multiplier: np.ndarray, shift: np.ndarray,
                         input_zp: np.ndarray, output_zp: np.ndarray) -> np.ndarray:
        value = widen(x, in_unsigned)
        if in_zp:
            value -= in_zp
        if wide_input and value.size and \
                int(np.abs(value).max()) * bound[0] + bound[1] >= 1 << 62:
            return rescale(x, multiplier, shift, input_zp, output_zp)
        scaled = value * multipliers
        scaled += np.where(value >= 0, up, down) if double_round else rounding
        scaled >>= shifts
        if out_zp:
            scaled += out_zp
        np.maximum(scaled, floor, out=scaled)  # np.clip with Python bounds is slower
        return narrow(np.minimum(scaled, ceiling, out=scaled))

    return rescale_constant


@_builds(NegateOp)
def _negate_kernel(op: NegateOp) -> Kernel:
    dtype = _dtype(op.output)
    if _is_float(dtype):

        def negate_float(x: np.ndarray, input_zp: np.ndarray, output_zp: np.ndarray):
            return np.negative(x)

        return negate_float

    info = np.iinfo(dtype)
    low, high = np.int64(info.min), np.int64(info.max)

    def negate_int(x: np.ndarray, input_zp: np.ndarray, output_zp: np.ndarray) -> np.ndarray:
        # -(x - input_zp) + output_zp in 64 bits, saturated to the element type.
        offset = np.int64(int(input_zp[0]) + int(output_zp[0]))
        acc = np.subtract(offset, x, dtype=np.int64)
        np.maximum(acc, low, out=acc)
        np.minimum(acc, high, out=acc)
        return acc.astype(dtype)

    return negate_int


_EXP_ARG_MAX = {_F32: np.float32(88.72), _F64: np.float64(709.7)}
"""Largest arguments of `exp` that do not overflow (to the nearest 0.01)."""


@_builds(SigmoidOp)
def _sigmoid_kernel(op: SigmoidOp) -> Kernel:
    dtype = _dtype(op.output)
    compute = _compute_dtype(dtype)
    arg_max, one = _EXP_ARG_MAX[compute], compute.type(1)

    def sigmoid(x: np.ndarray) -> np.ndarray:
        t = np.negative(x, dtype=compute)
        if t.size == 1:  # numpy's in-place ufuncs cost twice as much on one element
            t = one / (one + np.exp(np.minimum(t, arg_max)))
            return t.astype(dtype, copy=False)
        np.minimum(t, arg_max, out=t)
        np.exp(t, out=t)
        t += one
        np.reciprocal(t, out=t)
        return t.astype(dtype, copy=False)

    return sigmoid


@_builds(RsqrtOp)
def _rsqrt_kernel(op: RsqrtOp) -> Kernel:
    dtype = _dtype(op.output)
    compute = _compute_dtype(dtype)

    def rsqrt(x: np.ndarray) -> np.ndarray:
        t = np.sqrt(x, dtype=compute)
        np.reciprocal(t, out=t)
        return t.astype(dtype, copy=False)

    return rsqrt


# erf: the Taylor series for |x| < 1 (relative error < 1e-9), Abramowitz & Stegun 7.1.26
# elsewhere (absolute error < 1.5e-7, relative < 1.8e-7 as |erf(x)| > 0.84 there).
_ERF_SERIES = tuple(
    (-1) ** n / (math.factorial(n) * (2 * n + 1)) * 2 / math.sqrt(math.pi) for n in range(14)
)
_AS_P = 0.3275911
_AS_A = (0.254829592, -0.284496736, 1.421413741, -1.453152027, 1.061405429)


def erf_f64(x: np.ndarray) -> np.ndarray:
    """erf of an f64 array, to within 1.5e-7 (see the module docstring)."""
    ax = np.abs(x)
    x2 = np.square(x)
    series = np.full_like(x, _ERF_SERIES[-1])
    for c in reversed(_ERF_SERIES[:-1]):
        series *= x2
        series += c
    series *= x
    u = 1.0 / (1.0 + _AS_P * ax)
    poly = np.full_like(x, _AS_A[-1])
    for a in reversed(_AS_A[:-1]):
        poly *= u
        poly += a
    poly *= u
    tail = 1.0 - poly * np.exp(-x2)
    return np.where(ax < 1.0, series, np.copysign(tail, x))


@_builds(ErfOp)
def _erf_kernel(op: ErfOp) -> Kernel:
    dtype = _dtype(op.output)

    def erf(x: np.ndarray) -> np.ndarray:
        return erf_f64(x.astype(_F64)).astype(dtype, copy=False)

    return erf


# ---------------------------------------------------------------------------------------
# tosa.cast
# ---------------------------------------------------------------------------------------


@_builds(CastOp)
def _cast_kernel(op: CastOp) -> Kernel:
    src, dst = _dtype(op.input), _dtype(op.output)
    if _is_float(src) and dst.kind == "i":
        return _float_to_int(dst)
    if dst == _BF16 and src in (np.dtype(np.int32), np.dtype(np.int64), _F64):
        return _to_bf16_rounded_once
    # bool -> anything is 0 / 1, anything -> bool is `!= 0`, integers wrap or sign-extend,
    # other conversions to floating-point round to nearest even.

    def cast(x: np.ndarray) -> np.ndarray:
        return x.astype(dst)

    return cast


def _float_to_int(dst: np.dtype) -> Kernel:
    """Round half to even, saturate, NaN -> 0."""
    info = np.iinfo(dst)
    low = np.float64(info.min)  # -2**(bits-1) is exact in f64
    wide = dst.itemsize == 8
    # The largest f64 not above info.max: 2**63 - 1 is not an f64, 2**63 - 1024 is.
    high = np.nextafter(np.float64(2.0**63), 0.0) if wide else np.float64(info.max)

    def cast(x: np.ndarray) -> np.ndarray:
        t = x.astype(_F64)
        np.rint(t, out=t)
        np.copyto(t, 0.0, where=np.isnan(t))
        result = np.clip(t, low, high).astype(dst)
        if wide:
            np.copyto(result, info.max, where=t > high)
        return result

    return cast


def _to_bf16_rounded_once(x: np.ndarray) -> np.ndarray:
    """Round to nearest even bf16 without double rounding through f32.

    ml_dtypes converts i32 / i64 / f64 to bf16 via f32, rounding twice. Rounding to f32
    *to odd* first (truncate, then set the last bit if inexact) makes the second rounding
    exact, as f32 has more than two extra bits of precision.
    """
    wide = x.astype(_F64)
    narrow = wide.astype(_F32)
    back = narrow.astype(_F64)
    toward_zero = np.where(np.abs(back) > np.abs(wide), np.nextafter(narrow, _F32.type(0)), narrow)
    inexact = (toward_zero.astype(_F64) != wide) & ~np.isnan(wide)
    bits = toward_zero.view(np.uint32) | inexact.astype(np.uint32)
    return bits.view(_F32).astype(_BF16)


# ---------------------------------------------------------------------------------------
# Interpreter functions
# ---------------------------------------------------------------------------------------


@_KERNELS.impls
class TosaElementwiseFunctions(InterpreterFunctions):
    """numpy implementations of the TOSA elementwise operators (see the module docstring):
    every op runs its kernel."""
