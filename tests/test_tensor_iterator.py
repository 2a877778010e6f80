"""TensorIterator-1 as one `tosa.while_loop`, against the OpenVINO runtime.

Real TensorIterators, made at test time (each test checks that the model holds one):

- OpenVINO's ONNX frontend turns ONNX `Scan` into a TensorIterator; reverse scan
  directions become port maps of stride -1, ONNX `Identity` nodes Identity-16 layers (in
  the body too). MakeStateful then makes the scanned state a variable (ReadValue / Assign
  around the TensorIterator);
- OpenVINO's Python API (`opset13.tensor_iterator`): parts of 2 read forwards and
  backwards, an invariant input, a reversed concatenated output and a last-iteration
  output. (Parts from an offset `start` are not compared: the CPU plugin reads them from
  the axis' beginning, see docs/openvino.md; `test_openvino_to_tosa.py` checks them.)

Each runs over steps with resets and `set_state` (`run_differential`), several iterations
per call. The converted IR holds one loop whatever the iteration count (compile time:
`benchmarks/sequence_loop.py --kinds tensor_iterator`); upstream MLIR parses it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import openvino as ov
import openvino.opset13 as ops
import openvino.passes as passes
import pytest
from peers.upstream_mlir import iree_opt
from test_openvino_differential import Scenario, _save, run_differential

import tosa_state as ts
from tosa_state.dialects.tosa.control_flow import WhileOp
from tosa_state.printing import print_module

pytestmark = pytest.mark.peers

INPUTS, HIDDEN, BATCH = 3, 4, 2


def _types(model: object) -> list[str]:
    return [node.get_type_name() for node in model.get_ordered_ops()]  # type: ignore[attr-defined]


def _identities(model: object) -> list[str]:
    """The Identity-16 layers of `model` and of its TensorIterator bodies, in order."""
    found = []
    for node in model.get_ordered_ops():  # type: ignore[attr-defined]
        info = node.get_type_info()
        if info.name == "Identity" and info.version_id == "opset16":
            found.append(node.get_friendly_name())
        if node.get_type_name() == "TensorIterator":
            found += _identities(node.get_function())
    return found


def scan_model(folder: Path, steps: int) -> object:
    """An ONNX `Scan` (a tanh RNN over `x [T, B, 3]` read backwards, its outputs `y` in
    step order and `y_rev` reversed) read by OpenVINO's ONNX frontend, its state `s0` ->
    `s_last` made a variable by MakeStateful. ONNX `Identity` nodes (the state after its
    ReadValue and before its Assign, `y` in the body) stay OpenVINO Identity-16 layers."""
    from onnx import TensorProto, helper

    rng = np.random.default_rng(steps)
    w = (rng.standard_normal((INPUTS, HIDDEN)) * 0.5).astype(np.float32)
    r = (rng.standard_normal((HIDDEN, HIDDEN)) * 0.5).astype(np.float32)

    def tensor(name: str, shape: list[int]) -> object:
        return helper.make_tensor_value_info(name, TensorProto.FLOAT, shape)

    body = helper.make_graph(
        [helper.make_node("MatMul", ["s_in", "R"], ["a"]),
         helper.make_node("MatMul", ["x_t", "W"], ["b"]),
         helper.make_node("Add", ["a", "b"], ["c"]),
         helper.make_node("Tanh", ["c"], ["s_out"]),
         helper.make_node("Identity", ["s_out"], ["y_t"]),
         helper.make_node("Neg", ["s_out"], ["z_t"])],
        "body",
        [tensor("s_in", [BATCH, HIDDEN]), tensor("x_t", [BATCH, INPUTS])],
        [tensor("s_out", [BATCH, HIDDEN]), tensor("y_t", [BATCH, HIDDEN]),
         tensor("z_t", [BATCH, HIDDEN])],
        [helper.make_tensor("W", TensorProto.FLOAT, w.shape, w.ravel()),
         helper.make_tensor("R", TensorProto.FLOAT, r.shape, r.ravel())],
    )
    scan = helper.make_node("Scan", ["s_in0", "x"], ["s_scan", "y", "y_rev"], body=body,
                            num_scan_inputs=1, scan_input_directions=[1],
                            scan_output_directions=[0, 1])
    graph = helper.make_graph(
        [helper.make_node("Identity", ["s0"], ["s_in0"]), scan,
         helper.make_node("Identity", ["s_scan"], ["s_last"])], "scan",
        [tensor("s0", [BATCH, HIDDEN]), tensor("x", [steps, BATCH, INPUTS])],
        [tensor("s_last", [BATCH, HIDDEN]), tensor("y", [steps, BATCH, HIDDEN]),
         tensor("y_rev", [steps, BATCH, HIDDEN])],
    )
    path = folder / "scan.onnx"
    onnx.save(helper.make_model(graph, opset_imports=[helper.make_opsetid("", 16)]), str(path))
    model = ov.Core().read_model(str(path))
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful({"s0": "s_last"}))
    manager.run_passes(model)
    return model


def api_model(steps: int) -> object:
    """A TensorIterator built with OpenVINO's Python API: iteration k reads parts of 2 of
    `x` forwards (`x[:, 2k : 2k + 2]`) and of `u` backwards (stride -2), adds the invariant
    `bias` input and the state `h` (ReadValue / Assign around the TensorIterator, which
    stores half the new state); outputs: the parts concatenated backwards (stride -2) and
    the last iteration's `sigmoid` (no back edge)."""
    rng = np.random.default_rng(7)
    w = (rng.standard_normal((2 * INPUTS, HIDDEN)) * 0.5).astype(np.float32)
    x = ops.parameter([1, 2 * steps, INPUTS], np.float32, name="x")
    u = ops.parameter([1, 2 * steps, HIDDEN], np.float32, name="u")
    bias = ops.parameter([1, HIDDEN], np.float32, name="bias")
    h = ops.read_value(ops.constant(np.zeros((1, HIDDEN), np.float32)), "h", np.float32,
                       [1, HIDDEN])
    x_k = ops.parameter([1, 2, INPUTS], np.float32, name="x_k")
    u_k = ops.parameter([1, 2, HIDDEN], np.float32, name="u_k")
    h_k = ops.parameter([1, HIDDEN], np.float32, name="h_k")
    bias_k = ops.parameter([1, HIDDEN], np.float32, name="bias_k")
    flat = ops.reshape(x_k, ops.constant(np.array([1, 2 * INPUTS])), False)
    pre = ops.add(ops.add(ops.matmul(flat, ops.constant(w), False, False), h_k), bias_k)
    new_h = ops.tanh(ops.add(pre, ops.reduce_sum(u_k, ops.constant(np.array([1])), False)))
    part = ops.concat([ops.unsqueeze(new_h, ops.constant(np.array([1]))),
                       ops.unsqueeze(ops.negative(new_h), ops.constant(np.array([1])))], 1)
    results = [ops.result(new_h), ops.result(part), ops.result(ops.sigmoid(new_h))]
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model(results, [x_k, u_k, h_k, bias_k], "body"))
    ti.set_sliced_input(x_k, x.output(0), 0, 2, 2, -1, 1)
    ti.set_sliced_input(u_k, u.output(0), -1, -2, 2, 0, 1)
    ti.set_merged_input(h_k, h.output(0), results[0].output(0))
    ti.set_invariant_input(bias_k, bias.output(0))
    h_out = ti.get_iter_value(results[0].output(0), -1)
    parts = ti.get_concatenated_slices(results[1].output(0), -1, -2, 2, 0, 1)
    gate = ti.get_iter_value(results[2].output(0), -1)
    outputs = [ops.result(parts, name="parts"), ops.result(gate, name="gate")]
    write = ops.assign(ops.multiply(h_out, ops.constant(np.float32(0.5))), "h")
    return ov.Model(outputs, [write], [x, u, bias], "ti_api")


