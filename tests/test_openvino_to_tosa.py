"""`convert-openvino-to-tosa`: the pass on `openvino` dialect programs, checked against numpy
(including the cases where the OpenVINO CPU plugin deviates from the specification), and end
to end on OpenVINO IR files through `tosa-state-opt`, `tosa-state-run` and `compile_model`.

The differential tests against the OpenVINO runtime are in `test_openvino_differential.py`.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp, TensorType

import tosa_state as ts
from tosa_state import make_context
from tosa_state.diagnostics import InferenceError
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.transforms import ConvertOpenVINOToTosaPass, get_all_passes
from tosa_state.transforms.pipeline import PipelineError

# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def convert(text: str) -> ModuleOp:
    module = parse_mlir(make_context(), text, "test.mlir")
    ConvertOpenVINOToTosaPass().apply(make_context(), module)
    module.verify()
    return module


def run(text: str, *inputs: np.ndarray) -> list[np.ndarray]:
    """One call of `@main` (converted by `compile_model`)."""
    compiled = ts.compile_model(parse_mlir(make_context(), text, "test.mlir"))
    return list(compiled.create_infer_request().infer(list(inputs)))


def func(args: str, results: str, body: str) -> str:
    return f"func.func @main({args}) -> ({results}) {{\n{body}\n}}"


def i32(*values: int) -> np.ndarray:
    return np.array(values, np.int32)


# ---------------------------------------------------------------------------------------------
# The pass
# ---------------------------------------------------------------------------------------------


def test_pass_is_registered() -> None:
    assert get_all_passes()["convert-openvino-to-tosa"]() is ConvertOpenVINOToTosaPass


ACCUMULATOR = func(
    "%x: tensor<?x3xf32> {openvino.name = \"x\"}",
    "tensor<?x3xf32>",
    """
  %init = openvino.constant dense<1.0> : tensor<2x3xf32>
  %v = openvino.read_value "v"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2, 3]>} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %s = openvino.add %v, %x : (tensor<2x3xf32>, tensor<?x3xf32>) -> tensor<?x3xf32>
  openvino.assign "v", %s {version = 6 : i64} : tensor<?x3xf32>
  func.return %s : tensor<?x3xf32>""",
)


def test_dynamic_input_shapes_are_kept_and_broadcast_at_run_time() -> None:
    """`?x3` + `2x3` is `2x3` (numpy broadcasting): a batch of 2 or 1 runs, 3 fails at the
    add, naming it."""
    compiled = ts.compile_model(parse_mlir(make_context(), ACCUMULATOR, "test.mlir"))
    assert compiled.inputs[0].shape == (-1, 3) and compiled.outputs[0].shape == (2, 3)
    request = compiled.create_infer_request()
    np.testing.assert_array_equal(request.infer([np.ones((2, 3), np.float32)])[0], 2.0)
    np.testing.assert_array_equal(request.infer([np.ones((1, 3), np.float32)])[0], 3.0)
    with pytest.raises(ts.TosaStateError, match=r"test.mlir:\d+:\d+: error: 'tosa.add' op failed "
                       "at run time"):
        request.infer([np.ones((3, 3), np.float32)])


def test_no_openvino_op_is_left_and_result_types_are_static() -> None:
    static = ACCUMULATOR.replace(
        "%s = openvino.add %v, %x : (tensor<2x3xf32>, tensor<?x3xf32>)",
        "%s = openvino.add %v, %x : (tensor<2x3xf32>, tensor<2x3xf32>)",
    ).replace("%x: tensor<?x3xf32>", "%x: tensor<2x3xf32>")
    module = convert(static)
    assert not [op for op in module.walk() if op.dialect_name() == "openvino"]
    main = next(op for op in module.body.block.ops if op.name == "func.func")
    assert [str(t) for t in main.function_type.outputs.data] == ["tensor<2x3xf32>"]
    (variable,) = [op for op in module.body.block.ops if isinstance(op, VariableOp)]
    assert variable.var_name == "v" and variable.tensor_type == TensorType(
        variable.element_type, [2, 3]
    )


def test_reads_come_before_all_writes() -> None:
    text = func(
        "%x: tensor<2xf32>",
        "tensor<2xf32>",
        """
  %za = openvino.constant dense<0.0> : tensor<2xf32>
  %a = openvino.read_value "a"(%za) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2]>} : (tensor<2xf32>) -> tensor<2xf32>
  %a1 = openvino.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  openvino.assign "a", %a1 {version = 6 : i64} : tensor<2xf32>
  %b = openvino.read_value "b"(%a1) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2]>} : (tensor<2xf32>) -> tensor<2xf32>
  %b1 = openvino.multiply %b, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  openvino.assign "b", %b1 {version = 6 : i64} : tensor<2xf32>
  func.return %b1 : tensor<2xf32>""",
    )
    main = next(op for op in convert(text).body.block.ops if op.name == "func.func")
    ops = list(main.body.block.ops)
    reads = [i for i, op in enumerate(ops) if isinstance(op, VariableReadOp)]
    writes = [i for i, op in enumerate(ops) if isinstance(op, VariableWriteOp)]
    assert len(reads) == 3 and len(writes) == 3  # a, b and b's init flag
    assert max(reads) < min(writes) and writes == list(range(len(ops) - 4, len(ops) - 1))


def test_computed_init_is_used_on_the_first_call_only() -> None:
    text = func(
        "%x: tensor<2xf32>",
        "tensor<?xf32>",
        """
  %two = openvino.constant dense<2.0> : tensor<f32>
  %init = openvino.multiply %x, %two : (tensor<2xf32>, tensor<f32>) -> tensor<2xf32>
  %s = openvino.read_value "s"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?]>} : (tensor<2xf32>) -> tensor<?xf32>
  %s1 = openvino.add %s, %x : (tensor<?xf32>, tensor<2xf32>) -> tensor<?xf32>
  openvino.assign "s", %s1 {version = 6 : i64} : tensor<?xf32>
  func.return %s1 : tensor<?xf32>""",
    )
    request = ts.compile_model(parse_mlir(make_context(), text)).create_infer_request()
    x = np.array([1.0, -2.0], np.float32)
    np.testing.assert_array_equal(request.infer([x])[0], 3 * x)
    np.testing.assert_array_equal(request.infer([x])[0], 4 * x)
    request.reset_state()
    np.testing.assert_array_equal(request.infer([x * 10])[0], 30 * x)


# ---------------------------------------------------------------------------------------------
# Semantics checked against numpy (OpenVINO's specification)
# ---------------------------------------------------------------------------------------------

SIGNED = (i32(-7, -7, 7, 7, -8, 0, 9), i32(2, -2, 2, -2, 4, -3, 4))


def _binary(op: str, element: str, n: int, attrs: str = "") -> str:
    t = f"tensor<{n}x{element}>"
    body = f"""
  %0 = openvino.{op} %a, %b {attrs} : ({t}, {t}) -> {t}
  func.return %0 : {t}"""
    return func(f"%a: {t}, %b: {t}", t, body)


@pytest.mark.parametrize(
    ("op", "attrs", "expected"),
    [
        ("divide", "", np.floor_divide),
        ("divide", "{m_pythondiv = false}", lambda a, b: np.trunc(a / b).astype(np.int32)),
        ("mod", "", np.fmod),
        ("floor_mod", "", np.mod),
    ],
)
def test_integer_division_and_remainders(op: str, attrs: str, expected) -> None:
    a, b = SIGNED
    (got,) = run(_binary(op, "i32", 7, attrs), a, b)
    np.testing.assert_array_equal(got, expected(a, b))


def test_i16_division_goes_through_i32() -> None:
    a, b = (x.astype(np.int16) for x in SIGNED)
    (got,) = run(_binary("divide", "i16", 7), a, b)
    np.testing.assert_array_equal(got, np.floor_divide(a, b))


@pytest.mark.parametrize("op", ["mod", "floor_mod", "divide"])
def test_float_division_and_remainders(op: str) -> None:
    a = np.array([-7.5, -7.5, 7.5, 7.5, 0.3, 5.0], np.float32)
    b = np.array([2.0, -2.0, 2.0, -2.0, 0.1, 0.25], np.float32)
    (got,) = run(_binary(op, "f32", 6), a, b)
    expected = {"mod": np.fmod, "floor_mod": np.mod, "divide": np.divide}[op](a, b)
    np.testing.assert_allclose(got, expected, rtol=1e-6, atol=1e-6)


def test_f16_division_is_rounded_once() -> None:
    a = np.array([1.0, 2.0, 3.0, 1000.0], np.float16)
    b = np.array([3.0, 7.0, 9.0, 3.0], np.float16)
    (got,) = run(_binary("divide", "f16", 4), a, b)
    np.testing.assert_array_equal(got, (a.astype(np.float32) / b).astype(np.float16))


def test_integer_power() -> None:
    a, b = i32(-3, 2, 5, 0), i32(3, 10, 2, 0)
    (got,) = run(_binary("power", "i32", 4), a, b)
    np.testing.assert_array_equal(got, a**b)


def test_boolean_comparisons() -> None:
    a, b = np.array([True, True, False, False]), np.array([True, False, True, False])
    text = func(
        "%a: tensor<4xi1>, %b: tensor<4xi1>",
        "tensor<4xi1>, tensor<4xi1>",
        """
  %0 = openvino.equal %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = openvino.less %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  func.return %0, %1 : tensor<4xi1>, tensor<4xi1>""",
    )
    equal, less = run(text, a, b)
    np.testing.assert_array_equal(equal, a == b)
    np.testing.assert_array_equal(less, a < b)


def test_convert_truncates_and_clamp_rounds_integer_bounds_inward() -> None:
    x = np.array([-2.5, -1.5, -0.7, 0.7, 1.5, 2.5], np.float32)
    k = i32(-3, -2, -1, 0, 2, 3)
    text = func(
        "%x: tensor<6xf32>, %k: tensor<6xi32>",
        "tensor<6xi32>, tensor<6xi32>, tensor<6xbf16>",
        """
  %0 = openvino.convert %x {destination_type = i32} : (tensor<6xf32>) -> tensor<6xi32>
  %1 = openvino.clamp %k {min = -1.5 : f64, max = 2.5 : f64} : (tensor<6xi32>) -> tensor<6xi32>
  %2 = openvino.convert %x {destination_type = f16} : (tensor<6xf32>) -> tensor<6xf16>
  %3 = openvino.convert %2 {destination_type = bf16} : (tensor<6xf16>) -> tensor<6xbf16>
  func.return %0, %1, %3 : tensor<6xi32>, tensor<6xi32>, tensor<6xbf16>""",
    )
    truncated, clamped, narrow = run(text, x, k)
    np.testing.assert_array_equal(truncated, np.trunc(x).astype(np.int32))
    np.testing.assert_array_equal(clamped, np.clip(k, -1, 2))
    np.testing.assert_array_equal(narrow, x.astype(ml_dtypes.bfloat16))


def test_strided_slice_masks_and_slice() -> None:
    x = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    text = func(
        "%x: tensor<2x3x4xf32>",
        "tensor<2x3x1xf32>, tensor<2x4xf32>, tensor<1x3x4xf32>",
        """
  %b = openvino.constant dense<[9, 0, 0, 2]> : tensor<4xi64>
  %e = openvino.constant dense<[2, 0, 0, 3]> : tensor<4xi64>
  %s = openvino.constant dense<[1, 1, 1, 1]> : tensor<4xi64>
  %0 = openvino.strided_slice %x, %b, %e, %s {begin_mask = array<i64: 1, 0, 0, 0>, end_mask = array<i64: 0, 0, 0, 0>, new_axis_mask = array<i64: 0, 0, 1, 0>, shrink_axis_mask = array<i64: 0, 0, 0, 1>, ellipsis_mask = array<i64: 0, 1, 0, 0>} : (tensor<2x3x4xf32>, tensor<4xi64>, tensor<4xi64>, tensor<4xi64>) -> tensor<2x3x1xf32>
  %b2 = openvino.constant dense<[-1, 2]> : tensor<2xi64>
  %e2 = openvino.constant dense<[5, 0]> : tensor<2xi64>
  %s2 = openvino.constant dense<[-1, 1]> : tensor<2xi64>
  %1 = openvino.strided_slice %x, %b2, %e2, %s2 {begin_mask = array<i64: 0, 0>, end_mask = array<i64: 1, 0>, new_axis_mask = array<i64>, shrink_axis_mask = array<i64: 0, 1>, ellipsis_mask = array<i64>} : (tensor<2x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x4xf32>
  %start = openvino.constant dense<[1, -1]> : tensor<2xi64>
  %stop = openvino.constant dense<[3, -4]> : tensor<2xi64>
  %step = openvino.constant dense<[1, -1]> : tensor<2xi64>
  %axes = openvino.constant dense<[0, 1]> : tensor<2xi64>
  %2 = openvino.slice %x, %start, %stop, %step, %axes : (tensor<2x3x4xf32>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x3x4xf32>
  func.return %0, %1, %2 : tensor<2x3x1xf32>, tensor<2x4xf32>, tensor<1x3x4xf32>""",
    )
    first, second, third = run(text, x)
    np.testing.assert_array_equal(first, x[:2, ..., np.newaxis, 2])
    np.testing.assert_array_equal(second, x[-1::-1, 2])
    np.testing.assert_array_equal(third, x[1:3, -1:-4:-1])


@pytest.mark.parametrize("batch_dims", [0, 1])
def test_gather_with_computed_negative_indices(batch_dims: int) -> None:
    data = np.arange(2 * 5 * 3, dtype=np.float32).reshape(2, 5, 3)
    indices = np.array([[4, -1, 0], [-5, 2, 2]], np.int64)
    out = "2x2x3x3" if batch_dims == 0 else "2x3x3"
    text = func(
        "%d: tensor<2x5x3xf32>, %i: tensor<2x3xi64>",
        f"tensor<{out}xf32>",
        f"""
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.gather %d, %i, %axis {{batch_dims = {batch_dims} : i64}} : (tensor<2x5x3xf32>, tensor<2x3xi64>, tensor<i64>) -> tensor<{out}xf32>
  func.return %0 : tensor<{out}xf32>""",
    )
    (got,) = run(text, data, indices)
    wrapped = np.where(indices < 0, indices + 5, indices)
    if batch_dims == 0:
        expected = np.take(data, wrapped, axis=1)
    else:
        expected = np.stack([np.take(data[b], wrapped[b], axis=0) for b in range(2)])
    np.testing.assert_array_equal(got, expected)


def test_broadcast_modes() -> None:
    x = np.array([1.0, 2.0, 3.0], np.float32)
    text = func(
        "%x: tensor<3xf32>",
        "tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x3xf32>",
        """
  %s23 = openvino.constant dense<[2, 3]> : tensor<2xi64>
  %0 = openvino.broadcast %x, %s23 : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  %s32 = openvino.constant dense<[3, 2]> : tensor<2xi64>
  %axes = openvino.constant dense<[0]> : tensor<1xi64>
  %1 = openvino.broadcast %x, %s32, %axes {mode = "explicit"} : (tensor<3xf32>, tensor<2xi64>, tensor<1xi64>) -> tensor<3x2xf32>
  %s31 = openvino.constant dense<[3, 1]> : tensor<2xi64>
  %2 = openvino.broadcast %x, %s31 {mode = "bidirectional"} : (tensor<3xf32>, tensor<2xi64>) -> tensor<3x3xf32>
  func.return %0, %1, %2 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x3xf32>""",
    )
    numpy_mode, explicit, bidirectional = run(text, x)
    np.testing.assert_array_equal(numpy_mode, np.broadcast_to(x, (2, 3)))
    np.testing.assert_array_equal(explicit, np.broadcast_to(x[:, None], (3, 2)))
    np.testing.assert_array_equal(bidirectional, np.broadcast_to(x, (3, 3)))


def test_matmul_vectors_batches_and_integers() -> None:
    v = np.array([1.0, 2.0, 3.0], np.float32)
    m = np.arange(2 * 3 * 4, dtype=np.float32).reshape(2, 3, 4)
    k = np.arange(6, dtype=np.int32).reshape(2, 3) - 2
    text = func(
        "%v: tensor<3xf32>, %m: tensor<2x3x4xf32>, %k: tensor<2x3xi32>",
        "tensor<f32>, tensor<2x4xf32>, tensor<2x2xi32>",
        """
  %0 = openvino.matmul %v, %v : (tensor<3xf32>, tensor<3xf32>) -> tensor<f32>
  %1 = openvino.matmul %v, %m : (tensor<3xf32>, tensor<2x3x4xf32>) -> tensor<2x4xf32>
  %2 = openvino.matmul %k, %k {transpose_b = true} : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x2xi32>
  func.return %0, %1, %2 : tensor<f32>, tensor<2x4xf32>, tensor<2x2xi32>""",
    )
    dot, batched, integers = run(text, v, m, k)
    np.testing.assert_allclose(dot, v @ v)
    np.testing.assert_allclose(batched, v @ m)
    np.testing.assert_array_equal(integers, k @ k.T)


def test_reductions_and_splits() -> None:
    x = np.arange(24, dtype=np.int32).reshape(2, 3, 4)
    text = func(
        "%x: tensor<2x3x4xi32>",
        "tensor<3xi32>, tensor<2x1x1xi32>, tensor<2x3x0xi32>, tensor<2x3x4xi32>",
        """
  %a = openvino.constant dense<[0, -1]> : tensor<2xi64>
  %0 = openvino.reduce_mean %x, %a : (tensor<2x3x4xi32>, tensor<2xi64>) -> tensor<3xi32>
  %b = openvino.constant dense<[1, 2]> : tensor<2xi64>
  %1 = openvino.reduce_max %x, %b {keep_dims = true} : (tensor<2x3x4xi32>, tensor<2xi64>) -> tensor<2x1x1xi32>
  %axis = openvino.constant dense<2> : tensor<i64>
  %lengths = openvino.constant dense<[0, -1]> : tensor<2xi64>
  %2:2 = openvino.variadic_split %x, %axis, %lengths : (tensor<2x3x4xi32>, tensor<i64>, tensor<2xi64>) -> (tensor<2x3x0xi32>, tensor<2x3x4xi32>)
  func.return %0, %1, %2#0, %2#1 : tensor<3xi32>, tensor<2x1x1xi32>, tensor<2x3x0xi32>, tensor<2x3x4xi32>""",
    )
    mean, maximum, empty, whole = run(text, x)
    np.testing.assert_array_equal(mean, x.sum(axis=(0, 2)) // 8)
    np.testing.assert_array_equal(maximum, x.max(axis=(1, 2), keepdims=True))
    assert empty.shape == (2, 3, 0)
    np.testing.assert_array_equal(whole, x)


def _tensor_iterator(slicing: str, part: int) -> str:
    """A TensorIterator summing parts of x (shape [1, 6]) along axis 1."""
    t = f"tensor<1x{part}xf32>"
    return func(
        "%x: tensor<1x6xf32>, %h: " + t,
        f"tensor<1x6xf32>, {t}",
        f"""
  %0:2 = openvino.tensor_iterator(%x, %h) {{input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, {slicing}, part_size = {part}>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, {slicing}, part_size = {part}>, #openvino.port_map<external = 1, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]}} : (tensor<1x6xf32>, {t}) -> (tensor<1x6xf32>, {t}) {{
  ^bb0(%xi: {t}, %hi: {t}):
    %s = openvino.add %xi, %hi : ({t}, {t}) -> {t}
    openvino.yield %s, %s : {t}, {t}
  }}
  func.return %0#0, %0#1 : tensor<1x6xf32>, {t}""",
    )


@pytest.mark.parametrize(
    ("slicing", "part", "order"),
    [
        ("start = 0, end = -1, stride = 1", 1, [0, 1, 2, 3, 4, 5]),
        ("start = -1, end = 0, stride = -1", 1, [5, 4, 3, 2, 1, 0]),
        ("start = 0, end = -1, stride = 2", 2, [0, 1, 2, 3, 4, 5]),
        ("start = -1, end = 0, stride = -2", 2, [4, 5, 2, 3, 0, 1]),
    ],
)
def test_tensor_iterator_slicing(slicing: str, part: int, order: list[int]) -> None:
    x = np.array([[1.0, 2.0, 4.0, 8.0, 16.0, 32.0]], np.float32)
    h = np.zeros((1, part), np.float32)
    y, last = run(_tensor_iterator(slicing, part), x, h)
    parts = x[0, order].reshape(-1, part)
    sums = np.cumsum(parts, axis=0)
    # Each iteration's part goes where its input part came from.
    expected = np.empty(6, np.float32)
    expected[order] = sums.reshape(-1)
    np.testing.assert_array_equal(y[0], expected)
    np.testing.assert_array_equal(last[0], sums[-1])


def test_tensor_iterator_offsets_invariants_and_last_values() -> None:
    """Parts of 2 from offset 1 to 7 of x [1, 8] (3 iterations; the CPU plugin would read
    from 0, see docs/openvino.md), an invariant input `w`, a sliced input that is also a
    back edge (its first part, then the yielded value), and a last-iteration output that
    no back edge carries."""
    t, w = "tensor<1x2xf32>", "tensor<1x2xf32>"
    text = func(
        f"%x: tensor<1x8xf32>, %w: {w}, %z: tensor<1x6xf32>",
        f"tensor<1x6xf32>, {t}, {t}",
        f"""
  %0:3 = openvino.tensor_iterator(%x, %w, %z) {{input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 1, end = 7, stride = 2, part_size = 2>, #openvino.port_map<external = 1, internal = 1>, #openvino.port_map<external = 2, internal = 2, axis = 1, start = 0, end = -1, stride = 2, part_size = 2>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 2, part_size = 2>, #openvino.port_map<external = 1, internal = 1>, #openvino.port_map<external = 2, internal = 2>], back_edges = [#openvino.back_edge<from = 1, to = 2>]}} : (tensor<1x8xf32>, {w}, tensor<1x6xf32>) -> (tensor<1x6xf32>, {t}, {t}) {{
  ^bb0(%xi: {t}, %wi: {w}, %zi: {t}):
    %p = openvino.multiply %xi, %wi : ({t}, {w}) -> {t}
    %s = openvino.add %p, %zi : ({t}, {t}) -> {t}
    %n = openvino.negative %s : ({t}) -> {t}
    openvino.yield %s, %s, %n : {t}, {t}, {t}
  }}
  func.return %0#0, %0#1, %0#2 : tensor<1x6xf32>, {t}, {t}""",
    )
    x = np.arange(1.0, 9.0, dtype=np.float32).reshape(1, 8)
    weights = np.array([[2.0, -1.0]], np.float32)
    z = np.array([[10.0, 20.0, 30.0, 40.0, 50.0, 60.0]], np.float32)
    y, last, negated = run(text, x, weights, z)
    state, parts = z[:, 0:2], []
    for k in range(3):
        state = x[:, 1 + 2 * k:3 + 2 * k] * weights + state
        parts.append(state)
    np.testing.assert_array_equal(y, np.concatenate(parts, axis=1))
    np.testing.assert_array_equal(last, state)
    np.testing.assert_array_equal(negated, -state)


def test_tensor_iterator_body_may_use_values_from_outside() -> None:
    """In MLIR text a body may use a value of the enclosing function directly (IR files
    cannot): the loop, isolated from above, carries it in."""
    t = "tensor<1x1xf32>"
    text = func(
        "%x: tensor<1x3xf32>, %w: " + t, "tensor<1x3xf32>",
        f"""
  %0 = openvino.tensor_iterator(%x) {{input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>], back_edges = []}} : (tensor<1x3xf32>) -> tensor<1x3xf32> {{
  ^bb0(%xi: {t}):
    %s = openvino.multiply %xi, %w : ({t}, {t}) -> {t}
    openvino.yield %s : {t}
  }}
  func.return %0 : tensor<1x3xf32>""",
    )
    x = np.array([[1.0, 2.0, 3.0]], np.float32)
    (y,) = run(text, x, np.array([[-2.0]], np.float32))
    np.testing.assert_array_equal(y, -2 * x)


def test_tensor_iterator_partial_reverse_is_rejected() -> None:
    with pytest.raises(PipelineError, match="a negative stride must cover the whole axis"):
        run(_tensor_iterator("start = -2, end = 0, stride = -1", 1), np.zeros((1, 6), np.float32),
            np.zeros((1, 1), np.float32))


def test_unary_functions_softmax_and_squared_difference() -> None:
    text = func(
        "%x: tensor<2x3xf32>, %k: tensor<3xi32>",
        "tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<3xi32>, "
        "tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>",
        """
  %0 = openvino.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = openvino.softmax %x {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = openvino.softmax %x {axis = 0 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %3 = openvino.negative %k : (tensor<3xi32>) -> tensor<3xi32>
  %4 = openvino.floor %k : (tensor<3xi32>) -> tensor<3xi32>
  %5 = openvino.negative %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %6 = openvino.squared_difference %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %7 = openvino.abs %k : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0, %1, %2, %3, %4, %5, %6, %7 : tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>, tensor<3xi32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<3xi32>""",
    )
    x = np.array([[0.0, 1.0, 4.0], [100.0, 2.25, 0.5]], np.float32)
    k = i32(-(2**31), 5, -7)
    sqrt, last, first, negative, floor, negative_x, squared, absolute = run(text, x, k)
    np.testing.assert_allclose(sqrt, np.sqrt(x), rtol=1e-7)
    exps = np.exp(x - x.max(axis=1, keepdims=True))
    np.testing.assert_allclose(last, exps / exps.sum(axis=1, keepdims=True), rtol=1e-6)
    exps = np.exp(x - x.max(axis=0, keepdims=True))
    np.testing.assert_allclose(first, exps / exps.sum(axis=0, keepdims=True), rtol=1e-6)
    np.testing.assert_array_equal(negative, i32(-(2**31), -5, 7))  # wraps, as OpenVINO
    np.testing.assert_array_equal(floor, k)
    assert np.signbit(negative_x[0, 0]) and negative_x[0, 1] == -1.0  # -0.0, not 0.0
    np.testing.assert_array_equal(squared, np.zeros_like(x))
    np.testing.assert_array_equal(absolute, i32(-(2**31), 5, 7))


@pytest.mark.parametrize("op", ["sqrt", "log", "sin", "softmax", "gelu", "hswish", "swish"])
def test_float_functions_of_integers_are_rejected(op: str) -> None:
    attrs = " {axis = 0 : i64}" if op == "softmax" else ""
    text = func("%k: tensor<3xi32>", "tensor<3xi32>", f"""
  %0 = openvino.{op} %k{attrs} : (tensor<3xi32>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>""")
    with pytest.raises(PipelineError, match=rf"openvino\.{op} of i32 values \(floats only\)"):
        run(text, i32(1, 4, 9))


@pytest.mark.parametrize(
    ("op", "results", "message"),
    [
        ("max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 1, 1>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 4, 1>}",
         "(tensor<1x1x4x5xf32>, tensor<1x1x4x4xi64>)",
         r"the kernel \(extent 5\) is larger than the padded input"),
        ("avg_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>}",
         "tensor<1x1x2x2xi32>", "average pooling of i32 values"),
    ],
)
def test_unsupported_pooling_is_named(op: str, results: str, message: str) -> None:
    element = "i32" if "i32" in results else "f32"
    first = results.strip("()").split(", ")[0] if "," in results else results
    names = "%r, %i" if "," in results else "%r"
    text = func(f"%x: tensor<1x1x4x5x{element}>", first, f"""
  {names} = openvino.{op} : (tensor<1x1x4x5x{element}>) -> {results}
  func.return %r : {first}""")
    with pytest.raises(PipelineError, match=message):
        ts.compile_model(parse_mlir(make_context(), text, "test.mlir"))


def test_reflect_padding_wider_than_the_axis_is_rejected() -> None:
    text = func("%x: tensor<2x3xf32>", "tensor<2x8xf32>", """
  %b = openvino.constant dense<[0, 3]> : tensor<2xi64>
  %e = openvino.constant dense<[0, 2]> : tensor<2xi64>
  %0 = openvino.pad %x, %b, %e {pad_mode = "reflect"} : (tensor<2x3xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x8xf32>
  func.return %0 : tensor<2x8xf32>""")
    with pytest.raises(PipelineError, match="reflect padding of 3 on an axis of size 3"):
        ts.compile_model(parse_mlir(make_context(), text, "test.mlir"))


@pytest.mark.parametrize(
    ("x", "w", "out", "message"),
    [
        ("1x2x5xi32", "1x2x2xi32", "1x1x4xi32", "convolution of i32 values \\(floats only\\)"),
        ("1x2x3x3x3xf32", "1x2x1x1x1xf32", "1x1x3x3x3xf32", "3-D convolution \\(1-D and 2-D only\\)"),
    ],
)
def test_unsupported_convolutions_are_named(x: str, w: str, out: str, message: str) -> None:
    spatial = x.count("x") - 2
    ones, zeros = ", ".join(["1"] * spatial), ", ".join(["0"] * spatial)
    text = func(f"%x: tensor<{x}>, %w: tensor<{w}>", f"tensor<{out}>", f"""
  %0 = openvino.convolution %x, %w {{strides = array<i64: {ones}>, dilations = array<i64: {ones}>, pads_begin = array<i64: {zeros}>, pads_end = array<i64: {zeros}>}} : (tensor<{x}>, tensor<{w}>) -> tensor<{out}>
  func.return %0 : tensor<{out}>""")
    with pytest.raises(PipelineError, match=f"'openvino.convolution' op could not be converted "
                       f"to TOSA: {message}"):
        ts.compile_model(parse_mlir(make_context(), text, "test.mlir"))


# ---------------------------------------------------------------------------------------------
# End to end on OpenVINO IR files
# ---------------------------------------------------------------------------------------------


@pytest.fixture
def lstm_xml(tmp_path: Path) -> Path:
    """A small stateful LSTM cell (LSTMCell-4; h and c in ReadValue-6 / Assign-6)."""
    import openvino as ov
    import openvino.opset13 as ops
    rng = np.random.default_rng(0)
    x = ops.parameter([1, 3], np.float32, name="x")
    zeros = ops.constant(np.zeros((1, 2), np.float32))
    h = ops.read_value(zeros, "h", np.float32, [1, 2], name="h_read")
    c = ops.read_value(zeros, "c", np.float32, [1, 2], name="c_read")
    w, r, b = (rng.standard_normal(s).astype(np.float32) for s in ((8, 3), (8, 2), (8,)))
    cell = ops.lstm_cell(x, h, c, ops.constant(w), ops.constant(r), ops.constant(b), 2,
                         name="cell")
    c1 = ops.add(cell.output(1), ops.constant(np.float32(0.0)))
    model = ov.Model([ops.result(cell, name="h_out"), ops.result(c1, name="c_out")],
                     [ops.assign(cell, "h"), ops.assign(c1, "c")], [x], "lstm")
    xml = tmp_path / "lstm.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _tool(name: str, *args: str) -> subprocess.CompletedProcess[str]:
    script = Path(sys.executable).parent / name
    return subprocess.run([str(script), *args], capture_output=True, text=True, check=False)


def test_opt_converts_an_ir_file(lstm_xml: Path) -> None:
    done = _tool("tosa-state-opt", str(lstm_xml), "-p", "convert-openvino-to-tosa")
    assert done.returncode == 0, done.stderr
    assert "openvino." not in done.stdout.replace("openvino.name", "").replace(
        "openvino.model_name", ""
    )
    assert 'tosa.variable @h = dense<0.000000e+00> : tensor<1x2xf32>' in done.stdout
    assert "tosa.variable.write @c" in done.stdout


def test_run_an_ir_file_with_resets(lstm_xml: Path, tmp_path: Path) -> None:
    xs = np.random.default_rng(1).standard_normal((5, 1, 3)).astype(np.float32)
    np.savez(tmp_path / "in.npz", x=xs)
    out = tmp_path / "out.npz"
    done = _tool("tosa-state-run", str(lstm_xml), "--inputs", str(tmp_path / "in.npz"),
                 "--reset-at", "3", "-o", str(out))
    assert done.returncode == 0, done.stderr
    saved = np.load(out)
    request = ts.compile_model(lstm_xml).create_infer_request()
    for step, x in enumerate(xs):
        if step == 3:
            request.reset_state()
        h, c = request.infer([x])
        np.testing.assert_array_equal(saved["result0"][step], h)
        np.testing.assert_array_equal(saved["result1"][step], c)
    np.testing.assert_array_equal(saved["state/c"], c)


def test_compile_model_names_inputs_outputs_and_states(lstm_xml: Path) -> None:
    compiled = ts.compile_model(lstm_xml)
    assert [p.name for p in compiled.inputs] == ["x"]
    assert [p.name for p in compiled.outputs] == ["h_out", "c_out"]
    names = [s.name for s in compiled.create_infer_request().query_state()]
    assert sorted(names) == ["c", "h"]


def test_errors_name_the_layer(tmp_path: Path) -> None:
    import openvino as ov
    import openvino.opset13 as ops
    x = ops.parameter([6], np.float32, name="x")
    shape = ops.parameter([2], np.int64, name="shape")
    model = ov.Model([ops.result(ops.reshape(x, shape, False, name="dyn_reshape"))],
                     [x, shape], "bad")
    xml = tmp_path / "bad.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    done = _tool("tosa-state-opt", str(xml), "-p", "convert-openvino-to-tosa")
    assert done.returncode == 1
    assert "Traceback" not in done.stderr
    assert f"{xml}:" in done.stderr
    assert (
        "error: layer id=2 name='dyn_reshape' type='Reshape' (opset1): 'openvino.reshape' op "
        "could not be converted to TOSA: the target shape must be a constant" in done.stderr
    )


def test_bundled_example_matches_the_mlir_example() -> None:
    examples = Path(__file__).resolve().parent.parent / "examples"
    xs = np.load(examples / "lstm_cell_inputs.npz")["x"]
    from_ir = ts.compile_model(examples / "lstm_cell.xml").create_infer_request()
    from_mlir = ts.compile_model(examples / "lstm_cell.mlir").create_infer_request()
    assert [s.name for s in from_ir.query_state()] == ["h", "c"]
    for x in xs:
        np.testing.assert_allclose(from_ir.infer([x])[0], from_mlir.infer([x])[0],
                                   rtol=1e-6, atol=1e-6)


def test_max_pool_indices_are_rejected_when_used() -> None:
    text = func("%x: tensor<1x1x4x4xf32>", "tensor<1x1x2x2xi64>", """
  %r, %i = openvino.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 1, 1>} : (tensor<1x1x4x4xf32>) -> (tensor<1x1x2x2xf32>, tensor<1x1x2x2xi64>)
  func.return %i : tensor<1x1x2x2xi64>""")
    with pytest.raises(PipelineError, match="the indices output of MaxPool"):
        ts.compile_model(parse_mlir(make_context(), text, "test.mlir"))


def test_a_static_input_reshaped_to_a_run_time_target(tmp_path: Path) -> None:
    """Reshape of a static [2, 6] to ShapeOf of a [?, 3] (xglm's attention with static
    `input_ids`): the target read at run time; a call whose sizes do not match fails at the
    reshape, naming it."""
    model = tmp_path / "reshape.mlir"
    model.write_text("""
func.func @main(%x: tensor<2x6xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %shape = openvino.shape_of %y : (tensor<?x3xf32>) -> tensor<2xi64>
  %0 = openvino.reshape %x, %shape {special_zero = false} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
""")
    request = ts.compile_model(model).create_infer_request()
    x = np.arange(12, dtype=np.float32).reshape(2, 6)
    np.testing.assert_array_equal(request.infer([x, np.zeros((4, 3), np.float32)])[0],
                                  x.reshape(4, 3))
    with pytest.raises(InferenceError, match=r":4:3: error: 'tosa.reshape' op failed at "
                                                r"run time: cannot reshape array of size 12 "
                                                r"into shape \(3,3\)"):
        request.infer([x, np.zeros((3, 3), np.float32)])
