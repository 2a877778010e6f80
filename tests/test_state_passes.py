"""`make-stateful` and `externalize-state`, checked by running: the stateful module must
behave like its stateless form with the state fed back by hand, and each pass must undo the
other (outputs and states equal over steps with resets and `set_state`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms import ExternalizeStatePass, MakeStatefulPass
from tosa_state.transforms.externalize_state import externalize_state
from tosa_state.transforms.make_stateful import make_stateful

PROGRAMS = Path(__file__).resolve().parent / "programs"
BIN = Path(sys.executable).parent

CELL = """
func.func @main(%x: tensor<1x3xf32>, %h0: tensor<1x3xf32>, %c0: tensor<1x3xf32>)
    -> (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[0.5, -1.0, 0.25]]> : tensor<1x3xf32>}> : () -> tensor<1x3xf32>
  %xh = tosa.mul %h0, %w, %shift : (tensor<1x3xf32>, tensor<1x3xf32>, tensor<1xi8>) -> tensor<1x3xf32>
  %z = tosa.add %x, %xh : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %c1 = tosa.add %c0, %z : (tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x3xf32>
  %h1 = tosa.tanh %c1 : (tensor<1x3xf32>) -> tensor<1x3xf32>
  %y = tosa.sigmoid %z : (tensor<1x3xf32>) -> tensor<1x3xf32>
  func.return %h1, %y, %c1 : tensor<1x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>
}
"""
"""A cell with its state as arguments and results (as a torch or ONNX export has it)."""


def parse(text: str) -> ModuleOp:
    return parse_mlir(ts.make_context(), text, "test.mlir")


def run_stateless(module: ModuleOp, xs: list[np.ndarray]) -> list[list[np.ndarray]]:
    """`CELL` over `xs` with (h, c) fed back by hand from zeros, reset before step 4."""
    request = ts.compile_model(module, pipeline="").create_infer_request()
    outputs = []
    for step, x in enumerate(xs):
        if step in (0, 4):
            h = c = np.zeros((1, 3), np.float32)
        h, y, c = request.infer([x, h, c])
        outputs.append([y, h, c])
    return outputs


def test_make_stateful_runs_like_the_state_fed_back_by_hand() -> None:
    xs = [np.random.default_rng(i).standard_normal((1, 3)).astype(np.float32)
          for i in range(7)]
    module = parse(CELL)
    declared = make_stateful(module, {"h0": "h1", "c0": "c1"})
    assert [d.var_name for d in declared] == ["h0h1", "c0c1"]
    request = ts.compile_model(module).create_infer_request()
    for step, (x, (y, h, c)) in enumerate(zip(xs, run_stateless(parse(CELL), xs),
                                              strict=True)):
        if step == 4:
            request.reset_state()
        (got,) = request.infer([x])
        np.testing.assert_array_equal(got, y)
        states = {s.name: s.state for s in request.query_state()}
        np.testing.assert_array_equal(states["h0h1"], h)
        np.testing.assert_array_equal(states["c0c1"], c)


def test_externalize_undoes_make_stateful() -> None:
    """`externalize-state ∘ make-stateful` is the identity up to names and the order of
    the ports: the state moves to the end of the inputs and outputs."""
    module = parse(CELL)
    MakeStatefulPass(pairs="h0=h1,c0=c1").apply(ts.make_context(), module)
    ExternalizeStatePass().apply(ts.make_context(), module)
    request = ts.compile_model(module, pipeline="").create_infer_request()
    assert [p.name for p in request.model.inputs] == ["x", "h0h1", "c0c1"]
    assert [p.name for p in request.model.outputs] == ["result0", "h0h1", "c0c1"]
    original = ts.compile_model(parse(CELL), pipeline="").create_infer_request()
    rng = np.random.default_rng(0)
    for _ in range(3):
        x, h, c = (rng.standard_normal((1, 3)).astype(np.float32) for _ in range(3))
        h1, y, c1 = original.infer([x, h, c])
        got = request.infer([x, h, c])
        for a, b in zip(got, [y, h1, c1], strict=True):
            np.testing.assert_array_equal(a, b)


def _steps(request: object, inputs: list[np.ndarray], rng: np.random.Generator) -> list:
    """Six calls with a reset, a per-variable reset and set_state between them."""
    seen = []
    for step in range(6):
        states = request.query_state()
        if step == 2:
            request.reset_state()
        if step == 3 and states:
            states[0].reset()
        if step == 4:
            for state in states:
                try:
                    value = state.state
                except ts.TosaStateError:
                    continue
                state.state = (rng.standard_normal(value.shape) * 3).astype(value.dtype)
        results = request.infer([x + step for x in inputs])
        seen.append([np.asarray(r) for r in results])
        seen.append({s.name: s.state for s in request.query_state()})
    return seen


ROUND_TRIP = ["accumulator.mlir", "counters.mlir", "half_types.mlir", "read_after_write.mlir",
              "read_twice.mlir", "swap.mlir", "view_alias.mlir", "write_before_read.mlir"]
"""The programs whose state is all accessed in `main`'s body (the others call functions
that access it, or access it in regions: `externalize-state` refuses those)."""


@pytest.mark.parametrize("program", ROUND_TRIP)
def test_make_stateful_undoes_externalize(program: str) -> None:
    """`make-stateful ∘ externalize-state` gives back a module that runs exactly as the
    original: same outputs and same states (same names: the ports are named after the
    variables, and a pair of equal names keeps the name)."""
    text = (PROGRAMS / program).read_text()
    module = parse(text)
    names = externalize_state(module)
    assert names, "the program has variables"
    make_stateful(module, {name: name for name in names})
    original = ts.compile_model(parse(text)).create_infer_request()
    round_trip = ts.compile_model(module).create_infer_request()
    inputs = [np.ones(p.shape, p.dtype) for p in original.model.inputs]
    want = _steps(original, inputs, np.random.default_rng(1))
    got = _steps(round_trip, inputs, np.random.default_rng(1))
    for a, b in zip(got, want, strict=True):
        if isinstance(b, dict):
            assert a.keys() == b.keys()
            for name in b:
                np.testing.assert_array_equal(a[name], b[name])
        else:
            for x, y in zip(a, b, strict=True):
                np.testing.assert_array_equal(x, y)


def test_the_command_line_pipeline_runs(tmp_path: Path) -> None:
    """`tosa-state-opt -p 'make-stateful{...}'` writes a module that `tosa-state-run` steps
    with the state kept, as the stateless cell with the state fed back by hand."""
    source = tmp_path / "cell.mlir"
    source.write_text(CELL)
    stateful = tmp_path / "stateful.mlir"
    subprocess.run([str(BIN / "tosa-state-opt"), str(source), "-p",
                    'make-stateful{pairs="h0=h1,c0=c1"}', "-o", str(stateful)], check=True)
    assert "tosa.variable @h0h1 = dense<0.000000e+00> : tensor<1x3xf32>" in stateful.read_text()
    xs = np.random.default_rng(2).standard_normal((4, 1, 3)).astype(np.float32)
    np.savez(tmp_path / "in.npz", arg0=xs)
    subprocess.run([str(BIN / "tosa-state-run"), str(stateful), "--inputs",
                    str(tmp_path / "in.npz"), "--steps", "4", "-o", str(tmp_path / "out.npz")],
                   check=True)
    out = np.load(tmp_path / "out.npz")
    want = run_stateless(parse(CELL), list(xs))
    np.testing.assert_array_equal(out["result0"], np.stack([y for y, _, _ in want]))
    np.testing.assert_array_equal(out["state/c0c1"], want[-1][2])


@pytest.mark.peers
def test_upstream_mlir_parses_both_results(upstream_mlir_tools: None) -> None:
    from peers.upstream_mlir import iree_opt

    module = parse(CELL)
    make_stateful(module, {"h0": "h1", "c0": "c1"})
    stateful = print_module(module, spelling="upstream")
    assert "tosa.variable_read @h0h1" in iree_opt(stateful)
    externalize_state(module)
    assert "tosa_state.initial_value = dense<0.000000e+00> : tensor<1x3xf32>" in \
        iree_opt(print_module(module, spelling="upstream"))


@pytest.mark.filterwarnings("ignore")  # torch's tracer, inside convert_model
def test_a_torch_gru_made_stateful_streams_like_torch(tmp_path: Path) -> None:
    """The PyTorch route: a GRU keyword spotter whose hidden state is an input/output pair,
    converted by `openvino.convert_model`, made stateful by our pass, run step by step
    against torch feeding the state back by hand (with a reset)."""
    import openvino as ov
    import torch

    class Spotter(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.gru = torch.nn.GRU(10, 16, batch_first=True)
            self.head = torch.nn.Linear(16, 3)

        def forward(self, x, h):  # type: ignore[no-untyped-def]
            y, h1 = self.gru(x, h)
            return self.head(y[:, -1]), h1

    torch.manual_seed(0)
    spotter = Spotter().eval()
    model = ov.convert_model(spotter, example_input=(torch.zeros(1, 1, 10), torch.zeros(1, 1, 16)),
                             input=[("x", [1, 1, 10]), ("h", [1, 1, 16])])
    for output, name in zip(model.outputs, ("logits", "h1"), strict=True):
        output.get_tensor().set_names({name})  # torch outputs come without names
    ov.save_model(model, str(tmp_path / "spotter.xml"), compress_to_fp16=False)
    request = ts.compile_model(tmp_path / "spotter.xml", pipeline='make-stateful{pairs="h=h1"},'
                               "convert-tosa-variables-to-memref").create_infer_request()
    assert [s.name for s in request.query_state()] == ["hh1"]
    rng = np.random.default_rng(3)
    with torch.no_grad():
        for step in range(8):
            if step in (0, 5):
                h = torch.zeros(1, 1, 16)
                if step:
                    request.reset_state()
            x = rng.standard_normal((1, 1, 10)).astype(np.float32)
            logits, h = spotter(torch.from_numpy(x), h)
            np.testing.assert_allclose(request.infer([x])["logits"], logits.numpy(),
                                       rtol=1e-5, atol=1e-5)
            np.testing.assert_allclose(request.query_state()[0].state, h.numpy(),
                                       rtol=1e-5, atol=1e-5)
