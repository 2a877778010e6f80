"""Dynamic shapes end to end, against the OpenVINO runtime, at all three lowering levels.

- a stateful LSTM cell exported with a dynamic batch (state initialised from
  `Broadcast(0, Concat(Gather(ShapeOf(x), 0), [H]))`), compiled without `input_shapes`:
  the batch changes after each reset, and `set_state` gives the state another batch;
- a growing state (a KV cache): ReadValue-6 with `variable_shape` `[?, 2, ?, 4]`, init
  `Broadcast(0, [batch, 2, T * 0, 4])` shaped from `ShapeOf(x)` (as optimum-intel's), a
  Concat along the time axis every call; inputs of a different length every call, resets
  (all, and of the variable), `set_state` with a cache of another length.

Each model is compiled once; every step compares outputs and states (shapes and values).

OpenVINO 2026.4's CPU plugin does not reset a variable whose init is such a subgraph
when the input keeps its shape (`reset_state()` or `VariableState.reset()`, then an
`infer` of the same shape, reads a stale one-step cache), so for the growing state a
reset on our side is compared with a fresh OpenVINO request, which is what a reset
means in OpenVINO's API.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from peers.openvino_runtime import OpenVINOSession, trusted_session
from peers.upstream_mlir import iree_opt
from test_openvino_differential import (
    TosaStateSession,
    _compare,
    dynamic_batch_lstm_model,
)

import tosa_state
from tosa_state.interpreter.plan import FunctionPlan
from tosa_state.printing import print_module

LEVELS = [None, "", "tosa-to-mlprogram"]
"""The default (memref), TOSA as it is, ml_program."""


def _i64(*values: int) -> object:
    return ops.constant(np.array(values, np.int64))


def empty_cache(x: object) -> object:
    """A ReadValue `kv: [?, 2, ?, 4]` whose init is an empty cache of `x`'s batch (as
    optimum-intel's).

    OpenVINO's CPU plugin needs the init's time length to be computed (`T * 0`, not a
    constant 0), else it fails to compile ("Invalid graph status") or keeps the init's
    shape as the state's."""
    shape_of = ops.shape_of(x)
    axis0 = ops.constant(np.int64(0))
    batch = ops.gather(shape_of, _i64(0), axis0)
    empty = ops.multiply(ops.gather(shape_of, _i64(2), axis0), _i64(0))
    zeros = ops.broadcast(ops.constant(np.float32(0.0)),
                          ops.concat([batch, _i64(2), empty, _i64(4)], 0))
    return ops.read_value(zeros, "kv", np.float32, ov.PartialShape([-1, 2, -1, 4]))


def growing_state_model() -> object:
    """`kv <- concat(kv * 0.5, 2 x, axis 2)`, output: the sum over time (OpenVINO's CPU
    plugin needs an op between the ReadValue and the Concat, else it keeps the init's
    shape as the state's)."""
    x = ops.parameter([-1, 2, -1, 4], np.float32, name="x")
    past = empty_cache(x)
    decayed = ops.multiply(past, ops.constant(np.float32(0.5)))
    both = ops.concat([decayed, ops.multiply(x, ops.constant(np.float32(2.0)))], 2)
    total = ops.reduce_sum(both, _i64(2), False)
    return ov.Model([ops.result(total, name="sum")], [ops.assign(both, "kv")], [x], "growing")


def _save(model: object, directory: Path, name: str) -> Path:
    xml = directory / f"{name}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _check_step(step: int, ours: TosaStateSession, theirs: OpenVINOSession,
                inputs: list[np.ndarray]) -> None:
    got, want = ours.infer(inputs), theirs.infer(inputs)
    for i, (a, b) in enumerate(zip(got, want, strict=True)):
        _compare(f"step {step} output {i}", a, b)
    our_states = ours.states()
    for name, value in theirs.states().items():
        _compare(f"step {step} state {name}", our_states[name], value)


@pytest.mark.usefixtures("openvino_runtime")
@pytest.mark.parametrize("pipeline", LEVELS)
def test_growing_state(tmp_path: Path, pipeline: str | None) -> None:
    xml = _save(growing_state_model(), tmp_path, "growing")
    ours, theirs = TosaStateSession(xml, pipeline), trusted_session(xml)
    (port,) = ours.compiled.inputs
    assert port.shape == (-1, 2, -1, 4)  # compiled as it is: no input_shapes
    rng = np.random.default_rng(7)
    batch = 2
    lengths = []
    for step in range(16):
        if step == 4:  # a new sequence of the same batch: the init is computed again
            ours.reset_state()
            theirs = trusted_session(xml)
        if step == 7:  # a new sequence with another batch
            ours.reset_state()
            theirs = trusted_session(xml)
            batch = 3
        if step == 9:  # a cache of another length
            cache = rng.standard_normal((batch, 2, 5, 4)).astype(np.float32)
            ours.set_state("kv", cache)
            theirs.set_state("kv", cache)
        if step == 12:  # the one variable alone
            ours.reset_variable("kv")
            theirs = trusted_session(xml)
        length = int(rng.integers(1, 4))
        lengths.append(length)
        x = rng.standard_normal((batch, 2, length, 4)).astype(np.float32)
        _check_step(step, ours, theirs, [x])
    assert len(set(lengths)) > 1
    assert ours.states()["kv"].shape == (3, 2, sum(lengths[12:]), 4)


