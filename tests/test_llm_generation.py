"""Generation with real optimum-intel exports (tiny Llama, Qwen2, GPT-2; see
`test_llm_exports.py`) equal to OpenVINO's: `compile_model(xml)` without input shapes, then

- a prompt of 5 tokens and 8 greedy decode steps,
- `reset_state()` and a second prompt of 3 tokens, 3 decode steps,
- a batch of 2: a prompt of 4 tokens, 2 decode steps, a `beam_idx` that swaps the two rows
  (and then one that duplicates row 0), 3 more steps,

against the OpenVINO CPU plugin in one process (f32 inference precision and an f32 KV cache:
by default the plugin keeps the cache in f16 or u8, which moves the logits by about 1e-4):
logits within 1e-4 relative (and 1e-5 absolute), the same greedy tokens, the same KV-cache
states (`query_state`) after every call. `tosa-state-run` runs the same generation from an
`.npz` with one array per step (`input_ids@0` the prompt, `input_ids@1` ... one token each).
"""

from __future__ import annotations

from pathlib import Path

import llm_models
import numpy as np
import openvino as ov
import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)
import pytest

from tosa_state.tools import run

pytestmark = pytest.mark.peers

LOGITS_ATOL, OPENVINO_CONFIG = llm_models.LOGITS_ATOL, llm_models.OPENVINO_CONFIG


@pytest.mark.parametrize("family", ["llama", "qwen2", "gpt2"])
def test_generation_matches_openvino(llm_exports: dict[str, Path], family: str) -> None:
    pair = llm_models.GenerationPair(llm_exports[family])
    assert len(pair.state_names) == 4  # key and value of two layers
    llm_models.run_generation(pair)
    assert pair.calls == 20


def test_tosa_state_run_with_steps_of_different_lengths(llm_exports: dict[str, Path],
                                                       tmp_path: Path) -> None:
    """A prompt of 6 tokens then 4 single tokens, as per-step arrays (`<name>@<step>`); the
    logits of every step (`logits@<step>`: their length changes too) equal OpenVINO's."""
    xml = llm_exports["llama"]
    request = ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG).create_infer_request()
    tokens, past, steps, expected = llm_models.prompt(1, 6, seed=4), 0, {}, []
    for step in range(5):
        inputs = llm_models.step_inputs(tokens, past)
        steps.update({f"{name}@{step}": value for name, value in inputs.items()})
        request.infer(inputs)
        expected.append(request.get_tensor("logits").data.copy())
        past += tokens.shape[1]
        tokens = expected[-1][:, -1:].argmax(-1)
    np.savez(tmp_path / "steps.npz", **steps)
    code = run.main([str(xml), "--inputs", str(tmp_path / "steps.npz"), "-q",
                     "-o", str(tmp_path / "out.npz")])
    assert code == 0
    with np.load(tmp_path / "out.npz") as out:
        assert sorted(k for k in out.files if k.startswith("logits@")) == [
            f"logits@{k}" for k in range(5)]
        for step, want in enumerate(expected):
            np.testing.assert_allclose(out[f"logits@{step}"], want, rtol=0, atol=LOGITS_ATOL)
        assert out["state/past_key_values.0.keypresent.0.key"].shape == (1, 2, 10, 16)