@pytest.mark.parametrize("steps", [1, 6, 40])
def test_onnx_scan(openvino_runtime: None, tmp_path: Path, steps: int) -> None:
    model = scan_model(tmp_path, steps)
    assert "TensorIterator" in _types(model) and "ReadValue" in _types(model)
    assert _identities(model) == ["s_in0", "y_t", "s_last"]
    xml = _save(model, tmp_path)
    assert 'stride="-1"' in xml.read_text()  # the reverse scan input and output
    run_differential(xml, Scenario(), f"onnx_scan[{steps}]")


@pytest.mark.parametrize("pipeline", ["", "tosa-to-mlprogram"])
def test_onnx_scan_through_the_other_lowerings(openvino_runtime: None, tmp_path: Path,
                                               pipeline: str) -> None:
    """The state read before the loop and written after it, at every level (the default
    pipeline lowers to memref globals)."""
    xml = _save(scan_model(tmp_path, 6), tmp_path)
    run_differential(xml, Scenario(), f"onnx_scan[6, {pipeline or 'tosa'}]", pipeline)


@pytest.mark.parametrize("steps", [1, 5])
def test_python_api_tensor_iterator(openvino_runtime: None, tmp_path: Path, steps: int
                                    ) -> None:
    model = api_model(steps)
    assert "TensorIterator" in _types(model)
    run_differential(_save(model, tmp_path), Scenario(), f"ti_api[{steps}]")


def _converted(xml: Path) -> object:
    return ts.compile_model(xml, pipeline="").module


def test_one_loop_whatever_the_iteration_count(tmp_path: Path) -> None:
    """The converted model is the same ops for 3 and 300 iterations: one loop."""
    counts = []
    for steps in (3, 300):
        module = _converted(_save(scan_model(tmp_path, steps), tmp_path, f"scan{steps}"))
        assert sum(isinstance(op, WhileOp) for op in module.walk()) == 1
        counts.append(sum(1 for _ in module.walk()))
    assert counts[0] == counts[1]


@pytest.mark.usefixtures("upstream_mlir_tools")
def test_upstream_parses_the_converted_scan(tmp_path: Path) -> None:
    module = _converted(_save(scan_model(tmp_path, 6), tmp_path))
    theirs = iree_opt(print_module(module, spelling="upstream"), "--mlir-print-op-generic")
    assert theirs.count('"tosa.while_loop"') == 1
    assert '"tosa.gather"' in theirs and '"tosa.scatter"' in theirs
