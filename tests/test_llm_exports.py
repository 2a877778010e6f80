"""Real exports: tiny Llama, Qwen2, GPT-2, Phi-3, Mistral and Gemma configs, exported by
optimum-intel as stateful OpenVINO IR at test time (`benchmarks/llm_models.py`; random weights
from a fixed seed; cached in pytest's cache dir, keyed by the exporter versions). Every layer type
of every export is one the importer supports, and every export imports into the `openvino`
dialect and verifies.
"""

from __future__ import annotations

import re
from pathlib import Path

import llm_models  # benchmarks/, put on sys.path by conftest
import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)
import pytest

from tosa_state.context import make_context
from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.importer import SUPPORTED_OPS, import_openvino_ir

pytestmark = pytest.mark.peers

GRAPH_LAYERS = {"Parameter", "Result", "Const"}


def layer_types(xml: Path) -> set[str]:
    return set(re.findall(r'<layer [^>]*type="([^"]+)"', xml.read_text()))


@pytest.mark.parametrize("family", llm_models.FAMILIES)
def test_every_layer_type_imports(llm_exports: dict[str, Path], family: str) -> None:
    xml = llm_exports[family]
    unsupported = layer_types(xml) - set(SUPPORTED_OPS) - GRAPH_LAYERS
    assert not unsupported, f"{family}: layer types not imported: {sorted(unsupported)}"
    module = import_openvino_ir(xml, make_context())
    module.verify()
    names = {op.name for op in module.walk()}
    assert {"openvino.scaled_dot_product_attention", "openvino.range",
            "openvino.read_value", "openvino.assign"} <= names
    reads = [op for op in module.walk() if isinstance(op, ov.ReadValueOp)]
    assert len(reads) == 4  # key and value caches of two layers
