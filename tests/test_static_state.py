"""`tosa-static-state` on optimum-intel's tiny decoders (`test_llm_exports.py`): the KV caches
get a capacity of 64 rows and a count each, and the static model, fed as OpenVINO GenAI feeds
its static generate model (an attention mask over the capacity: ones over the valid past
and the new rows, which the concat puts last; `llm_models.static_step_inputs`), generates as
OpenVINO runs the dynamic export:

- `llm_models.run_generation`: a prompt and 8 greedy steps, `reset_state()`, a second prompt,
  a batch of 2 with a `beam_idx` that swaps, then duplicates, the rows; logits within the
  tolerances of every LLM comparison (1e-4 relative, 1e-5 absolute), the same tokens, each
  cache's first `past` rows equal to OpenVINO's and its count equal to `past`;
- a call that would pass the capacity fails naming the variable, the capacity and the
  length asked for, and leaves every variable as it was: the request then goes on (a reset,
  a prompt) exactly as a fresh one.

The Llama at the default level (memref globals), at the TOSA level (the pass alone) and at
the ml_program level; Qwen2, GPT-2, Phi-3, Mistral and Gemma generate at the default level.
"""

from __future__ import annotations

from pathlib import Path

import llm_models
import numpy as np
import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)
import pytest

import tosa_state
from tosa_state.api import DEFAULT_PIPELINE
from tosa_state.diagnostics import InferenceError

pytestmark = pytest.mark.peers

CAPACITY = 64
PIPELINES = {
    "memref": f"tosa-static-state{{capacity={CAPACITY}}},{DEFAULT_PIPELINE}",
    "tosa": f"tosa-static-state{{max-prompt-len={CAPACITY - 16} min-response-len=16}}",
    "ml_program": f"tosa-static-state{{capacity={CAPACITY}}},tosa-to-mlprogram",
}


@pytest.fixture(scope="module", params=sorted(PIPELINES))
def static_llama(request: pytest.FixtureRequest, llm_exports: dict[str, Path]):
    return tosa_state.compile_model(llm_exports["llama"], pipeline=PIPELINES[request.param])


def test_static_llama_generation_matches_openvino(llm_exports: dict[str, Path],
                                                  static_llama) -> None:
    pair = llm_models.StaticGenerationPair(llm_exports["llama"], CAPACITY, static_llama)
    assert len(pair.state_names) == 8  # key and value of two layers, and their counts
    llm_models.run_generation(pair)
    assert pair.calls == 20


@pytest.mark.parametrize("family", [f for f in llm_models.FAMILIES if f != "llama"])
def test_static_generation_of_the_other_families_matches_openvino(
        llm_exports: dict[str, Path], family: str) -> None:
    """Qwen2, GPT-2, Phi-3, Mistral, Gemma (default level): their caches grow alike."""
    pair = llm_models.StaticGenerationPair(llm_exports[family], CAPACITY)
    llm_models.run_generation(pair)
    assert pair.calls == 20


def _states(request) -> dict[str, np.ndarray]:
    return {state.name: state.state for state in request.query_state()}


def _call(request, tokens: np.ndarray, past: int) -> np.ndarray:
    inputs = llm_models.static_step_inputs(tokens, past, CAPACITY)
    return request.infer(inputs)["logits"]


def test_a_call_past_the_capacity_raises_and_changes_no_state(static_llama) -> None:
    request = static_llama.create_infer_request()
    _call(request, llm_models.prompt(1, 62, seed=5), past=0)
    _call(request, np.array([[7]]), past=62)
    before = _states(request)
    assert before["past_key_values.0.keypresent.0.key__count"].tolist() == [63]
    variable = "past_key_values.0.keypresent.0.key"
    message = (f"variable '{variable}' has a static capacity of 64 rows: this call asks for "
               f"65 \\(63 held \\+ 2 new\\); nothing was changed")
    with pytest.raises(InferenceError, match=message):
        _call(request, np.array([[7, 8]]), past=63)
    after = _states(request)
    assert sorted(after) == sorted(before)
    for name, value in before.items():
        np.testing.assert_array_equal(after[name], value, err_msg=name)
    # the last row still fits, and the request goes on from where it was
    _call(request, np.array([[7]]), past=63)
    assert _states(request)["past_key_values.1.valuepresent.1.value__count"].tolist() == [64]
    with pytest.raises(InferenceError, match="asks for 65 \\(64 held \\+ 1 new\\)"):
        _call(request, np.array([[9]]), past=64)


def test_a_prompt_longer_than_the_capacity_fails_from_the_initial_state(static_llama) -> None:
    """Even the first call (the caches' init chosen, their flags unset): it fails before any
    write, so the next call starts from the initial state as a fresh request does."""
    request = static_llama.create_infer_request()
    with pytest.raises(InferenceError, match="asks for 65 \\(0 held \\+ 65 new\\)"):
        _call(request, llm_models.prompt(1, 65, seed=6), past=0)
    short = llm_models.prompt(1, 3, seed=7)
    want = _call(static_llama.create_infer_request(), short, past=0)
    np.testing.assert_array_equal(_call(request, short, past=0), want)
    request.reset_state()
    np.testing.assert_array_equal(_call(request, short, past=0), want)
