"""The plan's fusions (`interpreter/plan_fusions.py`): each recognised on a small program,
its results equal to the unfused plan's (`ModulePlan(..., fuse=False)`, every op planned
alike), and look-alike programs left unfused."""

from __future__ import annotations

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.interpreter import Interpreter

import tosa_state as ts
import tosa_state.interpreter.tosa_tensor as tosa_tensor
from tosa_state.dialects.tosa.control_flow import WhileOp
from tosa_state.dialects.tosa.tensor import GatherOp, MatMulOp, ReshapeOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.functions import all_functions, make_interpreter
from tosa_state.interpreter.plan import FunctionPlan, ModulePlan
from tosa_state.interpreter.plan_fusions import block_fusions, loop_fusion
from tosa_state.interpreter.state import VariableStore
from tosa_state.interpreter.tosa_variables import attach_store
from tosa_state.runtime import collect_specs


def _module(text: str) -> ModuleOp:
    return parse_mlir(ts.make_context(), text, "fusions.mlir")


def _interpreter(module: ModuleOp) -> Interpreter:
    """An interpreter as a request has one: with its variable store (a call of the entry is
    a transaction of it)."""
    interpreter = make_interpreter(module, all_functions())
    attach_store(interpreter, VariableStore(collect_specs(module)))
    return interpreter


def plan_of(module: ModuleOp, fuse: bool = True) -> FunctionPlan:
    return ModulePlan(module, _interpreter(module), fuse=fuse).plan("main")


def _run(module: ModuleOp, args: list[np.ndarray], fuse: bool) -> tuple[np.ndarray, ...]:
    interpreter = _interpreter(module)
    plan = ModulePlan(module, interpreter, fuse=fuse).plan("main")
    return tuple(np.array(v) for v in plan(interpreter, args))


def _kernels(plan: FunctionPlan) -> list[str]:
    return [getattr(v, "__qualname__", "") for v in plan._run.__globals__.values()]


def _main(module: ModuleOp) -> FuncOp:
    return next(op for op in module.body.block.ops if isinstance(op, FuncOp))


ROWS = """
func.func @main(%x: tensor<?x3x4xf32>, %idx: tensor<?xi32>) -> tensor<?x3x4xf32> {
  %n = tosa.dim %x {axis = 0 : i32} : (tensor<?x3x4xf32>) -> !tosa.shape<1>
  %w = tosa.dim %idx {axis = 0 : i32} : (tensor<?xi32>) -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %m = tosa.const_shape {values = dense<12> : tensor<1xindex>} : () -> !tosa.shape<1>
  %rest = tosa.const_shape {values = dense<[3, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %flat = tosa.concat_shape %one, %n, %m : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
  %rows = tosa.concat_shape %one, %w : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %back = tosa.concat_shape %w, %rest : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
  %x3 = tosa.reshape %x, %flat : (tensor<?x3x4xf32>, !tosa.shape<3>) -> tensor<1x?x12xf32>
  %i2 = tosa.reshape %idx, %rows : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %g = tosa.gather %x3, %i2 : (tensor<1x?x12xf32>, tensor<1x?xi32>) -> tensor<1x?x12xf32>
  %y = tosa.reshape %g, %back : (tensor<1x?x12xf32>, !tosa.shape<3>) -> tensor<?x3x4xf32>
  return %y : tensor<?x3x4xf32>
}
"""


