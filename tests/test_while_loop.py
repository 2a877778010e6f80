"""`tosa.while_loop`: run by the plan as a Python loop over planned ops (no per-op
interpreter), with the same results as xDSL's stock interpreter, through every lowering of
the state, for variables read and written inside the loop body.

(Syntax and verifiers: `lit_tests/tosa/while-loop*.mlir`; upstream parses our output:
`test_upstream_parity.py`.)
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from peers.upstream_mlir import iree_opt, tosa_opt
from test_upstream_parity import MODULES
from xdsl.interpreters.func import FuncFunctions

import tosa_state as ts
from tosa_state.dialects.tosa.control_flow import WhileOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.functions import all_functions, make_interpreter
from tosa_state.interpreter.plan import ModulePlan
from tosa_state.printing import print_module
from tosa_state.transforms.convert_openvino_to_tosa import ConvertOpenVINOToTosaPass
from tosa_state.transforms.pipeline import apply_pipeline

STATEFUL_LOOP = MODULES["while_loop_with_state_and_scatter"]
"""Per call: for t in 0..2, acc += x[0, t]; the output's row t is acc after step t."""

RUNNING_SUM = """
func.func @main(%x: tensor<2x5x3xf32>, %n: tensor<1xi32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>) {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %idx0 = "tosa.const"() <{values = dense<0> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
  %acc0 = "tosa.const"() <{values = dense<0.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %r:4 = tosa.while_loop (%t = %zero, %i = %idx0, %acc = %acc0, %ys = %x) : (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) -> (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) {
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %i: tensor<2x1xi32>, %acc: tensor<2x3xf32>, %ys: tensor<2x5x3xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %one2 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %i2 = tosa.add %i, %one2 : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi32>
    %xt = tosa.gather %x, %i : (tensor<2x5x3xf32>, tensor<2x1xi32>) -> tensor<2x1x3xf32>
    %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %xt2 = tosa.reshape %xt, %s : (tensor<2x1x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
    %acc2 = tosa.add %acc, %xt2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %s3 = tosa.const_shape {values = dense<[2, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %a3 = tosa.reshape %acc2, %s3 : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<2x1x3xf32>
    %ys2 = tosa.scatter %ys, %i, %a3 : (tensor<2x5x3xf32>, tensor<2x1xi32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
    tosa.yield %t2, %i2, %acc2, %ys2 : tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>
  }
  return %r#3, %r#2 : tensor<2x5x3xf32>, tensor<2x3xf32>
}
"""


def _module(text: str):
    return parse_mlir(ts.make_context(), text, "loop.mlir")


def _expected_running_sum(x: np.ndarray, steps: int) -> tuple[np.ndarray, np.ndarray]:
    ys = x.copy()
    sums = np.cumsum(x, axis=1)
    ys[:, :steps] = sums[:, :steps]
    total = sums[:, steps - 1] if steps else np.zeros((2, 3), np.float32)
    return ys, total


@pytest.mark.parametrize("steps", [0, 1, 5])
def test_plan_runs_the_loop_as_the_stock_interpreter(steps: int) -> None:
    module = _module(RUNNING_SUM)
    interpreter = make_interpreter(module, [*all_functions(), FuncFunctions()])
    plan = ModulePlan(module, interpreter).plan("main")
    rng = np.random.default_rng(steps)
    x = rng.standard_normal((2, 5, 3)).astype(np.float32)
    x.flags.writeable = False
    n = np.array([steps], np.int32)
    planned = plan(interpreter, [x, n])
    stock = interpreter.call_op("main", (x, n))
    for a, b, expected in zip(planned, stock, _expected_running_sum(x, steps), strict=True):
        assert a.tobytes() == b.tobytes()
        np.testing.assert_allclose(a, expected, rtol=1e-6)
    # the output the loop scatters into starts as a copy of `x`, never `x` itself
    assert not np.shares_memory(planned[0], x)


