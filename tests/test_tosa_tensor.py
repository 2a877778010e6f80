"""The TOSA tensor-level operators: numpy impls against numpy goldens (and the spec's
pseudo-code), builders and types, and the peers (`tosa-opt` parses our output; the TOSA
reference model agrees with our numbers).

Every program runs twice, through xDSL's stock interpreter and through the compiled plan,
on read-only inputs; both must give the same arrays, of exactly the result types.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from xdsl.dialects.builtin import DYNAMIC_INDEX, ModuleOp, TensorType, f32, i1
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter
from xdsl.interpreters.func import FuncFunctions
from xdsl.ir import Block
from xdsl.utils.exceptions import ParseError

from tosa_state import make_context
from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.dialects.tosa.control_flow import IfOp, YieldOp
from tosa_state.dialects.tosa.tensor import (
    ConstShapeOp,
    ReduceSumOp,
    ReverseOp,
    ShapeType,
    TransposeOp,
)
from tosa_state.dtypes import element_type, numpy_dtype
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.plan import FunctionPlan, ModulePlan
from tosa_state.interpreter.tosa_control_flow import TosaControlFlowFunctions
from tosa_state.interpreter.tosa_tensor import TosaTensorFunctions
from tosa_state.printing import print_module
from tosa_state.verification import verify_module

BF16 = np.dtype(ml_dtypes.bfloat16)
LIT = Path(__file__).resolve().parent.parent / "lit_tests" / "tosa"
FAST = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# ---------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------


def tensor(shape: Sequence[int], dtype: np.dtype | type) -> str:
    dims = "".join(f"{d}x" for d in shape)
    return f"tensor<{dims}{element_type(np.dtype(dtype))}>"


def type_of(value: np.ndarray | tuple[int, ...]) -> str:
    if isinstance(value, tuple):
        return f"!tosa.shape<{len(value)}>"
    return tensor(value.shape, value.dtype)


def readonly(value: np.ndarray) -> np.ndarray:
    value = np.array(value)  # a private copy (0-D stays 0-D)
    value.flags.writeable = False
    return value


def run(body: str, inputs: Sequence[np.ndarray], results: Sequence[str]) -> tuple:
    """Run `func.func @main(%arg0, ...) -> results { body }` on `inputs` (see `run_text`)."""
    args = ", ".join(f"%arg{i}: {type_of(x)}" for i, x in enumerate(inputs))
    return run_text(f"func.func @main({args}) -> ({', '.join(results)}) {{\n{body}\n}}\n", inputs)


def interpreter_for(text: str) -> tuple[ModuleOp, Interpreter]:
    """The verified module of `text` and an interpreter with our impls."""
    module = parse_mlir(make_context(), text, "test.mlir")
    verify_module(module)
    interpreter = Interpreter(module)
    interpreter.register_implementations(FuncFunctions())
    interpreter.register_implementations(TosaTensorFunctions())
    interpreter.register_implementations(TosaControlFlowFunctions())
    return module, interpreter


def run_text(text: str, inputs: Sequence[np.ndarray]) -> tuple:
    """Run the function `@main` of `text` on `inputs`.

    Checks that the stock interpreter and the plan agree, that results have exactly the
    result types (`np.ndarray`s, 0-D for rank 0) and that inputs are left untouched.
    """
    module, interpreter = interpreter_for(text)
    frozen = [readonly(x) for x in inputs]
    copies = [x.copy() for x in inputs]
    stock = interpreter.call_op("main", tuple(frozen))
    planned = ModulePlan(module, interpreter).plan("main")(interpreter, frozen)

    func = next(op for op in module.ops if isinstance(op, FuncOp))
    result_types = func.function_type.outputs.data
    assert len(stock) == len(planned) == len(result_types)
    for a, b, result_type in zip(stock, planned, result_types, strict=True):
        assert isinstance(result_type, TensorType)
        for value in (a, b):
            assert isinstance(value, np.ndarray), type(value)
            assert value.dtype == numpy_dtype(result_type.element_type)
            assert len(value.shape) == result_type.get_num_dims()
            for size, dim in zip(value.shape, result_type.get_shape(), strict=True):
                assert dim in (size, DYNAMIC_INDEX), (value.shape, result_type)
        assert a.tobytes() == b.tobytes()
    for x, copy in zip(frozen, copies, strict=True):
        assert x.tobytes() == copy.tobytes()
    return tuple(stock)


def run_op(
    op: str,
    inputs: Sequence[np.ndarray],
    result: str,
    shapes: Sequence[Sequence[int]] = (),
) -> np.ndarray:
    """Run one op `op` (its text up to the `:`) on `inputs` (`%arg0`...); `shapes` become
    `tosa.const_shape` ops `%s0`, `%s1`, ... The operand types are filled in."""
    lines = [
        f"  %s{k} = tosa.const_shape {{values = dense<[{', '.join(map(str, s))}]> : "
        f"tensor<{len(s)}xindex>}} : () -> !tosa.shape<{len(s)}>"
        for k, s in enumerate(shapes)
    ]
    operand_text = op.split("{")[0]
    operand_types = []
    for kind, index in re.findall(r"%(arg|s)(\d+)", operand_text):
        operand_types.append(
            type_of(inputs[int(index)])
            if kind == "arg"
            else f"!tosa.shape<{len(shapes[int(index)])}>"
        )
    lines.append(f"  %r = {op} : ({', '.join(operand_types)}) -> {result}")
    lines.append(f"  return %r : {result}")
    (value,) = run("\n".join(lines), inputs, [result])
    return value


rng = np.random.default_rng(20240601)


def randn(*shape: int, dtype: np.dtype | type = np.float32) -> np.ndarray:
    return rng.standard_normal(shape).astype(dtype)


# ---------------------------------------------------------------------------------------
# Data nodes and shapes
# ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("literal", "expected"),
    [
        ("dense<[1.5, -2.0]> : tensor<2xf32>", np.array([1.5, -2.0], np.float32)),
        ("dense<7> : tensor<2x2xi8>", np.full((2, 2), 7, np.int8)),
        ("dense<[true, false]> : tensor<2xi1>", np.array([True, False])),
        ("dense<3> : tensor<i32>", np.array(3, np.int32)),
        ("dense<[0.5, 2.0]> : tensor<2xbf16>", np.array([0.5, 2.0], BF16)),
        ("dense<[255, 0]> : tensor<2xui8>", np.array([255, 0], np.uint8)),
        ("dense<1.25> : tensor<1x1xf16>", np.full((1, 1), 1.25, np.float16)),
    ],
)
def test_const(literal: str, expected: np.ndarray) -> None:
    result = literal.rsplit(": ", 1)[1]
    body = (
        f'  %0 = "tosa.const"() <{{values = {literal}}}> : () -> {result}\n  return %0 : {result}'
    )
    (value,) = run(body, [], [result])
    np.testing.assert_array_equal(value, expected)
    assert not value.flags.writeable  # shared with the constant: never mutated


def test_const_shape_is_a_tuple_and_identity_returns_its_input() -> None:
    x = randn(2, 3)
    body = """
  %s = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %i = tosa.identity %arg0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %r = tosa.reshape %i, %s : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
  return %i, %r : tensor<2x3xf32>, tensor<3x2xf32>"""
    same, reshaped = run(body, [x], ["tensor<2x3xf32>", "tensor<3x2xf32>"])
    np.testing.assert_array_equal(same, x)
    np.testing.assert_array_equal(reshaped, x.reshape(3, 2))
    interpreter = Interpreter(ModuleOp([]))
    interpreter.register_implementations(TosaTensorFunctions())
    assert interpreter.run_op(ConstShapeOp([4, 1]), ()) == ((4, 1),)


# ---------------------------------------------------------------------------------------
# MATMUL
# ---------------------------------------------------------------------------------------


def test_matmul_f32_batched() -> None:
    a, b = randn(3, 2, 4), randn(3, 4, 5)
    zp = np.zeros(1, np.float32)
    result = run_op("tosa.matmul %arg0, %arg1, %arg2, %arg2", [a, b, zp], "tensor<3x2x5xf32>")
    np.testing.assert_allclose(result, np.matmul(a, b), rtol=1e-6)


def test_matmul_of_one_row_streams_transposed_weights_without_gemm(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A decode step's product: one row times weights stored `[N, K]` and used transposed
    (as MatMul's `transpose_b` converts). BLAS streams that layout at 13 GB/s where numpy's
    contiguous dot products reach 18-20; the kernel takes them above 256 KiB of weights."""
    weights = randn(512, 384)  # 768 KiB, used as its transpose [384, 512]
    a, zp = randn(1, 1, 384), np.zeros(1, np.float32)
    expected = (a[0].astype(np.float64) @ weights.T.astype(np.float64))[None]

    def no_gemm(*args: object, **kwargs: object) -> np.ndarray:
        raise AssertionError("the one-row product went through np.matmul")

    monkeypatch.setattr(np, "matmul", no_gemm)
    result = run_op("tosa.matmul %arg0, %arg1, %arg2, %arg2", [a, weights.T[None], zp],
                    "tensor<1x1x512xf32>")
    np.testing.assert_allclose(result, expected, rtol=1e-5, atol=1e-5)


