"""optimum-intel's tiny Llama with compressed weights (`load_in_8bit=True`, and
`OVWeightQuantizationConfig(bits=4, group_size=16)`), exported at test time: generation equal
to OpenVINO's (`llm_models.run_generation`: 20 calls with resets and `beam_idx` reorders,
logits within 1e-4 relative, the same greedy tokens and KV caches), every linear layer, the
embedding and the head as one `tosa_state.dequantize` of the stored weights, and the
constants within 1.2x the `.bin` (besides the 64 KiB position table every decoder export
holds, see `benchmarks/compressed_llm.py`).
"""

from __future__ import annotations

from pathlib import Path

import llm_models
import pytest
from compressed_llm import resident_weight_bytes

import tosa_state

pytestmark = pytest.mark.peers


@pytest.mark.parametrize("name, weight_types", [
    ("llama-int8", {"u8"}),
    ("llama-int4", {"u4", "u8"}),  # NNCF keeps the embedding and the head in int8
])
def test_compressed_llama_generation_matches_openvino(
        compressed_llm_exports: dict[str, Path], name: str, weight_types: set[str]) -> None:
    xml = compressed_llm_exports[name]
    compiled = tosa_state.compile_model(xml)
    dequantize = [op for op in compiled.module.walk() if op.name == "tosa_state.dequantize"]
    assert len(dequantize) == 16  # 2 layers x 7 projections, the embedding, the head
    assert {op.weight_type.data for op in dequantize} == weight_types
    resident, _ = resident_weight_bytes(compiled)
    assert resident <= 1.2 * xml.with_suffix(".bin").stat().st_size
    pair = llm_models.GenerationPair(xml, compiled)
    llm_models.run_generation(pair)
    assert pair.calls == 20
