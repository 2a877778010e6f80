"""The plan executor: what is done once at compile time, and what each call still runs.

(Agreement of plan and stock interpreter on every op is in `test_tosa_*.py`.)
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from lstm_cell import LstmWeights, NumpyLstm, tosa_lstm_module
from xdsl.dialects.builtin import ModuleOp

import tosa_state as ts
import tosa_state.interpreter.tosa_tensor as tosa_tensor
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.functions import all_functions, make_interpreter
from tosa_state.interpreter.plan import FunctionPlan, ModulePlan


def lstm(hidden: int) -> ModuleOp:
    return parse_mlir(ts.make_context(), tosa_lstm_module(LstmWeights.random(hidden)), "lstm.mlir")


def plan_of(module: ModuleOp) -> FunctionPlan:
    return ModulePlan(module, make_interpreter(module, all_functions())).plan("main")


def test_constant_work_is_folded_and_the_rest_runs_per_call():
    plan = plan_of(lstm(4))
    per_call = [op.name for op in plan.ops_per_call]
    assert "tosa.const" not in per_call
    assert "tosa.const_shape" not in per_call
    # what depends on the input or the state runs, in program order
    assert per_call[:2] == ["tosa.variable.read", "tosa.variable.read"]
    assert per_call.count("tosa.reshape") == 5  # x, h, c in; h, c out
    assert per_call.count("tosa.matmul") == 1
    assert per_call[-1] == "func.return"


def test_reshapes_of_constants_are_folded():
    text = """
    func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
      %c = "tosa.const"() <{values = dense<[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]> : tensor<6xf32>}>
          : () -> tensor<6xf32>
      %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
      %r = tosa.reshape %c, %s : (tensor<6xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
      %y = tosa.add %x, %r : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
      return %y : tensor<2x3xf32>
    }
    """
    plan = plan_of(parse_mlir(ts.make_context(), text, "fold.mlir"))
    assert [op.name for op in plan.ops_per_call] == ["tosa.add", "func.return"]
    folded = plan.constants[-1]
    np.testing.assert_array_equal(folded, np.arange(1, 7, dtype=np.float32).reshape(2, 3))
    assert not folded.flags.writeable


def test_constants_are_decoded_once_not_per_call(monkeypatch: pytest.MonkeyPatch):
    decoded: list[object] = []
    original = tosa_tensor.dense_to_numpy

    def counting(attr):
        decoded.append(attr)
        return original(attr)

    monkeypatch.setattr(tosa_tensor, "dense_to_numpy", counting)
    request = ts.compile_model(lstm(4)).create_infer_request()
    after_compile = len(decoded)
    assert after_compile > 0  # the weights were decoded, through the patched function
    x = np.ones((1, 4), np.float32)
    for _ in range(5):
        request.infer([x])
    assert len(decoded) == after_compile


def test_large_constants_are_read_only_arrays_of_their_own():
    """Weights of at least 4 MiB are copied out of the attribute's bytes (numpy's own,
    huge-page backed memory); they stay read-only and the results stay exact."""
    hidden = 512  # w: 1 x 1024 x 2048 f32 = 8 MiB
    module = lstm(hidden)
    weights = [c for c in plan_of(module).constants if getattr(c, "nbytes", 0) >= 4 << 20]
    assert len(weights) == 1
    assert weights[0].base is None and weights[0].flags.owndata
    assert not weights[0].flags.writeable

    request = ts.compile_model(module).create_infer_request()
    reference = NumpyLstm(LstmWeights.random(hidden))
    rng = np.random.default_rng(1)
    for _ in range(3):
        x = rng.standard_normal((1, hidden)).astype(np.float32)
        np.testing.assert_allclose(request.infer([x])[0], reference.step(x), rtol=1e-5,
                                   atol=1e-6)


def test_kernel_ops_call_their_kernels_directly():
    """Impls that are just `(kernel(op)(*args),)` cost no impl call in a plan; the others
    go through their impl, but the variables' ops, which call theirs with the request's store.
    Both give the stock interpreter's results (`test_tosa_*.py`)."""
    plan = plan_of(lstm(4))
    lines = {op.name: [] for op in plan.ops_per_call}
    op_lines = [line for line in plan.source.splitlines()[1:]
                if not line.lstrip().startswith(("del ", "store = "))]  # not ops
    for line, op in zip(op_lines, plan.ops_per_call, strict=True):
        lines[op.name].append(line)
    direct = ("tosa.sigmoid", "tosa.tanh", "tosa.mul", "tosa.add", "tosa.matmul", "tosa.slice",
              "tosa.reshape", "tosa.concat")
    for name in direct:
        assert all("interp" not in line for line in lines[name]), lines[name]
    for name in ("tosa.variable.read", "tosa.variable.write"):  # the request's store
        assert all("(store, " in line and "interp" not in line for line in lines[name]), \
            lines[name]


