"""The report side of `benchmarks/export_sweep.py` (the sweep itself is a tool, run by hand; see
docs/openvino.md, "Export sweep"): tiny configs from a config class's own names, refusals read
from tosa-state's messages, the tables and the grouped refusals."""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import export_sweep as sweep  # benchmarks/, put on sys.path by conftest
import llm_models
import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]


class FakeConfig:
    """A config class as transformers has them: defaults from __init__, an attribute_map."""

    attribute_map = {"hidden_size": "n_embd", "num_hidden_layers": "n_layer"}
    sub_configs: dict[str, type] = {}

    def __init__(self, n_embd: int = 768, n_layer: int = 4, layer_types: list | None = None,
                 rope_theta: float = 1e4, **extra: Any) -> None:
        self.n_embd, self.n_layer, self.rope_theta = n_embd, n_layer, rope_theta
        self.layer_types = layer_types or ["sliding", "sliding", "full", "sliding"]
        self.extra = extra

    @property
    def num_hidden_layers(self) -> int:
        return self.n_layer

    def to_dict(self) -> dict[str, Any]:
        return {"n_embd": self.n_embd, "n_layer": self.n_layer, "layer_types": self.layer_types,
                "rope_theta": self.rope_theta}


def test_tiny_values_use_the_class_names_and_cut_per_layer_lists() -> None:
    values = sweep.tiny_values(FakeConfig, {"rope_theta": 100.0})
    assert values["n_embd"] == 64 and values["n_layer"] == 2
    assert "hidden_size" not in values and "vocab_size" not in values  # not names of the class
    assert values["layer_types"] == ["sliding", "full"]  # both kinds of the hybrid stay
    assert values["rope_theta"] == 100.0
    assert values["pad_token_id"] == 0  # always set: models read it undeclared
    assert "pad_token_id" not in sweep.tiny_values(FakeConfig, {}, top=False)


MESSAGE = ("/c/llama/openvino_model.xml:1175:3: error: layer id=94 "
           "name='__module.model/aten::select/Gather' type='Gather' (opset8): 'openvino.gather' "
           "op could not be converted to TOSA: Gather with dynamic dims takes computed indices "
           "and batch_dims 0\nnote: 45 more 'openvino' op(s) were left unconverted")


def result(arch: str, message: str) -> dict[str, Any]:
    return {"arch": arch, "exported": True, "imported": True, "converted": False,
            "matches": False, "refusal": sweep.refusal(RuntimeError(message)),
            "unsupported": ["TopK"] if arch == "mixtral" else []}


def test_refusals_name_the_layer_and_group_by_message() -> None:
    refused = sweep.refusal(RuntimeError(MESSAGE))
    assert refused["layer"] == "Gather-opset8"
    assert refused["name"] == "__module.model/aten::select/Gather"
    assert refused["message"].startswith("'openvino.gather' op could not be converted")
    assert "note:" not in refused["message"]
    results = [result("llama", MESSAGE), result("qwen2", MESSAGE.replace("1175", "1180")),
               result("mixtral", "model.xml:9:3: error: layer id=7 name='r' type='TopK' "
                                 "(opset11): operation 'TopK' is not supported by tosa-state")]
    groups = sweep.refusal_groups(results)
    assert list(groups.values()) == [["llama", "qwen2"], ["mixtral"]]
    assert next(iter(groups)).startswith("Gather-opset8: 'openvino.gather'")
    text = sweep.failures([{"date": "d", "versions": {"transformers": "9.9"}, "results": results}])
    assert "- TopK (1): mixtral" in text and "(2): llama, qwen2" in text


def test_table_has_a_column_pair_per_run() -> None:
    first = {"date": "d", "versions": {"transformers": "1.0"}, "results": [
        {"arch": "llama", "exported": True, "matches": True, "max_error": 2e-7,
         "openvino_runs": True},
        {"arch": "qwen", "exported": False, "why": "not in transformers: 'qwen' is not a model "
         "type of transformers 1.0 (remote code, or a newer transformers)"}]}
    second = {"date": "d", "versions": {"transformers": "2.0"},
              "results": [result("llama", MESSAGE)]}
    table = sweep.markdown([first, second])
    assert "1 matches, 1 not exported; OpenVINO runs the generation as fed for 1 of 1" in table
    assert "| llama | matches | max \\|diff\\| 2.0e-07 | not converted | Gather-opset8: Gather " \
           "with dynamic dims" in table
    assert "| qwen | not exported | not a model type of this transformers (remote code, or " \
           "newer) | - |  |" in table


