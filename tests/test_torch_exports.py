"""Real torch modules through OpenVINO's two torch paths, made stateful as users do, run by
tosa-state and by the OpenVINO runtime over steps with resets (peers):

- the PyTorch frontend: `openvino.convert_model(module, example_input=...)`;
- the ONNX frontend: `torch.onnx.export(module, ..., dynamo=False)`, then
  `openvino.convert_model("model.onnx")`.

The modules: `nn.LSTM` / `nn.GRU` / `nn.RNN` with two layers, one or both directions,
`batch_first` both ways, with initial states (made stateful with MakeStateful, the recipe of
docs/openvino.md: state inputs reshaped to static shapes first) and without (torch's zero
states), a `log_softmax` head (LogSoftmax-5); `nn.LSTMCell` / `nn.GRUCell` (exported as
primitive ops). Each model is exported once per test session.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import openvino as ov
import pytest
import torch
from openvino._offline_transformations import (
    apply_make_stateful_transformation,
)
from test_openvino_differential import Scenario, run_differential

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError

pytestmark = [
    pytest.mark.peers,
    # OpenVINO's PyTorch frontend traces the module with torch.jit (its choice, not ours)
    pytest.mark.filterwarnings("ignore:`torch.jit.trace:DeprecationWarning"),
    pytest.mark.filterwarnings("ignore::torch.jit.TracerWarning"),
]


@dataclass(frozen=True)
class Config:
    """One torch module and how it is exported."""

    kind: str  # "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell"
    frontend: str = "pytorch"  # or "onnx"
    layers: int = 2
    bidirectional: bool = False
    batch_first: bool = False
    states: bool = True
    log_softmax: bool = False
    inputs: int = 8
    hidden: int = 16
    batch: int = 2
    steps: int = 5

    @property
    def cell(self) -> bool:
        return self.kind.endswith("Cell")

    @property
    def lstm(self) -> bool:
        return self.kind.startswith("LSTM")

    @property
    def state_shape(self) -> list[int]:
        if self.cell:
            return [self.batch, self.hidden]
        return [self.layers * (2 if self.bidirectional else 1), self.batch, self.hidden]

    @property
    def input_shape(self) -> list[int]:
        if self.cell:
            return [self.batch, self.inputs]
        if self.batch_first:
            return [self.batch, self.steps, self.inputs]
        return [self.steps, self.batch, self.inputs]

    def __str__(self) -> str:
        flags = [self.frontend, f"L{self.layers}" if not self.cell else "",
                 "bi" if self.bidirectional else "", "batch_first" if self.batch_first else "",
                 "" if self.states else "no_states", "log_softmax" if self.log_softmax else ""]
        return "-".join([self.kind, *(f for f in flags if f)])


class Recurrent(torch.nn.Module):
    """`config.kind` with its output (and new states) as results: y, hn (, cn)."""

    def __init__(self, config: Config):
        super().__init__()
        self.config = config
        module = getattr(torch.nn, config.kind)
        if config.cell:
            self.rnn = module(config.inputs, config.hidden)
        else:
            self.rnn = module(config.inputs, config.hidden, num_layers=config.layers,
                              bidirectional=config.bidirectional,
                              batch_first=config.batch_first)

    def forward(self, x, h=None, c=None):  # type: ignore[no-untyped-def]
        config = self.config
        if config.cell:
            if config.lstm:
                hn, cn = self.rnn(x, (h, c))
                return hn, cn
            return (self.rnn(x, h),)
        if config.lstm:
            y, (hn, cn) = self.rnn(x, (h, c)) if h is not None else self.rnn(x)
            out = (y, hn, cn)
        else:
            y, hn = self.rnn(x, h) if h is not None else self.rnn(x)
            out = (y, hn)
        if config.log_softmax:
            return (torch.log_softmax(out[0], dim=-1), *out[1:])
        return out


def _names(config: Config) -> tuple[list[str], list[str]]:
    """Input and output names; a cell returns only its new states."""
    states = ["h", "c"] if config.lstm else ["h"]
    inputs = ["x", *states] if config.states else ["x"]
    outputs = ["hn", "cn"][: len(states)] if config.cell else ["y", "hn", "cn"][: 1 + len(states)]
    return inputs, outputs


def export(config: Config, folder: Path) -> Path:
    """The module of `config` converted by OpenVINO, made stateful, saved as IR."""
    torch.manual_seed(0)
    module = Recurrent(config).eval()
    input_names, output_names = _names(config)
    args = [torch.zeros(config.input_shape)]
    if config.states:
        args += [torch.zeros(config.state_shape) for _ in input_names[1:]]
    if config.frontend == "onnx":
        onnx = folder / "model.onnx"
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            torch.onnx.export(module, tuple(args), str(onnx), input_names=input_names,
                              output_names=output_names, dynamo=False)
        model = ov.convert_model(str(onnx))
    else:
        model = ov.convert_model(module, example_input=tuple(args))
        for output, name in zip(model.outputs, output_names, strict=True):
            output.get_tensor().set_names({name})
    shapes = {"x": config.input_shape}
    if config.states:
        shapes |= {name: config.state_shape for name in input_names[1:]}
    model.reshape(shapes)
    if config.states:
        pairs = {"h": "hn", "c": "cn"} if config.lstm else {"h": "hn"}
        apply_make_stateful_transformation(model, pairs)
    xml = folder / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


CONFIGS = [
    # the model of the issue: LSTM(40, 64, num_layers=2) with MakeStateful on (h, c)
    Config("LSTM", inputs=40, hidden=64, batch=1),
    Config("LSTM", bidirectional=True, batch_first=True),
    Config("LSTM", states=False, batch_first=True),
    Config("GRU", log_softmax=True),  # the other model of the issue
    Config("GRU", bidirectional=True, batch_first=True),
    Config("RNN", bidirectional=True),
    Config("RNN", states=False, batch_first=True, log_softmax=True),
    Config("LSTMCell"),
    Config("GRUCell"),
    Config("LSTM", frontend="onnx", bidirectional=True),
    Config("GRU", frontend="onnx", batch_first=True, log_softmax=True),
    Config("RNN", frontend="onnx", bidirectional=True, batch_first=True),
    Config("LSTM", frontend="onnx", states=False),
]


@pytest.fixture(scope="session")
def exported(tmp_path_factory: pytest.TempPathFactory):  # -> Callable[[Config], Path]
    """The IR of a config, exported once per session."""
    cache: dict[Config, Path] = {}

    def get(config: Config) -> Path:
        if config not in cache:
            cache[config] = export(config, tmp_path_factory.mktemp(str(config)))
        return cache[config]

    return get


@pytest.mark.parametrize("config", CONFIGS, ids=str)
def test_torch_module_runs_like_openvino(openvino_runtime: None, exported, config: Config
                                         ) -> None:
    xml = exported(config)
    text = xml.read_text()
    if not config.cell:
        sequence = {"LSTM": "LSTMSequence", "GRU": "GRUSequence", "RNN": "RNNSequence"}
        assert f'type="{sequence[config.kind]}"' in text
    if config.log_softmax:
        assert 'type="LogSoftmax"' in text
    assert ('type="ReadValue"' in text) == config.states
    run_differential(xml, Scenario(steps=10), f"torch {config}")


def test_dynamic_state_shapes_are_explained(openvino_runtime: None, tmp_path: Path) -> None:
    """MakeStateful on state inputs left dynamic gives variables that start empty: OpenVINO
    rejects the first call (a batch size mismatch) until the states are set, and so does
    tosa-state, naming the layer; after `set_state` tosa-state gives torch's results
    (OpenVINO's CPU plugin then fails to run this model: "Can't reorder data with dynamic
    shapes"). tests/test_torch_dynamic_rnn.py runs exports with a dynamic batch and time
    against OpenVINO."""
    config = Config("LSTM", inputs=40, hidden=64, batch=1)
    torch.manual_seed(0)
    args = (torch.zeros(config.input_shape), torch.zeros(config.state_shape),
            torch.zeros(config.state_shape))
    module = Recurrent(config).eval()
    model = ov.convert_model(module, example_input=args)
    for output, name in zip(model.outputs, ["y", "hn", "cn"], strict=True):
        output.get_tensor().set_names({name})
    model.reshape({"x": config.input_shape})  # the states stay [?, ?, ?]
    apply_make_stateful_transformation(model, {"h": "hn", "c": "cn"})
    xml = tmp_path / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    ours = ts.compile_model(xml).create_infer_request()
    x = np.random.default_rng(0).standard_normal(config.input_shape).astype(np.float32)
    with pytest.raises(TosaStateError, match=r"error: layer id=\d+ name='__module\.rnn/.*"
                       r"type='LSTMSequence'.*starts empty .* set it with set_state first"):
        ours.infer({"x": x})
    theirs = ov.Core().compile_model(str(xml), "CPU").create_infer_request()
    with pytest.raises(RuntimeError, match="batch_size"):
        theirs.infer({"x": x})
    for state in ours.query_state():
        state.state = np.zeros(config.state_shape, np.float32)
    h = c = torch.zeros(config.state_shape)
    for _ in range(2):
        with torch.no_grad():
            y, h, c = module(torch.from_numpy(x), h, c)
        np.testing.assert_allclose(ours.infer({"x": x})["y"], y.numpy(), rtol=0,
                                   atol=4e-7)  # measured 4.5e-8