@pytest.mark.usefixtures("openvino_runtime")
@pytest.mark.parametrize("pipeline", LEVELS)
def test_dynamic_batch_lstm_without_input_shapes(tmp_path: Path, pipeline: str | None) -> None:
    xml = _save(dynamic_batch_lstm_model(), tmp_path, "lstm")
    ours, theirs = TosaStateSession(xml, pipeline), trusted_session(xml)
    assert ours.compiled.inputs[0].shape == (-1, 4)
    rng = np.random.default_rng(3)
    batch = 1
    for step in range(12):
        if step in (4, 8):
            ours.reset_state()
            theirs.reset_state()
            batch += 2
        if step == 10:  # both states with another batch
            batch = 2
            for name in ("h", "c"):
                value = rng.standard_normal((batch, 3)).astype(np.float32)
                ours.set_state(name, value)
                theirs.set_state(name, value)
        x = rng.standard_normal((batch, 4)).astype(np.float32)
        _check_step(step, ours, theirs, [x])


def test_a_shape_the_model_does_not_admit_names_the_layer(tmp_path: Path) -> None:
    """A batch that changes without a reset cannot be concatenated to the cache: the error
    names the op, the OpenVINO layer and its line in the XML; the request stays usable."""
    xml = _save(growing_state_model(), tmp_path, "growing")
    request = tosa_state.compile_model(xml).create_infer_request()
    request.infer([np.ones((2, 2, 3, 4), np.float32)])
    with pytest.raises(tosa_state.TosaStateError) as caught:
        request.infer([np.ones((3, 2, 1, 4), np.float32)])
    message = str(caught.value)
    assert message.startswith(f"{xml}:")
    assert "type='Concat'" in message and "'tosa.concat' op failed at run time" in message
    with pytest.raises(tosa_state.TosaStateError, match=r"input 'x' has shape \[3, 2, 1\]"):
        request.infer([np.ones((3, 2, 1), np.float32)])
    request.reset_state()
    assert request.infer([np.ones((3, 2, 1, 4), np.float32)])[0].shape == (3, 2, 4)


def test_the_plan_is_built_once_for_every_length(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """One shape-polymorphic plan: no plan is compiled while calls of ever new lengths run,
    and the converted module keeps dynamic dims rather than specialised ones."""
    xml = _save(growing_state_model(), tmp_path, "growing")
    compiled = tosa_state.compile_model(xml, pipeline="")
    request = compiled.create_infer_request()
    compiles = []
    original = FunctionPlan._compile
    monkeypatch.setattr(FunctionPlan, "_compile",
                        lambda self, interp: compiles.append(self) or original(self, interp))
    for length in (1, 7, 2, 30):
        request.infer([np.ones((1, 2, length, 4), np.float32)])
    assert compiles == []
    assert request.query_state()[0].state.shape == (1, 2, 40, 4)
    text = print_module(compiled.module)
    assert "tosa.variable @kv : tensor<?x2x?x4xf32>" in text
    assert "tosa.dim" in text and "tosa.cond_if" in text


def test_input_shapes_still_specialise(tmp_path: Path) -> None:
    xml = _save(growing_state_model(), tmp_path, "growing")
    compiled = tosa_state.compile_model(xml, pipeline="", input_shapes={"x": [2, 2, 3, 4]})
    assert compiled.inputs[0].shape == (2, 2, 3, 4)
    request = compiled.create_infer_request()
    for _ in range(3):
        request.infer([np.ones((2, 2, 3, 4), np.float32)])
    assert request.query_state()[0].state.shape == (2, 2, 9, 4)
    with pytest.raises(tosa_state.TosaStateError, match="input 'x' has shape"):
        request.infer([np.ones((2, 2, 1, 4), np.float32)])


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
@pytest.mark.parametrize("pipeline", ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
def test_the_converted_dynamic_model_parses_in_upstream_mlir(tmp_path: Path, pipeline: str
                                                             ) -> None:
    """The shape ops, the dynamic variable and its lowerings are upstream MLIR: `iree-opt`
    parses and verifies each level. (IREE's TOSA input pipeline does not legalise
    `tosa.dim` yet, so it cannot compile the model further.)"""
    xml = _save(growing_state_model(), tmp_path, "growing")
    compiled = tosa_state.compile_model(xml, pipeline=pipeline)
    text = iree_opt(print_module(compiled.module, spelling="upstream"))
    expected = {
        "": "tosa.variable @kv : tensor<?x2x?x4xf32>",
        "convert-tosa-variables-to-memref": 'memref.global "private" @kv : memref<memref<?x2x?x4xf32>>',
        "tosa-to-mlprogram": "ml_program.global private mutable @kv : tensor<?x2x?x4xf32>",
    }[pipeline]
    assert expected in text
    assert "tosa.dim" in text


def embedding_model() -> object:
    """An embedding lookup of `ids: [?, ?]` (a dynamic batch and length), as a decoder's
    first op, then a Softmax over the hidden dim and a Transpose."""
    ids = ops.parameter([-1, -1], np.int64, name="ids")
    table = ops.constant(np.random.default_rng(1).standard_normal((11, 6)).astype(np.float32))
    embedded = ops.gather(table, ids, ops.constant(np.int64(0)))
    scores = ops.softmax(embedded, -1)
    moved = ops.transpose(scores, ops.constant(np.array([1, 0, 2], np.int64)))
    return ov.Model([ops.result(moved, name="out")], [ids], "embedding")


@pytest.mark.usefixtures("openvino_runtime")
@pytest.mark.parametrize("pipeline", [None, ""])
def test_embedding_lookup_of_dynamic_ids(tmp_path: Path, pipeline: str | None) -> None:
    xml = _save(embedding_model(), tmp_path, "embedding")
    ours, theirs = TosaStateSession(xml, pipeline), trusted_session(xml)
    rng = np.random.default_rng(2)
    for step, (batch, length) in enumerate([(1, 5), (2, 1), (3, 4), (1, 1)]):
        ids = rng.integers(-11, 11, (batch, length)).astype(np.int64)  # negative: from the end
        _check_step(step, ours, theirs, [ids])