def test_a_gather_of_whole_rows_is_one_call_and_no_copy_when_in_place():
    """`reshape(gather(reshape(x)))`, a Gather of whole rows as converted (an LLM's beam
    reorder of its KV caches), is one `gather_rows` call: `x` itself when the indices keep
    every row in place (the flattening reshape would copy a non-contiguous `x`, as a cache
    in the corner of its buffer is), else the three kernels; an index out of range is
    still reported at the gather."""
    module = parse_mlir(ts.make_context(), ROWS, "rows.mlir")
    plan = plan_of(module)
    gathers = [n for n, op in plan._line_ops.items() if op.name == "tosa.gather"]
    assert len(gathers) == 1
    assert [op.name for op in plan.ops_per_call].count("tosa.reshape") == 1  # %i2's
    x = np.arange(48, dtype=np.float32).reshape(4, 3, 4)
    corner = np.zeros((8, 3, 4), np.float32)
    corner[:4] = x
    view = corner[:4, :, :]  # contiguous along rows, as a cache grown along axis 0
    request = ts.compile_model(module).create_infer_request()
    for indices in ([0, 1, 2, 3], [3, 2, 1, 0], [1, 1]):
        idx = np.array(indices, np.int32)
        np.testing.assert_array_equal(request.infer([view, idx])[0], x[idx])
    from tosa_state.interpreter.tosa_tensor import gather_rows

    def fail(*args: object) -> None:
        raise AssertionError("not the fast path")

    strided = corner.transpose(1, 0, 2)[:, :2].transpose(1, 0, 2)  # not contiguous
    rows = gather_rows(fail, fail, fail)
    assert rows(strided, (1, 2, 12), np.array([[0, 1]], np.int32), (2, 3, 4)) is strided
    with pytest.raises(ts.TosaStateError, match=r"tosa\.gather"):
        request.infer([view, np.array([0, 4], np.int32)])


_GROUPED = """
func.func @main(%x: tensor<?x2x5x4xf32>, %q: tensor<?x1x4xf32>, %p: tensor<?x1x5xf32>)
    -> (tensor<?x1x5xf32>, tensor<?x1x4xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %b = tosa.dim %x {axis = 0 : i32} : (tensor<?x2x5x4xf32>) -> !tosa.shape<1>
  %unit = tosa.const_shape {values = dense<[2, 1, 5, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %s1 = tosa.concat_shape %b, %unit : (!tosa.shape<1>, !tosa.shape<4>) -> !tosa.shape<5>
  %heads = tosa.const_shape {values = dense<[6, 5, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %s2 = tosa.concat_shape %b, %heads : (!tosa.shape<1>, !tosa.shape<3>) -> !tosa.shape<4>
  %m = tosa.const_shape {values = dense<[1, 1, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %rows = tosa.const_shape {values = dense<[5, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>

  %k1 = tosa.reshape %x, %s1 : (tensor<?x2x5x4xf32>, !tosa.shape<5>) -> tensor<?x2x1x5x4xf32>
  %kt = tosa.tile %k1, %m : (tensor<?x2x1x5x4xf32>, !tosa.shape<5>) -> tensor<?x2x3x5x4xf32>
  %k2 = tosa.reshape %kt, %s2 : (tensor<?x2x3x5x4xf32>, !tosa.shape<4>) -> tensor<?x6x5x4xf32>
  %kb = tosa.dim %k2 {axis = 0 : i32} : (tensor<?x6x5x4xf32>) -> !tosa.shape<1>
  %kh = tosa.dim %k2 {axis = 1 : i32} : (tensor<?x6x5x4xf32>) -> !tosa.shape<1>
  %kn = tosa.mul_shape %kb, %kh : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s3 = tosa.concat_shape %kn, %rows : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
  %k3 = tosa.reshape %k2, %s3 : (tensor<?x6x5x4xf32>, !tosa.shape<3>) -> tensor<?x5x4xf32>
  %kT = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<?x5x4xf32>) -> tensor<?x4x5xf32>
  %scores = tosa.matmul %q, %kT, %zp, %zp : (tensor<?x1x4xf32>, tensor<?x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x1x5xf32>

  %v1 = tosa.reshape %x, %s1 : (tensor<?x2x5x4xf32>, !tosa.shape<5>) -> tensor<?x2x1x5x4xf32>
  %vt = tosa.tile %v1, %m : (tensor<?x2x1x5x4xf32>, !tosa.shape<5>) -> tensor<?x2x3x5x4xf32>
  %v2 = tosa.reshape %vt, %s2 : (tensor<?x2x3x5x4xf32>, !tosa.shape<4>) -> tensor<?x6x5x4xf32>
  %v3 = tosa.reshape %v2, %s3 : (tensor<?x6x5x4xf32>, !tosa.shape<3>) -> tensor<?x5x4xf32>
  %out = tosa.matmul %p, %v3, %zp, %zp : (tensor<?x1x5xf32>, tensor<?x5x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<?x1x4xf32>
  return %scores, %out : tensor<?x1x5xf32>, tensor<?x1x4xf32>
}
"""