def test_matmul_i8_with_zero_points_accumulates_in_i32() -> None:
    a = rng.integers(-128, 128, (2, 3, 64)).astype(np.int8)
    b = rng.integers(-128, 128, (2, 64, 4)).astype(np.int8)
    a_zp, b_zp = np.array([-128], np.int8), np.array([127], np.int8)
    result = run_op(
        "tosa.matmul %arg0, %arg1, %arg2, %arg3", [a, b, a_zp, b_zp], "tensor<2x3x4xi32>"
    )
    expected = np.einsum("nhc,ncw->nhw", a.astype(np.int64) + 128, b.astype(np.int64) - 127).astype(
        np.int32
    )
    np.testing.assert_array_equal(result, expected)
    assert np.abs(expected).max() > 127 * 128  # no int8 / int16 accumulator would do


def test_matmul_i8_wraps_its_i32_accumulator_exactly() -> None:
    """i8 products are summed in f64 by BLAS (exact below 2^53), then wrapped to i32 as the
    spec's i32 accumulator wraps: 140 000 products of -128 x -128 overflow i32 (2.29e9), and
    an odd deep sum of random values is exact to the unit."""
    depth = 140_000
    a = np.full((1, 1, depth), -128, np.int8)
    b = np.full((1, depth, 1), -128, np.int8)
    zp = np.zeros(1, np.int8)
    result = run_op("tosa.matmul %arg0, %arg1, %arg2, %arg2", [a, b, zp, zp],
                    "tensor<1x1x1xi32>")
    assert result.item() == np.int64(depth * 16384).astype(np.int32)  # wrapped, not saturated
    a = rng.integers(-128, 128, (1, 3, 4099)).astype(np.int8)
    b = rng.integers(-128, 128, (1, 4099, 5)).astype(np.int8)
    a_zp, b_zp = np.array([5], np.int8), np.array([-7], np.int8)
    result = run_op("tosa.matmul %arg0, %arg1, %arg2, %arg3", [a, b, a_zp, b_zp],
                    "tensor<1x3x5xi32>")
    expected = np.matmul(a.astype(np.int64) - 5, b.astype(np.int64) + 7).astype(np.int32)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize(
    ("dtype", "out"), [(np.float16, "f16"), (np.float16, "f32"), (BF16, "f32")]
)
def test_matmul_narrow_floats_accumulate_in_f32(dtype: np.dtype, out: str) -> None:
    # 4096 terms of 1: an f16 / bf16 accumulator would stop growing at 2048 / 256.
    a, b = np.ones((1, 2, 4096), dtype), np.ones((1, 4096, 3), dtype)
    zp = np.zeros(1, dtype)
    result = run_op("tosa.matmul %arg0, %arg1, %arg2, %arg2", [a, b, zp], f"tensor<1x2x3x{out}>")
    np.testing.assert_array_equal(result.astype(np.float32), np.full((1, 2, 3), 4096.0))