def test_loop_body_is_planned_with_an_in_place_accumulator() -> None:
    module = _module(RUNNING_SUM)
    plan = ModulePlan(module, make_interpreter(module, all_functions())).plan("main")
    assert "while True:" in plan.source and "push_scope" not in plan.source
    per_call = [op.name for op in plan.ops_per_call]
    # constants inside the regions are folded at compile time
    assert "tosa.const" not in per_call and "tosa.const_shape" not in per_call
    assert per_call.count("tosa.scatter") == 1
    lines = plan.source.splitlines()
    (scatter,) = [
        lines[number - 1] for number, op in plan._line_ops.items() if op.name == "tosa.scatter"
    ]
    # written in place (no impl call, no copy); the carried value is copied once, before
    target = scatter.split("(")[1].split(",")[2].strip()
    assert "interp" not in scatter
    assert any(line.strip().startswith(f"{target} = ") for line in lines[: lines.index(
        next(line for line in lines if "while True:" in line))])


def test_each_call_owns_its_outputs() -> None:
    request = ts.compile_model(_module(RUNNING_SUM), pipeline="").create_infer_request()
    x = np.ones((2, 5, 3), np.float32)
    first = request.infer([x, np.array([5], np.int32)])[0].copy()
    again = request.infer([x, np.array([5], np.int32)])[0]
    np.testing.assert_array_equal(first, again)
    np.testing.assert_array_equal(x, np.ones((2, 5, 3), np.float32))


