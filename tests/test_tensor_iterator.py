"""TensorIterator-1 and Loop-5 as one `tosa.while_loop`, against the OpenVINO runtime.

Real TensorIterators, made at test time (each test checks that the model holds one):

- OpenVINO's ONNX frontend turns ONNX `Scan` into a TensorIterator; reverse scan
  directions become port maps of stride -1, ONNX `Identity` nodes Identity-16 layers (in
  the body too). MakeStateful then makes the scanned state a variable (ReadValue / Assign
  around the TensorIterator);
- OpenVINO's Python API (`opset13.tensor_iterator`): parts of 2 read forwards and
  backwards, an invariant input, a reversed concatenated output and a last-iteration
  output. (Parts from an offset `start` are not compared: the CPU plugin reads them from
  the axis' beginning, see docs/openvino.md; `test_openvino_to_tosa.py` checks them.)

- a TensorIterator over a dynamic time axis (the iteration count a run-time size): parts
  read forwards and backwards, concatenated forwards and backwards, a last-iteration value;
- Loop-5 (`opset5.loop`) as granitemoehybrid's state-space scan has it: the trip count T
  from a shape (or an input), the iteration number written into an output buffer with
  ScatterUpdate, a state carried by a back edge, inputs sliced along a dynamic time axis;
  with static shapes also a concatenated and a last-iteration output.

Each runs over steps with resets and `set_state` (`run_differential`), several iterations
per call (the Loops over several input shapes and trip counts). The converted IR holds one loop whatever the iteration count (compile time:
`benchmarks/sequence_loop.py --kinds tensor_iterator`); upstream MLIR parses it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import onnx
import openvino as ov
import openvino.opset5 as opset5
import openvino.opset13 as ops
import openvino.passes as passes
import pytest
from peers.openvino_runtime import trusted_session
from peers.upstream_mlir import iree_opt
from test_error_paths import _edit, opt_xml_fails
from test_openvino_differential import Scenario, TosaStateSession, _compare, _save, run_differential

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


def dynamic_time_model() -> object:
    """A TensorIterator over `x: [1, T, 4]` with T known at run time only: `x` read forwards
    and `u` backwards (stride -1), the state `h` a back edge, the step's row concatenated
    forwards and backwards, the last `sigmoid(h)` (not a back edge, static)."""
    x = ops.parameter([1, -1, 4], np.float32, name="x")
    u = ops.parameter([1, -1, 4], np.float32, name="u")
    h0 = ops.parameter([1, 4], np.float32, name="h0")
    x_k = ops.parameter([1, 1, 4], np.float32, name="x_k")
    u_k = ops.parameter([1, 1, 4], np.float32, name="u_k")
    h_k = ops.parameter([1, 4], np.float32, name="h_k")
    axis = ops.constant(np.int64(1))
    new_h = ops.tanh(ops.add(ops.add(ops.multiply(h_k, ops.constant(np.float32(0.7))),
                                     ops.squeeze(x_k, axis)),
                             ops.multiply(ops.squeeze(u_k, axis), ops.constant(np.float32(0.3)))))
    row = ops.unsqueeze(new_h, axis)
    gate = ops.sigmoid(new_h)
    ti = ops.tensor_iterator()
    ti.set_body(ov.Model([ops.result(new_h), ops.result(row), ops.result(gate)],
                         [x_k, u_k, h_k], "body"))
    ti.set_sliced_input(x_k, x.output(0), 0, 1, 1, -1, 1)
    ti.set_sliced_input(u_k, u.output(0), -1, -1, 1, 0, 1)
    ti.set_merged_input(h_k, h0.output(0), new_h.output(0))
    results = [ops.result(ti.get_iter_value(new_h.output(0), -1), name="h"),
               ops.result(ti.get_concatenated_slices(row.output(0), 0, 1, 1, -1, 1), name="rows"),
               ops.result(ti.get_concatenated_slices(row.output(0), -1, -1, 1, 0, 1),
                          name="reversed"),
               ops.result(ti.get_iter_value(gate.output(0), -1), name="gate")]
    return ov.Model(results, [x, u, h0], "ti_dynamic")


@pytest.mark.parametrize("pipeline", [None, "tosa-to-mlprogram"], ids=["memref", "mlprogram"])
def test_tensor_iterator_over_a_dynamic_axis(openvino_runtime: None, tmp_path: Path,
                                             pipeline: str | None) -> None:
    model = dynamic_time_model()
    assert "TensorIterator" in _types(model)
    xml = _save(model, tmp_path)
    theirs, ours = trusted_session(xml), TosaStateSession(xml, pipeline)
    rng = np.random.default_rng(3)
    for time in (3, 1, 6):
        inputs = [rng.standard_normal((1, time, 4)).astype(np.float32),
                  rng.standard_normal((1, time, 4)).astype(np.float32),
                  rng.standard_normal((1, 4)).astype(np.float32)]
        got, want = ours.infer(inputs), theirs.infer(inputs)
        assert got[1].shape == (1, time, 4)
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            _compare(f"dynamic TensorIterator T={time} output {i}", a, b)


# ---------------------------------------------------------------------------------------------
# Loop-5
# ---------------------------------------------------------------------------------------------


def loop_model(dynamic: bool, trip_from_data: bool = False) -> object:
    """A Loop-5 like granitemoehybrid's: iteration k reads `x[:, k]` (a sliced input along
    time), updates the state `h` (a back edge) and writes it at row k of a buffer with
    ScatterUpdate at the current iteration's number (a back edge too). The trip count is
    T (ShapeOf + Gather + Convert) or the input `n` (data); static shapes add a
    concatenated output and a last-iteration one that is not a back edge."""
    batch, time = (-1, -1) if dynamic else (2, 3)
    x = ops.parameter([batch, time, 4], np.float32, name="x")
    h0 = ops.parameter([batch, 4], np.float32, name="h0")
    inputs = [x, h0]
    iteration = ops.parameter([], np.int64, name="iteration")
    x_k = ops.parameter([batch, 1, 4], np.float32, name="x_k")
    h_k = ops.parameter([batch, 4], np.float32, name="h_k")
    buffer = ops.parameter([batch, time, 4], np.float32, name="buffer")
    new_h = ops.add(ops.multiply(h_k, ops.constant(np.float32(0.5))),
                    ops.tanh(ops.squeeze(x_k, ops.constant(np.int64(1)))))
    row = ops.unsqueeze(new_h, ops.constant(np.int64(1)))
    written = ops.scatter_update(buffer, ops.unsqueeze(iteration, ops.constant(np.int64(0))),
                                 row, ops.constant(np.int64(1)))
    doubled = ops.multiply(new_h, ops.constant(np.float32(2)))
    body = ov.Model([ops.result(ops.constant(True)), ops.result(new_h), ops.result(written),
                     ops.result(row), ops.result(doubled)], [iteration, x_k, h_k, buffer], "body")
    if trip_from_data:
        n = ops.parameter([], np.int32, name="n")
        inputs.append(n)
        trip = n
    else:
        trip = ops.convert(ops.gather(ops.shape_of(x), ops.constant(np.int64(1)),
                                      ops.constant(np.int64(0))), np.int32)
    loop = opset5.loop(trip, ops.constant(True))
    loop.set_function(body)
    loop.set_special_body_ports([0, 0])
    loop.set_sliced_input(x_k, x.output(0), 0, 1, 1, -1, 1)
    loop.set_merged_input(h_k, h0.output(0), new_h.output(0))
    zeros = ops.broadcast(ops.constant(np.float32(0)), ops.shape_of(x))
    loop.set_merged_input(buffer, zeros.output(0), written.output(0))
    results = [ops.result(loop.get_iter_value(new_h.output(0), -1), name="h"),
               ops.result(loop.get_iter_value(written.output(0), -1), name="buffer")]
    if not dynamic:
        results += [ops.result(loop.get_concatenated_slices(row.output(0), 0, 1, 1, -1, 1),
                               name="rows"),
                    ops.result(loop.get_iter_value(doubled.output(0), -1), name="doubled")]
    return ov.Model(results, inputs, "loop")


def _loop_feeds(shapes: list[tuple[int, int]], trips: list[int] | None = None
                ) -> list[list[np.ndarray]]:
    rng = np.random.default_rng(5)
    feeds = []
    for i, (batch, time) in enumerate(shapes):
        feed = [rng.standard_normal((batch, time, 4)).astype(np.float32),
                rng.standard_normal((batch, 4)).astype(np.float32)]
        if trips is not None:
            feed.append(np.array(trips[i], np.int32))
        feeds.append(feed)
    return feeds


LOOPS = {
    "static": (lambda: loop_model(False), _loop_feeds([(2, 3)] * 2)),
    "dynamic": (lambda: loop_model(True), _loop_feeds([(2, 3), (1, 5), (3, 1)])),
    "trip_from_data": (lambda: loop_model(True, True),
                       _loop_feeds([(2, 4), (1, 5), (2, 3)], [2, 5, 1])),
}


@pytest.mark.parametrize("pipeline", [None, "tosa-to-mlprogram"], ids=["memref", "mlprogram"])
@pytest.mark.parametrize("case", sorted(LOOPS))
def test_loop(openvino_runtime: None, tmp_path: Path, case: str, pipeline: str | None) -> None:
    build, feeds = LOOPS[case]
    model = build()
    assert "Loop" in _types(model)
    xml = _save(model, tmp_path)
    theirs, ours = trusted_session(xml), TosaStateSession(xml, pipeline)
    for call, inputs in enumerate(feeds):
        got, want = ours.infer(inputs), theirs.infer(inputs)
        assert len(got) == len(want) == (4 if case == "static" else 2)
        for i, (a, b) in enumerate(zip(got, want, strict=True)):
            _compare(f"loop {case} call {call} output {i}", a, b)


def test_loop_converts_to_one_while_loop(tmp_path: Path) -> None:
    module = _converted(_save(loop_model(True), tmp_path))
    assert sum(isinstance(op, WhileOp) for op in module.walk()) == 1


def test_loop_without_a_condition_port_names_the_layer(tmp_path: Path) -> None:
    xml = _save(loop_model(False), tmp_path)
    _edit(xml, 'purpose="execution_condition"', 'purpose="something_else"')
    opt_xml_fails(xml, "type='Loop' (opset5): a Loop needs a port_map <output "
                  'purpose="execution_condition">')


def test_loop_stopping_on_data_is_refused_naming_the_layer(tmp_path: Path) -> None:
    """A body condition computed from data (not a constant true) is refused, not guessed."""
    model = loop_model(False)
    loop = next(n for n in model.get_ordered_ops() if n.get_type_name() == "Loop")
    body = loop.get_function()
    condition = body.get_results()[0]
    h_k = body.get_parameters()[2]
    condition.input(0).replace_source_output(
        ops.greater(ops.reduce_sum(h_k, ops.constant(np.array([0, 1])), False),
                    ops.constant(np.float32(100))).output(0))
    xml = _save(model, tmp_path, "data_condition")
    opt_xml_fails(xml, "type='Loop' (opset5): 'openvino.loop' op could not be converted to "
                  "TOSA: the body's condition must be a constant true (a Loop that stops on a "
                  "computed condition is not supported)", "-p", "convert-openvino-to-tosa")