@FAST
@given(
    n=st.integers(1, 3),
    h=st.integers(1, 4),
    c=st.integers(1, 6),
    w=st.integers(1, 4),
    a_zp=st.integers(-128, 127),
    b_zp=st.integers(-128, 127),
)
def test_matmul_i8_matches_the_definition(
    n: int, h: int, c: int, w: int, a_zp: int, b_zp: int
) -> None:
    a = rng.integers(-128, 128, (n, h, c)).astype(np.int8)
    b = rng.integers(-128, 128, (n, c, w)).astype(np.int8)
    zps = [np.array([a_zp], np.int8), np.array([b_zp], np.int8)]
    result = run_op(
        "tosa.matmul %arg0, %arg1, %arg2, %arg3", [a, b, *zps], tensor((n, h, w), np.int32)
    )
    expected = np.zeros((n, h, w), np.int64)
    for i in range(c):  # the spec's accumulation loop, vectorised over n, h, w
        expected += (a[:, :, i, None].astype(np.int64) - a_zp) * (
            b[:, None, i, :].astype(np.int64) - b_zp
        )
    np.testing.assert_array_equal(result, expected.astype(np.int32))


# ---------------------------------------------------------------------------------------
# ARGMAX
# ---------------------------------------------------------------------------------------


def argmax_reference(x: np.ndarray, axis: int, ignore_nan: bool) -> np.ndarray:
    """The spec's ARGMAX pseudo-code, element by element."""
    moved = np.moveaxis(np.asarray(x, np.float64), axis, -1)
    out = np.zeros(moved.shape[:-1], np.int64)
    for index in np.ndindex(out.shape):
        max_value, max_index = (np.nan if ignore_nan else -np.inf), 0
        for i, value in enumerate(moved[index]):
            if ignore_nan:
                result = (
                    max_value
                    if np.isnan(value)
                    else value
                    if np.isnan(max_value)
                    else max(value, max_value)
                )
            else:
                result = np.nan if np.isnan(value) or np.isnan(max_value) else max(value, max_value)
            if result != max_value and not (np.isnan(result) and np.isnan(max_value)):
                max_value, max_index = result, i
        out[index] = max_index
    return out


ARGMAX_CASES = {
    "ties_take_the_first": ([3.0, 7.0, 7.0, 1.0, 7.0], 1, 1),
    "first_nan_wins_when_propagating": ([1.0, np.nan, 9.0, np.nan], 1, 2),
    "nan_only_at_the_end": ([1.0, 9.0, np.nan], 2, 1),
    "all_minus_inf": ([-np.inf, -np.inf], 0, 0),
    "nan_then_minus_inf": ([np.nan, -np.inf, -np.inf], 0, 1),
    "all_nan": ([np.nan, np.nan], 0, 0),
}


@pytest.mark.parametrize("case", ARGMAX_CASES)
@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
def test_argmax_ties_and_nans(case: str, dtype: np.dtype) -> None:
    values, propagate, ignore = ARGMAX_CASES[case]
    x = np.array(values, dtype)
    for mode, expected in (("", propagate), (", nan_mode = IGNORE", ignore)):
        result = run_op(f"tosa.argmax %arg0 {{axis = 0 : i32{mode}}}", [x], "tensor<i32>")
        assert result.shape == () and int(result) == expected, (mode, result)


def test_argmax_integers_and_i64_result() -> None:
    x = np.array([[5, -3, 5], [-128, 127, 127]], np.int8)
    result = run_op("tosa.argmax %arg0 {axis = 1 : i32}", [x], "tensor<2xi64>")
    np.testing.assert_array_equal(result, [0, 1])
    result = run_op("tosa.argmax %arg0 {axis = 0 : i32, nan_mode = IGNORE}", [x], "tensor<3xi32>")
    np.testing.assert_array_equal(result, [0, 1, 1])


