"""tosa-state's interpreter against the TOSA reference model (`tosa-tools`), over multi-step
sequences with resets and state overrides: every output and every state must agree."""

from __future__ import annotations

import numpy as np
import pytest
from lstm_cell import LstmWeights, NumpyLstm, tosa_lstm_module
from peers.tosa_reference import run_reference

import tosa_state as ts
from tosa_state import make_context
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module

ACCUMULATOR = """
tosa.variable @acc = dense<0.5> : tensor<2x3xf32>
func.func @main(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %a = tosa.variable.read @acc : tensor<2x3xf32>
  %s = tosa.add %a, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  tosa.variable.write @acc, %s : tensor<2x3xf32>
  return %s : tensor<2x3xf32>
}
"""

TWO_TYPES = """
tosa.variable @sum = dense<0.0> : tensor<1x4xf32>
tosa.variable @count = dense<[1]> : tensor<1xi32>
func.func @main(%x: tensor<1x4xf32>, %k: tensor<1xi32>) -> (tensor<1x4xf32>, tensor<1xi32>) {
  %s = tosa.variable.read @sum : tensor<1x4xf32>
  %n = tosa.variable.read @count : tensor<1xi32>
  %s1 = tosa.add %s, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %n1 = tosa.mul %n, %k, %shift : (tensor<1xi32>, tensor<1xi32>, tensor<1xi8>) -> tensor<1xi32>
  tosa.variable.write @sum, %s1 : tensor<1x4xf32>
  tosa.variable.write @count, %n1 : tensor<1xi32>
  return %s1, %n1 : tensor<1x4xf32>, tensor<1xi32>
}
"""


def run_ours(text: str, steps, reset_before=frozenset(), set_state=None, pipeline=None):
    module = parse_mlir(make_context(), text, "test.mlir")
    request = ts.compile_model(module, pipeline=pipeline).create_infer_request()
    outputs, states = [], []
    for k, inputs in enumerate(steps):
        if k in reset_before:
            request.reset_state()
        for variable in request.query_state():
            if set_state and variable.name in set_state.get(k, {}):
                variable.state = set_state[k][variable.name]
        outputs.append(list(request.infer(inputs)))
        states.append({v.name: v.state for v in request.query_state()})
    return outputs, states


def upstream(text: str) -> str:
    return print_module(parse_mlir(make_context(), text, "test.mlir"), spelling="upstream")


def assert_agree(text: str, steps, reset_before, set_state=None, atol=0.0) -> None:
    reference = run_reference(upstream(text), steps, reset_before, set_state)
    outputs, states = run_ours(text, steps, reset_before, set_state)
    for k in range(len(steps)):
        for ours, theirs in zip(outputs[k], reference.outputs[k], strict=True):
            assert ours.dtype == theirs.dtype
            np.testing.assert_allclose(ours, theirs, rtol=0, atol=atol, err_msg=f"step {k}")
        assert states[k].keys() == reference.state[k].keys()
        for name, value in states[k].items():
            np.testing.assert_allclose(value, reference.state[k][name], rtol=0, atol=atol,
                                       err_msg=f"state {name} after step {k}")


@pytest.mark.peers
def test_accumulator(tosa_reference_tools: None) -> None:
    rng = np.random.default_rng(0)
    steps = [[rng.standard_normal((2, 3)).astype(np.float32)] for _ in range(7)]
    assert_agree(ACCUMULATOR, steps, reset_before={3, 4},
                 set_state={5: {"acc": np.full((2, 3), 10.0, np.float32)}})


@pytest.mark.peers
def test_two_variables_of_different_types(tosa_reference_tools: None) -> None:
    rng = np.random.default_rng(1)
    steps = [[rng.standard_normal((1, 4)).astype(np.float32),
              np.array([k + 2], np.int32)] for k in range(6)]
    assert_agree(TWO_TYPES, steps, reset_before={2},
                 set_state={4: {"count": np.array([-3], np.int32)}})


@pytest.mark.peers
@pytest.mark.parametrize("hidden", [4, 16])
def test_stateful_lstm_cell(tosa_reference_tools: None, hidden: int) -> None:
    weights = LstmWeights.random(hidden, seed=hidden)
    rng = np.random.default_rng(2)
    steps = [[rng.standard_normal((1, hidden)).astype(np.float32)] for _ in range(8)]
    zeros = np.zeros((1, hidden), np.float32)
    assert_agree(tosa_lstm_module(weights), steps, reset_before={5},
                 set_state={3: {"h": zeros + 0.25}}, atol=2e-6)


def test_lstm_cell_matches_numpy() -> None:
    """The TOSA cell computes what the numpy baseline of the benchmark computes."""
    weights = LstmWeights.random(16, seed=3)
    rng = np.random.default_rng(3)
    steps = [[rng.standard_normal((1, 16)).astype(np.float32)] for _ in range(10)]
    outputs, _ = run_ours(tosa_lstm_module(weights), steps, reset_before={6})
    baseline = NumpyLstm(weights)
    for k, (x,) in enumerate(steps):
        if k == 6:
            baseline.reset()
        np.testing.assert_allclose(outputs[k][0], baseline.step(x), rtol=0, atol=2e-6)
