"""Static decoders as legal TOSA (issue 26, item 4): optimum-intel's tiny decoders with a KV
cache of 64 rows (`static_state=64`) and one-token steps (`input_shapes`) are TOSA 1.0 graphs
for `pro_fp` + `variable` at level 8k — no other profile or extension — that `tosa-opt
--tosa-validate=strict-op-spec-alignment` accepts for that target; their artifact
serializes, its manifest says what the host checks (each count, the capacity, the rows a
call adds); and device `reference` (Arm's TOSA reference model) generates the tiny Llama's
tokens as OpenVINO runs the dynamic export, logits within `llm_models.LOGITS_ATOL`
(measured: 2.4e-7; the artifact read back, 1.6e-7), refusing a call past the capacity with
nothing changed."""

from __future__ import annotations

import json
from pathlib import Path

import llm_models
import numpy as np
import pytest
from test_tosa_target import _tosa_opt_lines

import tosa_state as ts
from tosa_state.diagnostics import InferenceError
from tosa_state.emitters.tosa_flatbuffer import upstream_text

pytestmark = [pytest.mark.peers, pytest.mark.usefixtures("tosa_reference_tools")]

CAPACITY = 64
ONE_TOKEN = {"input_ids": [1, 1], "attention_mask": [1, CAPACITY], "position_ids": [1, 1],
             "beam_idx": [1]}
"""Batch 1, one token a call, the attention mask over the capacity."""


@pytest.mark.parametrize("family", llm_models.FAMILIES)
def test_a_static_decoder_is_tosa_that_tosa_opt_validates(
        llm_exports: dict[str, Path], family: str, tmp_path: Path) -> None:
    artifact = ts.compile_tosa(llm_exports[family], static_state=CAPACITY,
                               input_shapes=ONE_TOKEN)
    assert artifact.ok, artifact.report()
    assert artifact.report().startswith("ok: the model is legal for the TOSA target "
                                        "'specification_version=1.0 level=8k profiles=pro_fp "
                                        "extensions=variable'")
    text = tmp_path / "model.mlir"
    text.write_text(upstream_text(artifact.module))
    assert _tosa_opt_lines(text, artifact.target) == set()
    tosa, manifest_path = artifact.save(tmp_path / "model.tosa")
    assert tosa.stat().st_size > 0
    manifest = json.loads(manifest_path.read_text())
    caches = [v for v in manifest["variables"] if "counts" not in v]
    counts = {v["counts"]["variable"]: v for v in manifest["variables"] if "counts" in v}
    assert sorted(counts) == sorted(v["name"] for v in caches) and len(caches) >= 4
    for cache in caches:
        assert cache["shape"][2] == CAPACITY and cache["initial"] == {"kind": "zeros"}
        count = counts[cache["name"]]
        assert count["counts"] == {"variable": cache["name"], "capacity": CAPACITY,
                                   "rows_per_call": 1}
        assert count["shape"] == [1] and count["type"] == "f32"


def test_without_input_shapes_the_refusal_names_the_run_time_shapes(
        llm_exports: dict[str, Path]) -> None:
    """The capacity alone leaves the batch and the token count dynamic: the report says
    to give static input shapes, and names the guard TOSA cannot hold."""
    artifact = ts.compile_tosa(llm_exports["llama"], static_state=CAPACITY)
    report = artifact.report()
    assert not artifact.ok
    assert "'tosa.dim' op is not a TOSA 1.0 operator: a run-time shape computation (TOSA 1.1 " \
           "draft 'shape' extension): give the model static input shapes" in report
    assert "'tosa_state.check_capacity' op is not a TOSA 1.0 operator: a static state's " \
           "capacity guard (tosa-static-state) on rows known at run time, which TOSA cannot " \
           "hold: give the model static input shapes" in report
    assert "Traceback" not in report


def _states(request) -> dict[str, np.ndarray]:
    return {state.name: state.state for state in request.query_state()}


def _refuses_a_count_out_of_range(request, tokens: np.ndarray) -> None:
    """A count set to the capacity (and below 0) fails the next call naming the variable,
    with nothing changed."""
    name = "past_key_values.0.keypresent.0.key"
    count = next(s for s in request.query_state() if s.name == f"{name}__count")
    for value, message in ((CAPACITY, f"variable '{name}' has a static capacity of 64 rows: "
                                      f"this call asks for 65 \\(64 held \\+ 1 new\\); "
                                      f"nothing was changed"),
                           (-3, f"variable '{name}' holds -3 rows by its count, outside "
                                f"\\[0, 64\\]")):
        count.state = np.array([value], np.float32)
        before = _states(request)
        with pytest.raises(InferenceError, match=message):
            request.infer(llm_models.static_step_inputs(tokens[:, :1], 1, CAPACITY))
        for state, held in _states(request).items():
            np.testing.assert_array_equal(held, before[state], err_msg=state)


def test_reference_device_generates_the_static_llama_as_openvino(
        llm_exports: dict[str, Path]) -> None:
    """A prompt of 3 tokens fed one a call and 3 greedy steps, a reset and one more call,
    against OpenVINO's dynamic model (measured 2.4e-7); then a count past the capacity."""
    xml = llm_exports["llama"]
    compiled = ts.compile_model(xml, device="reference", static_state=CAPACITY,
                                input_shapes=ONE_TOKEN)
    pair = llm_models.StaticGenerationPair(xml, CAPACITY, compiled)
    tokens = llm_models.prompt(1, 3, seed=3)
    for past in range(2):
        pair.call(tokens[:, past:past + 1])
    pair.generate(tokens[:, 2:], steps=3)
    pair.reset()
    pair.call(tokens[:, :1])
    assert pair.calls == 7 and pair.max_error <= llm_models.LOGITS_ATOL

    _refuses_a_count_out_of_range(pair.ours, tokens)


class _Int32Inputs:
    """A compiled `.tosa` read back takes its integer inputs as the artifact has them (i32:
    `tosa-demote-i64`); OpenVINO's pair feeds i64."""

    def __init__(self, compiled) -> None:
        self.compiled = compiled

    def create_infer_request(self):
        request = self.compiled.create_infer_request()
        infer = request.infer
        request.infer = lambda inputs: infer(
            {k: v.astype(np.int32) if v.dtype == np.int64 else v for k, v in inputs.items()})
        return request


def test_the_pro_fp_artifact_read_back_generates_the_llama_as_openvino(
        llm_exports: dict[str, Path], tmp_path: Path) -> None:
    """The `pro_fp` + `variable` artifact itself (its positions and masks computed in f32)
    in the reference model: 2 prompt tokens one a call and 2 greedy steps as OpenVINO's
    (measured 1.6e-7), and its manifest's counts checked as the compiled model's."""
    xml = llm_exports["llama"]
    path = tmp_path / "llama.tosa"
    ts.compile_tosa(xml, static_state=CAPACITY, input_shapes=ONE_TOKEN).save(path)
    compiled = ts.compile_model(path, device="reference")
    pair = llm_models.StaticGenerationPair(xml, CAPACITY, _Int32Inputs(compiled))
    tokens = llm_models.prompt(1, 2, seed=4)
    pair.call(tokens[:, :1])
    pair.generate(tokens[:, 1:], steps=2)
    assert pair.calls == 4 and pair.max_error <= llm_models.LOGITS_ATOL
    _refuses_a_count_out_of_range(pair.ours, tokens.astype(np.int32))