@FAST
@given(
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=3),
    data=st.data(),
    ignore=st.booleans(),
)
def test_argmax_matches_the_spec_pseudo_code(
    shape: list[int], data: st.DataObject, ignore: bool
) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    pool = [np.nan, -np.inf, np.inf, -1.0, 0.0, 2.0, 2.0]  # repeats make ties likely
    values = data.draw(
        st.lists(st.sampled_from(pool), min_size=int(np.prod(shape)), max_size=int(np.prod(shape)))
    )
    x = np.array(values, np.float32).reshape(shape)
    out_shape = shape[:axis] + shape[axis + 1 :]
    mode = ", nan_mode = IGNORE" if ignore else ""
    result = run_op(
        f"tosa.argmax %arg0 {{axis = {axis} : i32{mode}}}", [x], tensor(out_shape, np.int32)
    )
    np.testing.assert_array_equal(result, argmax_reference(x, axis, ignore))


# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


REDUCTIONS = {
    "reduce_sum": np.sum,
    "reduce_product": np.prod,
    "reduce_max": np.max,
    "reduce_min": np.min,
}


@FAST
@given(
    name=st.sampled_from(sorted(REDUCTIONS)),
    shape=st.lists(st.integers(1, 4), min_size=1, max_size=4),
    data=st.data(),
)
def test_reductions_keep_the_axis(name: str, shape: list[int], data: st.DataObject) -> None:
    axis = data.draw(st.integers(0, len(shape) - 1))
    x = randn(*shape)
    out_shape = list(shape)
    out_shape[axis] = 1
    result = run_op(
        f"tosa.{name} %arg0 {{axis = {axis} : i32}}", [x], tensor(out_shape, np.float32)
    )
    np.testing.assert_allclose(result, REDUCTIONS[name](x, axis=axis, keepdims=True), rtol=1e-5)


@pytest.mark.parametrize("name", ["reduce_sum", "reduce_product", "reduce_max", "reduce_min"])
def test_integer_reductions_stay_in_their_type(name: str) -> None:
    x = np.array([[3, -4, 5], [100000, 2, -7]], np.int32)
    result = run_op(f"tosa.{name} %arg0 {{axis = 1 : i32}}", [x], "tensor<2x1xi32>")
    expected = REDUCTIONS[name](x.astype(np.int64), axis=1, keepdims=True).astype(np.int32)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype", [np.float16, BF16])
@pytest.mark.parametrize("name", ["reduce_sum", "reduce_product"])
def test_narrow_float_reductions_accumulate_in_f32(dtype: np.dtype, name: str) -> None:
    # 1 + 1000 tiny terms: f16 / bf16 accumulation would drop every one of them.
    tiny = {"reduce_sum": 2.0**-9, "reduce_product": 1 + 2.0**-7}[name]
    x = np.array([[1.0] + [tiny] * 1000], dtype)
    result = run_op(f"tosa.{name} %arg0 {{axis = 1 : i32}}", [x], tensor((1, 1), dtype))
    reduce = np.sum if name == "reduce_sum" else np.prod
    expected = reduce(x.astype(np.float32), axis=1, keepdims=True).astype(dtype)
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("dtype", [np.float32, np.float16, BF16])
@pytest.mark.filterwarnings("error")  # NaN must not make numpy warn
def test_reduce_max_min_nan_modes(dtype: np.dtype) -> None:
    x = np.array([[1.0, np.nan, 3.0], [np.nan, np.nan, np.nan], [-1.0, -2.0, 0.5]], dtype)
    for name, plain, ignoring in (("reduce_max", np.max, np.fmax), ("reduce_min", np.min, np.fmin)):
        propagate = run_op(f"tosa.{name} %arg0 {{axis = 1 : i32}}", [x], tensor((3, 1), dtype))
        ignore = run_op(
            f"tosa.{name} %arg0 {{axis = 1 : i32, nan_mode = IGNORE}}", [x], tensor((3, 1), dtype)
        )
        x32 = x.astype(np.float32)
        with np.errstate(invalid="ignore"):
            np.testing.assert_array_equal(
                propagate.astype(np.float32), plain(x32, axis=1, keepdims=True)
            )
        np.testing.assert_array_equal(
            ignore.astype(np.float32), ignoring.reduce(x32, axis=1, keepdims=True)
        )
        assert np.isnan(propagate[0, 0]) and np.isnan(ignore[1, 0]) and not np.isnan(ignore[0, 0])


def test_reduce_all_any() -> None:
    x = np.array([[True, True, False], [True, True, True]])
    all_ = run_op("tosa.reduce_all %arg0 {axis = 1 : i32}", [x], "tensor<2x1xi1>")
    any_ = run_op("tosa.reduce_any %arg0 {axis = 0 : i32}", [~x], "tensor<1x3xi1>")
    np.testing.assert_array_equal(all_, [[False], [True]])
    np.testing.assert_array_equal(any_, [[False, False, True]])


# ---------------------------------------------------------------------------------------
# Data layout
# ---------------------------------------------------------------------------------------


def test_reshape_static_and_inferred() -> None:
    x = randn(2, 3, 4)
    result = run_op("tosa.reshape %arg0, %s0", [x], "tensor<4x6xf32>", shapes=[(4, 6)])
    np.testing.assert_array_equal(result, x.reshape(4, 6))
    result = run_op("tosa.reshape %arg0, %s0", [x], "tensor<?x6xf32>", shapes=[(-1, 6)])
    assert result.shape == (4, 6)  # a dynamic result dimension: the runtime shape decides
    np.testing.assert_array_equal(result, x.reshape(4, 6))


