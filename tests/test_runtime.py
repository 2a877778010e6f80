"""The runtime API and the state rules of the TOSA statefulness RFC / OpenVINO's state API."""

from __future__ import annotations

import numpy as np
import pytest

import tosa_state as ts
from tosa_state import make_context
from tosa_state.frontends.mlir import parse_mlir

SNAPSHOT = """
tosa.variable @v = dense<1.0> : tensor<2xf32>
tosa.variable @w : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
  %old = tosa.variable.read @v : tensor<2xf32>
  tosa.variable.write @v, %x : tensor<2xf32>
  %new = tosa.variable.read @v : tensor<2xf32>
  tosa.variable.write @w, %old : tensor<2xf32>
  return %old, %new : tensor<2xf32>, tensor<2xf32>
}
"""

UNINITIALISED = """
tosa.variable @w : tensor<2xf32>
func.func @main() -> tensor<2xf32> {
  %0 = tosa.variable.read @w : tensor<2xf32>
  return %0 : tensor<2xf32>
}
"""


def compile_text(text: str, pipeline: str | None = None) -> ts.CompiledModel:
    return ts.compile_model(parse_mlir(make_context(), text, "test.mlir"), pipeline=pipeline)


@pytest.fixture
def snapshot() -> ts.CompiledModel:
    return compile_text(SNAPSHOT)


def f32(*values: float) -> np.ndarray:
    return np.array(values, np.float32)


