"""torch LSTM/GRU exported as users export them, with their dimensions left dynamic, made
stateful, run by tosa-state and by the OpenVINO runtime (peers):

- the ONNX frontend: `torch.onnx.export(..., dynamic_axes=...)` (TorchScript exporter,
  `dynamo=False`) with time and batch dynamic, then `openvino.convert_model("model.onnx")`;
- the PyTorch frontend: `openvino.convert_model(module, example_input=...)` without a reshape
  (every dimension dynamic).

MakeStateful on (h, c) -> (hn, cn) then gives variables that start EMPTY (`[2, 0, 64]` from
ONNX, `[0, 0, 0]` from the PyTorch frontend): OpenVINO
refuses to run the sequence until the user `set_state`s a value (its batch check), also after
every `reset_state()`. tosa-state must compile the model without input shapes, refuse the same
calls with an error naming the layer, and after `set_state` give OpenVINO's outputs and states
for prompts of several lengths. The modules are the LSTM(40, 64, num_layers=2) of
test_torch_exports.py and a GRU of the same sizes.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
import torch
from openvino._offline_transformations import apply_make_stateful_transformation
from test_torch_exports import Config, Recurrent, _names

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError

pytestmark = [
    pytest.mark.peers,
    pytest.mark.filterwarnings("ignore:`torch.jit.trace:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning"),
]

OPENVINO_CONFIG = {"INFERENCE_PRECISION_HINT": "f32"}
RTOL = ATOL = 1e-5
SEQUENCE = {"LSTM": "LSTMSequence", "GRU": "GRUSequence"}


def export_dynamic(config: Config, frontend: str, folder: Path) -> Path:
    """`config`'s module with dynamic time and batch, made stateful, saved as IR."""
    torch.manual_seed(0)
    module = Recurrent(config).eval()
    inputs, outputs = _names(config)
    args = (torch.zeros(config.input_shape), *(torch.zeros(config.state_shape)
                                               for _ in inputs[1:]))
    if frontend == "onnx":
        onnx = folder / "model.onnx"
        axes = {"x": {0: "time", 1: "batch"}, "y": {0: "time", 1: "batch"}}
        axes |= {name: {1: "batch"} for name in [*inputs[1:], *outputs[1:]]}
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(module, args, str(onnx), input_names=inputs, output_names=outputs,
                              dynamic_axes=axes, dynamo=False)
        model = ov.convert_model(str(onnx))
    else:
        model = ov.convert_model(module, example_input=args)
        for output, name in zip(model.outputs, outputs, strict=True):
            output.get_tensor().set_names({name})
    apply_make_stateful_transformation(model, dict(zip(inputs[1:], outputs[1:], strict=True)))
    xml = folder / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


class Runs:
    """One request of each runtime on the same IR."""

    def __init__(self, xml: Path) -> None:
        self.theirs = ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG
                                              ).create_infer_request()
        self.ours = ts.compile_model(xml).create_infer_request()

    def refused(self, x: np.ndarray, kind: str) -> None:
        """Both refuse a call on the empty states; ours names the sequence layer."""
        with pytest.raises(RuntimeError):
            self.theirs.infer({"x": x})
        layer = rf"layer id=\d+ name='[^']*' type='{SEQUENCE[kind]}'"
        with pytest.raises(TosaStateError, match=layer):
            self.ours.infer({"x": x})

    def set_states(self, states: dict[str, np.ndarray]) -> None:
        theirs = {s.name: s for s in self.theirs.query_state()}
        ours = {s.name: s for s in self.ours.query_state()}
        assert sorted(theirs) == sorted(ours) == sorted(states)
        for name, value in states.items():
            theirs[name].state = ov.Tensor(value)
            ours[name].state = value

    def call(self, x: np.ndarray, what: str) -> None:
        self.theirs.infer({"x": x})
        want = self.theirs.get_tensor("y").data.copy()
        got = self.ours.infer({"x": x})["y"]
        np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL, err_msg=f"{what}: y")
        theirs = {s.name: s.state.data.copy() for s in self.theirs.query_state()}
        ours = {s.name: s.state for s in self.ours.query_state()}
        for name, value in theirs.items():
            np.testing.assert_allclose(ours[name], value, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{what}: state {name}")

    def reset(self) -> None:
        self.theirs.reset_state()
        self.ours.reset_state()


@pytest.mark.parametrize("frontend", ["onnx", "pytorch"])
@pytest.mark.parametrize("kind", ["LSTM", "GRU"])
def test_dynamic_export_runs_like_openvino(tmp_path: Path, kind: str, frontend: str) -> None:
    config = Config(kind, inputs=40, hidden=64, batch=1)
    xml = export_dynamic(config, frontend, tmp_path)
    assert f'type="{SEQUENCE[kind]}"' in xml.read_text()
    runs = Runs(xml)
    names = sorted(s.name for s in runs.theirs.query_state())
    assert all(s.state.shape[1] == 0 for s in runs.theirs.query_state())  # empty: [2|0, 0, 64|0]
    rng = np.random.default_rng(0)
    for batch, lengths in ((1, (5, 1, 3)), (2, (4, 1))):
        runs.reset()
        runs.refused(rng.standard_normal((3, batch, 40)).astype(np.float32), kind)
        shape = (config.layers, batch, config.hidden)
        runs.set_states({name: np.zeros(shape, np.float32) for name in names})
        for step, length in enumerate(lengths):
            x = rng.standard_normal((length, batch, 40)).astype(np.float32)
            runs.call(x, f"batch {batch} step {step} ({length} steps)")
        # a state set mid-stream (not zeros) is used by the next call
        runs.set_states({name: rng.standard_normal(shape).astype(np.float32) for name in names})
        runs.call(rng.standard_normal((2, batch, 40)).astype(np.float32), f"batch {batch} set")