def test_reshape_of_a_dynamic_shape() -> None:
    x = randn(2, 3, 4)
    body = """
  %s = tosa.const_shape {values = dense<[-1, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.const_shape {values = dense<[3, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.reshape %arg0, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<?x6xf32>
  %u = tosa.reshape %r, %t : (tensor<?x6xf32>, !tosa.shape<2>) -> tensor<3x8xf32>
  return %u : tensor<3x8xf32>"""
    (result,) = run(body, [x], ["tensor<3x8xf32>"])
    np.testing.assert_array_equal(result, x.reshape(3, 8))


@FAST
@given(shape=st.lists(st.integers(1, 5), min_size=1, max_size=4), data=st.data())
def test_slice_is_the_numpy_window(shape: list[int], data: st.DataObject) -> None:
    start = [data.draw(st.integers(0, d - 1)) for d in shape]
    size = [data.draw(st.integers(1, d - b)) for d, b in zip(shape, start, strict=True)]
    x = randn(*shape)
    result = run_op(
        "tosa.slice %arg0, %s0, %s1", [x], tensor(size, np.float32), shapes=[start, size]
    )
    window = tuple(slice(b, b + n) for b, n in zip(start, size, strict=True))
    np.testing.assert_array_equal(result, x[window])


def test_slice_size_minus_one_runs_to_the_end() -> None:
    x = randn(3, 5)
    result = run_op("tosa.slice %arg0, %s0, %s1", [x], "tensor<2x3xf32>", shapes=[(1, 2), (-1, -1)])
    np.testing.assert_array_equal(result, x[1:, 2:])


DYNAMIC_SLICE_AND_PAD = """
  %s = tosa.const_shape {values = dense<[-1, 5]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %d = tosa.reshape %arg0, %s : (tensor<4x5xf32>, !tosa.shape<2>) -> tensor<?x5xf32>
  %start = tosa.const_shape {values = dense<[START, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %r = tosa.slice %d, %start, %size : (tensor<?x5xf32>, !tosa.shape<2>, !tosa.shape<2>)
       -> tensor<2x4xf32>
  %p = tosa.const_shape {values = dense<[1, 0, 0, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %q = tosa.pad %d, %p, %arg1 : (tensor<?x5xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x7xf32>
  return %r, %q : tensor<2x4xf32>, tensor<?x7xf32>"""


def test_slice_and_pad_of_dynamic_shapes() -> None:
    x, fill = randn(4, 5), np.array([9.0], np.float32)
    results = ["tensor<2x4xf32>", "tensor<?x7xf32>"]
    window, padded = run(DYNAMIC_SLICE_AND_PAD.replace("START", "1"), [x, fill], results)
    np.testing.assert_array_equal(window, x[1:3, 1:])
    np.testing.assert_array_equal(padded, np.pad(x, ((1, 0), (0, 2)), constant_values=9.0))
    text = (
        "func.func @main(%arg0: tensor<4x5xf32>, %arg1: tensor<1xf32>)"
        f" -> ({', '.join(results)}) {{{DYNAMIC_SLICE_AND_PAD.replace('START', '3')}\n}}"
    )
    module, interpreter = interpreter_for(text)  # verifies: the input size is unknown
    plan = ModulePlan(module, interpreter).plan("main")
    with pytest.raises(InferenceError, match=r"'tosa.slice' op slice \[3, 5\) is out of bounds"):
        plan(interpreter, [x, fill])


def test_concat_of_three_inputs() -> None:
    a, b, c = randn(2, 1, 3), randn(2, 4, 3), randn(2, 2, 3)
    result = run_op(
        "tosa.concat %arg0, %arg1, %arg2 {axis = 1 : i32}", [a, b, c], "tensor<2x7x3xf32>"
    )
    np.testing.assert_array_equal(result, np.concatenate([a, b, c], axis=1))
    (single,) = [run_op("tosa.concat %arg0 {axis = 0 : i32}", [a], "tensor<2x1x3xf32>")]
    np.testing.assert_array_equal(single, a)


@FAST
@given(shape=st.lists(st.integers(1, 4), min_size=1, max_size=4), data=st.data())
def test_transpose(shape: list[int], data: st.DataObject) -> None:
    perms = data.draw(st.permutations(range(len(shape))))
    x = randn(*shape)
    out = [shape[p] for p in perms]
    result = run_op(
        f"tosa.transpose %arg0 {{perms = array<i32: {', '.join(map(str, perms))}>}}",
        [x],
        tensor(out, np.float32),
    )
    np.testing.assert_array_equal(result, np.transpose(x, perms))


def test_tile() -> None:
    x = np.arange(6, dtype=np.int32).reshape(2, 3)
    result = run_op("tosa.tile %arg0, %s0", [x], "tensor<4x9xi32>", shapes=[(2, 3)])
    np.testing.assert_array_equal(result, np.tile(x, (2, 3)))


@pytest.mark.parametrize(
    ("dtype", "fill"), [(np.float32, -1.5), (np.int8, -128), (BF16, 3.0), (np.bool_, True)]
)
def test_pad_with_pad_const(dtype: np.dtype, fill: float) -> None:
    x = (np.arange(6).reshape(2, 3) % 2).astype(dtype)
    pad_const = np.array([fill], dtype)
    result = run_op(
        "tosa.pad %arg0, %s0, %arg1", [x, pad_const], tensor((5, 4), dtype), shapes=[(1, 2, 0, 1)]
    )
    np.testing.assert_array_equal(result, np.pad(x, ((1, 2), (0, 1)), constant_values=pad_const[0]))