GROWING = """
tosa.variable @kv : tensor<1x?xf32>
func.func @main(%x: tensor<1x1xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @kv : tensor<1x?xf32>
  %all = tosa.concat %past, %x {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  %n = tosa.dim %all {axis = 1 : i32} : (tensor<1x?xf32>) -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %m = tosa.mul_shape %n, %one : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %one, %m : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %all, %s : (tensor<1x?xf32>, !tosa.shape<2>) -> tensor<1x?xf32>
  tosa.variable.write @kv, %all : tensor<1x?xf32>
  return %r : tensor<1x?xf32>
}
"""


def test_growth_checks_and_shape_operators_are_planned():
    """At the memref level a dynamic variable's growth checks (`scf.if`) are Python `if`s of
    the plan, not regions run by the stock interpreter, and the shape operators
    (`tosa.dim`, `tosa.mul_shape`, `tosa.concat_shape`) call their kernels directly; the
    buffer still grows (the `if` taken) and the values stay right."""
    module = parse_mlir(ts.make_context(), GROWING, "growing.mlir")
    compiled = ts.compile_model(module)
    plan = compiled.executable.plan
    source = plan.source
    assert "push_scope" not in source, source
    assert any(line.lstrip().startswith("if ") for line in source.splitlines()), source
    names = [op.name for op in plan.ops_per_call]
    assert "scf.if" in names
    shape_lines = [source.splitlines()[number - 1] for number, op in plan._line_ops.items()
                   if op.name in ("tosa.dim", "tosa.mul_shape", "tosa.concat_shape")]
    assert len(shape_lines) == 3
    assert all("interp" not in line for line in shape_lines), shape_lines
    request = compiled.create_infer_request()
    for step in range(1, 40):  # the buffer regrows at 1, 2, 4, ..., 32
        everything = request.infer([np.full((1, 1), step, np.float32)])[0]
        np.testing.assert_array_equal(everything, np.arange(1, step + 1)[None])
    assert request.query_state()[0].state.shape == (1, 39)


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


_APPEND = """
tosa.variable @kv : tensor<1x2x?xf32>
tosa.variable @kv__initialized = dense<false> : tensor<i1>
func.func @main(%x: tensor<1x2x1xf32>, %init: tensor<1x2x0xf32>) -> tensor<1x2x1xf32> {
  %read = tosa.variable.read @kv : tensor<1x2x?xf32>
  %ready = tosa.variable.read @kv__initialized : tensor<i1>
  %past = tosa.cond_if %ready (%a = %read, %b = %init) : tensor<i1> (tensor<1x2x?xf32>, tensor<1x2x0xf32>) -> tensor<1x2x?xf32> {
  ^bb0(%a: tensor<1x2x?xf32>, %b: tensor<1x2x0xf32>):
    tosa.yield %a : tensor<1x2x?xf32>
  } else {
  ^bb0(%a: tensor<1x2x?xf32>, %b: tensor<1x2x0xf32>):
    tosa.yield %b : tensor<1x2x0xf32>
  }
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<1x2x?xf32>, tensor<1x2x1xf32>) -> tensor<1x2x?xf32>
  %n = tosa.dim %all {axis = 2 : i32} : (tensor<1x2x?xf32>) -> !tosa.shape<1>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %two = tosa.const_shape {values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
  %cols = tosa.mul_shape %n, %one : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %flat = tosa.concat_shape %two, %cols : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %matrix = tosa.reshape %all, %flat : (tensor<1x2x?xf32>, !tosa.shape<2>) -> tensor<2x?xf32>
  %sum = tosa.reduce_sum %matrix {axis = 1 : i32} : (tensor<2x?xf32>) -> tensor<2x1xf32>
  %shape = tosa.const_shape {values = dense<[1, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %out = tosa.reshape %sum, %shape : (tensor<2x1xf32>, !tosa.shape<3>) -> tensor<1x2x1xf32>
  %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  tosa.variable.write @kv__initialized, %true : tensor<i1>
  tosa.variable.write @kv, %all : tensor<1x2x?xf32>
  return %out : tensor<1x2x1xf32>
}
"""