@pytest.mark.parametrize("pipeline", ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
def test_state_read_and_written_inside_the_loop(pipeline: str) -> None:
    request = ts.compile_model(_module(STATEFUL_LOOP), pipeline=pipeline).create_infer_request()
    rng = np.random.default_rng(0)
    acc = np.zeros((1, 2), np.float32)
    for call in range(6):
        if call == 4:
            request.reset_state()
            acc[:] = 0
        x = rng.standard_normal((1, 3, 2)).astype(np.float32)
        expected = np.empty_like(x)
        for t in range(3):
            acc = acc + x[:, t]
            expected[:, t] = acc
        (ys,) = request.infer([x])
        np.testing.assert_allclose(ys, expected, rtol=1e-6)
        (state,) = request.query_state()
        np.testing.assert_allclose(state.state, acc, rtol=1e-6)
        assert not np.shares_memory(ys, state.state)


def _gru_sequence(steps: int, direction: str) -> str:
    """An OpenVINO GRUSequence over `steps` steps (batch 2, lengths 5 and 2, capped)."""
    lengths = f"[{min(5, steps)}, {min(2, steps)}]"
    x, y = f"tensor<2x{steps}x1xf32>", f"tensor<2x{2 if direction == 'bidirectional' else 1}x{steps}x1xf32>"
    d = 2 if direction == "bidirectional" else 1
    return f"""
func.func @main(%x: {x}, %h: tensor<2x{d}x1xf32>) -> {y} {{
  %n = openvino.constant dense<{lengths}> : tensor<2xi32>
  %w = openvino.constant dense<0.5> : tensor<{d}x3x1xf32>
  %r = openvino.constant dense<0.25> : tensor<{d}x3x1xf32>
  %b = openvino.constant dense<0.125> : tensor<{d}x4xf32>
  %y, %ho = openvino.gru_sequence %x, %h, %n, %w, %r, %b {{hidden_size = 1 : i64, activations = ["sigmoid", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "{direction}", linear_before_reset = true}} : ({x}, tensor<2x{d}x1xf32>, tensor<2xi32>, tensor<{d}x3x1xf32>, tensor<{d}x3x1xf32>, tensor<{d}x4xf32>) -> ({y}, tensor<2x{d}x1xf32>)
  func.return %y : {y}
}}
"""


def _converted(text: str):
    module = _module(text)
    apply_pipeline(ts.make_context(), module, ConvertOpenVINOToTosaPass.name)
    return module


def test_sequence_ir_does_not_grow_with_steps() -> None:
    """Compile time does not depend on T: the converted IR is the same ops for 3 and 300
    steps (benchmarks/sequence_loop.py measures the time)."""
    counts = []
    for steps in (3, 300):
        module = _converted(_gru_sequence(steps, "bidirectional"))
        counts.append(sum(1 for _ in module.walk()))
        assert sum(isinstance(op, WhileOp) for op in module.walk()) == 2
    assert counts[0] == counts[1]


@pytest.mark.peers
@pytest.mark.parametrize("direction", ["forward", "reverse", "bidirectional"])
def test_upstream_parses_converted_sequences(upstream_mlir_tools: None, direction: str) -> None:
    module = _converted(_gru_sequence(4, direction))
    text = print_module(module, spelling="upstream")
    for tool in (iree_opt, tosa_opt):
        theirs = _module(tool(text, "--mlir-print-op-generic"))
        assert theirs.is_structurally_equivalent(module)


CARRIED_READ = """
tosa.variable @h = dense<0.5> : tensor<1x2xf32>
func.func @main(%n: tensor<1xi32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %h = tosa.variable.read @h : tensor<1x2xf32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %last0 = "tosa.const"() <{values = dense<0.0> : tensor<1x2xf32>}> : () -> tensor<1x2xf32>
  %r:3 = tosa.while_loop (%t = %zero, %s = %h, %last = %last0) : (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) -> (tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>) {
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %s: tensor<1x2xf32>, %last: tensor<1x2xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %s2 = tosa.tanh %s : (tensor<1x2xf32>) -> tensor<1x2xf32>
    tosa.yield %t2, %s2, %s : tensor<1xi32>, tensor<1x2xf32>, tensor<1x2xf32>
  }
  tosa.variable.write @h, %r#1 : tensor<1x2xf32>
  return %r#2, %r#1 : tensor<1x2xf32>, tensor<1x2xf32>
}
"""
"""The loop's last result is the state at the start of the last step: after one step, the
value read, which must not change when the loop's other result is written back."""


@pytest.mark.parametrize("pipeline", ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
def test_a_read_carried_through_a_loop_keeps_its_value(pipeline: str) -> None:
    request = ts.compile_model(_module(CARRIED_READ), pipeline=pipeline).create_infer_request()
    state = np.full((1, 2), 0.5, np.float32)
    for steps in (1, 0, 2, 1):
        before, after = request.infer([np.array([steps], np.int32)])
        expected = state
        for _ in range(steps):
            expected, state = state, np.tanh(state)
        np.testing.assert_allclose(after, state, rtol=1e-6)
        np.testing.assert_allclose(before, expected if steps else np.zeros((1, 2)), rtol=1e-6)
        np.testing.assert_allclose(request.query_state()[0].state, state, rtol=1e-6)


COUNT_DOWN = """
func.func @main(%x: tensor<1x4x3xf32>) -> (tensor<1x4x3xf32>, tensor<1x1xi32>) {
  %i0 = "tosa.const"() <{values = dense<3> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %acc0 = "tosa.const"() <{values = dense<0.0> : tensor<1x4x3xf32>}> : () -> tensor<1x4x3xf32>
  %r:3 = tosa.while_loop (%i = %i0, %w = %x, %acc = %acc0) : (tensor<1x1xi32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>) -> (tensor<1x1xi32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>) {
    %end = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %c = tosa.greater %i, %end : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    tosa.yield %c : tensor<1x1xi1>
  } do {
  ^bb0(%i: tensor<1x1xi32>, %w: tensor<1x4x3xf32>, %acc: tensor<1x4x3xf32>):
    %minus = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %i2 = tosa.add %i, %minus : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %row = tosa.gather %w, %i : (tensor<1x4x3xf32>, tensor<1x1xi32>) -> tensor<1x1x3xf32>
    %twice = tosa.add %row, %row : (tensor<1x1x3xf32>, tensor<1x1x3xf32>) -> tensor<1x1x3xf32>
    %acc2 = tosa.scatter %acc, %i, %twice : (tensor<1x4x3xf32>, tensor<1x1xi32>, tensor<1x1x3xf32>) -> tensor<1x4x3xf32>
    tosa.yield %i2, %w, %acc2 : tensor<1x1xi32>, tensor<1x4x3xf32>, tensor<1x4x3xf32>
  }
  return %r#2, %r#0 : tensor<1x4x3xf32>, tensor<1x1xi32>
}
"""
"""Rows 3, 2, 1, 0 of x, doubled, written back in place: a loop counting down."""


@pytest.mark.parametrize(("text", "condition"), [
    (COUNT_DOWN, r"if not s\d+_\d+ > -1: break"),  # carried > constant
    (STATEFUL_LOOP, r"if not 3 > s\d+_\d+: break"),  # constant > carried
    (RUNNING_SUM, r"if not v\d+\.item\(\): break"),  # `n` is an argument: a greater op
], ids=["count_down", "count_up", "argument"])
def test_a_loop_condition_on_one_element_is_a_python_comparison(text: str, condition: str
                                                                ) -> None:
    """A step index that only advances, selects one row to gather or scatter and ends the
    loop is a Python int: the condition compares ints, the gather is a slice, the scatter
    an assignment. (In RUNNING_SUM the index also feeds an ordinary add: an array.)"""
    module = _module(text)
    interpreter = make_interpreter(module, [*all_functions(), FuncFunctions()])
    plan = ModulePlan(module, interpreter).plan("main")
    lines = [line.strip() for line in plan.source.splitlines()]
    (found,) = [line for line in lines if line.startswith("if not") and "break" in line]
    assert re.fullmatch(condition, found), found
    ints = text is not RUNNING_SUM
    assert any(re.search(r"\[:, s\d+_\d+:s\d+_\d+ \+ 1\]", line) for line in lines) == ints
    assert any(re.fullmatch(r"s\d+_\d+\[0, s\d+_\d+\] = v\d+\[0, 0\]", line)
               for line in lines) == ints


def test_an_int_step_index_out_of_range_fails_in_the_gather() -> None:
    text = COUNT_DOWN.replace("%end = \"tosa.const\"() <{values = dense<-1>",
                              "%end = \"tosa.const\"() <{values = dense<-2>")
    module = _module(text)
    interpreter = make_interpreter(module, [*all_functions(), FuncFunctions()])
    plan = ModulePlan(module, interpreter).plan("main")
    assert "if not s" in plan.source and "> -2: break" in plan.source
    with pytest.raises(ts.TosaStateError, match=r"^loop.mlir:13:5: error: 'tosa.gather' op "
                       r"index out of range: indices must be in \[0, 4\), got values from -1 "
                       r"to -1$"):
        plan(interpreter, [np.zeros((1, 4, 3), np.float32)])


def test_a_loop_counting_down() -> None:
    module = _module(COUNT_DOWN)
    interpreter = make_interpreter(module, [*all_functions(), FuncFunctions()])
    plan = ModulePlan(module, interpreter).plan("main")
    x = np.random.default_rng(0).standard_normal((1, 4, 3)).astype(np.float32)
    planned = plan(interpreter, [x])
    stock = interpreter.call_op("main", (x,))
    np.testing.assert_array_equal(planned[0], 2 * x)
    np.testing.assert_array_equal(planned[1], [[-1]])
    for a, b in zip(planned, stock, strict=True):
        assert a.tobytes() == b.tobytes()


def test_an_int_step_index_out_of_range_fails_in_the_scatter() -> None:
    text = COUNT_DOWN.replace(
        "%end = \"tosa.const\"() <{values = dense<-1>", "%end = \"tosa.const\"() <{values = dense<-2>"
    ).replace(
        "%row = tosa.gather %w, %i :",
        "%first = \"tosa.const\"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>\n"
        "    %row = tosa.gather %w, %first :",
    )
    module = _module(text)
    interpreter = make_interpreter(module, [*all_functions(), FuncFunctions()])
    plan = ModulePlan(module, interpreter).plan("main")
    assert re.search(r"s\d+_\d+\[0, s\d+_\d+\] = v\d+\[0, 0\]", plan.source)
    with pytest.raises(ts.TosaStateError, match=r"^loop.mlir:16:5: error: 'tosa.scatter' op "
                       r"index out of range: indices must be in \[0, 4\), got values from -1 "
                       r"to -1$"):
        plan(interpreter, [np.zeros((1, 4, 3), np.float32)])