def test_grouped_query_products_share_the_unrepeated_heads():
    """Grouped-query attention as the exports give it: K / V of 2 heads repeated 3 times
    (`tosa.tile` of a unit axis), flattened into the products' batch of 6, K transposed.
    The plan multiplies each group of 3 query heads by its one K / V head (`grouped_product`)
    instead of copying the repeats (the tile is a broadcast view; the reshape that a
    `tosa.dim` reads is computed on no memory); results equal numpy's repeat-and-multiply."""
    module = parse_mlir(ts.make_context(), _GROUPED, "grouped.mlir")
    plan = plan_of(module)
    kernels = [getattr(v, "__qualname__", "") for v in plan._run.__globals__.values()]
    assert sum(name.startswith("grouped_product") for name in kernels) == 2
    per_call = [op.name for op in plan.ops_per_call]
    assert per_call.count("tosa.reshape") == 3  # k1, v1, and k2 for its dims (no memory)
    assert "tosa.transpose" not in per_call
    request = ts.compile_model(module).create_infer_request()
    rng = np.random.default_rng(0)
    for batch in (1, 2):
        x = rng.standard_normal((batch, 2, 5, 4)).astype(np.float32)
        q = rng.standard_normal((batch * 6, 1, 4)).astype(np.float32)
        p = rng.standard_normal((batch * 6, 1, 5)).astype(np.float32)
        heads = np.repeat(x, 3, axis=1).reshape(batch * 6, 5, 4)
        scores, out = request.infer([x, q, p])
        np.testing.assert_allclose(scores, q @ heads.transpose(0, 2, 1), rtol=1e-5, atol=1e-6)
        np.testing.assert_allclose(out, p @ heads, rtol=1e-5, atol=1e-6)


def test_grouped_product_of_a_copied_tile_multiplies_as_given():
    """The same kernel on an operand that is no broadcast view (a tile copied, or repeats
    that do not make the batch): the kernels one by one, same results."""
    product = tosa_tensor.grouped_product(
        lambda a, b, a_zp, b_zp: np.matmul(a, b),
        [lambda x, shape: x.reshape(shape)], lambda x: x.transpose(0, 2, 1))
    rng = np.random.default_rng(1)
    x = rng.standard_normal((2, 1, 5, 4)).astype(np.float32)
    q = rng.standard_normal((6, 1, 4)).astype(np.float32)
    zp = np.zeros(1, np.float32)
    copied = np.tile(x, (1, 3, 1, 1))  # [2, 3, 5, 4], a real copy
    expected = q @ copied.reshape(6, 5, 4).transpose(0, 2, 1)
    np.testing.assert_allclose(product(q, copied, zp, zp, (6, 5, 4)), expected, rtol=1e-5, atol=1e-6)
    viewed = tosa_tensor.tile(x, (1, 3, 1, 1))
    assert viewed.strides[1] == 0 and not viewed.flags.writeable
    np.testing.assert_allclose(product(q, viewed, zp, zp, (6, 5, 4)), expected, rtol=1e-5, atol=1e-6)
    across = tosa_tensor.tile(x.reshape(2, 5, 1, 4), (1, 1, 3, 1))  # repeats inside rows
    np.testing.assert_allclose(
        product(q, across, zp, zp, (6, 5, 4)),
        q @ np.tile(x.reshape(2, 5, 1, 4), (1, 1, 3, 1)).reshape(6, 5, 4).transpose(0, 2, 1),
        rtol=1e-5, atol=1e-6)




def test_a_row_gather_is_recognised_and_equals_the_unfused_plan() -> None:
    module = _module(ROWS)
    (fusion,) = block_fusions(_main(module).body.block, set()).values()
    assert isinstance(fusion.anchor, ReshapeOp) and isinstance(fusion.reported, GatherOp)
    assert "gather_rows" in " ".join(_kernels(plan_of(module)))
    assert "gather_rows" not in " ".join(_kernels(plan_of(module, fuse=False)))
    x = np.arange(48, dtype=np.float32).reshape(4, 3, 4)
    for indices in ([0, 1, 2, 3], [3, 0], [2, 2, 2]):
        args = [x, np.array(indices, np.int32)]
        fused, unfused = _run(module, args, True), _run(module, args, False)
        assert fused[0].tobytes() == unfused[0].tobytes()


