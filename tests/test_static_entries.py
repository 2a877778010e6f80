"""`compile_model(xml, static_state=...)` on optimum-intel's tiny decoders (Llama, Qwen2,
GPT-2, Phi-3, Mistral, Gemma: `llm_models.FAMILIES`): a `prefill` entry of a chunk of 8
tokens and a `decode` entry of one, both fully static, in one module sharing the KV caches,
fed the loop a user writes for OpenVINO's dynamic model (`input_ids` [B, L],
`attention_mask` [B, past + L], `position_ids`, `beam_idx`), on the interpreter and on
device `iree`:

- generation and logits equal to OpenVINO's dynamic model (`llm_models.StaticGenerationPair`:
  logits within 1e-5, the same greedy tokens, each cache's first `past` rows and its count
  after every call) for a one-token prompt from the initial state, prompts shorter than,
  equal to and longer than the chunk after `reset_state()`, at batch 2 a beam reorder, a
  prompt of the chunk and one longer from a fresh request's initial state, and the caches
  filled to the capacity by a call whose last chunk would pass it by its padding (its last
  tokens go through `decode`): the Llama at batch 1 and 2 on the interpreter and batch 2 on
  device `iree`, every other family at batch 2 on the interpreter, and GPT-2 (learned
  positions, fused QKV, no grouped-query attention) at batch 2 on device `iree`;
- a mask of the wrong length, a call past the capacity and a batch the entries were not
  compiled for are refused before anything runs; a call of several chunks that fails in
  its second chunk leaves every variable as it was; a state set by the user is where the
  next call continues.

Every family at capacities 64 (chunk 8) and 512 (chunk 16), batch 1 and 2, on both devices,
through these calls (48 models, run by hand): the largest logit difference measured was
7.2e-7 (Gemma, capacity 512, batch 2, `iree`; 6.0e-7 on the interpreter; every other family
at most 3.6e-7), within `llm_models.LOGITS_ATOL`.
"""
from __future__ import annotations

from functools import cache
from pathlib import Path

import llm_models
import numpy as np
import pytest
from test_iree_device import artifact_cache  # noqa: F401  (autouse: IREE's artifacts in pytest's cache)

import tosa_state
from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.transforms.static_entries import StaticEntries

pytestmark = pytest.mark.peers

CAPACITY, CHUNK = 64, 8
MODELS = [("llama", "interpreter", 1), ("llama", "interpreter", 2), ("llama", "iree", 2),
          *((family, "interpreter", 2) for family in llm_models.FAMILIES if family != "llama"),
          ("gpt2", "iree", 2)]
"""(family, device, batch) of each compiled module (device iree compiles each once: ~20 s
of CPU)."""


@cache
def _compiled(xml: Path, device: str, batch: int) -> tosa_state.CompiledModel:
    return tosa_state.compile_model(
        xml, device=device,
        static_state={"capacity": CAPACITY, "prefill_chunk": CHUNK, "batch": batch})


@pytest.fixture(scope="module", params=MODELS, ids=[f"{f}-{d}-batch{b}" for f, d, b in MODELS])
def static_decoder(request: pytest.FixtureRequest, llm_exports: dict[str, Path]):
    family, device, batch = request.param
    return llm_exports[family], _compiled(llm_exports[family], device, batch), batch