@FAST
@given(shape=st.lists(st.integers(1, 3), min_size=1, max_size=3), data=st.data())
def test_pad_matches_numpy(shape: list[int], data: st.DataObject) -> None:
    padding = [data.draw(st.integers(0, 2)) for _ in range(2 * len(shape))]
    x = randn(*shape)
    out = [lo + d + hi for d, lo, hi in zip(shape, padding[::2], padding[1::2], strict=True)]
    pad_const = np.array([7.0], np.float32)
    result = run_op(
        "tosa.pad %arg0, %s0, %arg1", [x, pad_const], tensor(out, np.float32), shapes=[padding]
    )
    pairs = list(zip(padding[::2], padding[1::2], strict=True))
    np.testing.assert_array_equal(result, np.pad(x, pairs, constant_values=7.0))


@pytest.mark.parametrize("axis", [0, 1, 2])
def test_reverse(axis: int) -> None:
    x = randn(2, 3, 4)
    result = run_op(f"tosa.reverse %arg0 {{axis = {axis} : i32}}", [x], "tensor<2x3x4xf32>")
    np.testing.assert_array_equal(result, np.flip(x, axis))


# ---------------------------------------------------------------------------------------
# GATHER / SCATTER
# ---------------------------------------------------------------------------------------


GATHER_INDICES = [
    [[4, 0, 0, 2], [1, 3, 4, 4]],
    [[3]],  # one row (a step of a loop over time: a view)
    [[0, 4, 2]],
    [[k % 5 for k in range(10)], [(3 * k) % 5 for k in range(10)]],  # 20 indices
]


@pytest.mark.parametrize("index_dtype", [np.int32, np.int64])
@pytest.mark.parametrize("rows", GATHER_INDICES, ids=["2x4", "1x1", "1x3", "2x10"])
def test_gather(index_dtype: np.dtype, rows: list[list[int]]) -> None:
    indices = np.array(rows, index_dtype)
    n, w = indices.shape
    values = randn(n, 5, 3)
    result = run_op("tosa.gather %arg0, %arg1", [values, indices], f"tensor<{n}x{w}x3xf32>")
    expected = np.empty((n, w, 3), np.float32)
    for i in range(n):
        for j in range(w):
            expected[i, j, :] = values[i, indices[i, j], :]
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("rows", GATHER_INDICES, ids=["2x4", "1x1", "1x3", "2x10"])
def test_scatter(rows: list[list[int]]) -> None:
    indices = np.array([sorted(set(r))[:2] for r in rows], np.int32)  # no duplicates
    n, w = indices.shape
    values, update = randn(n, 5, 3), randn(n, w, 3)
    result = run_op("tosa.scatter %arg0, %arg1, %arg2", [values, indices, update],
                    f"tensor<{n}x5x3xf32>")
    expected = values.copy()
    for i in range(n):
        for j in range(w):
            expected[i, indices[i, j], :] = update[i, j, :]
    np.testing.assert_array_equal(result, expected)


@pytest.mark.parametrize("op", ["gather", "scatter"])
@pytest.mark.parametrize("rows", [[[0, 25]], [[0, -1]], [[25]], [[-1]], [[-1] * 20]])
def test_index_out_of_range_is_an_error(op: str, rows: list[list[int]]) -> None:
    indices = np.array(rows, np.int32)
    w = indices.shape[1]
    values, update = randn(1, 25, 2), randn(1, w, 2)
    vtype, itype, utype = "tensor<1x25x2xf32>", f"tensor<1x{w}xi32>", f"tensor<1x{w}x2xf32>"
    result = utype if op == "gather" else vtype
    call = (f"tosa.gather %v, %i : ({vtype}, {itype}) -> {result}" if op == "gather"
            else f"tosa.scatter %v, %i, %u : ({vtype}, {itype}, {utype}) -> {result}")
    module, interpreter = interpreter_for(
        f"func.func @main(%v: {vtype}, %i: {itype}, %u: {utype}) -> {result} {{\n"
        f"  %r = {call}\n  return %r : {result}\n}}"
    )
    plan = ModulePlan(module, interpreter).plan("main")
    bad = sorted({i for i in rows[0] if not 0 <= i < 25})
    with pytest.raises(  # indices straight from an input: its name and bad values
        InferenceError, match=rf"^test.mlir:2:3: error: 'tosa.{op}' op: input 'i' "
        rf"\[{', '.join(map(str, bad))}\] is out of range for a dimension of size 25 "
        r"\(valid: 0 to 24\)$"
    ):
        plan(interpreter, [values, indices, update])
    low, high = min(rows[0]), max(rows[0])
    with pytest.raises(  # a function called with them: the kernel's message
        InferenceError, match=rf"^test.mlir:2:3: error: 'tosa.{op}' op index out of range: "
        rf"indices must be in \[0, 25\), got values from {low} to {high}$"
    ):
        FunctionPlan(module.body.block.first_op, interpreter, None)(  # type: ignore[arg-type]
            interpreter, [values, indices, update])


# ---------------------------------------------------------------------------------------
# COND_IF
# ---------------------------------------------------------------------------------------

COND_IF = """
  %r:2 = tosa.cond_if %arg0 (%a = %arg1, %b = %arg2)
      : {cond} (tensor<3xf32>, tensor<3xf32>) -> (tensor<3xf32>, tensor<3xf32>) {{
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %s = tosa.concat %a, %b {{axis = 0 : i32}} : (tensor<3xf32>, tensor<3xf32>) -> tensor<6xf32>
    %m = tosa.reduce_max %s {{axis = 0 : i32}} : (tensor<6xf32>) -> tensor<1xf32>
    %t = tosa.tile %m, %three : (tensor<1xf32>, !tosa.shape<1>) -> tensor<3xf32>
    tosa.yield %t, %a : tensor<3xf32>, tensor<3xf32>
  }} else {{
  ^bb0(%a: tensor<3xf32>, %b: tensor<3xf32>):
    %n = tosa.reverse %b {{axis = 0 : i32}} : (tensor<3xf32>) -> tensor<3xf32>
    tosa.yield %n, %arg3 : tensor<3xf32>, tensor<3xf32>
  }}
  return %r#0, %r#1 : tensor<3xf32>, tensor<3xf32>"""
