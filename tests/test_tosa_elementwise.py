"""The TOSA 1.0 elementwise operators: syntax, verifiers, builders, and the numpy impls
against independent goldens (Python integers, `math`, exact rationals), plus hypothesis
property tests for broadcasting, wrap-around and rounding, and (marked `peers`) upstream
`tosa-opt` and the TOSA reference model as oracles.
"""

from __future__ import annotations

import functools
import io
import math
import re
from collections.abc import Callable, Sequence
from fractions import Fraction
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, f32, i1, i8
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.tosa import NanMode as NanModeEnum
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Block, Region
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tosa_state import make_context
from tosa_state.diagnostics import InferenceError
from tosa_state.dialects.tosa.elementwise import (
    CAST_PAIRS,
    ELEMENTWISE_OPS,
    SPEC_CAST_PAIRS,
    AddOp,
    CastOp,
    ClampOp,
    EqualOp,
    MaximumOp,
    MulOp,
    NegateOp,
    SelectOp,
    SigmoidOp,
    broadcast_shape,
)
from tosa_state.dtypes import dense_to_numpy, element_type, numpy_dtype
from tosa_state.interpreter.tosa_elementwise import TosaElementwiseFunctions, erf_f64, kernel

# The goldens compute with numpy casts that overflow on purpose (e.g. 1e300 -> f32).
pytestmark = pytest.mark.filterwarnings("ignore::RuntimeWarning")

CTX = make_context()
BF16 = np.dtype(ml_dtypes.bfloat16)
F16, F32, F64 = np.dtype(np.float16), np.dtype(np.float32), np.dtype(np.float64)
I8, I16, I32, I64 = (np.dtype(t) for t in (np.int8, np.int16, np.int32, np.int64))
BOOL = np.dtype(np.bool_)
INTS = [I8, I16, I32, I64]
HALF_AND_SINGLE = [F16, BF16, F32]


# ---------------------------------------------------------------------------------------
# Helpers: build a one-op function, run it, compare
# ---------------------------------------------------------------------------------------


def tensor_type(shape: Sequence[int], dtype: np.dtype) -> str:
    return f"tensor<{''.join(f'{d}x' for d in shape)}{element_type(dtype)}>"


def parse(text: str) -> ModuleOp:
    module = Parser(CTX, text).parse_module()
    module.verify()
    return module


def print_module(module: ModuleOp, generic: bool = False) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(module)
    return stream.getvalue()


@register_impls
class _ConstFunctions(InterpreterFunctions):
    """`tosa.const` for these tests only (the tensor operators live elsewhere)."""

    @impl(CTX.get_op("tosa.const"))
    def run_const(self, interpreter: Interpreter, op: Any, args: PythonValues) -> PythonValues:
        return (dense_to_numpy(op.values),)


@functools.lru_cache(maxsize=512)
def _interpreter(text: str) -> Interpreter:
    interpreter = Interpreter(parse(text))
    for functions in (FuncFunctions(), TosaElementwiseFunctions(), _ConstFunctions()):
        interpreter.register_implementations(functions)
    return interpreter


def run_text(text: str, *inputs: np.ndarray) -> tuple[np.ndarray, ...]:
    """Run `@f` of `text` on read-only copies of `inputs`, checking each output is a fresh
    array that does not alias an input."""
    frozen = []
    for array in inputs:
        array = np.array(array, copy=True)
        array.flags.writeable = False
        frozen.append(array)
    # IEEE special cases (overflow to inf, log(0), NaN operands) are part of the tested
    # semantics; runners evaluate a whole model under one errstate, and so do we.
    with np.errstate(all="ignore"):
        outputs = _interpreter(text).call_op("f", tuple(frozen))
    for output in outputs:
        assert isinstance(output, np.ndarray), type(output)
        assert not any(np.shares_memory(output, a) for a in frozen)
    return outputs


def op_text(
    op: str,
    inputs: Sequence[np.ndarray],
    result_dtype: np.dtype,
    result_shape: Sequence[int],
    attrs: str = "",
) -> str:
    arg_types = [tensor_type(a.shape, a.dtype) for a in inputs]
    result = tensor_type(result_shape, result_dtype)
    args = ", ".join(f"%a{i}: {t}" for i, t in enumerate(arg_types))
    operands = ", ".join(f"%a{i}" for i in range(len(inputs)))
    attrs = f" {{{attrs}}}" if attrs else ""
    return (
        f"func.func @f({args}) -> {result} {{\n"
        f"  %r = tosa.{op} {operands}{attrs} : ({', '.join(arg_types)}) -> {result}\n"
        f"  func.return %r : {result}\n}}\n"
    )


def run(
    op: str,
    *inputs: Any,
    dtype: np.dtype | None = None,
    shape: Sequence[int] | None = None,
    attrs: str = "",
) -> np.ndarray:
    """Run `tosa.<op>` on `inputs`; the result type is `dtype` (default: the first input's)
    and `shape` (default: numpy's broadcast of the inputs). Checks the result's dtype/shape."""
    arrays = [np.asarray(a) for a in inputs]
    dtype = np.dtype(dtype) if dtype is not None else arrays[0].dtype
    if shape is None:
        shape = np.broadcast_shapes(*(a.shape for a in arrays))
    (result,) = run_text(op_text(op, arrays, dtype, shape, attrs), *arrays)
    assert result.dtype == dtype, (result.dtype, dtype)
    assert result.shape == tuple(shape), (result.shape, shape)
    return result


def wrap(values: Any, dtype: np.dtype) -> np.ndarray:
    """Python integers reduced modulo 2**bits into `dtype` (two's complement)."""
    info = np.iinfo(dtype)
    span = 1 << info.bits
    objects = np.asarray(values, dtype=object)  # no float64 detour for huge Python ints
    flat = [((int(v) - info.min) % span) + info.min for v in objects.ravel()]
    return np.array(flat, dtype=dtype).reshape(objects.shape)


def ordered(a: np.ndarray) -> np.ndarray:
    """Float bits mapped to integers that are consecutive for consecutive floats."""
    bits = a.view({2: np.int16, 4: np.int32, 8: np.int64}[a.dtype.itemsize]).astype(np.int64)
    return np.where(bits < 0, -(bits & ((1 << (8 * a.dtype.itemsize - 1)) - 1)), bits)


def assert_ulps(actual: np.ndarray, expected: np.ndarray, max_ulps: int = 0) -> None:
    assert actual.dtype == expected.dtype and actual.shape == expected.shape
    nan = np.isnan(expected.astype(F64))
    np.testing.assert_array_equal(np.isnan(actual.astype(F64)), nan)
    diff = np.abs(ordered(actual) - ordered(expected))[~nan]
    assert diff.size == 0 or diff.max() <= max_ulps, (
        f"{diff.max()} ulps apart:\n{actual}\n{expected}"
    )


_INF_VALUE = {F16: Fraction(2**16), BF16: Fraction(2**128), F32: Fraction(2**128)}
"""Where the first value beyond the largest finite one would lie (rounding to inf)."""


def round_exact(value: Fraction | float | int, dtype: np.dtype) -> np.generic:
    """The value of `dtype` nearest to the exact `value`, ties to even (the golden of every
    rounding conversion): a candidate from numpy and its neighbours, compared exactly."""
    if isinstance(value, float) and (math.isnan(value) or math.isinf(value)):
        return dtype.type(value)
    exact = Fraction(value)
    sign, magnitude = (-1 if exact < 0 else 1), abs(exact)
    bits_type = {2: np.uint16, 4: np.uint32}[dtype.itemsize]
    guess = np.array([float(magnitude)], dtype=F64).astype(dtype).view(bits_type)[0]
    best: tuple[Fraction, int, int] | None = None
    for bits in (int(guess) - 1, int(guess), int(guess) + 1):
        if bits < 0:
            continue
        candidate = np.array([bits], dtype=bits_type).view(dtype)[0]
        if np.isnan(candidate):
            continue
        number = _INF_VALUE[dtype] if np.isinf(candidate) else Fraction(float(candidate))
        key = (abs(number - magnitude), bits & 1, bits)
        if best is None or key < best:
            best = key
    assert best is not None
    result = np.array([best[2]], dtype=bits_type).view(dtype)[0]
    return dtype.type(-float(result)) if sign < 0 else result


