"""Exports of the NEWEST transformers, checked in (tests/llm_fixtures/, made by the script beside
them): tiny Llama, Qwen2 and GPT-2 exported by optimum-intel with `stateful=True` under
transformers 5.5.4, while the test extra pins the transformers that tests/test_llm_*.py export
with at test time. The generation of `llm_models.run_generation` (prompt, greedy steps, reset,
a batch of 2 with `beam_idx` reorders) equals OpenVINO's call by call, as in
test_llm_generation.py.

transformers 5.5 computes `cache_position[0]`: a Gather-8 of a constant index from a Range of
run-time length (`__module.model/aten::select/Gather`), which 5.0 exports do not have.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import llm_models  # benchmarks/, put on sys.path by conftest
import pytest

pytestmark = pytest.mark.peers

FIXTURES = Path(__file__).resolve().parent / "llm_fixtures"
FAMILIES = ("llama", "qwen2", "gpt2")


def fixture(family: str) -> Path:
    return FIXTURES / family / llm_models.XML_NAME


@pytest.mark.parametrize("family", FAMILIES)
def test_fixture_is_a_newest_export(family: str) -> None:
    """The fixture is what the newest exporter writes: its versions in the IR's rt_info, the
    `cache_position[0]` Gather, small weights."""
    xml = fixture(family)
    text = xml.read_text()
    versions = json.loads((FIXTURES / "versions.json").read_text())
    exported = re.search(r'<transformers_version value="([^"]+)"', text)
    assert exported is not None and exported.group(1) == versions["transformers"] == "5.5.4"
    assert 'name="__module.model/aten::select/Gather"' in text or \
        'name="__module.transformer/aten::select/Gather"' in text
    assert xml.with_suffix(".bin").stat().st_size < 200_000


@pytest.mark.parametrize("family", FAMILIES)
def test_newest_export_generation_matches_openvino(family: str) -> None:
    pair = llm_models.GenerationPair(fixture(family))
    assert len(pair.state_names) == 4  # key and value of two layers
    llm_models.run_generation(pair)
    assert pair.calls == 20