SHAPE_3 = "  %three = tosa.const_shape {values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>"


@pytest.mark.parametrize("cond_shape", [(), (1,)])
def test_cond_if_runs_the_chosen_branch(cond_shape: tuple[int, ...]) -> None:
    x, y, z = randn(3), randn(3), randn(3)
    cond = tensor(cond_shape, np.bool_)
    body = SHAPE_3 + COND_IF.format(cond=cond)
    results = ["tensor<3xf32>", "tensor<3xf32>"]
    then = run(body, [np.full(cond_shape, True), x, y, z], results)
    np.testing.assert_array_equal(then[0], np.full(3, max(x.max(), y.max()), np.float32))
    np.testing.assert_array_equal(then[1], x)
    other = run(body, [np.full(cond_shape, False), x, y, z], results)
    np.testing.assert_array_equal(other[0], y[::-1])
    np.testing.assert_array_equal(other[1], z)  # a value captured from outside


def test_cond_if_on_a_constant_reads_captured_arguments_at_run_time() -> None:
    text = """func.func @main(%arg0: tensor<2xf32>) -> tensor<2xf32> {
  %c = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
  %r = tosa.cond_if %c : tensor<1xi1> -> tensor<2xf32> {
    tosa.yield %arg0 : tensor<2xf32>
  } else {
    %n = tosa.reverse %arg0 {axis = 0 : i32} : (tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %n : tensor<2xf32>
  }
  return %r : tensor<2xf32>
}"""
    for values in ([1.0, 2.0], [3.0, 4.0]):  # never folded into a constant
        (result,) = run_text(text, [np.array(values, np.float32)])
        np.testing.assert_array_equal(result, values)


def test_nested_cond_if_without_results() -> None:
    body = """
  tosa.cond_if %arg0 : tensor<i1> -> () {
    tosa.cond_if %arg0 : tensor<i1> -> () {
      tosa.yield
    } else {
      tosa.yield
    }
    tosa.yield
  } else {
    tosa.yield
  }
  %r = tosa.identity %arg1 : (tensor<2xi32>) -> tensor<2xi32>
  return %r : tensor<2xi32>"""
    x = np.array([1, 2], np.int32)
    for cond in (True, False):
        (result,) = run(body, [np.array(cond), x], ["tensor<2xi32>"])
        np.testing.assert_array_equal(result, x)


# ---------------------------------------------------------------------------------------
# Builders, types and syntax
# ---------------------------------------------------------------------------------------


def test_builders_infer_result_types() -> None:
    block = Block(arg_types=[TensorType(f32, [2, 3, 4]), TensorType(i1, [1])])
    x = block.args[0]
    transpose = TransposeOp(x, [2, 0, 1])
    assert transpose.output.type == TensorType(f32, [4, 2, 3])
    reduce = ReduceSumOp(x, 1)
    assert reduce.output.type == TensorType(f32, [2, 1, 4])
    shape = ConstShapeOp([2, 12])
    assert shape.output.type == ShapeType(2) and shape.shape_values == (2, 12)
    then_block = Block(arg_types=[x.type])
    then_block.add_op(YieldOp(then_block.args[0]))
    else_block = Block(arg_types=[x.type])
    reverse = ReverseOp(else_block.args[0], 0)
    else_block.add_ops([reverse, YieldOp(reverse.output)])
    if_op = IfOp(block.args[1], [x], [x.type], then_block, else_block)
    assert if_op.output_list.types == (x.type,)
    block.add_ops([transpose, reduce, shape, if_op])
    for op in (transpose, reduce, shape, if_op):
        op.verify()


def test_shape_type_syntax() -> None:
    ctx = make_context()
    module = parse_mlir(ctx, "func.func @f(%s: !tosa.shape<3>, %t: !tosa.shape<0>) { return }")
    assert "!tosa.shape<3>, %t: !tosa.shape<0>" in print_module(module)
    with pytest.raises((ParseError, TosaStateError)):
        parse_mlir(ctx, "func.func @f(%s: !tosa.shape<-1>) { return }")


# ---------------------------------------------------------------------------------------
# Peers: upstream MLIR parses our output; the TOSA reference model agrees with our numbers
# ---------------------------------------------------------------------------------------


@pytest.mark.peers
def test_our_output_parses_in_tosa_opt_and_means_the_same(upstream_mlir_tools: None) -> None:
    from peers.upstream_mlir import iree_opt, tosa_opt

    module = parse_mlir(make_context(), (LIT / "tensor.mlir").read_text(), "tensor.mlir")
    verify_module(module)
    custom = print_module(module)
    generic = print_module(module, generic=True)
    # tosa-opt renames every value: its generic print of our custom form and of our
    # generic form agree only if our custom syntax means what upstream's does.
    assert tosa_opt(custom, "--mlir-print-op-generic") == tosa_opt(
        generic, "--mlir-print-op-generic"
    )
    iree_opt(generic)
    iree_opt(print_module(module, spelling="upstream"))
    # ... and what tosa-opt prints (but an empty `tosa.yield`) comes back to us unchanged.
    upstream = tosa_opt(custom).replace("tosa.yield  : \n", '"tosa.yield"() : () -> ()\n')
    again = parse_mlir(make_context(), upstream, "upstream.mlir")
    verify_module(again)
    assert print_module(again).count("tosa.") == custom.count("tosa.")