def test_initial_value_on_first_call_then_last_written(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    old, new = request.infer([f32(5, 6)])
    np.testing.assert_array_equal(old, f32(1, 1))
    np.testing.assert_array_equal(new, f32(5, 6))
    old, _ = request.infer([f32(7, 8)])
    np.testing.assert_array_equal(old, f32(5, 6))


def test_a_read_keeps_its_value_when_the_variable_is_written_later(
    snapshot: ts.CompiledModel,
) -> None:
    request = snapshot.create_infer_request()
    request.infer([f32(5, 6)])
    states = {s.name: s.state for s in request.query_state()}
    np.testing.assert_array_equal(states["w"], f32(1, 1))  # written with the first read
    np.testing.assert_array_equal(states["v"], f32(5, 6))


def test_reset_state_restores_initial_values(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    request.infer([f32(5, 6)])
    request.reset_state()
    np.testing.assert_array_equal(request.query_state()[0].state, f32(1, 1))
    with pytest.raises(ts.TosaStateError, match="variable 'w' is read before it is ever written"):
        _ = request.query_state()[1].state
    old, _ = request.infer([f32(3, 3)])
    np.testing.assert_array_equal(old, f32(1, 1))


def test_per_variable_reset(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    request.infer([f32(5, 6)])
    v, w = request.query_state()
    v.reset()
    np.testing.assert_array_equal(v.state, f32(1, 1))
    np.testing.assert_array_equal(w.state, f32(1, 1))  # untouched


def test_set_state_is_validated_and_used(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    v = request.query_state()[0]
    v.state = f32(9, 9)
    old, _ = request.infer([f32(0, 0)])
    np.testing.assert_array_equal(old, f32(9, 9))
    with pytest.raises(ts.TosaStateError, match=r"shape \[3\] and dtype float32; expected "
                       r"shape \[2\] and dtype float32"):
        v.state = f32(1, 2, 3)
    with pytest.raises(ts.TosaStateError, match="dtype float64; expected shape"):
        v.state = np.zeros(2)


def test_requests_own_their_state(snapshot: ts.CompiledModel) -> None:
    first, second = snapshot.create_infer_request(), snapshot.create_infer_request()
    first.infer([f32(5, 6)])
    old, _ = second.infer([f32(7, 7)])
    np.testing.assert_array_equal(old, f32(1, 1))
    np.testing.assert_array_equal(first.query_state()[0].state, f32(5, 6))


def test_returned_arrays_never_alias_state_or_inputs(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    x = f32(5, 6)
    _, new = request.infer([x])
    new[:] = 100.0
    x[:] = -1.0
    state = request.query_state()[0].state
    np.testing.assert_array_equal(state, f32(5, 6))
    state[:] = 42.0
    np.testing.assert_array_equal(request.query_state()[0].state, f32(5, 6))


def test_set_state_copies_the_value(snapshot: ts.CompiledModel) -> None:
    request = snapshot.create_infer_request()
    value = f32(3, 4)
    request.query_state()[0].state = value
    value[:] = 0
    np.testing.assert_array_equal(request.query_state()[0].state, f32(3, 4))


def test_reading_a_never_written_variable_is_a_clear_error() -> None:
    request = compile_text(UNINITIALISED).create_infer_request()
    with pytest.raises(ts.TosaStateError) as info:
        request.infer([])
    assert "variable 'w' is read before it is ever written, and it has no initial value" in str(
        info.value
    )


def test_results_by_position_name_and_port(snapshot: ts.CompiledModel) -> None:
    result = snapshot.create_infer_request().infer({"arg0": f32(5, 6)})
    assert len(result) == 2
    np.testing.assert_array_equal(result["result1"], f32(5, 6))
    np.testing.assert_array_equal(result[snapshot.outputs[1]], result[1])
    assert sorted(result.to_dict()) == ["result0", "result1"]


def test_mlir_inputs_are_named_by_their_ssa_names_and_keep_arg_aliases(
    snapshot: ts.CompiledModel,
) -> None:
    """`%x` is input `x`; `arg0` still finds it, and an unnamed `%0` argument is `arg<i>`."""
    assert [p.name for p in snapshot.inputs] == ["x"]
    assert snapshot.input("arg0") is snapshot.input("x") is snapshot.inputs[0]
    request = snapshot.create_infer_request()
    np.testing.assert_array_equal(request.infer({"x": f32(5, 6)})[0], f32(1, 1))
    np.testing.assert_array_equal(request.infer({"arg0": f32(7, 8)})[0], f32(5, 6))
    with pytest.raises(ts.TosaStateError, match=r"no input named 'arg1' \(inputs: x\)"):
        snapshot.input("arg1")
    generic = compile_text('"func.func"() <{sym_name = "main", function_type = '
                           "(tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>}> ({\n"
                           "^bb0(%0: tensor<2xf32>, %y: tensor<2xf32>):\n"
                           '  "func.return"(%0) : (tensor<2xf32>) -> ()\n}) : () -> ()\n')
    assert [p.name for p in generic.inputs] == ["arg0", "y"]
    assert generic.input("arg1") is generic.input("y")


@pytest.mark.parametrize(
    ("inputs", "message"),
    [
        ([], r"expected 1 input\(s\) \(x\), got 0"),
        ([f32(1, 2, 3)], r"input 'x' has shape \[3\]; expected \[2\]"),
        ([np.zeros(2, np.float64)], "input 'x' has dtype float64; expected float32"),
        ({"nope": f32(1, 2)}, "no input named 'nope'"),
        ({}, "missing input"),
        ([["a", "b"]], "input 'x' cannot be converted to float32"),
    ],
)
def test_bad_inputs_name_the_input(snapshot: ts.CompiledModel, inputs, message: str) -> None:
    with pytest.raises(ts.TosaStateError, match=message):
        snapshot.create_infer_request().infer(inputs)


def test_python_lists_are_converted(snapshot: ts.CompiledModel) -> None:
    _, new = snapshot.create_infer_request().infer([[5, 6]])
    assert new.dtype == np.float32
    np.testing.assert_array_equal(new, f32(5, 6))


def test_entry_selection() -> None:
    text = SNAPSHOT + "func.func @other() { return }"
    assert compile_text(text).entry == "main"
    text = text.replace("@main", "@step")
    with pytest.raises(ts.TosaStateError, match="cannot choose the entry function among "
                       "step, other"):
        compile_text(text)
    assert ts.compile_model(parse_mlir(make_context(), text), entry="other").entry == "other"
    with pytest.raises(ts.TosaStateError, match="no function named 'x'"):
        ts.compile_model(parse_mlir(make_context(), text), entry="x")


DYNAMIC_STATE = """
tosa.variable @d : tensor<2x?xf32>
func.func @main(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %0 = tosa.variable.read @d : tensor<2x?xf32>
  %1 = tosa.concat %0, %x {axis = 1 : i32} : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  tosa.variable.write @d, %1 : tensor<2x?xf32>
  return %1 : tensor<2x?xf32>
}
"""


@pytest.mark.parametrize("pipeline", ["", "tosa-to-mlprogram", None])
def test_dynamic_state_starts_empty_and_changes_shape(pipeline: str | None) -> None:
    request = compile_text(DYNAMIC_STATE, pipeline=pipeline).create_infer_request()
    (state,) = request.query_state()
    assert state.state.shape == (2, 0)
    request.infer([np.ones((2, 3), np.float32)])
    request.infer([np.full((2, 1), 2, np.float32)])
    np.testing.assert_array_equal(state.state, [[1, 1, 1, 2]] * 2)
    state.state = np.zeros((2, 7), np.float32)  # any size in the dynamic dimension
    assert request.infer([np.ones((2, 1), np.float32)])[0].shape == (2, 8)
    with pytest.raises(ts.TosaStateError, match=r"expected shape \[2, '\?'\]"):
        state.state = np.zeros((3, 7), np.float32)
    with pytest.raises(ts.TosaStateError, match=r"input 'x' has shape \[3, 1\]"):
        request.infer([np.ones((3, 1), np.float32)])
    state.reset()
    assert state.state.shape == (2, 0)


def test_compile_model_does_not_change_the_given_module() -> None:
    module = parse_mlir(make_context(), "func.func @main() {\n tosa.variable @v : tensor<1xf32>\n"
                        " return\n}")
    before = str(module)
    ts.compile_model(module)
    assert str(module) == before


COMPUTED_INIT = """
tosa.variable @v = dense<0.0> : tensor<2xf32>
tosa.variable @v__initialized {tosa_state.init_flag_of = "v"} = dense<false> : tensor<i1>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %flag = tosa.variable.read @v__initialized : tensor<i1>
  %v = tosa.variable.read @v : tensor<2xf32>
  %init = tosa.add %x, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %c = "tosa.const"() <{values = dense<true> : tensor<1xi1>}> : () -> tensor<1xi1>
  %s = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %f = tosa.reshape %flag, %s : (tensor<i1>, !tosa.shape<1>) -> tensor<1xi1>
  %cur = tosa.select %f, %v, %init : (tensor<1xi1>, tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %next = tosa.add %cur, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  tosa.variable.write @v, %next : tensor<2xf32>
  tosa.variable.write @v__initialized, %t : tensor<i1>
  return %cur : tensor<2xf32>
}
"""


@pytest.mark.parametrize("pipeline", ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
def test_initial_value_computed_from_inputs(pipeline: str) -> None:
    """The init flag of a computed initial value is hidden, and set / reset with its
    variable, at every level."""
    request = compile_text(COMPUTED_INIT, pipeline).create_infer_request()
    (v,) = request.query_state()
    assert v.name == "v"
    with pytest.raises(ts.TosaStateError, match="'v' has no value yet: its initial value is "
                       "computed from the model's inputs at the next inference"):
        _ = v.state
    np.testing.assert_array_equal(request.infer([f32(1, 2)])[0], f32(2, 4))  # init = 2x
    np.testing.assert_array_equal(request.infer([f32(1, 1)])[0], f32(3, 6))  # state
    v.reset()
    np.testing.assert_array_equal(request.infer([f32(5, 5)])[0], f32(10, 10))  # init again
    v.state = f32(7, 7)  # a value set by the user replaces the computed init
    np.testing.assert_array_equal(request.infer([f32(5, 5)])[0], f32(7, 7))
    request.reset_state()
    np.testing.assert_array_equal(request.infer([f32(1, 0)])[0], f32(2, 0))


def test_ten_thousand_steps_do_not_grow_memory() -> None:
    """State is replaced, not accumulated: 10 000 more calls leave no allocations behind."""
    from lstm_cell import memory_growth

    assert memory_growth(hidden=8, steps=10_000) < 16 * 1024


def test_hexadecimal_float_literals_are_bit_patterns() -> None:
    """`0x7FC00001` in a float `dense<...>` is the NaN with that payload, as in MLIR (and
    as our printer writes non-finite values), not the integer 2143289345."""
    text = """
    func.func @main() -> (tensor<3xf32>, tensor<2xf16>) {
      %0 = "tosa.const"() <{values = dense<[0x7FC00001, 0xFF800000, 2.5]> : tensor<3xf32>}>
          : () -> tensor<3xf32>
      %1 = "tosa.const"() <{values = dense<0x7C00> : tensor<2xf16>}> : () -> tensor<2xf16>
      return %0, %1 : tensor<3xf32>, tensor<2xf16>
    }
    """
    singles, halves = compile_text(text).create_infer_request().infer()
    assert singles.view(np.uint32).tolist() == [0x7FC00001, 0xFF800000, 0x40200000]
    assert halves.view(np.uint16).tolist() == [0x7C00, 0x7C00]


def test_compiling_pauses_the_garbage_collector_and_collects_once_after() -> None:
    """No collector pass while compiling (each one walks the whole growing IR), one
    collection of the two younger generations at the end (what compiling allocated, plus
    the little the middle one holds: a full one would walk the caller's whole heap), and
    the collector as the caller left it. The compiled model is then in the oldest
    generation: the next middle-generation collection, in the user's first calls, does not
    walk it (it took 243 ms in the first decode step of a 30-layer LLM)."""
    import gc

    module = parse_mlir(make_context(), SNAPSHOT, "test.mlir")
    generations: list[int] = []

    def record(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            generations.append(info["generation"])

    thresholds = gc.get_threshold()
    gc.callbacks.append(record)
    try:
        gc.set_threshold(1)  # a collection at nearly every allocation, were it enabled
        ts.compile_model(module)
        gc.set_threshold(*thresholds)
        # a few passes entering and leaving (tens of thousands unpaused), none of them full
        assert len(generations) < 10 and 1 in generations and 2 not in generations
        assert gc.isenabled()
        generations.clear()
        compiled = ts.compile_model(module)
        young = {id(o) for generation in (0, 1) for o in gc.get_objects(generation)}
        ops = list(compiled.module.walk())
        assert len(ops) > 10 and not any(id(op) in young for op in ops)
        generations.clear()
        gc.disable()
        ts.compile_model(module)
        assert generations == [] and not gc.isenabled()
    finally:
        gc.callbacks.remove(record)
        gc.set_threshold(*thresholds)
        gc.enable()