def test_grouped_products_are_recognised_and_equal_the_unfused_plan() -> None:
    module = _module(_GROUPED)
    fusions = block_fusions(_main(module).body.block, set())
    assert [type(op) for op in fusions] == [MatMulOp, MatMulOp]
    k, v = fusions.values()
    assert [op.name for op in k.shape_only] == ["tosa.reshape"]  # k2, read by tosa.dim
    assert not v.shape_only
    assert not any(n.startswith("grouped_product") for n in _kernels(plan_of(module, False)))
    rng = np.random.default_rng(2)
    x = rng.standard_normal((2, 2, 5, 4)).astype(np.float32)
    q = rng.standard_normal((12, 1, 4)).astype(np.float32)
    p = rng.standard_normal((12, 1, 5)).astype(np.float32)
    for fused, unfused in zip(_run(module, [x, q, p], True), _run(module, [x, q, p], False),
                              strict=True):
        # the same float32 products, each group's by one matmul instead of its repeats:
        # measured equal bit for bit; allow an ulp-scale difference of summation order
        np.testing.assert_allclose(fused, unfused, rtol=1e-6, atol=0)


def test_look_alikes_are_not_fused() -> None:
    """A row gather whose flattened input is used again, and a product of a tile that no
    reshape flattens into the batch, are planned op by op."""
    rows = ROWS.replace("  return %y : tensor<?x3x4xf32>",
                        "  %z = tosa.reshape %x3, %back : (tensor<1x?x12xf32>, !tosa.shape<3>) "
                        "-> tensor<?x3x4xf32>\n  return %z : tensor<?x3x4xf32>")
    assert rows != ROWS
    assert block_fusions(_main(_module(rows)).body.block, set()) == {}
    tiled = """
func.func @main(%x: tensor<2x1x4xf32>, %q: tensor<2x3x4xf32>) -> tensor<2x3x3xf32> {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.const_shape {values = dense<[1, 3, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %t = tosa.tile %x, %m : (tensor<2x1x4xf32>, !tosa.shape<3>) -> tensor<2x3x4xf32>
  %tT = tosa.transpose %t {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
  %y = tosa.matmul %q, %tT, %zp, %zp : (tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x3xf32>
  return %y : tensor<2x3x3xf32>
}
"""
    module = _module(tiled)
    assert block_fusions(_main(module).body.block, set()) == {}
    x = np.arange(8, dtype=np.float32).reshape(2, 1, 4)
    q = np.ones((2, 3, 4), np.float32)
    (y,) = _run(module, [x, q], True)
    np.testing.assert_array_equal(y, q @ np.tile(x, (1, 3, 1)).transpose(0, 2, 1))


STEP_LOOP = """
func.func @main(%x: tensor<1x5x3xf32>) -> (tensor<1x5x3xf32>, tensor<1x1xi32>) {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %i0 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %ys0 = "tosa.const"() <{values = dense<0.0> : tensor<1x5x3xf32>}> : () -> tensor<1x5x3xf32>
  %r:3 = tosa.while_loop (%t = %zero, %i = %i0, %ys = %ys0) : (tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>) -> (tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>) {
    %end = "tosa.const"() <{values = dense<STEPS> : tensor<1xi32>}> : () -> tensor<1xi32>
    %c = tosa.greater %end, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %i: tensor<1x1xi32>, %ys: tensor<1x5x3xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %one2 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %i2 = tosa.add %i, %one2 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %row = tosa.gather %x, %i : (tensor<1x5x3xf32>, tensor<1x1xi32>) -> tensor<1x1x3xf32>
    %twice = tosa.add %row, %row : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %ys2 = tosa.scatter %ys, %i, %twice : (tensor<1x5x3xf32>, tensor<1x1xi32>, tensor<1x1x3xf32>) -> tensor<1x5x3xf32>
    tosa.yield %t2, %i2, %ys2 : tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>
  }
  return %r#2, %r#1 : tensor<1x5x3xf32>, tensor<1x1xi32>
}
"""
"""Row t of the output is twice row t of `x`, for t < STEPS; the step index at the end."""


