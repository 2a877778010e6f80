"""Self-tests of the peer-tool harnesses in `tests/peers` against numpy goldens."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from peers.tosa_reference import run_reference
from peers.upstream_mlir import iree_opt, tosa_opt

pytestmark = pytest.mark.peers

ACCUMULATOR = """
module {
  tosa.variable @acc = dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
  func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
    %0 = tosa.variable_read @acc : tensor<3xf32>
    %1 = tosa.add %0, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
    tosa.variable_write @acc, %1 : tensor<3xf32>
    return %1 : tensor<3xf32>
  }
}
"""

COUNTERS = """
module {
  tosa.variable @total = dense<0.25> : tensor<f32>
  tosa.variable @count = dense<0> : tensor<i32>
  func.func @main(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
    %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
    %half = "tosa.const"() <{values = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
    %t = tosa.variable_read @total : tensor<f32>
    %c = tosa.variable_read @count : tensor<i32>
    %x2 = tosa.mul %x, %half, %shift : (tensor<f32>, tensor<f32>, tensor<1xi8>) -> tensor<f32>
    %t1 = tosa.add %t, %x2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
    %c1 = tosa.add %c, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
    tosa.variable_write @total, %t1 : tensor<f32>
    tosa.variable_write @count, %c1 : tensor<i32>
    return %t1, %c1 : tensor<f32>, tensor<i32>
  }
}
"""

WRITE_THEN_READ = """
module {
  tosa.variable @last : tensor<2xi32>
  func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
    %one = "tosa.const"() <{values = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>
    %x1 = tosa.add %x, %one : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    tosa.variable_write @last, %x1 : tensor<2xi32>
    %r = tosa.variable_read @last : tensor<2xi32>
    %y = tosa.add %r, %r : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    return %y : tensor<2xi32>
  }
}
"""

READ_UNINITIALISED = """
module {
  tosa.variable @prev : tensor<2xi32>
  func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
    %p = tosa.variable_read @prev : tensor<2xi32>
    tosa.variable_write @prev, %x : tensor<2xi32>
    return %p : tensor<2xi32>
  }
}
"""

SWAP = """
module {
  tosa.variable @a = dense<1.0> : tensor<2xf32>
  tosa.variable @b = dense<[10.0, 20.0]> : tensor<2xf32>
  func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>) {
    %ra = tosa.variable_read @a : tensor<2xf32>
    %rb = tosa.variable_read @b : tensor<2xf32>
    %s = tosa.add %rb, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.variable_write @a, %s : tensor<2xf32>
    tosa.variable_write @b, %ra : tensor<2xf32>
    return %ra, %rb : tensor<2xf32>, tensor<2xf32>
  }
}
"""

NO_RESULTS_UNUSED_VARIABLE = """
module {
  tosa.variable @acc = dense<0.0> : tensor<2xf32>
  tosa.variable @unused = dense<[1, 2]> : tensor<2xi8>
  func.func @main(%x: tensor<2xf32>) {
    %0 = tosa.variable_read @acc : tensor<2xf32>
    %1 = tosa.add %0, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.variable_write @acc, %1 : tensor<2xf32>
    return
  }
}
"""


def _f32(*values: float) -> np.ndarray:
    return np.array(values, dtype=np.float32)


def _assert_equal(actual: np.ndarray, expected: np.ndarray) -> None:
    assert actual.dtype == expected.dtype, (actual.dtype, expected.dtype)
    np.testing.assert_array_equal(actual, expected, strict=True)


# ---------------------------------------------------------------------------------------------
# upstream MLIR tools


def test_upstream_tools_agree_on_generic_form(upstream_mlir_tools: None) -> None:
    generic = tosa_opt(COUNTERS, "--mlir-print-op-generic")
    assert iree_opt(COUNTERS, "--mlir-print-op-generic") == generic
    assert '"tosa.variable_read"() <{name = "total"}>' in generic


def test_upstream_tool_failure_carries_diagnostic(upstream_mlir_tools: None) -> None:
    bad = ACCUMULATOR.replace("tosa.variable_read @acc", "tosa.variable_read @nope")
    with pytest.raises(AssertionError, match=r"'nope' has not been declared by 'tosa\.variable'"):
        iree_opt(bad)


def test_iree_tosa_pipeline_lowers_variables_to_ml_program(upstream_mlir_tools: None) -> None:
    lowered = iree_opt(ACCUMULATOR, "--iree-tosa-input-transformation-pipeline")
    assert "ml_program.global private mutable @acc(" in lowered
    assert "ml_program.global_load @acc" in lowered
    assert "ml_program.global_store @acc" in lowered


# ---------------------------------------------------------------------------------------------
# TOSA reference model


def test_reference_accumulator_with_reset_and_set_state(tosa_reference_tools: None) -> None:
    rng = np.random.default_rng(7)
    xs = [rng.standard_normal(3).astype(np.float32) for _ in range(6)]
    init, override = _f32(1.0, -2.0, 0.5), _f32(100.0, 0.125, -3.0)
    run = run_reference(
        ACCUMULATOR, [[x] for x in xs], reset_before={3}, set_state={5: {"acc": override}}
    )
    acc = init.copy()
    for k, x in enumerate(xs):
        if k == 3:
            acc = init.copy()
        if k == 5:
            acc = override.copy()
        acc = acc + x
        assert len(run.outputs[k]) == 1
        _assert_equal(run.outputs[k][0], acc)
        assert run.state[k].keys() == {"acc"}
        _assert_equal(run.state[k]["acc"], acc)


def test_reference_two_counters_of_different_types(tosa_reference_tools: None) -> None:
    xs = [np.float32(v) for v in (1.5, -0.75, 3.0, 0.1)]
    run = run_reference(COUNTERS, [[x] for x in xs], reset_before={2})
    total, count = np.float32(0.25), np.int32(0)
    for k, x in enumerate(xs):
        if k == 2:
            total, count = np.float32(0.25), np.int32(0)
        total, count = np.float32(total + x * np.float32(0.5)), np.int32(count + 1)
        _assert_equal(run.outputs[k][0], np.array(total))
        _assert_equal(run.outputs[k][1], np.array(count))
        _assert_equal(run.state[k]["total"], np.array(total))
        _assert_equal(run.state[k]["count"], np.array(count))


def test_reference_accepts_generic_and_iree_custom_syntax(tosa_reference_tools: None) -> None:
    steps = [[np.float32(2.0)], [np.float32(-1.0)]]
    expected = run_reference(COUNTERS, steps)
    # iree-opt prints `tosa.const values(...)`, a custom form tosa-opt cannot parse.
    for text in (tosa_opt(COUNTERS, "--mlir-print-op-generic"), iree_opt(COUNTERS)):
        run = run_reference(text, steps)
        for got, want in zip(run.outputs, expected.outputs, strict=True):
            for a, b in zip(got, want, strict=True):
                _assert_equal(a, b)


def test_reference_variable_without_initial_value_written_before_read(
    tosa_reference_tools: None,
) -> None:
    xs = [np.array([3, -4], np.int32), np.array([7, 0], np.int32), np.array([-1, 9], np.int32)]
    run = run_reference(WRITE_THEN_READ, [[x] for x in xs], reset_before={1})
    for k, x in enumerate(xs):
        _assert_equal(run.outputs[k][0], (x + 1) * 2)
        _assert_equal(run.state[k]["last"], x + 1)


def test_reference_read_of_uninitialised_variable_raises(tosa_reference_tools: None) -> None:
    x = np.array([5, 6], np.int32)
    with pytest.raises(ValueError, match="@prev is read before it has a value"):
        run_reference(READ_UNINITIALISED, [[x]])
    # After a reset it has no value again.
    with pytest.raises(ValueError, match="step 1: variable @prev"):
        run_reference(READ_UNINITIALISED, [[x], [x]], reset_before={1}, set_state={0: {"prev": x}})
    run = run_reference(READ_UNINITIALISED, [[x], [x + 1]], set_state={0: {"prev": x * 10}})
    _assert_equal(run.outputs[0][0], x * 10)
    _assert_equal(run.outputs[1][0], x)
    _assert_equal(run.state[1]["prev"], x + 1)
    zeros = np.zeros(2, np.int32)
    run = run_reference(READ_UNINITIALISED, [[x]], initial={"prev": zeros})
    _assert_equal(run.outputs[0][0], zeros)


def test_reference_swap_reads_see_state_before_writes(tosa_reference_tools: None) -> None:
    xs = [_f32(0.5, -1.0), _f32(2.0, 4.0), _f32(-8.0, 0.25), _f32(1.0, 1.0)]
    run = run_reference(SWAP, [[x] for x in xs], set_state={3: {"b": _f32(-1.0, -2.0)}})
    a, b = _f32(1.0, 1.0), _f32(10.0, 20.0)
    for k, x in enumerate(xs):
        if k == 3:
            b = _f32(-1.0, -2.0)
        _assert_equal(run.outputs[k][0], a)
        _assert_equal(run.outputs[k][1], b)
        a, b = b + x, a
        _assert_equal(run.state[k]["a"], a)
        _assert_equal(run.state[k]["b"], b)


def test_reference_unused_variable_and_no_results(tosa_reference_tools: None) -> None:
    # An unused variable fails the model's graph validation; the harness drops and carries it.
    x = _f32(0.5, -1.5)
    run = run_reference(NO_RESULTS_UNUSED_VARIABLE, [[x], [x]], set_state={1: {"unused": [3, 4]}})
    assert run.outputs == [[], []]
    _assert_equal(run.state[0]["acc"], x)
    _assert_equal(run.state[1]["acc"], x + x)
    _assert_equal(run.state[0]["unused"], np.array([1, 2], np.int8))
    _assert_equal(run.state[1]["unused"], np.array([3, 4], np.int8))


# ---------------------------------------------------------------------------------------------
# OpenVINO


def _accumulator_model(path: Path, init: np.ndarray) -> Path:
    """acc (ReadValue-6 with a Constant init) += x; count (0-D, no init) += 1."""
    import openvino as ov
    import openvino.opset6 as ops

    x = ops.parameter([3], np.float32, name="x")
    acc = ops.read_value(ops.constant(init), "acc", np.float32, [3])
    acc1 = ops.add(acc, x)
    count = ops.read_value("count", np.int32, [])
    count1 = ops.add(count, ops.constant(np.int32(1)))
    results = [ops.result(acc1, name="acc_out"), ops.result(count1, name="count_out")]
    sinks = [ops.assign(acc1, "acc"), ops.assign(count1, "count")]
    model = ov.Model(results, sinks, [x], "accumulator")
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def test_openvino_accumulator_with_reset_and_set_state(
    openvino_runtime: None, tmp_path: Path
) -> None:
    from peers.openvino_runtime import OpenVINOSession

    init = _f32(1.0, -2.0, 0.5)
    session = OpenVINOSession(_accumulator_model(tmp_path / "acc.xml", init))
    assert session.caveats == []
    # A fresh `acc` has a pending init (OpenVINO itself would report zeros); `count` has none.
    assert session.states().keys() == {"count"}
    _assert_equal(session.states()["count"], np.array(np.int32(0)))

    rng = np.random.default_rng(11)
    xs = [rng.standard_normal(3).astype(np.float32) for _ in range(6)]
    acc, count = init.copy(), np.int32(0)
    for k, x in enumerate(xs):
        if k == 2:
            session.reset_state()
            acc, count = init.copy(), np.int32(0)
        if k == 4:
            session.set_state("count", np.array(np.int32(40)))
            session.reset_variable("acc")
            acc, count = init.copy(), np.int32(40)
        if k == 5:
            session.set_state("acc", _f32(9.0, 8.0, 7.0))
            acc = _f32(9.0, 8.0, 7.0)
        acc, count = acc + x, np.int32(count + 1)
        acc_out, count_out = session.infer([x])
        _assert_equal(acc_out, acc)
        _assert_equal(count_out, np.array(count))
        states = session.states()
        _assert_equal(states["acc"], acc)
        _assert_equal(states["count"], np.array(count))  # 0-D, not OpenVINO's [1]


def test_openvino_session_refuses_silent_conversions(
    openvino_runtime: None, tmp_path: Path
) -> None:
    from peers.openvino_runtime import OpenVINOSession

    session = OpenVINOSession(_accumulator_model(tmp_path / "acc.xml", _f32(0.0, 0.0, 0.0)))
    with pytest.raises(TypeError, match="input 0"):
        session.infer([np.zeros(3, np.int32)])
    with pytest.raises(TypeError, match="set_state"):
        session.set_state("count", np.array(1.0, np.float32))
    with pytest.raises(TypeError, match="set_state"):
        session.set_state("acc", np.zeros(4, np.float32))
    with pytest.raises(KeyError, match="nope"):
        session.set_state("nope", np.zeros(3, np.float32))
