"""torch LSTM / GRU exported with a dynamic batch and time, as users export them, made
stateful, against the OpenVINO runtime (peers):

- `torch.onnx.export(..., dynamic_axes=...)` + `openvino.convert_model("model.onnx")`
  (X `[?, ?, 8]`, states `[2, ?, 16]`);
- `openvino.convert_model(module, example_input=...)` without a reshape (every dim `?`).

After MakeStateful the state variables start empty (`[2, 0, 16]`) and OpenVINO's sequence
then fails its batch check until the user `set_state`s them (also after every
`reset_state`): tosa-state fails too, naming the layer and saying so, and after `set_state`
gives OpenVINO's results over calls of different batch and time, at the memref and the
ml_program levels. Also: LSTM / GRU / RNN sequences of every direction with run-time
sequence lengths shorter than T, built with OpenVINO's Python API. Each model is exported
once per module.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
import torch
from openvino import opset6 as ops
from openvino._offline_transformations import (
    apply_make_stateful_transformation,
)
from peers.openvino_runtime import MAX_ERRORS, OpenVINOSession, trusted_session
from peers.upstream_mlir import iree_opt
from test_openvino_differential import TosaStateSession, _compare
from test_torch_exports import Config, Recurrent, pytestmark  # noqa: F401

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError
from tosa_state.dialects.tosa.control_flow import WhileOp
from tosa_state.dialects.tosa.elementwise import SelectOp
from tosa_state.printing import print_module
from tosa_state.transforms.convert_openvino_to_tosa import ConvertOpenVINOToTosaPass
from tosa_state.transforms.pipeline import apply_pipeline

CONFIGS = [
    Config("LSTM", frontend="onnx", batch_first=True),
    Config("LSTM", frontend="pytorch", batch_first=True),
    Config("GRU", frontend="onnx", batch_first=True),
    Config("GRU", frontend="pytorch", batch_first=True),
    Config("LSTM", frontend="pytorch", layers=1, bidirectional=True, batch_first=True),
]
PIPELINES = [None, "tosa-to-mlprogram"]


def export_dynamic(config: Config, folder: Path) -> Path:
    """`config`'s module with a dynamic batch and time, made stateful (no reshape)."""
    torch.manual_seed(0)
    module = Recurrent(config).eval()
    states = ["h", "c"] if config.lstm else ["h"]
    outputs = ["y", "hn", "cn"][: 1 + len(states)]
    args = tuple(torch.zeros(s) for s in [config.input_shape, *[config.state_shape] * len(states)])
    if config.frontend == "onnx":
        onnx = folder / "model.onnx"
        axes = {"x": {0: "b", 1: "t"}, "y": {0: "b", 1: "t"}}
        axes |= {name: {1: "b"} for name in [*states, "hn", "cn"][: 2 * len(states)]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(module, args, str(onnx), input_names=["x", *states],
                              output_names=outputs, dynamic_axes=axes, dynamo=False)
        model = ov.convert_model(str(onnx))
    else:
        model = ov.convert_model(module, example_input=args)
        for port, name in zip(model.inputs, ["x", *states], strict=True):
            port.get_tensor().set_names({name})
        for port, name in zip(model.outputs, outputs, strict=True):
            port.get_tensor().set_names({name})
    apply_make_stateful_transformation(model, {"h": "hn", "c": "cn"} if config.lstm
                                       else {"h": "hn"})
    xml = folder / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


@pytest.fixture(scope="module")
def exported(tmp_path_factory: pytest.TempPathFactory) -> dict[Config, Path]:
    return {c: export_dynamic(c, tmp_path_factory.mktemp(f"dyn-{c}")) for c in CONFIGS}


def _fails_empty(ours: TosaStateSession, theirs: OpenVINOSession, x: np.ndarray) -> None:
    """Both refuse to run on the empty state: OpenVINO with its batch check, tosa-state
    naming the sequence layer and saying what to do."""
    with pytest.raises(TosaStateError, match=(
            r"model\.xml:\d+:\d+: error: layer id=\d+ name='[^']+' type='(LSTM|GRU)Sequence' "
            r"\(opset5\): the initial hidden state does not have the shape .* a state "
            r"variable of dynamic shape starts empty .* set it with set_state first")):
        ours.infer([x])
    with pytest.raises(RuntimeError, match="batch_size"):
        theirs.infer([x])


@pytest.mark.parametrize("pipeline", PIPELINES, ids=["memref", "ml_program"])
@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_dynamic_export_runs_like_openvino(openvino_runtime: None, exported, config: Config,
                                           pipeline: str | None) -> None:
    xml = exported[config]
    text = xml.read_text()
    assert f'type="{config.kind}Sequence"' in text and 'type="ReadValue"' in text
    theirs, ours = trusted_session(xml), TosaStateSession(xml, pipeline)
    names = sorted(theirs.variables)
    rng = np.random.default_rng(0)
    directions = 2 if config.bidirectional else 1
    worst = 0.0
    # (batch, time) per call; "set" / "reset" before a call
    plan = [("empty",), ("set", 2, 0.0), (2, 3), (2, 5), ("reset",), ("empty",),
            ("set", 3, 0.5), (3, 1), (3, 4), ("reset",), ("set", 1, 0.0), (1, 6)]
    for item in plan:
        if item[0] == "empty":
            _fails_empty(ours, theirs, np.zeros((2, 3, config.inputs), np.float32))
        elif item[0] == "reset":
            theirs.reset_state()
            ours.reset_state()
        elif item[0] == "set":
            _, batch, scale = item
            shape = (config.layers * directions, batch, config.hidden)
            for name in names:
                value = (rng.standard_normal(shape) * scale).astype(np.float32)
                theirs.set_state(name, value)
                ours.set_state(name, value)
        else:
            batch, steps = item
            x = rng.standard_normal((batch, steps, config.inputs)).astype(np.float32)
            for i, (a, b) in enumerate(zip(ours.infer([x]), theirs.infer([x]), strict=True)):
                worst = max(worst, _compare(f"{item} output {i}", a, b))
            our_states = ours.states()
            for name, value in theirs.states().items():
                worst = max(worst, _compare(f"{item} state {name}", our_states[name], value))
    key = f"torch dynamic {config} {pipeline or 'memref'}"
    MAX_ERRORS[key] = max(MAX_ERRORS.get(key, 0.0), worst)


@pytest.mark.parametrize("config", CONFIGS[:2], ids=str)
def test_upstream_parses_the_dynamic_loops(upstream_mlir_tools: None, exported, config: Config
                                           ) -> None:
    """One `tosa.while_loop` per layer, over the run-time T, that `iree-opt` parses. The
    sequence lengths are `Broadcast(T, [batch])` (of the model's X for both layers): no step
    is masked, so no `tosa.select` is left."""
    module = ts.read_model(exported[config])
    apply_pipeline(ts.make_context(), module, ConvertOpenVINOToTosaPass.name)
    assert sum(isinstance(op, WhileOp) for op in module.walk()) == 2
    assert not any(isinstance(op, SelectOp) for op in module.walk())
    iree_opt(print_module(module, spelling="upstream"))


# ---------------------------------------------------------------------------------------------
# Sequences with run-time sequence lengths (OpenVINO's Python API)
# ---------------------------------------------------------------------------------------------


def _sequence_model(kind: str, direction: str) -> object:
    """An `{kind}Sequence` with X `[?, ?, 3]`, states and lengths as inputs."""
    rng = np.random.default_rng(1)
    hidden, inputs = 4, 3
    dirs = 2 if direction == "bidirectional" else 1
    gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
    x = ops.parameter([-1, -1, inputs], np.float32, name="x")
    h = ops.parameter([-1, dirs, hidden], np.float32, name="h")
    lengths = ops.parameter([-1], np.int32, name="lengths")
    w, r = (ops.constant((rng.standard_normal((dirs, gates * hidden, k)) * 0.5)
                         .astype(np.float32)) for k in (inputs, hidden))
    b = ops.constant((rng.standard_normal((dirs, gates * hidden)) * 0.5).astype(np.float32))
    params = [x, h, lengths]
    if kind == "LSTM":
        c = ops.parameter([-1, dirs, hidden], np.float32, name="c")
        params.insert(2, c)
        node = ops.lstm_sequence(x, h, c, lengths, w, r, b, hidden, direction)
    elif kind == "GRU":
        node = ops.gru_sequence(x, h, lengths, w, r, b, hidden, direction)
    else:
        node = ops.rnn_sequence(x, h, lengths, w, r, b, hidden, direction)
    results = [ops.result(node.output(i), name=n) for i, n in
               enumerate(["y", "ho", "co"][: len(node.outputs())])]
    return ov.Model(results, params, f"{kind}_{direction}")


@pytest.mark.parametrize(("kind", "direction"), [("LSTM", "reverse"), ("GRU", "bidirectional"),
                                                 ("RNN", "forward")])
def test_sequence_lengths_with_dynamic_batch_and_time(openvino_runtime: None, tmp_path: Path,
                                                      kind: str, direction: str) -> None:
    """Shorter run-time sequence lengths: a batch element's state stops at its length, its
    outputs beyond are zeros (a reverse walk starts at its last step). The oracle is
    OpenVINO on the model reshaped to each call's shapes: with dynamic shapes its CPU plugin
    ignores `sequence_lengths` (docs/openvino.md, "Differences from OpenVINO")."""
    xml = tmp_path / "model.xml"
    ov.save_model(_sequence_model(kind, direction), str(xml), compress_to_fp16=False)
    ours = TosaStateSession(xml)
    rng = np.random.default_rng(2)
    dirs = 2 if direction == "bidirectional" else 1
    names = ["x", "h", *(["c"] if kind == "LSTM" else []), "lengths"]
    for batch, steps, lengths in [(3, 5, [5, 2, 4]), (1, 4, [3]), (2, 1, [1, 1])]:
        x = rng.standard_normal((batch, steps, 3)).astype(np.float32)
        states = [rng.standard_normal((batch, dirs, 4)).astype(np.float32)
                  for _ in range(2 if kind == "LSTM" else 1)]
        inputs = [x, *states, np.array(lengths, np.int32)]
        model = _sequence_model(kind, direction)
        model.reshape({n: list(v.shape) for n, v in zip(names, inputs, strict=True)})
        static = tmp_path / f"static_{batch}x{steps}.xml"
        ov.save_model(model, str(static), compress_to_fp16=False)
        theirs = trusted_session(static)
        for i, (a, b) in enumerate(zip(ours.infer(inputs), theirs.infer(inputs), strict=True)):
            _compare(f"{kind} {direction} {batch}x{steps} output {i}", a, b)