def test_entries_generate_as_openvino(static_decoder) -> None:
    xml, compiled, batch = static_decoder
    assert [port.shape for port in compiled.inputs] == [(batch, -1), (batch, -1), (batch, -1),
                                                       (batch,)]
    assert [port.shape for port in compiled.outputs] == [(batch, -1, 128)]
    pair = llm_models.StaticGenerationPair(xml, CAPACITY, compiled)
    assert pair.entries and len(pair.static) == 4  # key and value of two layers
    pair.generate(llm_models.prompt(batch, 1, seed=1), steps=2)  # decode, from the initial state
    for length in (5, CHUNK, 2 * CHUNK + 3):  # shorter than, equal to, longer than the chunk
        pair.reset()
        tokens = pair.generate(llm_models.prompt(batch, length, seed=length), steps=2)[-1]
    if batch == 2:
        tokens = pair.call(tokens[::-1], beam_idx=np.array([1, 0]))
        tokens = pair.call(tokens, beam_idx=np.array([0, 0]))
        pair.call(tokens)
    pair.reset()
    pair.generate(llm_models.prompt(batch, 1, seed=2), steps=1)  # one token after a reset
    for length in (CHUNK, CHUNK + 1):  # prefill from a fresh request's initial state
        fresh = llm_models.StaticGenerationPair(xml, CAPACITY, compiled)
        fresh.generate(llm_models.prompt(batch, length, seed=9), steps=1)
    # to the capacity: 3 tokens, 58 (7 chunks, then 2 tokens one by one: at 59 held a padded
    # chunk would pass the capacity), 3 (one by one)
    pair.reset()
    pair.call(llm_models.prompt(batch, 3, seed=12))
    entries = _entries_called(pair.ours)
    tokens = pair.call(llm_models.prompt(batch, CAPACITY - 6, seed=13))
    pair.call(np.concatenate([tokens, llm_models.prompt(batch, 2, seed=14)], axis=1))
    assert entries == ["prefill"] * 7 + ["decode"] * 5
    assert pair.past == CAPACITY


def _entries_called(request) -> list[str]:
    """The entries `request`'s device runs from now on, in order."""
    device, called = request.device_request._device, []
    run_entry = device.run_entry

    def recording(entry: str, args: list[np.ndarray]) -> list[np.ndarray]:
        called.append(entry)
        return run_entry(entry, args)

    device.run_entry = recording
    return called


@pytest.fixture
def interpreter_llama(llm_exports: dict[str, Path]) -> tosa_state.CompiledModel:
    """The refusals are the request's, alike on every device: tested on one."""
    return _compiled(llm_exports["llama"], "interpreter", 1)


def _states(request) -> dict[str, np.ndarray]:
    return {state.name: state.state for state in request.query_state()}


def _logits(request, tokens: np.ndarray, past: int, beam_idx: np.ndarray | None = None
            ) -> np.ndarray:
    return request.infer(llm_models.step_inputs(tokens, past, beam_idx))["logits"]


def test_calls_the_entries_cannot_take_are_refused_and_change_nothing(
        interpreter_llama) -> None:
    request = interpreter_llama.create_infer_request()
    _logits(request, llm_models.prompt(1, 60, seed=3), past=0)
    before = _states(request)
    inputs = llm_models.step_inputs(np.array([[5]]), past=60)
    inputs["attention_mask"] = np.ones((1, 58), np.int64)
    with pytest.raises(InferenceError, match="input 'attention_mask' has 58 columns; the "
                                             "request holds 60 tokens, so a call of 1 needs 61"):
        request.infer(inputs)
    with pytest.raises(InferenceError, match="has a static capacity of 64 rows: this call asks "
                                             r"for 65 \(60 held \+ 5 new\); nothing was changed"):
        _logits(request, llm_models.prompt(1, 5, seed=4), past=60)
    with pytest.raises(InferenceError, match=r"input 'input_ids' has shape \[2, 1\]; expected "
                                             r"\[1, '\?'\]"):
        _logits(request, np.array([[5], [6]]), past=60)
    for name, value in _states(request).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    _logits(request, llm_models.prompt(1, 4, seed=4), past=60)  # the last rows still fit
    assert _states(request)["past_key_values.0.keypresent.0.key__count"].tolist() == [64]