REFERENCE_PROGRAM = """
func.func @main(%x: tensor<2x3x4xf32>, %w: tensor<2x4x5xf32>, %qa: tensor<1x3x4xi8>,
                %qb: tensor<1x4x2xi8>, %idx: tensor<2x6xi32>)
    -> (tensor<2x3x5xf32>, tensor<1x3x2xi32>, tensor<2x4xi32>, tensor<2x3xi32>,
        tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x5x7xf32>,
        tensor<2x6x4xf32>, tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2x6x4xf32>,
        tensor<2x3x4xf32>, tensor<2x2x3xf32>, tensor<4x3x4xf32>) {
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %za = "tosa.const"() <{values = dense<-3> : tensor<1xi8>}> : () -> tensor<1xi8>
  %zb = "tosa.const"() <{values = dense<5> : tensor<1xi8>}> : () -> tensor<1xi8>
  %pc = "tosa.const"() <{values = dense<-2.5> : tensor<1xf32>}> : () -> tensor<1xf32>
  %0 = tosa.matmul %x, %w, %zf, %zf : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>,
                                       tensor<1xf32>) -> tensor<2x3x5xf32>
  %1 = tosa.matmul %qa, %qb, %za, %zb : (tensor<1x3x4xi8>, tensor<1x4x2xi8>, tensor<1xi8>,
                                         tensor<1xi8>) -> tensor<1x3x2xi32>
  %2 = tosa.argmax %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x4xi32>
  %3 = tosa.argmax %x {axis = 2 : i32, nan_mode = IGNORE}
       : (tensor<2x3x4xf32>) -> tensor<2x3xi32>
  %4 = tosa.reduce_max %x {axis = 1 : i32, nan_mode = IGNORE}
       : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
  %5 = tosa.reduce_sum %x {axis = 2 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x1xf32>
  %6 = tosa.reduce_min %x {axis = 0 : i32} : (tensor<2x3x4xf32>) -> tensor<1x3x4xf32>
  %p = tosa.const_shape {values = dense<[0, 0, 1, 1, 2, 1]> : tensor<6xindex>}
       : () -> !tosa.shape<6>
  %7 = tosa.pad %x, %p, %pc
       : (tensor<2x3x4xf32>, !tosa.shape<6>, tensor<1xf32>) -> tensor<2x5x7xf32>
  %8 = tosa.gather %x, %idx : (tensor<2x3x4xf32>, tensor<2x6xi32>) -> tensor<2x6x4xf32>
  %s = tosa.const_shape {values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %9 = tosa.reshape %x, %s : (tensor<2x3x4xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
  %10 = tosa.transpose %x {perms = array<i32: 2, 0, 1>}
        : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %m = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %11 = tosa.tile %x, %m : (tensor<2x3x4xf32>, !tosa.shape<3>) -> tensor<2x6x4xf32>
  %12 = tosa.reverse %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  %st = tosa.const_shape {values = dense<[0, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %sz = tosa.const_shape {values = dense<[2, 2, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %13 = tosa.slice %x, %st, %sz
        : (tensor<2x3x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<2x2x3xf32>
  %14 = tosa.concat %x, %12 {axis = 0 : i32}
        : (tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<4x3x4xf32>
  return %0, %1, %2, %3, %4, %5, %6, %7, %8, %9, %10, %11, %12, %13, %14
      : tensor<2x3x5xf32>, tensor<1x3x2xi32>, tensor<2x4xi32>, tensor<2x3xi32>,
        tensor<2x1x4xf32>, tensor<2x3x1xf32>, tensor<1x3x4xf32>, tensor<2x5x7xf32>,
        tensor<2x6x4xf32>, tensor<4x6xf32>, tensor<4x2x3xf32>, tensor<2x6x4xf32>,
        tensor<2x3x4xf32>, tensor<2x2x3xf32>, tensor<4x3x4xf32>
}
"""


@pytest.mark.peers
def test_the_tosa_reference_model_agrees(tosa_reference_tools: None) -> None:
    from peers.tosa_reference import run_reference

    steps = []
    for _ in range(2):
        x = randn(2, 3, 4)
        x[0, 1, 2] = np.nan  # NaN handling of argmax / reduce_max
        x[1, 2, :2] = 1.0  # ties
        qa = rng.integers(-128, 128, (1, 3, 4)).astype(np.int8)
        qb = rng.integers(-128, 128, (1, 4, 2)).astype(np.int8)
        idx = rng.integers(0, 3, (2, 6)).astype(np.int32)
        steps.append([x, randn(2, 4, 5), qa, qb, idx])
    reference = run_reference(REFERENCE_PROGRAM, steps)
    for inputs, expected in zip(steps, reference.outputs, strict=True):
        ours = run_text(REFERENCE_PROGRAM, inputs)
        assert len(ours) == len(expected) == 15
        for mine, theirs in zip(ours, expected, strict=True):
            assert mine.dtype == theirs.dtype and mine.shape == theirs.shape
            np.testing.assert_allclose(mine, theirs, rtol=1e-5, atol=1e-6)