def test_a_static_run_names_its_capacity_and_what_it_made_static() -> None:
    """`--static-state N` runs: the column says the capacity; a match says how many variables
    were made static, or that none grows (a state-space model, passed through unchanged); a
    static model that fails names the inputs the static layout needs that it lacks."""
    refused = {**result("whisper", MESSAGE), "converted": True, "static": ["k", "v"],
               "inputs": ["decoder_input_ids", "beam_idx"]}
    run = {"date": "d", "versions": {"transformers": "1.0"}, "static_state": 64, "results": [
        {"arch": "llama", "exported": True, "matches": True, "max_error": 2e-7,
         "static": ["k", "v"], "inputs": ["input_ids", "attention_mask", "position_ids"]},
        {"arch": "mamba", "exported": True, "matches": True, "max_error": 1e-6, "static": []},
        refused, {**refused, "arch": "opt", "inputs": ["input_ids", "attention_mask"]}]}
    table = sweep.markdown([run])
    assert "- transformers 1.0, static 64 (d; " in table
    assert "| architecture | transformers 1.0, static 64 | first refusal / difference (1.0, " \
           "static 64) |" in table
    assert "| llama | matches | max \\|diff\\| 2.0e-07; 2 variables static |" in table
    assert "| mamba | matches | max \\|diff\\| 1.0e-06; unchanged: no variable grows by a " \
           "concat |" in table
    assert "| whisper | run refused | no attention_mask or position_ids input; Gather-opset8" \
           in table
    assert "| opt | run refused | no position_ids input; Gather-opset8" in table


def test_an_entries_run_says_so_and_needs_a_capacity(capsys) -> None:
    """`--static-state N --entries`: the column says the entries; `--entries` alone is
    refused before any worker starts."""
    run = {"date": "d", "versions": {"transformers": "1.0"}, "static_state": 64,
           "entries": True, "results": []}
    assert sweep.label(run) == "transformers 1.0, static 64 (entries)"
    with pytest.raises(SystemExit) as exit_:
        sweep.main(["--entries"])
    assert exit_.value.code == 2
    assert "--entries needs --static-state N" in capsys.readouterr().err


class FakeEntries:
    """A model of static entries for one batch: its request records its calls."""

    static = "layout"

    def __init__(self, batch: int) -> None:
        self.batch = batch

    def create_infer_request(self) -> FakeEntries:
        self.calls: list[str] = []
        return self

    def infer(self, inputs: dict) -> dict:
        self.calls.append(f"infer {inputs['input_ids'].shape}")
        return {}

    def query_state(self) -> list[int]:
        return [self.batch]

    def reset_state(self) -> None:
        self.calls.append("reset")


def test_entries_by_batch_run_each_call_on_its_batch_and_change_batch_only_after_a_reset(
        ) -> None:
    models = {1: FakeEntries(1), 2: FakeEntries(2)}
    request = llm_models.EntriesByBatch(models).create_infer_request()
    assert request.query_state() == [1]
    request.infer({"input_ids": np.zeros((1, 5))})
    with pytest.raises(ValueError, match="the batch changed without a reset_state"):
        request.infer({"input_ids": np.zeros((2, 1))})
    request.reset_state()
    request.infer({"input_ids": np.zeros((2, 4))})
    assert request.query_state() == [2]
    assert models[1].calls == ["infer (1, 5)", "reset"]
    assert models[2].calls == ["reset", "infer (2, 4)"]


def test_the_static_column_in_the_docs_is_the_committed_static_runs() -> None:
    """docs/openvino.md's static table is `--report` of the committed `--static-state` runs
    (one per transformers version), and README's figures count them."""
    paths = sorted(sweep.RESULTS.glob("export_sweep_transformers-*_static-*.json"))
    runs = [json.loads(path.read_text()) for path in paths]
    assert [run["versions"]["transformers"] for run in runs] == ["5.0.0", "5.5.4"]
    assert sweep.markdown(runs) in (ROOT / "docs" / "openvino.md").read_text()
    readme = " ".join((ROOT / "README.md").read_text().split())
    found = re.search(r"\(`--static-state (\d+)`\), (\d+) of the (\d+) and (\d+) of the (\d+) "
                      r"match", readme)
    assert found, "README no longer states the static sweep's figures"
    for run, (matching, exported) in zip(runs, [found.group(2, 3), found.group(4, 5)],
                                         strict=True):
        assert run["static_state"] == int(found.group(1))
        results = run["results"]
        assert int(exported) == sum(bool(r.get("exported")) for r in results)
        assert int(matching) == sum(bool(r.get("matches")) for r in results)