def test_size_arithmetic_is_inline_and_state_ops_reach_the_store_directly():
    """A KV-cache append at the memref level (`convert-tosa-variables-to-memref`, the default
    pipeline): the size arithmetic (`tosa.dim`, `concat_shape`, `mul_shape`, `memref.dim`,
    `arith` on indices, `bufferization.to_buffer`) is written inline, with no call; the ops
    reaching the variables (`memref.load/store/copy`, `bufferization.to_tensor`) call their
    kernel with the request's store, fetched once per call, not through `interp`. Results:
    the running sums of an appended cache, over a reset."""
    compiled = ts.compile_model(parse_mlir(ts.make_context(), _APPEND, "append.mlir"))
    plan = compiled.executable.plan
    source = plan.source.splitlines()
    assert source[1].strip().startswith("store = ")
    lines: dict[str, list[str]] = {}
    for number, op in plan._line_ops.items():  # the op of each generated line
        lines.setdefault(op.name, []).append(source[number - 1].strip())
    inline = ("tosa.dim", "tosa.concat_shape", "tosa.mul_shape", "memref.dim", "arith.cmpi",
              "arith.addi", "arith.andi", "arith.muli", "arith.select",
              "bufferization.to_buffer")
    for name in inline:
        assert lines.get(name), (name, sorted(lines))
        assert all(re.search(r"\bk\d+\(", line) is None for line in lines[name]), lines[name]
    for name in ("memref.load", "memref.store", "memref.copy", "bufferization.to_tensor"):
        assert lines.get(name), (name, sorted(lines))
        assert all("(store, " in line and "interp" not in line for line in lines[name]), \
            lines[name]
    request = compiled.create_infer_request()
    init = np.zeros((1, 2, 0), np.float32)  # the cache starts empty
    for _ in range(2):
        total = np.zeros((1, 2, 1), np.float32)
        for step in range(1, 6):
            x = np.full((1, 2, 1), step, np.float32)
            total += x
            np.testing.assert_array_equal(request.infer([x, init])[0], total)
        request.reset_state()


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


@pytest.mark.parametrize("pipeline", ["", "tosa-to-mlprogram"])
def test_a_written_concat_becomes_the_state_without_a_copy(
    pipeline: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """At the TOSA and ml_program levels a write of a `tosa.concat` result (a growing
    cache) stores that fresh array itself (`VariableStore.adopt`), not a copy; the state
    stays the user's to read (copies) and to set, and each call sees the last one's."""
    from tosa_state.interpreter.state import VariableStore

    adopted: list[np.ndarray] = []
    copied: list[str] = []
    adopt, write = VariableStore.adopt, VariableStore.write
    monkeypatch.setattr(VariableStore, "adopt",
                        lambda self, name, value: (adopted.append(value), adopt(self, name, value)))
    monkeypatch.setattr(VariableStore, "write",
                        lambda self, name, value: (copied.append(name), write(self, name, value)))
    module = parse_mlir(ts.make_context(), GROWING, "growing.mlir")
    request = ts.compile_model(module, pipeline=pipeline).create_infer_request()
    for step in range(1, 4):
        out = request.infer([np.full((1, 1), step, np.float32)])[0]
        np.testing.assert_array_equal(out, np.arange(1, step + 1, dtype=np.float32)[None])
    assert len(adopted) == 3 and not copied
    (state,) = request.query_state()
    assert state.state is not adopted[-1] and not np.shares_memory(state.state, adopted[-1])
    out[...] = -1  # results are the user's copies
    np.testing.assert_array_equal(request.infer([np.ones((1, 1), np.float32)])[0],
                                  [[1, 2, 3, 1]])