@pytest.mark.parametrize("steps", [0, 3, 5, 6])
def test_a_loop_step_index_and_accumulator_are_recognised_and_equal_the_unfused_plan(
    steps: int
) -> None:
    """The counter compared with a constant and the `[1, 1]` index of the one-row gather and
    scatter are Python ints (a slice, an assignment), the output is updated in place; the
    same results as the unfused plan, an index past the rows (6 steps) failing alike."""
    module = _module(STEP_LOOP.replace("STEPS", str(steps)))
    (loop,) = (op for op in _main(module).body.block.ops if isinstance(op, WhileOp))
    found = loop_fusion(loop)
    assert found.compared is not None and found.steps == {0, 1} and set(found.in_place) == {2}
    fused_source, unfused_source = plan_of(module).source, plan_of(module, False).source
    assert f"if not {steps} > " in fused_source and ":, " in fused_source
    assert ".item(): break" in unfused_source and ":, " not in unfused_source
    x = np.arange(15, dtype=np.float32).reshape(1, 5, 3)
    if steps > 5:
        for fuse in (True, False):
            with pytest.raises(ts.TosaStateError, match=r"tosa\.(gather|scatter)"):
                _run(module, [x], fuse)
        return
    fused, unfused = _run(module, [x], True), _run(module, [x], False)
    for a, b in zip(fused, unfused, strict=True):
        assert a.tobytes() == b.tobytes() and a.dtype == b.dtype
    expected = np.zeros_like(x)
    expected[:, :steps] = 2 * x[:, :steps]
    np.testing.assert_array_equal(fused[0], expected)
    np.testing.assert_array_equal(fused[1], [[steps]])


LOOK_ALIKE_LOOP = """
func.func @main(%n: tensor<1xi32>) -> tensor<1x5x3xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %i0 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %ys0 = "tosa.const"() <{values = dense<0.5> : tensor<1x5x3xf32>}> : () -> tensor<1x5x3xf32>
  %r:3 = tosa.while_loop (%t = %zero, %i = %i0, %ys = %ys0) : (tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>) -> (tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>) {
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %i: tensor<1x1xi32>, %ys: tensor<1x5x3xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %one2 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %i2 = tosa.add %i, %one2 : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %row = tosa.gather %ys, %i : (tensor<1x5x3xf32>, tensor<1x1xi32>) -> tensor<1x1x3xf32>
    %f = tosa.cast %i : (tensor<1x1xi32>) -> tensor<1x1xf32>
    %s = tosa.const_shape {values = dense<[1, 1, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %f3 = tosa.reshape %f, %s : (tensor<1x1xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
    %next = tosa.add %row, %f3 : (tensor<1x1x3xf32>, tensor<1x1x1xf32>) -> tensor<1x1x3xf32>
    %ys2 = tosa.scatter %ys, %i, %next : (tensor<1x5x3xf32>, tensor<1x1xi32>, tensor<1x1x3xf32>) -> tensor<1x5x3xf32>
    tosa.yield %t2, %i2, %ys2 : tensor<1xi32>, tensor<1x1xi32>, tensor<1x5x3xf32>
  }
  return %r#2 : tensor<1x5x3xf32>
}
"""
"""STEP_LOOP's shape, but the condition compares a value from outside the loop, the index
is also data (row t gets t added) and the output is read too (gathered before it is
scattered)."""


def test_a_loop_look_alike_is_not_fused() -> None:
    module = _module(LOOK_ALIKE_LOOP)
    (loop,) = (op for op in _main(module).body.block.ops if isinstance(op, WhileOp))
    found = loop_fusion(loop)
    assert found.compared is None and found.steps == frozenset() and found.in_place == {}
    assert plan_of(module).source == plan_of(module, fuse=False).source
    (y,) = _run(module, [np.array([3], np.int32)], True)
    expected = np.full((1, 5, 3), 0.5, np.float32)
    expected[0, :3] += np.arange(3, dtype=np.float32)[:, None]
    np.testing.assert_array_equal(y, expected)