def golden_map(fn: Callable[[float], float], x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """`fn` per element in f64 (Python floats), each result rounded once to `dtype`."""
    values = [fn(float(v)) for v in np.ravel(x.astype(F64))]
    return np.array([round_exact(v, dtype) for v in values], dtype=dtype).reshape(x.shape)


# ---------------------------------------------------------------------------------------
# Syntax: custom and generic forms
# ---------------------------------------------------------------------------------------

SAMPLE = """
func.func @f(%a: tensor<2x4xf32>, %b: tensor<1x4xf32>, %i: tensor<2x4xi32>, %q: tensor<3xi8>,
             %p: tensor<2x4xi1>, %s: tensor<1xi8>, %zf: tensor<1xf32>, %zq: tensor<1xi8>,
             %c: tensor<2x1xi1>, %h: tensor<f16>, %i1: tensor<1xi32>, %t: tensor<256xi8>) {
  %0 = tosa.clamp %a {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.clamp %q {max_val = 1 : i8, min_val = -1 : i8, nan_mode = IGNORE} : (tensor<3xi8>) -> tensor<3xi8>
  %2 = tosa.sigmoid %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %3 = tosa.tanh %h : (tensor<f16>) -> tensor<f16>
  %4 = tosa.erf %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %5 = tosa.add %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %6 = tosa.sub %b, %a : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  %7 = tosa.mul %i, %i, %s : (tensor<2x4xi32>, tensor<2x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>
  %8 = tosa.pow %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %9 = tosa.maximum %a, %b {nan_mode = IGNORE} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %10 = tosa.minimum %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %11 = tosa.intdiv %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %12 = tosa.logical_and %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %13 = tosa.logical_or %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %14 = tosa.logical_xor %p, %p : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %15 = tosa.bitwise_and %q, %q : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %16 = tosa.bitwise_or %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %17 = tosa.bitwise_xor %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %18 = tosa.abs %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %19 = tosa.exp %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %20 = tosa.log %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %21 = tosa.negate %q, %zq, %zq : (tensor<3xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<3xi8>
  %22 = tosa.negate %a, %zf, %zf : (tensor<2x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4xf32>
  %23 = tosa.reciprocal %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %24 = tosa.rsqrt %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %25 = tosa.logical_not %p : (tensor<2x4xi1>) -> tensor<2x4xi1>
  %26 = tosa.floor %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %27 = tosa.ceil %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %28 = tosa.select %c, %a, %b : (tensor<2x1xi1>, tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %29 = tosa.equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %30 = tosa.greater %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi1>
  %31 = tosa.greater_equal %a, %b : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %32 = tosa.cast %a : (tensor<2x4xf32>) -> tensor<2x4xbf16>
  %33 = tosa.mul %q, %q, %s : (tensor<3xi8>, tensor<3xi8>, tensor<1xi8>) -> tensor<3xi32>
  %34 = tosa.sin %a : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %35 = tosa.cos %h : (tensor<f16>) -> tensor<f16>
  %36 = tosa.bitwise_not %q : (tensor<3xi8>) -> tensor<3xi8>
  %37 = tosa.clz %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %38 = tosa.logical_left_shift %i, %i : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %39 = tosa.logical_right_shift %q, %q : (tensor<3xi8>, tensor<3xi8>) -> tensor<3xi8>
  %40 = tosa.arithmetic_right_shift %i, %i {round = true} : (tensor<2x4xi32>, tensor<2x4xi32>) -> tensor<2x4xi32>
  %41 = tosa.rescale %i, %i1, %s, %i1, %s {input_unsigned = false, output_unsigned = false, per_channel = false, rounding_mode = DOUBLE_ROUND, scale32 = true} : (tensor<2x4xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<2x4xi8>
  %42 = tosa.table %q, %t : (tensor<3xi8>, tensor<256xi8>) -> tensor<3xi8>
  return
}
"""

OP_LINE = re.compile(r"= (tosa\.\w+ .*)")


def op_lines(text: str) -> list[str]:
    """The op lines of `text` with SSA names erased."""
    return [re.sub(r"%[\w]+", "%", m.group(1)) for m in OP_LINE.finditer(text)]


def test_sample_covers_every_op() -> None:
    names = {op.name for op in parse(SAMPLE).walk()}
    assert {op.name for op in ELEMENTWISE_OPS} <= names


def test_custom_form_prints_as_written() -> None:
    printed = print_module(parse(SAMPLE))
    assert op_lines(printed) == op_lines(SAMPLE)
    assert print_module(parse(printed)) == printed


def test_generic_form_round_trips() -> None:
    module = parse(SAMPLE)
    generic = print_module(module, generic=True)
    assert '"tosa.maximum"' in generic and "#tosa.nan_mode<IGNORE>" in generic
    reparsed = parse(generic)
    assert print_module(reparsed) == print_module(module)


def test_nan_mode_spellings() -> None:
    text = """
    func.func @f(%a: tensor<4xf32>) {
      %0 = tosa.maximum %a, %a {nan_mode = #tosa.nan_mode<IGNORE>} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %1 = tosa.maximum %a, %a {nan_mode = PROPAGATE} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      %2 = "tosa.minimum"(%a, %a) <{nan_mode = #tosa.nan_mode<PROPAGATE>}> : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
      return
    }
    """
    module = parse(text)
    ops = [op for op in module.walk() if isinstance(op, MaximumOp) or op.name == "tosa.minimum"]
    assert [op.ignores_nan for op in ops] == [True, False, False]  # type: ignore[attr-defined]
    assert op_lines(print_module(module)) == [
        "tosa.maximum %, % {nan_mode = IGNORE} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
        "tosa.maximum %, % : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
        "tosa.minimum %, % : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>",
    ]


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
def test_upstream_tosa_opt_prints_our_output_unchanged() -> None:
    from peers.upstream_mlir import tosa_opt

    ours = print_module(parse(SAMPLE))
    theirs = tosa_opt(ours)
    assert op_lines(theirs) == op_lines(ours)
    # ... and its generic form (with default nan_mode spelled out) parses here, too.
    generic = tosa_opt(ours, "--mlir-print-op-generic")
    assert "#tosa.nan_mode<PROPAGATE>" in generic
    assert op_lines(print_module(parse(generic))) == op_lines(ours)
    assert parse(generic).is_structurally_equivalent(parse(SAMPLE))


# ---------------------------------------------------------------------------------------
# Builders
# ---------------------------------------------------------------------------------------


def _block_args(*types: Any) -> Block:
    return Block(arg_types=types)


def test_builders_infer_result_types() -> None:
    block = _block_args(
        TensorType(f32, [2, 1]),
        TensorType(f32, [1, 3]),
        TensorType(i8, [3]),
        TensorType(i8, [1]),
        TensorType(i1, [2, 3]),
    )
    a, b, q, s, c = block.args
    ops = [
        AddOp(a, b),
        EqualOp(a, b),
        MulOp(q, q, s),
        MaximumOp(a, b, nan_mode=NanModeEnum.IGNORE),
        SelectOp(c, a, b),
        CastOp(q, f32),
        ClampOp(a, 0, 6),
        ClampOp(q, -1, 1),
        NegateOp(q, s, s),
        SigmoidOp(a),
    ]
    for op in ops:
        block.add_op(op)
    assert [str(op.results[0].type) for op in ops] == [
        "tensor<2x3xf32>",
        "tensor<2x3xi1>",
        "tensor<3xi32>",
        "tensor<2x3xf32>",
        "tensor<2x3xf32>",
        "tensor<3xf32>",
        "tensor<2x1xf32>",
        "tensor<3xi8>",
        "tensor<3xi8>",
        "tensor<2x1xf32>",
    ]
    assert ops[3].ignores_nan  # type: ignore[attr-defined]
    assert str(ops[6].properties["max_val"]) == "6.000000e+00 : f32"
    assert str(ops[7].properties["min_val"]) == "-1 : i8"
    block.add_op(ReturnOp())
    ModuleOp([FuncOp("f", ([t.type for t in block.args], []), Region(block))]).verify()
    with pytest.raises(ValueError, match="not broadcast-compatible"):
        AddOp(a, q)


def test_broadcast_shape() -> None:
    assert broadcast_shape([(2, 1, 3), (1, 4, 3)]) == (2, 4, 3)
    assert broadcast_shape([(), ()]) == ()
    dyn = DYNAMIC_INDEX
    assert broadcast_shape([(dyn, 1), (3, 1), (1, 1)]) == (3, 1)
    assert broadcast_shape([(dyn,), (1,)]) == (dyn,)
    assert broadcast_shape([(dyn,), (dyn,)]) == (dyn,)
    assert broadcast_shape([(0,), (1,)]) == (0,)
    assert broadcast_shape([(2,), (3,)]) is None
    assert broadcast_shape([(2,), (1, 2)]) is None


def test_cast_pairs_contain_the_specification() -> None:
    assert SPEC_CAST_PAIRS <= CAST_PAIRS
    assert all(src != dst for src, dst in CAST_PAIRS)
    assert (F16, BF16) not in {(numpy_dtype(s), numpy_dtype(d)) for s, d in CAST_PAIRS}


def test_verifier_raises_verify_exception() -> None:
    """The messages themselves are checked by lit_tests/tosa/elementwise_invalid.mlir."""
    text = op_text("add", [np.zeros((2,), F32), np.zeros((3,), F32)], F32, (2,))
    with pytest.raises(VerifyException, match="operands don't have broadcast-compatible shapes"):
        parse(text)


# ---------------------------------------------------------------------------------------
# Integer arithmetic: wrap-around, widening, shift rounding, division, negate
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_add_sub_wrap_around(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    a = np.array([info.max, info.min, -1, 0, 7], dtype=dtype)
    b = np.array([1, -1, info.min, info.max, -9], dtype=dtype)
    pa, pb = a.astype(object), b.astype(object)
    np.testing.assert_array_equal(run("add", a, b), wrap(pa + pb, dtype))
    np.testing.assert_array_equal(run("sub", a, b), wrap(pa - pb, dtype))
    np.testing.assert_array_equal(run("mul", a, b, np.zeros(1, I8)), wrap(pa * pb, dtype))


@pytest.mark.parametrize("dtype", [I8, I16], ids=str)
def test_mul_widens_to_i32(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    a = np.array([info.min, info.max, -3, info.min], dtype=dtype)
    b = np.array([info.min, info.max, 5, info.max], dtype=dtype)
    result = run("mul", a, b, np.zeros(1, I8), dtype=I32)
    np.testing.assert_array_equal(result, [int(x) * int(y) for x, y in zip(a, b, strict=True)])


def golden_mul_shift(a: np.ndarray, b: np.ndarray, shift: int) -> np.ndarray:
    products = [int(x) * int(y) for x, y in zip(np.ravel(a), np.ravel(b), strict=True)]
    if shift:
        products = [(p + (1 << (shift - 1))) >> shift for p in products]
    return wrap(products, I32).reshape(a.shape)


@pytest.mark.parametrize("shift", [0, 1, 2, 15, 31, 40, 63])
def test_mul_i32_shift_rounds_half_up(shift: int) -> None:
    a = np.array([1, 3, -3, 5, -5, 7, 2**31 - 1, -(2**31), 123456789, -7], dtype=I32)
    b = np.array([1, 1, 1, 3, 3, -7, 2**31 - 1, -(2**31), 987654321, 2], dtype=I32)
    result = run("mul", a, b, np.array([shift], I8))
    np.testing.assert_array_equal(result, golden_mul_shift(a, b, shift))


def test_mul_shift_examples() -> None:
    # (a*b + 1) >> 1: 3 -> 2, -3 -> -1, 5*3=15 -> 8, -15 -> -7 (round half up)
    a = np.array([3, -3, 15, -15, 1, -1], dtype=I32)
    result = run("mul", a, np.ones(6, I32), np.array([1], I8))
    np.testing.assert_array_equal(result, [2, -1, 8, -7, 1, 0])


def test_mul_float_ignores_shift_operand() -> None:
    a = np.array([1.5, -2.0], F32)
    np.testing.assert_array_equal(run("mul", a, a, np.array([0], I8)), [2.25, 4.0])


def test_mul_shift_out_of_range_at_run_time() -> None:
    a = np.ones(2, I32)
    with pytest.raises(InferenceError, match="shift must be in"):
        run("mul", a, a, np.array([-1], I8))


def trunc_div(x: int, y: int) -> int:
    """Integer division rounding toward zero, in Python integers."""
    quotient = abs(x) // abs(y)
    return quotient if (x < 0) == (y < 0) else -quotient


def test_intdiv_truncates_toward_zero() -> None:
    a = np.array([7, -7, 7, -7, 0, 1, -(2**31), 2**31 - 1, -(2**31)], dtype=I32)
    b = np.array([2, 2, -2, -2, 5, -3, 7, -1, -1], dtype=I32)
    np.testing.assert_array_equal(
        run("intdiv", a, b), [3, -3, -3, 3, 0, 0, -306783378, -(2**31 - 1), -(2**31)]
    )
    # The last one, INT_MIN / -1, wraps around (UNPREDICTABLE in the specification).
    expected = wrap([trunc_div(int(x), int(y)) for x, y in zip(a, b, strict=True)], I32)
    np.testing.assert_array_equal(run("intdiv", a, b), expected)


def test_intdiv_i64_and_broadcast() -> None:
    a = np.array([[2**62 + 1], [-(2**62) - 1]], dtype=I64)
    b = np.array([[3, -3]], dtype=I64)
    expected = [[(2**62 + 1) // 3, -((2**62 + 1) // 3)], [-((2**62 + 1) // 3), (2**62 + 1) // 3]]
    np.testing.assert_array_equal(run("intdiv", a, b), expected)


def test_intdiv_by_zero_is_an_error() -> None:
    with pytest.raises(InferenceError, match=r"'tosa\.intdiv' op division by zero"):
        run("intdiv", np.array([1, 2], I32), np.array([1, 0], I32))


def test_negate_int8_with_zero_points_saturates() -> None:
    x = np.array([-128, -1, 0, 1, 127, 100], dtype=I8)
    for zp_in, zp_out in [(0, 0), (-128, -128), (5, -3), (127, 127)]:
        result = run("negate", x, np.array([zp_in], I8), np.array([zp_out], I8))
        expected = np.clip([-(int(v) - zp_in) + zp_out for v in x], -128, 127)
        np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype", [I16, I32], ids=str)
def test_negate_wide_ints_saturate(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, info.max, 0, -5], dtype=dtype)
    zero = np.zeros(1, dtype)
    np.testing.assert_array_equal(run("negate", x, zero, zero), [info.max, -info.max, 0, 5])


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_negate_float(dtype: np.dtype) -> None:
    x = np.array([1.5, -0.0, np.inf, np.nan], dtype=dtype)
    zero = np.zeros(1, dtype)
    result = run("negate", x, zero, zero)
    assert_ulps(result, np.array([-1.5, 0.0, -np.inf, np.nan], dtype=dtype))
    assert not np.signbit(result[1].astype(F32))


@pytest.mark.parametrize("dtype", INTS + HALF_AND_SINGLE, ids=str)
def test_abs(dtype: np.dtype) -> None:
    if dtype.kind == "i":
        info = np.iinfo(dtype)
        x = np.array([info.min, info.min + 1, -1, 0, info.max], dtype=dtype)
        np.testing.assert_array_equal(run("abs", x), [info.min, info.max, 1, 0, info.max])
    else:
        x = np.array([-0.0, -1.5, 2.0, -np.inf, np.nan], dtype=dtype)
        result = run("abs", x)
        assert_ulps(result, np.array([0.0, 1.5, 2.0, np.inf, np.nan], dtype=dtype))
        assert not np.signbit(result[0].astype(F32))


@pytest.mark.parametrize("op", ["bitwise_and", "bitwise_or", "bitwise_xor"])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_bitwise(op: str, dtype: np.dtype) -> None:
    a = np.array([0b1100, -1, 0, 0x55], dtype=dtype)
    b = np.array([0b1010, 7, -1, 0x0F], dtype=dtype)
    fn = {"bitwise_and": int.__and__, "bitwise_or": int.__or__, "bitwise_xor": int.__xor__}[op]
    expected = wrap([fn(int(x), int(y)) for x, y in zip(a, b, strict=True)], dtype)
    np.testing.assert_array_equal(run(op, a, b), expected)


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_bitwise_not(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    x = np.array([0, -1, 1, 0x55, info.min, info.max], dtype=dtype)
    np.testing.assert_array_equal(run("bitwise_not", x), wrap([~int(v) for v in x], dtype))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_clz_counts_leading_zero_bits(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    bits = info.bits
    x = np.array([0, 1, 2, 3, info.max, -1, info.min, 0x40], dtype=dtype)
    expected = [bits - (int(v) & ((1 << bits) - 1)).bit_length() for v in x]
    np.testing.assert_array_equal(run("clz", x), np.array(expected, dtype=dtype))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_logical_shifts_drop_bits_and_shift_in_zeros(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    bits, mask = info.bits, (1 << info.bits) - 1
    value = np.array([1, -1, info.min, info.max, 0x35, -100, 7, -7], dtype=dtype)
    amount = np.array([0, 1, 3, 7, bits - 1, bits - 2, bits // 2, 5], dtype=dtype)
    left = [(int(v) << int(s)) & mask for v, s in zip(value, amount, strict=True)]
    right = [(int(v) & mask) >> int(s) for v, s in zip(value, amount, strict=True)]
    np.testing.assert_array_equal(run("logical_left_shift", value, amount), wrap(left, dtype))
    np.testing.assert_array_equal(run("logical_right_shift", value, amount), wrap(right, dtype))


@pytest.mark.parametrize("rounding", [False, True])
@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_arithmetic_right_shift_rounds_half_up(dtype: np.dtype, rounding: bool) -> None:
    info = np.iinfo(dtype)
    bits = info.bits
    value = np.array([5, 8, -1, 7, -7, info.min, info.max, -6, 6], dtype=dtype)
    amount = np.array([0, 1, 3, 1, 1, bits - 1, bits - 1, 2, 2], dtype=dtype)

    def spec(v: int, s: int) -> int:  # TOSA 1.0 ARITHMETIC_RIGHT_SHIFT
        result = v >> s
        if rounding and s > 0 and (v >> (s - 1)) & 1:
            result += 1
        return result

    expected = [spec(int(v), int(s)) for v, s in zip(value, amount, strict=True)]
    result = run("arithmetic_right_shift", value, amount, attrs=f"round = {str(rounding).lower()}")
    np.testing.assert_array_equal(result, np.array(expected, dtype=dtype))


def test_arithmetic_right_shift_parses_both_upstream_forms() -> None:
    """`{round = true}` (tosa-opt, and how we print) and `round(true)` (newer upstream)."""
    template = """
    func.func @f(%a: tensor<2xi32>) -> tensor<2xi32> {
      %0 = tosa.arithmetic_right_shift %a, %a ROUND : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
      return %0 : tensor<2xi32>
    }
    """
    printed = {print_module(parse(template.replace("ROUND", form)))
               for form in ("{round = true}", "round(true)")}
    assert len(printed) == 1
    assert "{round = true}" in printed.pop()


@pytest.mark.parametrize("op", ["logical_left_shift", "logical_right_shift",
                                "arithmetic_right_shift"])
@pytest.mark.parametrize(("dtype", "amount"), [(I32, -1), (I32, 32), (I8, 8), (I64, 64)], ids=str)
def test_shift_amount_out_of_range_is_an_error(op: str, dtype: np.dtype, amount: int) -> None:
    """The spec REQUIREs 0 <= shift < width (the reference model stops otherwise)."""
    value, shift = np.array([1, 2], dtype), np.array([1, amount], dtype)
    width = np.iinfo(dtype).bits
    message = rf"'tosa\.{op}' op shift amount out of range \[0, {width - 1}\]"
    attrs = "round = false" if op == "arithmetic_right_shift" else ""
    with pytest.raises(InferenceError, match=message):
        run(op, value, shift, attrs=attrs)


TABLE_TEXT = """
func.func @f(%x: tensor<6xi8>, %t: tensor<256xi8>, %y: tensor<7xi16>, %u: tensor<513xi16>)
    -> (tensor<6xi8>, tensor<7xi32>) {
  %0 = tosa.table %x, %t : (tensor<6xi8>, tensor<256xi8>) -> tensor<6xi8>
  %1 = tosa.table %y, %u : (tensor<7xi16>, tensor<513xi16>) -> tensor<7xi32>
  return %0, %1 : tensor<6xi8>, tensor<7xi32>
}
"""


def table_inputs() -> list[np.ndarray]:
    rng = np.random.default_rng(8)
    return [np.array([-128, -1, 0, 1, 5, 127], I8),
            rng.integers(-128, 128, 256).astype(I8),
            np.array([-32768, -32767, -129, 0, 127, 128, 32767], np.int16),
            rng.integers(-32768, 32768, 513).astype(np.int16)]


def test_table_looks_up_and_interpolates() -> None:
    x, t, y, u = table_inputs()
    got_i8, got_i16 = run_text(TABLE_TEXT, x, t, y, u)
    np.testing.assert_array_equal(got_i8, [t[int(v) + 128] for v in x])
    expected = []
    for v in y:  # TOSA 1.0 TABLE for i16, in Python integers
        index, fraction = (int(v) + 32768) >> 7, (int(v) + 32768) & 0x7F
        base, following = int(u[index]), int(u[index + 1])
        expected.append((base << 7) + (following - base) * fraction)
    np.testing.assert_array_equal(got_i16, np.array(expected, np.int32))


@pytest.mark.peers
@pytest.mark.usefixtures("tosa_reference_tools")
def test_table_matches_the_tosa_reference_model() -> None:
    from peers.tosa_reference import run_reference

    inputs = table_inputs()
    (theirs,) = run_reference(TABLE_TEXT.replace("@f(", "@main(", 1), [inputs]).outputs
    for mine, reference in zip(run_text(TABLE_TEXT, *inputs), theirs, strict=True):
        np.testing.assert_array_equal(mine, reference)


# ---------------------------------------------------------------------------------------
# Floating-point arithmetic, min/max and NaN modes, clamp
# ---------------------------------------------------------------------------------------

FLOAT_BINARY: dict[str, Callable[[float, float], float]] = {
    "add": lambda x, y: x + y,
    "sub": lambda x, y: x - y,
    "maximum": max,
    "minimum": min,
}


@pytest.mark.parametrize("op", sorted(FLOAT_BINARY))
@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_float_binary_rounds_once(op: str, dtype: np.dtype) -> None:
    rng = np.random.default_rng(1)
    a = (rng.standard_normal((3, 5)) * 100).astype(dtype)
    b = (rng.standard_normal((1, 5)) * 3).astype(dtype)
    fn = FLOAT_BINARY[op]
    expected = np.array(
        [
            [
                round_exact(Fraction(fn(Fraction(float(x)), Fraction(float(y)))), dtype)
                for x, y in zip(row, b[0], strict=True)
            ]
            for row in a
        ],
        dtype=dtype,
    )
    assert_ulps(run(op, a, b), expected)


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_float_mul_and_pow(dtype: np.dtype) -> None:
    rng = np.random.default_rng(2)
    a = rng.uniform(0.1, 4, (2, 6)).astype(dtype)
    b = rng.uniform(-3, 3, (2, 6)).astype(dtype)
    exact = [
        Fraction(float(x)) * Fraction(float(y)) for x, y in zip(a.ravel(), b.ravel(), strict=False)
    ]
    expected = np.array([round_exact(v, dtype) for v in exact], dtype=dtype).reshape(a.shape)
    assert_ulps(run("mul", a, b, np.zeros(1, I8)), expected)
    assert_ulps(run("pow", a, b), golden_map_binary(math.pow, a, b, dtype), max_ulps=1)


@pytest.mark.parametrize("exponent, special", [(2.0, np.square), (0.5, np.sqrt), (3.0, np.power)])
def test_pow_by_constant(exponent: float, special: np.ufunc) -> None:
    """A constant exponent of 2 or 0.5 runs as `np.square` / `np.sqrt`, within 1 ulp of the
    exact power (squares exactly); an exponent that broadcasts `x` keeps `np.power`."""
    text = f"""
func.func @f(%x: tensor<3x4xf32>, %y: tensor<1x1xf32>) -> (tensor<3x4xf32>, tensor<2x1xf32>) {{
  %e = "tosa.const"() <{{values = dense<{exponent}> : tensor<1x1xf32>}}> : () -> tensor<1x1xf32>
  %e2 = "tosa.const"() <{{values = dense<{exponent}> : tensor<2x1xf32>}}> : () -> tensor<2x1xf32>
  %p = tosa.pow %x, %e : (tensor<3x4xf32>, tensor<1x1xf32>) -> tensor<3x4xf32>
  %b = tosa.pow %y, %e2 : (tensor<1x1xf32>, tensor<2x1xf32>) -> tensor<2x1xf32>
  func.return %p, %b : tensor<3x4xf32>, tensor<2x1xf32>
}}"""
    pows = [op for op in parse(text).walk() if op.name == "tosa.pow"]
    assert getattr(kernel(pows[0]), "ufunc", kernel(pows[0])) is special
    assert kernel(pows[1]) is np.power
    x = np.random.default_rng(3).uniform(0.01, 100, (3, 4)).astype(np.float32)
    p, b = run_text(text, x, np.full((1, 1), 2.0, np.float32))
    golden = golden_map_binary(math.pow, x, np.float32(exponent), np.dtype(np.float32))
    assert_ulps(p, golden, max_ulps=0 if special is np.square else 1)
    assert b.shape == (2, 1)
    assert_ulps(b, np.full((2, 1), 2.0**exponent, np.float32), max_ulps=1)


def golden_map_binary(
    fn: Callable[[float, float], float], a: np.ndarray, b: np.ndarray, dtype: np.dtype
) -> np.ndarray:
    a, b = np.broadcast_arrays(a, b)
    values = [fn(float(x), float(y)) for x, y in zip(a.ravel(), b.ravel(), strict=True)]
    return np.array([round_exact(v, dtype) for v in values], dtype=dtype).reshape(a.shape)


def test_float16_add_overflows_to_inf() -> None:
    a = np.array([65504.0, -65504.0], F16)
    assert_ulps(run("add", a, a), np.array([np.inf, -np.inf], F16))


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
@pytest.mark.parametrize("nan_mode", ["PROPAGATE", "IGNORE"])
def test_maximum_minimum_nan_modes(dtype: np.dtype, nan_mode: str) -> None:
    a = np.array([np.nan, 1.0, np.nan, -2.0, 3.0], dtype=dtype)
    b = np.array([5.0, np.nan, np.nan, -1.0, 3.0], dtype=dtype)
    attrs = f"nan_mode = {nan_mode}"
    if nan_mode == "PROPAGATE":
        expected_max = [np.nan, np.nan, np.nan, -1.0, 3.0]
        expected_min = [np.nan, np.nan, np.nan, -2.0, 3.0]
    else:
        expected_max = [5.0, 1.0, np.nan, -1.0, 3.0]
        expected_min = [5.0, 1.0, np.nan, -2.0, 3.0]
    with np.errstate(invalid="ignore"):
        assert_ulps(run("maximum", a, b, attrs=attrs), np.array(expected_max, dtype))
        assert_ulps(run("minimum", a, b, attrs=attrs), np.array(expected_min, dtype))


def test_maximum_minimum_integers_ignore_nan_mode() -> None:
    a = np.array([-(2**31), 5, 2**31 - 1], I32)
    b = np.array([0, -5, 0], I32)
    np.testing.assert_array_equal(
        run("maximum", a, b, attrs="nan_mode = IGNORE"), [0, 5, 2**31 - 1]
    )
    np.testing.assert_array_equal(run("minimum", a, b), [-(2**31), -5, 0])


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_clamp_float_nan_modes(dtype: np.dtype) -> None:
    x = np.array([-10.0, -0.5, 0.25, 7.0, np.nan, np.inf, -np.inf], dtype=dtype)
    ty = element_type(dtype)
    bounds = f"max_val = 6.0 : {ty}, min_val = -1.0 : {ty}"
    propagate = run("clamp", x, attrs=bounds)
    assert_ulps(propagate, np.array([-1.0, -0.5, 0.25, 6.0, np.nan, 6.0, -1.0], dtype))
    ignore = run("clamp", x, attrs=f"{bounds}, nan_mode = IGNORE")
    assert_ulps(ignore, np.array([-1.0, -0.5, 0.25, 6.0, -1.0, 6.0, -1.0], dtype))


@pytest.mark.parametrize("dtype", INTS, ids=str)
def test_clamp_int(dtype: np.dtype) -> None:
    info = np.iinfo(dtype)
    x = np.array([info.min, -6, -5, 0, 100, info.max], dtype=dtype)
    ty = element_type(dtype)
    result = run("clamp", x, attrs=f"max_val = 100 : {ty}, min_val = -5 : {ty}")
    np.testing.assert_array_equal(result, [-5, -5, -5, 0, 100, 100])


# ---------------------------------------------------------------------------------------
# Floating-point unary functions
# ---------------------------------------------------------------------------------------


def _sigmoid(x: float) -> float:
    return 1 / (1 + math.exp(-x)) if x > -700 else 0.0


def _rsqrt(x: float) -> float:
    return math.inf if x == 0 else 1 / math.sqrt(x)


UNARY: dict[str, tuple[Callable[[float], float], float, float, int]] = {
    # op: (golden, low, high, ulps allowed for f32; f16/bf16 allow 1)
    "exp": (math.exp, -20, 20, 2),  # numpy's SIMD expf is within 2 ulp
    "log": (math.log, 1e-3, 1e3, 1),
    "tanh": (math.tanh, -8, 8, 1),
    "sigmoid": (_sigmoid, -30, 30, 3),
    "reciprocal": (lambda x: 1 / x, 0.01, 100, 0),
    "rsqrt": (_rsqrt, 1e-3, 1e3, 1),
    "floor": (math.floor, -50, 50, 0),
    "ceil": (math.ceil, -50, 50, 0),
    "sin": (math.sin, -10, 10, 2),
    "cos": (math.cos, -10, 10, 2),
}


@pytest.mark.parametrize("op", sorted(UNARY))
@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_float_unary_against_math(op: str, dtype: np.dtype) -> None:
    golden, low, high, ulps = UNARY[op]
    x = np.linspace(low, high, 301).astype(dtype)
    allowed = ulps if dtype == F32 else min(ulps, 1)
    assert_ulps(run(op, x), golden_map(golden, x, dtype), max_ulps=allowed)


def test_float_unary_special_values() -> None:
    with np.errstate(all="ignore"):
        x = np.array([0.0, -0.0, -1.0, np.inf, -np.inf, np.nan], F32)
        assert_ulps(
            run("log", x), np.array([-np.inf, -np.inf, np.nan, np.inf, np.nan, np.nan], F32)
        )
        expected = np.array([1, 1, math.exp(-1), np.inf, 0, np.nan], F32)
        assert_ulps(run("exp", x), expected, max_ulps=2)
        assert_ulps(run("reciprocal", x), np.array([np.inf, -np.inf, -1, 0, -0.0, np.nan], F32))
        assert_ulps(run("rsqrt", x), np.array([np.inf, -np.inf, np.nan, 0, np.nan, np.nan], F32))
        assert_ulps(run("tanh", x), np.array([0, -0.0, math.tanh(-1), 1, -1, np.nan], F32))
        assert_ulps(run("exp", np.array([100.0], F32)), np.array([np.inf], F32))
        assert_ulps(
            run("floor", np.array([-0.5, 2.5, -np.inf], F16)), np.array([-1, 2, -np.inf], F16)
        )
        assert_ulps(
            run("ceil", np.array([-0.5, 2.5, np.nan], BF16)), np.array([-0.0, 3, np.nan], BF16)
        )


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_sigmoid_tails(dtype: np.dtype) -> None:
    x = np.array([-np.inf, -1e30, -200.0, -89.0, 0.0, 17.0, 200.0, np.inf, np.nan], dtype=dtype)
    result = run("sigmoid", x).astype(F64)
    assert np.all(result[:4] <= 3e-39) and np.all(result[:4] >= 0)
    assert result[4] == 0.5 and result[5] == pytest.approx(1, abs=1e-7)
    assert list(result[6:8]) == [1.0, 1.0] and np.isnan(result[8])
    for i, value in enumerate(x):  # one element at a time (the kernel's other path)
        alone = run("sigmoid", value.reshape(1, 1, 1, 1)).astype(F64)
        np.testing.assert_array_equal(alone.reshape(-1), result[i : i + 1])


@pytest.mark.parametrize("dtype", HALF_AND_SINGLE, ids=str)
def test_erf(dtype: np.dtype) -> None:
    x = np.concatenate([np.linspace(-5, 5, 401), [0.0, 1e-6, -1e-30, np.inf, -np.inf, np.nan]])
    x = x.astype(dtype)
    result = run("erf", x)
    expected = golden_map(math.erf, x, dtype)
    assert_ulps(result, expected, max_ulps=3 if dtype == F32 else 1)


def test_erf_f64_absolute_error() -> None:
    x = np.linspace(-6, 6, 20001)
    expected = np.array([math.erf(v) for v in x])
    assert np.max(np.abs(erf_f64(x) - expected)) < 1.5e-7
    small = np.linspace(-0.999, 0.999, 1001)
    relative = np.abs(erf_f64(small) - [math.erf(v) for v in small]) / np.maximum(
        np.abs(small), 1e-300
    )
    assert relative.max() < 1e-8


# ---------------------------------------------------------------------------------------
# Logical, comparison, select
# ---------------------------------------------------------------------------------------


def test_logical_ops() -> None:
    a = np.array([[True, True, False, False]])
    b = np.array([[True], [False]])
    np.testing.assert_array_equal(run("logical_and", a, b), a & b)
    np.testing.assert_array_equal(run("logical_or", a, b), a | b)
    np.testing.assert_array_equal(run("logical_xor", a, b), a ^ b)
    np.testing.assert_array_equal(run("logical_not", a), ~a)


@pytest.mark.parametrize("dtype", [I8, I32, I64, F16, BF16, F32], ids=str)
def test_comparisons(dtype: np.dtype) -> None:
    values = [-2.0, 0.0, 1.0, 3.0] + ([np.nan] if dtype.kind != "i" else [])
    a = np.array([values], dtype=dtype)
    b = np.array([[0.0], [1.0]], dtype=dtype)
    pa, pb = np.broadcast_arrays(a.astype(F64), b.astype(F64))
    with np.errstate(invalid="ignore"):
        for op, fn in [
            ("equal", float.__eq__),
            ("greater", float.__gt__),
            ("greater_equal", float.__ge__),
        ]:
            expected = np.vectorize(lambda x, y, fn=fn: fn(float(x), float(y)))(pa, pb)
            np.testing.assert_array_equal(run(op, a, b, dtype=BOOL), expected)


@pytest.mark.parametrize("dtype", [BOOL, I8, I64, BF16, F32], ids=str)
def test_select_broadcasts(dtype: np.dtype) -> None:
    cond = np.array([[True], [False]])
    on_true = np.array([[1, 0, 1]], dtype=dtype)
    on_false = np.array([[0, 1, 1], [1, 1, 0]], dtype=dtype)
    expected = [
        [on_true[0, j] if cond[i, 0] else on_false[i, j] for j in range(3)] for i in range(2)
    ]
    result = run("select", cond, on_true, on_false, dtype=dtype)
    np.testing.assert_array_equal(result, np.array(expected, dtype=dtype))


# ---------------------------------------------------------------------------------------
# tosa.cast
# ---------------------------------------------------------------------------------------


def golden_float_to_int(x: np.ndarray, dtype: np.dtype) -> np.ndarray:
    info = np.iinfo(dtype)
    out = []
    for v in np.ravel(x.astype(F64)):
        v = float(v)
        if math.isnan(v):
            out.append(0)
        elif math.isinf(v):
            out.append(info.max if v > 0 else info.min)
        else:
            out.append(min(max(round(v), info.min), info.max))  # round(): ties to even
    return np.array(out, dtype=dtype).reshape(x.shape)


@pytest.mark.parametrize("src", [*HALF_AND_SINGLE, F64], ids=str)
@pytest.mark.parametrize("dst", INTS, ids=str)
def test_cast_float_to_int_rounds_half_even_and_saturates(src: np.dtype, dst: np.dtype) -> None:
    x = np.array(
        [
            0.5,
            1.5,
            2.5,
            -0.5,
            -1.5,
            -2.5,
            0.49,
            -0.51,
            100.7,
            -129.0,
            128.0,
            40000.0,
            -40000.0,
            3e9,
            -3e9,
            1e19,
            -1e19,
            np.inf,
            -np.inf,
            np.nan,
        ],
        dtype=src,
    )
    np.testing.assert_array_equal(run("cast", x, dtype=dst), golden_float_to_int(x, dst))


def test_cast_integers_wrap_and_extend() -> None:
    x = np.array([-129, 128, 255, -1, 70000, -(2**31)], I32)
    np.testing.assert_array_equal(run("cast", x, dtype=I8), wrap(x, I8))
    np.testing.assert_array_equal(run("cast", x, dtype=I16), wrap(x, I16))
    np.testing.assert_array_equal(run("cast", x, dtype=I64), x.astype(object))
    y = np.array([2**40 + 5, -(2**40) - 5], I64)
    np.testing.assert_array_equal(run("cast", y, dtype=I32), wrap(y, I32))


def test_cast_to_and_from_bool() -> None:
    ints = np.array([0, 1, -1, 2, -128], I8)
    np.testing.assert_array_equal(run("cast", ints, dtype=BOOL), [False, True, True, True, True])
    floats = np.array([0.0, -0.0, 0.5, -1e-40, np.nan, np.inf], F32)
    np.testing.assert_array_equal(
        run("cast", floats, dtype=BOOL), [False, False, True, True, True, True]
    )
    flags = np.array([True, False])
    for dst in [I8, I16, I32, I64]:
        np.testing.assert_array_equal(run("cast", flags, dtype=dst), [1, 0])
    for dst in [F16, BF16, F32]:
        assert_ulps(run("cast", flags, dtype=dst), np.array([1.0, 0.0], dst))


@pytest.mark.parametrize("dst", [F16, BF16], ids=str)
def test_cast_f32_to_half_rounds_to_nearest_even(dst: np.dtype) -> None:
    rng = np.random.default_rng(3)
    x = np.concatenate(
        [
            rng.standard_normal(200) * 1000,
            [
                1 + 2**-11,
                1 + 3 * 2**-11,
                1 + 2**-8,
                1 + 3 * 2**-8,
                65504,
                65520,
                65519.99,
                1e-8,
                6e-8,
                3.3e38,
                3.4e38,
            ],
        ]
    ).astype(F32)
    expected = np.array([round_exact(float(v), dst) for v in x], dtype=dst)
    assert_ulps(run("cast", x, dtype=dst), expected)


def test_cast_ints_and_f64_to_bf16_round_once() -> None:
    # 2**24 + 2**16 + 1 rounds to 2**24 + 2**17 (through f32 it would tie down to 2**24).
    ints = np.array([2**24 + 2**16 + 1, -(2**24 + 2**16 + 1), 2**31 - 1, 257, 0], I32)
    expected = np.array([round_exact(int(v), BF16) for v in ints], BF16)
    assert_ulps(run("cast", ints, dtype=BF16), expected)
    assert float(run("cast", ints, dtype=BF16)[0]) == 2**24 + 2**17
    doubles = np.array([1 + 2**-8 + 2**-30, -(1 + 2**-8), 1e300, -1e-300, np.nan], F64)
    expected = np.array([round_exact(float(v), BF16) for v in doubles], BF16)
    assert_ulps(run("cast", doubles, dtype=BF16), expected)


def test_cast_ints_to_floats() -> None:
    x = np.array([0, 1, -1, 2049, 16777217, 2**31 - 1, -(2**31)], I32)
    for dst in [F16, F32]:
        expected = np.array([round_exact(int(v), dst) for v in x], dst)
        with np.errstate(over="ignore"):
            assert_ulps(run("cast", x, dtype=dst), expected)
    y = np.array([2**53 + 1, -(2**60)], I64)
    assert_ulps(run("cast", y, dtype=F32), np.array([round_exact(int(v), F32) for v in y], F32))


def test_cast_widening_floats_is_exact() -> None:
    x = np.array([1.5, -np.inf, np.nan, 65504], F16)
    assert_ulps(run("cast", x, dtype=F32), x.astype(F32))
    y = np.array([3.0, 1e38], BF16)
    assert_ulps(run("cast", y, dtype=F32), np.array([3.0, float(y[1])], F32))


# ---------------------------------------------------------------------------------------
# Rank 0, caching, aliasing
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("op", "inputs", "dtype", "attrs"),
    [
        ("add", [np.float32(1.5), np.float32(2)], F32, ""),
        ("sigmoid", [np.float32(0)], F32, ""),
        ("clamp", [np.float32(9)], F32, "max_val = 1.0 : f32, min_val = 0.0 : f32"),
        ("select", [np.bool_(True), np.int8(3), np.int8(4)], I8, ""),
        ("cast", [np.float32(2.5)], I32, ""),
        ("greater", [np.int32(3), np.int32(2)], BOOL, ""),
        ("negate", [np.int8(-128), np.zeros(1, I8), np.zeros(1, I8)], I8, ""),
        ("rsqrt", [np.float16(4)], F16, ""),
    ],
)
def test_rank0_results_are_0d_arrays(
    op: str, inputs: list[Any], dtype: np.dtype, attrs: str
) -> None:
    arrays = [np.asarray(a) for a in inputs]
    result = run(op, *arrays, dtype=dtype, shape=(), attrs=attrs)
    assert result.ndim == 0


def test_kernel_is_built_once_per_op() -> None:
    text = op_text("add", [np.zeros(2, F32)] * 2, F32, (2,))
    module = parse(text)
    (add,) = [op for op in module.walk() if isinstance(op, AddOp)]
    assert kernel(add) is kernel(add)


def test_inputs_are_never_written() -> None:
    """No elementwise kernel writes into its input, nor returns it: the input keeps its
    values, bit for bit, and the result is an array of its own."""
    x = np.linspace(-3, 3, 8).astype(F32)
    before = x.copy()
    cases = [(op, "") for op in ["sigmoid", "tanh", "exp", "rsqrt", "erf", "abs", "floor",
                                 "ceil", "reciprocal", "log"]]
    cases.append(("clamp", "max_val = 1.0 : f32, min_val = 0.0 : f32"))
    for op, attrs in cases:
        with np.errstate(all="ignore"):
            result = run(op, x, attrs=attrs)
        assert x.tobytes() == before.tobytes(), op
        assert not np.shares_memory(result, x), op
        assert result.tobytes() != x.tobytes(), op  # it computed something


# ---------------------------------------------------------------------------------------
# Hypothesis: broadcasting and elementwise properties
# ---------------------------------------------------------------------------------------

PROPERTY_SETTINGS = settings(
    max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


@st.composite
def broadcast_shapes(draw: st.DrawFn, operands: int) -> list[tuple[int, ...]]:
    """Equal-rank shapes whose dims are mostly a common size or 1 (sometimes not)."""
    rank = draw(st.integers(0, 4))
    sizes = draw(st.lists(st.integers(1, 4), min_size=rank, max_size=rank))
    return [
        tuple(draw(st.sampled_from([n, 1, n, draw(st.integers(1, 4))])) for n in sizes)
        for _ in range(operands)
    ]


def numpy_broadcast(shapes: Sequence[tuple[int, ...]]) -> tuple[int, ...] | None:
    try:
        return np.broadcast_shapes(*shapes)
    except ValueError:
        return None


@PROPERTY_SETTINGS
@given(shapes=broadcast_shapes(2), data=st.data())
def test_binary_broadcasting_matches_numpy(
    shapes: list[tuple[int, ...]], data: st.DataObject
) -> None:
    a = data.draw(hnp.arrays(F32, shapes[0], elements=st.floats(-100, 100, width=32)))
    b = data.draw(hnp.arrays(F32, shapes[1], elements=st.floats(-100, 100, width=32)))
    expected_shape = numpy_broadcast(shapes)
    assert broadcast_shape(shapes) == expected_shape
    if expected_shape is None:
        with pytest.raises(VerifyException, match="broadcast-compatible"):
            parse(op_text("add", [a, b], F32, shapes[0]))
        return
    np.testing.assert_array_equal(run("add", a, b), np.add(a, b))
    np.testing.assert_array_equal(run("greater", a, b, dtype=BOOL), np.greater(a, b))
    if expected_shape:  # a wrong result shape is rejected
        wrong = (expected_shape[0] + 1, *expected_shape[1:])
        with pytest.raises(VerifyException, match="not broadcast compatible"):
            parse(op_text("add", [a, b], F32, wrong))


@PROPERTY_SETTINGS
@given(shapes=broadcast_shapes(3), data=st.data())
def test_select_broadcasting_matches_numpy(
    shapes: list[tuple[int, ...]], data: st.DataObject
) -> None:
    cond = data.draw(hnp.arrays(BOOL, shapes[0]))
    x = data.draw(hnp.arrays(I16, shapes[1]))
    y = data.draw(hnp.arrays(I16, shapes[2]))
    if numpy_broadcast(shapes) is None:
        with pytest.raises(VerifyException, match="broadcast-compatible"):
            parse(op_text("select", [cond, x, y], I16, shapes[0]))
        return
    np.testing.assert_array_equal(run("select", cond, x, y, dtype=I16), np.where(cond, x, y))


@PROPERTY_SETTINGS
@given(
    dtype=st.sampled_from(INTS),
    op=st.sampled_from(["add", "sub", "mul"]),
    data=st.data(),
)
def test_integer_arithmetic_wraps_like_python_modulo(
    dtype: np.dtype, op: str, data: st.DataObject
) -> None:
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, max_side=4))
    a = data.draw(hnp.arrays(dtype, shape))
    b = data.draw(hnp.arrays(dtype, shape))
    fn = {"add": int.__add__, "sub": int.__sub__, "mul": int.__mul__}[op]
    expected = wrap([fn(int(x), int(y)) for x, y in zip(a.ravel(), b.ravel(), strict=False)], dtype)
    extra = [np.zeros(1, I8)] if op == "mul" else []
    np.testing.assert_array_equal(run(op, a, b, *extra), expected.reshape(shape))


@PROPERTY_SETTINGS
@given(
    a=hnp.arrays(I32, 6),
    b=hnp.arrays(I32, 6),
    shift=st.integers(0, 63),
)
def test_mul_shift_property(a: np.ndarray, b: np.ndarray, shift: int) -> None:
    result = run("mul", a, b, np.array([shift], I8))
    np.testing.assert_array_equal(result, golden_mul_shift(a, b, shift))


@PROPERTY_SETTINGS
@given(
    dtype=st.sampled_from([I32, I64]),
    data=st.data(),
)
def test_intdiv_property(dtype: np.dtype, data: st.DataObject) -> None:
    a = data.draw(hnp.arrays(dtype, 5))
    b = data.draw(
        hnp.arrays(
            dtype,
            5,
            elements=st.integers(1, 2**20).map(lambda v: v * data.draw(st.sampled_from([1, -1]))),
        )
    )
    expected = [trunc_div(x, y) for x, y in zip(a.tolist(), b.tolist(), strict=True)]
    np.testing.assert_array_equal(run("intdiv", a, b), wrap(expected, dtype))


@PROPERTY_SETTINGS
@given(
    src=st.sampled_from([F16, BF16, F32]),
    dst=st.sampled_from([I8, I16, I32]),
    data=st.data(),
)
def test_cast_float_to_int_property(src: np.dtype, dst: np.dtype, data: st.DataObject) -> None:
    values = data.draw(
        st.lists(
            st.floats(allow_nan=True, allow_infinity=True, width=32)
            | st.integers(-300, 300).map(lambda v: v / 2),
            min_size=1,
            max_size=8,
        )
    )
    x = np.array(values, dtype=F32).astype(src)
    np.testing.assert_array_equal(run("cast", x, dtype=dst), golden_float_to_int(x, dst))


@PROPERTY_SETTINGS
@given(
    values=st.lists(st.integers(-(2**31), 2**31 - 1), min_size=1, max_size=8),
    doubles=st.lists(st.floats(-1e39, 1e39, allow_nan=False), min_size=1, max_size=8),
)
def test_cast_to_bf16_rounds_once_property(values: list[int], doubles: list[float]) -> None:
    ints = np.array(values, I32)
    assert_ulps(
        run("cast", ints, dtype=BF16), np.array([round_exact(v, BF16) for v in values], BF16)
    )
    wide = np.array(doubles, F64)
    with np.errstate(over="ignore"):
        result = run("cast", wide, dtype=BF16)
    assert_ulps(result, np.array([round_exact(v, BF16) for v in doubles], BF16))


@PROPERTY_SETTINGS
@given(
    dtype=st.sampled_from(HALF_AND_SINGLE),
    nan_mode=st.sampled_from(["PROPAGATE", "IGNORE"]),
    data=st.data(),
)
def test_maximum_nan_mode_property(dtype: np.dtype, nan_mode: str, data: st.DataObject) -> None:
    floats = st.floats(-1e4, 1e4, width=16) | st.just(math.nan)
    a = np.array(data.draw(st.lists(floats, min_size=4, max_size=4)), F32).astype(dtype)
    b = np.array(data.draw(st.lists(floats, min_size=4, max_size=4)), F32).astype(dtype)

    def spec_max(x: float, y: float) -> float:  # apply_max_s of the specification
        if math.isnan(x) or math.isnan(y):
            return math.nan if nan_mode == "PROPAGATE" else (y if math.isnan(x) else x)
        return x if x >= y else y

    expected = np.array(
        [spec_max(float(x), float(y)) for x, y in zip(a, b, strict=False)], F32
    ).astype(dtype)
    with np.errstate(invalid="ignore"):
        result = run("maximum", a, b, attrs=f"nan_mode = {nan_mode}")
    assert_ulps(result, expected)


# ---------------------------------------------------------------------------------------
# The TOSA reference model as an oracle
# ---------------------------------------------------------------------------------------

REFERENCE_PROGRAM = """
func.func @f(%x: tensor<2x4xf32>, %y: tensor<1x4xf32>, %i: tensor<2x4xi32>, %j: tensor<1x4xi32>,
             %q: tensor<2x4xi8>, %p: tensor<2x4xi1>) -> (
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>,
    tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>,
    tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xi1>,
    tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xi8>,
    tensor<2x4xi32>, tensor<2x4xbf16>, tensor<2x4xf16>, tensor<2x4xi1>, tensor<2x4xi32>,
    tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi32>,
    tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xi32>) {
  %sh = "tosa.const"() <{values = dense<[[0, 1, 17, 31]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
  %q3 = "tosa.const"() <{values = dense<[[0, 3, 7, 5]]> : tensor<1x4xi8>}> : () -> tensor<1x4xi8>
  %s0 = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s3 = "tosa.const"() <{values = dense<3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %zq = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zi = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %ax = tosa.abs %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %0 = tosa.add %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %1 = tosa.sub %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %2 = tosa.mul %x, %y, %s0 : (tensor<2x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<2x4xf32>
  %3 = tosa.pow %ax, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %4 = tosa.maximum %x, %y {nan_mode = IGNORE} : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %5 = tosa.minimum %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %6 = tosa.clamp %x {max_val = 1.5 : f32, min_val = -0.5 : f32} : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %7 = tosa.sigmoid %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %8 = tosa.tanh %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %9 = tosa.erf %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %10 = tosa.exp %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %11 = tosa.log %ax : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %12 = tosa.reciprocal %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %13 = tosa.rsqrt %ax : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %14 = tosa.floor %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %15 = tosa.mul %i, %j, %s3 : (tensor<2x4xi32>, tensor<1x4xi32>, tensor<1xi8>) -> tensor<2x4xi32>
  %16 = tosa.intdiv %i, %j : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %17 = tosa.add %i, %j : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %18 = tosa.abs %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %19 = tosa.negate %i, %zi, %zi : (tensor<2x4xi32>, tensor<1xi32>, tensor<1xi32>) -> tensor<2x4xi32>
  %20 = tosa.bitwise_xor %i, %j : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %21 = tosa.negate %q, %zq, %zq : (tensor<2x4xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<2x4xi8>
  %22 = tosa.clamp %q {max_val = 50 : i8, min_val = -7 : i8} : (tensor<2x4xi8>) -> tensor<2x4xi8>
  %23 = tosa.mul %q, %q, %s0 : (tensor<2x4xi8>, tensor<2x4xi8>, tensor<1xi8>) -> tensor<2x4xi32>
  %24 = tosa.equal %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %25 = tosa.greater %i, %j : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi1>
  %26 = tosa.greater_equal %x, %y : (tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xi1>
  %27 = tosa.logical_xor %p, %25 : (tensor<2x4xi1>, tensor<2x4xi1>) -> tensor<2x4xi1>
  %28 = tosa.select %p, %x, %y : (tensor<2x4xi1>, tensor<2x4xf32>, tensor<1x4xf32>) -> tensor<2x4xf32>
  %29 = tosa.cast %x : (tensor<2x4xf32>) -> tensor<2x4xi8>
  %30 = tosa.cast %x : (tensor<2x4xf32>) -> tensor<2x4xi32>
  %31 = tosa.cast %x : (tensor<2x4xf32>) -> tensor<2x4xbf16>
  %32 = tosa.cast %x : (tensor<2x4xf32>) -> tensor<2x4xf16>
  %33 = tosa.cast %i : (tensor<2x4xi32>) -> tensor<2x4xi1>
  %34 = tosa.cast %p : (tensor<2x4xi1>) -> tensor<2x4xi32>
  %35 = tosa.sin %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %36 = tosa.cos %x : (tensor<2x4xf32>) -> tensor<2x4xf32>
  %37 = tosa.bitwise_not %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %38 = tosa.bitwise_not %q : (tensor<2x4xi8>) -> tensor<2x4xi8>
  %39 = tosa.clz %i : (tensor<2x4xi32>) -> tensor<2x4xi32>
  %40 = tosa.logical_left_shift %i, %sh : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %41 = tosa.logical_right_shift %i, %sh : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %42 = tosa.logical_left_shift %q, %q3 : (tensor<2x4xi8>, tensor<1x4xi8>) -> tensor<2x4xi8>
  %43 = tosa.arithmetic_right_shift %i, %sh {round = true} : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  %44 = tosa.arithmetic_right_shift %i, %sh {round = false} : (tensor<2x4xi32>, tensor<1x4xi32>) -> tensor<2x4xi32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14, %15, %16, %17, %18, %19, %20, %21, %22, %23, %24, %25, %26, %27, %28, %29, %30, %31, %32, %33, %34, %35, %36, %37, %38, %39, %40, %41, %42, %43, %44 : tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xi1>, tensor<2x4xf32>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xbf16>, tensor<2x4xf16>, tensor<2x4xi1>, tensor<2x4xi32>, tensor<2x4xf32>, tensor<2x4xf32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi32>, tensor<2x4xi8>, tensor<2x4xi32>, tensor<2x4xi32>
}
"""


@pytest.mark.peers
@pytest.mark.usefixtures("tosa_reference_tools")
def test_matches_the_tosa_reference_model() -> None:
    from peers.tosa_reference import run_reference

    x = np.array([[-2.5, -0.75, 0.5, 1.5], [3.25, -1.0, 0.125, 2.5]], F32)
    y = np.array([[0.5, -1.0, 2.0, 1.5]], F32)
    i = np.array([[7, -7, 100000, -123456], [2**30, -(2**30), 5, 0]], I32)
    j = np.array([[2, -3, 7, 1000]], I32)
    q = np.array([[-128, 127, 0, -3], [5, -50, 60, 1]], I8)
    p = np.array([[True, False, True, False], [False, False, True, True]])
    inputs = (x, y, i, j, q, p)
    ours = run_text(REFERENCE_PROGRAM.replace("@f(", "@f(", 1), *inputs)
    (theirs,) = run_reference(REFERENCE_PROGRAM.replace("@f(", "@main(", 1), [inputs]).outputs
    assert len(ours) == len(theirs)
    for index, (mine, reference) in enumerate(zip(ours, theirs, strict=True)):
        assert mine.dtype == reference.dtype, index
        if mine.dtype.kind in "bi":
            np.testing.assert_array_equal(mine, reference, err_msg=f"output {index}")
        else:
            assert_ulps(mine, reference.astype(mine.dtype), max_ulps=4)