def test_a_call_of_chunks_failing_in_its_second_chunk_changes_nothing(
        interpreter_llama, monkeypatch: pytest.MonkeyPatch) -> None:
    request = interpreter_llama.create_infer_request()
    first = _logits(request, llm_models.prompt(1, 3, seed=5), past=0)
    before = _states(request)
    device = request.device_request._device
    calls = []

    def failing(entry: str, args: list[np.ndarray]) -> list[np.ndarray]:
        calls.append(entry)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return run_entry(entry, args)

    run_entry = device.run_entry
    monkeypatch.setattr(device, "run_entry", failing)
    with pytest.raises(KeyboardInterrupt):
        _logits(request, llm_models.prompt(1, CHUNK + 3, seed=6), past=3)  # two chunks
    monkeypatch.undo()
    assert calls == ["prefill", "prefill"]
    for name, value in _states(request).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    again = interpreter_llama.create_infer_request()
    np.testing.assert_array_equal(_logits(again, llm_models.prompt(1, 3, seed=5), past=0), first)
    tokens = llm_models.prompt(1, CHUNK + 3, seed=6)
    np.testing.assert_array_equal(_logits(request, tokens, past=3),
                                  _logits(again, tokens, past=3))


def test_a_state_set_by_the_user_is_where_the_next_call_continues(interpreter_llama) -> None:
    """The request reads the tokens held back from the counts after a `set_state`."""
    source, target = (interpreter_llama.create_infer_request() for _ in range(2))
    _logits(source, llm_models.prompt(1, 5, seed=7), past=0)
    _logits(target, llm_models.prompt(1, 2, seed=8), past=0)
    states = {state.name: state for state in target.query_state()}
    for name, value in _states(source).items():
        states[name].state = value
    token = np.array([[9]])
    np.testing.assert_array_equal(_logits(target, token, past=5), _logits(source, token, past=5))


@pytest.mark.parametrize("static_state, message", [
    ({"capacity": 8, "prefill_chunk": 16}, r"prefill_chunk \(16\) is larger than the capacity"),
    ({"capacity": 8, "batch": 0}, "batch must be a positive int, got 0"),
    ({"capacity": 8, "prefill_chunk": "4"}, "prefill_chunk must be a positive int, got '4'"),
    ({"max_prompt_len": 8}, "needs capacity=N or max-prompt-len=P min-response-len=R"),
])
def test_static_state_options_for_the_entries_are_checked(static_state: dict,
                                                          message: str) -> None:
    with pytest.raises(TosaStateError, match=message):
        StaticEntries.of(static_state)


def test_the_chunk_defaults_to_16_tokens_within_the_capacity() -> None:
    assert StaticEntries.of(64) == StaticEntries(64, 16, 1)
    assert StaticEntries.of({"max_prompt_len": 6, "min_response_len": 2}) == \
        StaticEntries(8, 8, 1)


def test_tosa_state_compile_writes_both_entries(llm_exports: dict[str, Path],
                                                tmp_path: Path) -> None:
    """`tosa-state compile --static-state`: the `.vmfb` exports `prefill` and `decode` (the
    module of the iree fixture, from the artifact cache)."""
    import iree.runtime as rt

    from tosa_state.tools import main as tosa_state_main

    vmfb = tmp_path / "llama.vmfb"
    assert tosa_state_main.main([
        "compile", str(llm_exports["llama"]), "-o", str(vmfb), "-q", "--static-state",
        f"capacity={CAPACITY},prefill_chunk={CHUNK},batch=2"]) == 0
    module = rt.VmModule.copy_buffer(rt.VmInstance(), vmfb.read_bytes())
    assert {"prefill", "decode", "state_reset_all"} <= set(module.function_names)


def test_three_groups_of_three_heads_decode_as_openvino_on_iree(gqa3_llama_export: Path
                                                                ) -> None:
    """IREE 3.13 with `--iree-opt-data-tiling` miscompiles this shape's `decode` entry (logits
    1.0-1.2% off OpenVINO's from the first decode step, measured; the SmolLM-135M-shaped
    decoder's 5.5-6.8%), so a static decoder compiles with `DECODER_FLAGS` (~11 s, and
    ~14 s to export the model once)."""
    from tosa_state.devices.iree_compile import DECODER_FLAGS

    compiled = tosa_state.compile_model(gqa3_llama_export, device="iree",
                                        static_state={"capacity": 32, "prefill_chunk": 16})
    assert compiled.executable.flags == DECODER_FLAGS
    pair = llm_models.StaticGenerationPair(gqa3_llama_export, 32, compiled)
    pair.generate(llm_models.prompt(1, 16, seed=2), steps=4)  # a chunk, then decode
