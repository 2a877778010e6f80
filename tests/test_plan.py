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
