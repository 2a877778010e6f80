"""Generate the tiny stateful LLM exports of tests/test_llm_newest_exports.py with the NEWEST
transformers (the test extra pins an older one, whose exports tests/test_llm_*.py make at test
time): a new exporter release that changes the graph fails a test, not a user.

Run with the newest transformers layered over the test environment:
    pip install --no-deps --target /tmp/tf-newest transformers==5.5.4
    PYTHONPATH=/tmp/tf-newest python tests/llm_fixtures/make_llm_fixtures.py [OUTDIR]

For every family of `FAMILIES` it writes `<family>/openvino_model.xml` + `.bin`: the tiny config
of `benchmarks/llm_models.py` (random weights from its fixed seed) at `SIZES` (vocabulary 128,
hidden size 32, 2 layers, 4 query / 2 K/V heads: about 100 KB of weights each) exported by
optimum-intel with `stateful=True`; and `versions.json`, the exporter's package versions.
"""

from __future__ import annotations

import importlib.metadata
import json
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2] / "benchmarks"))
import llm_models

FAMILIES = ("llama", "qwen2", "gpt2")
SIZES = {
    "vocab_size": 128,
    "hidden_size": 32,
    "intermediate_size": 64,
    "num_hidden_layers": 2,
    "num_attention_heads": 4,
    "num_key_value_heads": 2,
    "max_position_embeddings": 128,
}
PACKAGES = ("transformers", "optimum", "optimum-intel", "openvino", "torch")


def main(out: Path) -> None:
    for family in FAMILIES:
        with tempfile.TemporaryDirectory() as scratch:
            llm_models._export_here(family, Path(scratch), SIZES)
            (out / family).mkdir(parents=True, exist_ok=True)
            for suffix in (".xml", ".bin"):
                name = llm_models.XML_NAME.replace(".xml", suffix)
                shutil.copyfile(Path(scratch) / name, out / family / name)
    versions = {name: importlib.metadata.version(name) for name in PACKAGES}
    (out / "versions.json").write_text(json.dumps(versions, indent=1) + "\n")


if __name__ == "__main__":
    main(Path(sys.argv[1]) if len(sys.argv) > 1 else Path(__file__).resolve().parent)
