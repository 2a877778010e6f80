"""Tiny decoder LLMs exported by optimum-intel as stateful OpenVINO IR (the format OpenVINO GenAI
runs), shared by the tests and `llm_decode.py`.

Each family is a small config of the `transformers` model class with random weights from a fixed
seed (no hub access): 2 layers, hidden size 64, 4 query heads, 2 K/V heads where the family has
grouped-query attention, a vocabulary of 128. `export(families, root)` writes
`root/<family>/openvino_model.xml` (+ `.bin`) through
`OVModelForCausalLM.from_pretrained(..., export=True, stateful=True)`; it runs in a subprocess
(`python llm_models.py ROOT FAMILY...`), so torch and transformers never load into the caller.

The PyPI torchvision wheel that optimum-intel pulls in beside the CPU torch fails to import
(`operator torchvision::nms does not exist`); transformers imports it whenever it is present.
The subprocess hides it (`sys.modules["torchvision"] = None`): no text model needs it.
"""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np

FAMILIES = ("llama", "qwen2", "gpt2", "phi3", "mistral", "gemma")
SEED = 0
XML_NAME = "openvino_model.xml"

_COMMON = {
    "vocab_size": 128,
    "hidden_size": 64,
    "intermediate_size": 128,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 2048,
}


def _config(family: str):  # -> transformers.PretrainedConfig
    import transformers

    if family == "llama":
        return transformers.LlamaForCausalLM, transformers.LlamaConfig(**_COMMON)
    if family == "qwen2":
        return transformers.Qwen2ForCausalLM, transformers.Qwen2Config(**_COMMON)
    if family == "mistral":
        return transformers.MistralForCausalLM, transformers.MistralConfig(**_COMMON)
    if family == "phi3":
        config = transformers.Phi3Config(**_COMMON, pad_token_id=0, bos_token_id=1, eos_token_id=2)
        return transformers.Phi3ForCausalLM, config
    if family == "gemma":
        config = transformers.GemmaConfig(
            **_COMMON, head_dim=16, pad_token_id=0, bos_token_id=1, eos_token_id=2
        )
        return transformers.GemmaForCausalLM, config
    if family == "gpt2":
        config = transformers.GPT2Config(vocab_size=128, n_embd=64, n_layer=2, n_head=4,
                                         n_positions=2048)
        return transformers.GPT2LMHeadModel, config
    raise ValueError(f"unknown family '{family}' (known: {', '.join(FAMILIES)})")


def _export_here(family: str, directory: Path) -> None:
    sys.modules.setdefault("torchvision", None)  # type: ignore[arg-type]
    import torch
    from optimum.intel import OVModelForCausalLM

    torch.manual_seed(SEED)
    model_class, config = _config(family)
    source = directory / "source"
    model_class(config).save_pretrained(source)
    exported = OVModelForCausalLM.from_pretrained(
        source, export=True, stateful=True, compile=False, load_in_8bit=False
    )
    exported.save_pretrained(directory)


def export(families: Sequence[str], root: Path) -> dict[str, Path]:
    """Export the tiny models of `families` into `root/<family>/` (those not exported yet, in
    one subprocess: torch and transformers load once); returns the `.xml` path of each."""
    xmls = {family: root / family / XML_NAME for family in families}
    missing = [family for family, xml in xmls.items() if not xml.is_file()]
    if missing:
        root.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}
        done = subprocess.run(
            [sys.executable, __file__, str(root), *missing],
            capture_output=True, text=True, env=env, check=False,
        )
        failed = [family for family in missing if not xmls[family].is_file()]
        if done.returncode != 0 or failed:
            raise RuntimeError(f"exporting {', '.join(failed)} failed:\n{done.stderr[-4000:]}")
    return xmls


if __name__ == "__main__":
    for name in sys.argv[2:]:
        _export_here(name, Path(sys.argv[1]) / name)


# ---------------------------------------------------------------------------------------------
# Running an export: the inputs of one call, greedy generation
# ---------------------------------------------------------------------------------------------


def step_inputs(tokens: np.ndarray, past: int, beam_idx: np.ndarray | None = None
                ) -> dict[str, np.ndarray]:
    """The inputs of one call with `tokens` [batch, n] after `past` cached positions (as
    OpenVINO GenAI feeds them): the attention mask covers past and new tokens, positions
    continue from `past`, `beam_idx` reorders the caches (identity when None)."""
    batch, count = tokens.shape
    return {
        "input_ids": tokens.astype(np.int64),
        "attention_mask": np.ones((batch, past + count), np.int64),
        "position_ids": np.tile(np.arange(past, past + count, dtype=np.int64), (batch, 1)),
        "beam_idx": np.arange(batch, dtype=np.int32) if beam_idx is None
        else beam_idx.astype(np.int32),
    }


def prompt(batch: int, length: int, seed: int) -> np.ndarray:
    """Random token ids [batch, length] (the tiny vocabulary has 128)."""
    return np.random.default_rng(seed).integers(3, 128, (batch, length)).astype(np.int64)
