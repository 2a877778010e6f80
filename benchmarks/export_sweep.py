"""Every stateful architecture optimum-intel exports, from tiny random configs, through tosa-state
against OpenVINO.

    python benchmarks/export_sweep.py [--transformers V | --transformers-dir DIR] [--only arch,...]
                                      [--static-state N [--entries]] [--jobs N] [--timeout S]
                                      [--cache DIR]
                                      [-o results.json] [--markdown table.md]
                                      [--failures refusals.md]
    python benchmarks/export_sweep.py --report a.json b.json [--markdown t.md] [--failures f.md]

The architectures are those optimum-intel lists for `text-generation-with-past` (read from
optimum's `TasksManager` after importing `optimum.exporters.openvino.model_configs`, not a hand
list), plus whisper's stateful decoder (`automatic-speech-recognition-with-past`). For each:

1. a tiny random config of the installed transformers (`tiny_config`: the generic sizes of
   `GENERIC` set on whichever of their names the config class has, fixed seeds; the few
   per-architecture overrides of `OVERRIDES` say why they are needed);
2. the stateful export (`OVModelFor*.from_pretrained(..., export=True, stateful=True)`), cached
   under `--cache/transformers-<versions of the exporters>/<arch>/` (`exports_folder`; a
   failed export is not cached);
3. `tosa_state.read_model` (imported), `tosa_state.compile_model` (converted);
4. the generation of `llm_models.run_generation` (a prompt and greedy steps, `reset_state()`, a
   batch of 2 with `beam_idx` reorders) compared call by call with the OpenVINO CPU plugin (f32
   precision and KV cache): logits within `llm_models.LOGITS_ATOL`, the same greedy tokens, the
   same states (`llm_models.GenerationPair`, as tests/test_llm_generation.py).

With `--static-state N` step 3 compiles with `tosa-static-state{capacity=N}` before the
default lowering (`llm_models.compile_static`: every variable that grows by a concat gets N
rows and a count; the model keeps its one entry) and step 4 runs the generation with
`llm_models.StaticGenerationPair` (the attention mask over the capacity, as OpenVINO GenAI's
static pipeline feeds it; each static cache's valid rows and count checked), then
`llm_models.run_to_capacity` (a prompt of N - 2 tokens, two steps: the caches full), still
against OpenVINO's dynamic model. The report names the variables made static; a model with
none (state-space caches) passed through unchanged and is fed as the dynamic one. With
`--entries` as well, step 3 compiles as a user does, `compile_model(xml, static_state=
{"capacity": N, "batch": B})` for batch 1 and 2 (`llm_models.compile_entries`): a decoder
becomes a `prefill` entry of 16 tokens and a `decode` entry of one, fed the dynamic model's
calls (its prompts chunked and padded by the request); any other model keeps its one entry.

The report per architecture: each stage reached, the first refusal otherwise (the layer type and
version and the first line of the message), and the inventory of layer types (`Type-opsetN`);
`--failures` groups the distinct first refusals with the architectures each blocks, `--report`
renders the tables of earlier runs side by side.
`--transformers-dir` layers another transformers over the environment (`pip install --no-deps
--target DIR transformers==V`; it goes first on the workers' PYTHONPATH); `--transformers V`
does that install itself, once, under `--cache` (`install_transformers`).

`benchmarks/results/export_sweep_transformers-<version>.json` are the committed runs the docs
quote; tests/test_export_sweep_sample.py runs a sample of their matching architectures in CI
(`matching`, `sample`).

Each worker is a subprocess that takes architectures one at a time from the parent (torch and
optimum import once per worker); an architecture that takes longer than `--timeout` or crashes
the worker is reported as such and a fresh worker takes the next one.

Run after `pip install -e '.[test]'` (torch, transformers, optimum-intel, OpenVINO).
"""

from __future__ import annotations

import argparse
import datetime
import hashlib
import json
import os
import queue
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import llm_models  # beside this file

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"  # the committed runs: export_sweep_transformers-<version>.json
SEED = 0
TASK = "text-generation-with-past"
SEQ2SEQ = ("whisper",)  # the seq2seq families whose stateful decoder is compared

# The generic tiny sizes, set on every name of the config class that exists (directly or through
# its `attribute_map`): 2 layers, hidden 64, 4 query / 2 K/V heads of 16, a vocabulary of 128,
# 4 experts of which 2 are routed per token, a state size of 8 for state-space layers.
GENERIC: dict[str, Any] = {
    **llm_models._COMMON,  # the sizes of the tests' tiny decoders
    "head_dim": 16,
    "max_position_embeddings": 256,
    "pad_token_id": 0,
    "bos_token_id": 1,
    "eos_token_id": 2,
    "decoder_start_token_id": 1,
    "tie_word_embeddings": False,
    # names of the same sizes that attribute_map does not cover
    "ffn_dim": 128, "n_inner": 128, "ffn_hidden_size": 128,
    "encoder_ffn_dim": 128, "decoder_ffn_dim": 128,
    "encoder_layers": 2, "decoder_layers": 2,
    "encoder_attention_heads": 4, "decoder_attention_heads": 4,
    "num_kv_heads": 2, "multi_query_group_num": 2, "n_head_kv": 2,
    "rotary_dim": 8, "partial_rotary_factor": 0.5,
    # mixture of experts
    "num_local_experts": 4, "num_experts": 4, "n_routed_experts": 4, "moe_num_experts": 4,
    "num_experts_per_tok": 2, "moe_topk": 2, "moe_intermediate_size": 32,
    "shared_expert_intermediate_size": 32, "n_shared_experts": 1, "n_group": 1,
    "topk_group": 1, "first_k_dense_replace": 1,
    # multi-head latent attention (deepseek v2/v3, minicpm3)
    "q_lora_rank": 32, "kv_lora_rank": 16, "qk_rope_head_dim": 8, "qk_nope_head_dim": 8,
    "v_head_dim": 16,
    # state-space layers (mamba, falcon_mamba, zamba2, granitemoehybrid; heads x head size is
    # the intermediate size 2 x 64)
    "state_size": 8, "mamba_d_state": 8, "time_step_rank": 8, "mamba_n_heads": 4,
    "mamba_d_head": 32, "mamba_headdim": 32, "mamba_n_groups": 1, "n_mamba_heads": 4,
    # sliding windows longer than the generations (a window of the default 4096 is fine too)
    "max_window_layers": 2,
}

TOKENS = ("pad_token_id", "bos_token_id", "eos_token_id")

# Per-architecture overrides, each with its reason.
OVERRIDES: dict[str, dict[str, Any]] = {
    # the exporter's dummy input has 3000 mel frames: 1500 encoder positions
    "whisper": {"max_source_positions": 1500, "num_mel_bins": 80, "d_model": 64,
                "max_target_positions": 64},
    # mamba's intermediate size is expand * hidden size (the generic 128 is that with expand 2)
    "mamba": {"expand": 2}, "falcon_mamba": {"expand": 2},
    # the default repeats a (global, local) pair 12 times: once for 2 layers
    "gpt_neo": {"attention_types": [[["global", "local"], 1]]},
    # 15 layers share their K/V cache by default (of 2 here: none); per-layer inputs of 16
    "gemma3n_text": {"num_kv_shared_layers": 0, "vocab_size_per_layer_input": 128,
                     "hidden_size_per_layer_input": 16},
    # the defaults are all attention layers (lfm2) or none given (lfm2_moe: the model fails);
    # one short-convolution layer (a conv state) and one attention layer
    "lfm2": {"layer_types": ["conv", "full_attention"]},
    "lfm2_moe": {"layer_types": ["conv", "full_attention"], "num_dense_layers": 1},
    # optimum's normalized config reads head_dim, which the config class does not declare
    "qwen3_moe": {"head_dim": 16},
    # optimum-intel's Phi export traces K/V heads as many as query heads (else a concat of
    # 4 and 2 heads fails while tracing)
    "phi": {"num_key_value_heads": 4},
    # no layer types given: the model fails; one state-space layer, one attention layer
    "granitemoehybrid": {"layer_types": ["mamba", "attention"]},
}

MODEL_CLASSES = {"whisper": "WhisperForConditionalGeneration"}


# ---------------------------------------------------------------------------------------------
# The worker: one architecture at a time
# ---------------------------------------------------------------------------------------------


def architectures() -> list[str]:
    """optimum-intel's `text-generation-with-past` architectures, then the seq2seq ones."""
    import optimum.exporters.openvino.model_configs  # noqa: F401  (registers the configs)
    from optimum.exporters.tasks import TasksManager

    listed = TasksManager._SUPPORTED_MODEL_TYPE
    found = sorted(name for name, exporters in listed.items()
                   if TASK in exporters.get("openvino", {}))
    return found + [name for name in SEQ2SEQ if name in listed]


def tiny_config(arch: str):  # -> transformers.PretrainedConfig
    """The config class of `arch` with the GENERIC sizes (on the names it has) and OVERRIDES."""
    import transformers

    if arch not in transformers.CONFIG_MAPPING:
        raise LookupError(f"'{arch}' is not a model type of transformers "
                          f"{transformers.__version__} (remote code, or a newer transformers)")
    return transformers.CONFIG_MAPPING[arch](**tiny_values(transformers.CONFIG_MAPPING[arch],
                                                            OVERRIDES.get(arch, {})))


def tiny_values(config_class: type, overrides: dict[str, Any], top: bool = True
                ) -> dict[str, Any]:
    """The constructor arguments of a tiny `config_class`: GENERIC on the names it has; per-layer
    lists of the default config cut to 2 layers (its first entry and the first that differs,
    so that both kinds of a hybrid stay); sub-configs (`text_config`, ...) tiny the same way."""
    default = config_class()
    defaults = default.to_dict()
    aliases = getattr(config_class, "attribute_map", {})
    chosen: dict[str, Any] = {}
    for name, value in GENERIC.items():
        real = aliases.get(name, name)
        if real in defaults or name in defaults:
            chosen[real if real in defaults else name] = value
        elif top and name in TOKENS:  # some models read them from configs that do not declare them
            chosen[name] = value
    layers = getattr(default, "num_hidden_layers", None)
    for name, value in defaults.items():
        if isinstance(value, list) and layers and len(value) == layers and layers > 2 \
                and name not in chosen:
            other = next((v for v in value if v != value[0]), value[1])
            chosen[name] = [value[0], other]
    for name, sub_class in getattr(config_class, "sub_configs", {}).items():
        if isinstance(sub_class, type) and name not in overrides:
            chosen[name] = tiny_values(sub_class, {}, top=False)
    chosen.update(overrides)
    return chosen


def export(arch: str, folder: Path) -> Path:
    """The stateful OpenVINO IR of a tiny random `arch` in `folder` (exported once)."""
    xml = folder / ("openvino_decoder_model.xml" if arch in SEQ2SEQ else "openvino_model.xml")
    if xml.is_file():
        return xml
    import torch
    import transformers

    try:
        config = tiny_config(arch)
    except LookupError:
        raise
    except Exception as error:
        raise ConfigError(_first_line(error)) from error
    torch.manual_seed(SEED)
    try:
        if arch in MODEL_CLASSES:
            model = getattr(transformers, MODEL_CLASSES[arch])(config)
        else:
            model = transformers.AutoModelForCausalLM.from_config(config)
    except Exception as error:
        raise ConfigError(_first_line(error)) from error
    # written aside and renamed: an export killed midway (a stopped test session) leaves none
    partial = folder.with_name(f".{folder.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    source = partial / "source"
    model.eval().save_pretrained(source)
    if arch in SEQ2SEQ:
        from optimum.intel import OVModelForSpeechSeq2Seq as exporter
    else:
        from optimum.intel import OVModelForCausalLM as exporter
    exported = exporter.from_pretrained(source, export=True, stateful=True, compile=False,
                                        load_in_8bit=False)
    exported.save_pretrained(partial)
    if not (partial / xml.name).is_file():
        raise ExportError(f"no {xml.name} after the export")
    shutil.rmtree(folder, ignore_errors=True)
    partial.rename(folder)
    return xml


class ConfigError(Exception):
    """The tiny config or the model could not be built."""


class ExportError(Exception):
    """The export wrote no model."""


def _first_line(error: BaseException) -> str:
    text = str(error).strip() or type(error).__name__
    return text.splitlines()[0][:400]


def inventory(xml: Path) -> list[str]:
    """The layer types of an IR as `Type-opsetN`, sorted."""
    text = xml.read_text()
    found = set()
    for tag in re.findall(r"<layer [^>]*>", text):
        kind = re.search(r'type="([^"]+)"', tag)
        version = re.search(r'version="([^"]+)"', tag)
        found.add(f"{kind.group(1) if kind else '?'}-{version.group(1) if version else '?'}")
    return sorted(found)


def unsupported(layers: list[str]) -> list[str]:
    """The layer types of an inventory the importer has no op for (any version)."""
    from tosa_state.frontends.openvino.importer import SUPPORTED_OPS

    graph = {"Parameter", "Result", "Const"}
    return sorted({layer.rsplit("-", 1)[0] for layer in layers} - set(SUPPORTED_OPS) - graph)


LAYER = re.compile(r"layer id=(\d+) name='(.*?)' type='([^']+)' \(([^)]*)\)")


def refusal(error: BaseException) -> dict[str, str]:
    """The layer type/version and the message of a tosa-state error."""
    text = str(error).strip()
    match = LAYER.search(text)
    message = text.splitlines()[0] if text else type(error).__name__
    if match:
        message = text[match.end():].lstrip(": ").splitlines()[0] if text[match.end():].strip() \
            else message
        return {"layer": f"{match.group(3)}-{match.group(4)}", "name": match.group(2),
                "message": message[:400], "error": type(error).__name__}
    return {"layer": "", "name": "", "message": message[:400], "error": type(error).__name__}


def compare(arch: str, xml: Path, static_state: int | None = None, entries: bool = False
            ) -> dict[str, Any]:
    """Imported / converted / generation equal to OpenVINO, the first refusal otherwise.
    `static_state=N`: converted with that capacity (`llm_models.compile_static`: the pass
    on the model as exported),
    the generation then filled to the capacity, against OpenVINO's dynamic model; the report
    names the variables made static (none: the model passed through unchanged). `entries`:
    compiled as a user compiles it, `compile_model(xml, static_state=...)`
    (`llm_models.compile_entries`: a decoder's prefill and decode entries, fed the dynamic
    model's calls)."""
    import numpy as np

    import tosa_state

    result: dict[str, Any] = {"imported": False, "converted": False, "matches": False}
    extra: dict[str, np.ndarray] = {}
    if arch in SEQ2SEQ:
        extra = {"encoder_hidden_states": np.random.default_rng(5).standard_normal(
            (1, 1500, GENERIC["hidden_size"])).astype(np.float32)}
    feeding = convention(arch, xml)
    oracle = llm_models.GenerationPair(xml, llm_models.OpenVINOModel(xml), extra=extra, **feeding)
    result["inputs"] = oracle.names
    try:  # OpenVINO runs the generation as fed (against itself)
        llm_models.run_generation(oracle)
        result["openvino_runs"] = True
    except Exception as error:
        result["openvino_runs"] = False
        result["openvino_error"] = f"call {oracle.calls}: {' '.join(str(error).split())[:400]}"
    try:
        tosa_state.read_model(xml)
        result["imported"] = True
        if static_state is None:
            compiled = tosa_state.compile_model(xml)
        else:
            compile_static = llm_models.compile_entries if entries else \
                llm_models.compile_static
            compiled = compile_static(xml, static_state)
        result["converted"] = True
    except Exception as error:
        result["refusal"] = refusal(error)
        return result
    if not result["openvino_runs"]:
        return result
    if static_state is None:
        pair = llm_models.GenerationPair(xml, compiled, extra=extra, **feeding)
    else:
        pair = llm_models.StaticGenerationPair(xml, static_state, compiled, extra=extra,
                                               **feeding)
        result["static"] = pair.static
    try:
        llm_models.run_generation(pair)
        if static_state is not None:
            llm_models.run_to_capacity(pair)
        result["matches"] = True
    except AssertionError as error:
        result["mismatch"] = _first_line(error) + " " + " ".join(
            line.strip() for line in str(error).splitlines()
            if "Max absolute" in line or line.startswith("call "))
    except Exception as error:
        result["refusal"] = refusal(error)
        result["refusal"]["stage"] = f"call {pair.calls}"
    result["max_error"] = pair.max_error
    result["calls"] = pair.calls
    return result


# optimum-intel's state-space models (OVModelWithMambaForCausalLM) whose step attention mask
# covers the whole context; the others' covers the new tokens only
FULL_MASK = ("lfm2", "lfm2_moe", "granitemoehybrid", "qwen3_next", "qwen3_5_text",
             "qwen3_5_moe_text")


def convention(arch: str, xml: Path) -> dict[str, Any]:
    """How optimum-intel feeds `arch`: models with `cache_params` states (conv / SSM caches)
    take `cache_position` as 0 ... conv_kernel-1 for a prompt and [past] for a step."""
    if "cache_params.past" not in xml.read_text():
        return {}
    config = json.loads((xml.parent / "config.json").read_text())
    kernel = next((config[k] for k in ("conv_kernel", "mamba_d_conv", "conv_L_cache")
                   if k in config), 4)
    return {"conv_kernel": kernel, "full_mask": arch in FULL_MASK}


def sweep_one(arch: str, cache: Path, static_state: int | None = None, entries: bool = False
              ) -> dict[str, Any]:
    """The whole report of one architecture."""
    result: dict[str, Any] = {"arch": arch, "exported": False}
    folder = cache / arch
    start = time.perf_counter()
    try:
        xml = export(arch, folder)
    except LookupError as error:
        result["why"] = f"not in transformers: {_first_line(error)}"
        return result
    except ConfigError as error:
        result["why"] = f"config build failure: {error}"
        return result
    except Exception as error:  # the exporter's refusals, with their root cause
        result["why"] = f"exporter refusal: {_first_line(error)}"
        cause: BaseException = error
        while (cause.__cause__ or cause.__context__) is not None:
            cause = cause.__cause__ or cause.__context__  # type: ignore[assignment]
        if cause is not error:
            result["why"] += f" (from {type(cause).__name__}: {_first_line(cause)})"
        return result
    finally:
        result["export_s"] = round(time.perf_counter() - start, 1)
    result["exported"] = True
    result["layers"] = inventory(xml)
    result["unsupported"] = unsupported(result["layers"])
    result.update(compare(arch, xml, static_state, entries))
    return result


def worker(cache: Path, static_state: int | None = None, entries: bool = False) -> None:
    """Reads architecture names from stdin, writes one JSON result per line to stdout."""
    sys.path.insert(0, str(HERE))
    sys.modules.setdefault("torchvision", None)  # type: ignore[arg-type]  (see llm_models)
    out = sys.stdout
    sys.stdout = sys.stderr  # exporters print; keep the protocol channel clean
    os.environ.setdefault("TOKENIZERS_PARALLELISM", "false")
    import optimum.intel  # noqa: F401  (the imports take a while: not counted in the timeout)
    import torch  # noqa: F401

    import tosa_state  # noqa: F401

    out.write(json.dumps({"ready": True}) + "\n")
    out.flush()
    for line in sys.stdin:
        arch = line.strip()
        if not arch:
            continue
        if arch == "--list":
            out.write(json.dumps({"architectures": architectures()}) + "\n")
        else:
            try:
                result = sweep_one(arch, cache, static_state, entries)
            except Exception as error:
                result = {"arch": arch, "exported": False,
                          "why": f"sweep error: {_first_line(error)}",
                          "traceback": traceback.format_exc()[-2000:]}
            out.write(json.dumps(result) + "\n")
        out.flush()


# ---------------------------------------------------------------------------------------------
# The parent: workers, timeouts, progress, tables
# ---------------------------------------------------------------------------------------------


STARTUP_TIMEOUT = 600.0  # seconds for a worker's imports


class Worker:
    """A worker subprocess driven line by line."""

    def __init__(self, env: dict[str, str], cache: Path, static_state: int | None = None,
                 entries: bool = False) -> None:
        static = [] if static_state is None else ["--static-state", str(static_state)]
        static += ["--entries"] if entries else []
        self.process = subprocess.Popen(
            [sys.executable, __file__, "--worker", "--cache", str(cache), *static],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
            env=env,
        )
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.errors: list[str] = []
        threading.Thread(target=self._read, daemon=True).start()
        threading.Thread(target=self._drain, daemon=True).start()
        self._answer(STARTUP_TIMEOUT)  # {"ready": true} once the worker has imported torch

    def _answer(self, timeout: float) -> dict[str, Any]:
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            self.stop()
            raise TimeoutError(f"no result within {timeout:.0f} s") from None
        if line is None:
            self.process.wait()
            tail = "".join(self.errors).strip().splitlines()
            raise RuntimeError(f"worker died (exit {self.process.returncode}): "
                               f"{tail[-1] if tail else ''}")
        return json.loads(line)

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(line)
        self.lines.put(None)

    def _drain(self) -> None:
        assert self.process.stderr is not None
        for line in self.process.stderr:
            self.errors = [*self.errors[-40:], line]

    def ask(self, request: str, timeout: float) -> dict[str, Any]:
        assert self.process.stdin is not None
        self.process.stdin.write(request + "\n")
        self.process.stdin.flush()
        return self._answer(timeout)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
            self.process.wait()


def worker_env(transformers_dir: Path | None) -> dict[str, str]:
    paths = [str(transformers_dir)] if transformers_dir else []
    paths += [str(HERE.parent), *filter(None, [os.environ.get("PYTHONPATH")])]
    return {**os.environ, "PYTHONPATH": os.pathsep.join(paths), "HF_HUB_OFFLINE": "1",
            "TOKENIZERS_PARALLELISM": "false", "PYTHONUNBUFFERED": "1"}


def versions(env: dict[str, str]) -> dict[str, str]:
    """The package versions the workers see."""
    code = ("import importlib.metadata as m, json; print(json.dumps({n: m.version(n) for n in "
            "('transformers', 'optimum', 'optimum-intel', 'openvino', 'torch', "
            "'huggingface_hub', 'tokenizers')}))")
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True,
                          check=True)
    return json.loads(done.stdout)


def exports_folder(found: dict[str, str]) -> str:
    """The folder (under `--cache`) of the exports of these package versions (`versions`):
    an export is reused only by the same exporters."""
    return "transformers-" + re.sub(r"[^A-Za-z0-9.]+", "_", "-".join(found.values()))


def install_transformers(version: str, root: Path) -> Path:
    """A folder for `--transformers-dir` holding transformers `version` (`pip install --no-deps
    --target`), installed once under `root`; a failed install leaves nothing behind."""
    target = root / f"transformers-{version}"
    if (target / f"transformers-{version}.dist-info").is_dir():
        return target
    root.mkdir(parents=True, exist_ok=True)
    partial = Path(tempfile.mkdtemp(prefix=f".transformers-{version}-", dir=root))
    done = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps",
                           "--disable-pip-version-check", "--target", str(partial),
                           f"transformers=={version}"], capture_output=True, text=True)
    if done.returncode != 0:
        shutil.rmtree(partial, ignore_errors=True)
        tail = done.stderr.strip().splitlines()[-3:]
        raise RuntimeError(f"pip could not install transformers=={version} into {root}: "
                           + " / ".join(tail))
    shutil.rmtree(target, ignore_errors=True)
    partial.rename(target)
    return target


def matching(version: str) -> list[str]:
    """The architectures the committed run under transformers `version` shows matching
    OpenVINO (`RESULTS`), in its order."""
    path = RESULTS / f"export_sweep_transformers-{version}.json"
    if not path.is_file():
        raise FileNotFoundError(f"no committed sweep results for transformers {version} "
                                f"({path.name}): run the sweep under it with -o {path}")
    return [r["arch"] for r in json.loads(path.read_text())["results"] if r.get("matches")]


def sample(core: Iterable[str], pool: Iterable[str], extra: int, seed: str) -> list[str]:
    """`core`, then `extra` more architectures of `pool`, chosen by `seed` (a commit, a date):
    the same seed gives the same sample, another seed most likely others."""
    chosen = list(dict.fromkeys(core))
    rest = sorted(set(pool) - set(chosen),
                  key=lambda arch: hashlib.sha256(f"{seed}/{arch}".encode()).hexdigest())
    return chosen + rest[:extra]


def list_architectures(env: dict[str, str], cache: Path) -> list[str]:
    lister = Worker(env, cache)
    try:
        return lister.ask("--list", timeout=300)["architectures"]
    finally:
        lister.stop()


def run_sweep(archs: list[str] | None, env: dict[str, str], cache: Path, jobs: int,
              timeout: float, progress: Callable[[str, dict[str, Any] | None], None],
              static_state: int | None = None, entries: bool = False
              ) -> list[dict[str, Any]]:
    """Every architecture (all listed ones when `archs` is None) through `jobs` workers."""
    if archs is None:
        archs = list_architectures(env, cache)
    todo: queue.Queue[str] = queue.Queue()
    for arch in archs:
        todo.put(arch)
    results: dict[str, dict[str, Any]] = {}
    lock = threading.Lock()

    def slot() -> None:
        current: Worker | None = None
        while True:
            try:
                arch = todo.get_nowait()
            except queue.Empty:
                break
            progress(arch, None)
            try:
                current = current or Worker(env, cache, static_state, entries)
                result = current.ask(arch, timeout)
            except (TimeoutError, RuntimeError) as error:
                if current is not None:
                    current.stop()
                current = None
                result = {"arch": arch, "exported": (cache / arch).is_dir() and any(
                    (cache / arch).glob("openvino*model.xml")), "why": f"worker: {error}",
                    "crashed": True}
            with lock:
                results[arch] = result
            progress(arch, result)
        if current is not None:
            current.stop()

    threads = [threading.Thread(target=slot) for _ in range(max(1, jobs))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    return [results[arch] for arch in archs]


def status(result: dict[str, Any]) -> str:
    """One word per architecture: matches / mismatch / refused / not converted / ..."""
    if result.get("crashed"):
        return "crashed" if "died" in result.get("why", "") else "timeout"
    if not result.get("exported"):
        return "not exported"
    if result.get("matches"):
        return "matches"
    if result.get("mismatch"):
        return "differs"
    if not result.get("imported"):
        return "not imported"
    if result.get("openvino_error"):
        return "OpenVINO fails"
    if not result.get("converted"):
        return "not converted"
    return "run refused"


def reason(result: dict[str, Any]) -> str:
    if result.get("matches"):
        return f"max |diff| {result.get('max_error', 0):.1e}" + static_note(result)
    if "refusal" in result and not result.get("openvino_error"):
        refused = result["refusal"]
        where = f"{refused['layer']}: " if refused.get("layer") else ""
        return f"{static_inputs_note(result)}{where}{refused['message']}"
    if result.get("mismatch"):
        return static_inputs_note(result) + result["mismatch"]
    return result.get("openvino_error") or result.get("why", "")


def static_note(result: dict[str, Any]) -> str:
    """What a `--static-state` run made of the model's variables."""
    if "static" not in result:
        return ""
    if not result["static"]:
        return "; unchanged: no variable grows by a concat"
    return f"; {len(result['static'])} variables static"


def static_inputs_note(result: dict[str, Any]) -> str:
    """For a static model that does not match: the inputs the static layout relies on that
    it lacks (the mask over the capacity; the positions, else computed from the cache's
    length, which the static form fixes to the capacity)."""
    if not result.get("static") or result.get("matches"):
        return ""
    lacking = [name for name in ("attention_mask", "position_ids")
               if name not in result.get("inputs", [name])]
    return f"no {' or '.join(lacking)} input; " if lacking else ""


SHORTER = (
    (r"'openvino\.\w+' op could not be converted to TOSA: ", ""),
    (r"operation '\w+' is not supported by tosa-state", "no such op in the importer"),
    (r"not in transformers: '[^']+' is not a model type of transformers \S+ \(remote code, or a "
     r"newer transformers\)", "not a model type of this transformers (remote code, or newer)"),
    (r"The current version of Transformers does not allow for the export of the model\. ", ""),
)


def brief(text: str) -> str:
    """A table cell's shorter form of a reason."""
    for pattern, replacement in SHORTER:
        text = re.sub(pattern, replacement, text)
    return text


def markdown(runs: list[dict[str, Any]]) -> str:
    """One table, an architecture per row and a column pair per run."""
    lines = []
    for run in runs:
        packages = ", ".join(f"{k} {v}" for k, v in run["versions"].items())
        counts: dict[str, int] = {}
        for result in run["results"]:
            counts[status(result)] = counts.get(status(result), 0) + 1
        summary = ", ".join(f"{v} {k}" for k, v in sorted(counts.items()))
        exported = [r for r in run["results"] if r.get("exported")]
        runs_ok = sum(bool(r.get("openvino_runs")) for r in exported)
        summary += f"; OpenVINO runs the generation as fed for {runs_ok} of {len(exported)} exports"
        lines.append(f"- {label(run)} ({run['date']}; {packages}): {summary}.")
    lines.append("")
    header = ["architecture"]
    for run in runs:
        header += [label(run), f"first refusal / difference ({label(run, short=True)})"]
    lines += ["| " + " | ".join(header) + " |", "|" + "---|" * len(header)]
    by_arch = [{r["arch"]: r for r in run["results"]} for run in runs]
    archs = list(dict.fromkeys(a for run in by_arch for a in run))
    for arch in archs:
        cells = [arch]
        for run in by_arch:
            result = run.get(arch)
            if result is None:
                cells += ["-", ""]
                continue
            text = brief(reason(result)).replace("|", "\\|")
            cells += [status(result), text[:160] + ("…" if len(text) > 160 else "")]
        lines.append("| " + " | ".join(cells) + " |")
    return "\n".join(lines) + "\n"


def label(run: dict[str, Any], short: bool = False) -> str:
    """`transformers 5.0.0`, `transformers 5.0.0, static 64` (short: without `transformers`)."""
    text = run["versions"]["transformers"]
    if "static_state" in run:
        text += f", static {run['static_state']}" + (" (entries)" if run.get("entries") else "")
    return text if short else f"transformers {text}"


def refusal_groups(results: Iterable[dict[str, Any]]) -> dict[str, list[str]]:
    """Distinct first refusals (layer type + message, numbers folded) -> architectures."""
    groups: dict[str, list[str]] = {}
    for result in results:
        if "refusal" not in result:
            continue
        refused = result["refusal"]
        message = re.sub(r"\d+", "N", refused["message"])
        key = f"{refused['layer'] or refused['error']}: {message}"
        groups.setdefault(key, []).append(result["arch"])
    return dict(sorted(groups.items(), key=lambda item: -len(item[1])))


def failures(runs: list[dict[str, Any]]) -> str:
    """The distinct first refusals of each run with the architectures each blocks, the layer
    types the importer lacks with the architectures that have them, and the other outcomes."""
    lines = ["# Export sweep: first refusals", ""]
    for run in runs:
        packages = ", ".join(f"{k} {v}" for k, v in run["versions"].items())
        results = run["results"]
        lines += [f"## {label(run)} ({run['date']}; {packages})", "",
                  "### Distinct first refusals (numbers folded to N), most blocking first", ""]
        for key, archs in refusal_groups(results).items():
            lines.append(f"- **{key}** ({len(archs)}): {', '.join(archs)}")
        missing: dict[str, list[str]] = {}
        for result in results:
            for kind in result.get("unsupported", []):
                missing.setdefault(kind, []).append(result["arch"])
        lines += ["", "### Layer types the importer has no op for (any version), with the "
                  "architectures that contain them", ""]
        for kind, archs in sorted(missing.items(), key=lambda item: -len(item[1])):
            lines.append(f"- {kind} ({len(archs)}): {', '.join(archs)}")
        lines += ["", "### Other outcomes", ""]
        for result in results:
            if status(result) in ("differs", "timeout", "crashed", "not exported",
                                  "OpenVINO fails"):
                lines.append(f"- {result['arch']}: {status(result)}: {reason(result)}")
        matching = [r["arch"] for r in results if r.get("matches")]
        lines += ["", f"Matching OpenVINO ({len(matching)}): {', '.join(matching)}", ""]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    layered = parser.add_mutually_exclusive_group()
    layered.add_argument("--transformers-dir", type=Path,
                         help="a folder with another transformers (pip install --target)")
    layered.add_argument("--transformers", metavar="VERSION",
                         help="install this transformers under --cache and use it")
    parser.add_argument("--only", help="comma-separated architectures")
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600.0,
                        help="seconds per architecture (export + comparison)")
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state-sweep")
    parser.add_argument("-o", "--output", type=Path, help="results JSON")
    parser.add_argument("--markdown", type=Path, help="the table as Markdown")
    parser.add_argument("--failures", type=Path,
                        help="the distinct first refusals with the architectures each blocks")
    parser.add_argument("--report", type=Path, nargs="+", metavar="JSON",
                        help="no sweep: the tables of results JSON files (one column pair each)")
    parser.add_argument("--static-state", type=int, metavar="N",
                        help="compile with static_state=N and compare with OpenVINO's dynamic "
                             "model (the generation filled to the capacity)")
    parser.add_argument("--entries", action="store_true",
                        help="with --static-state: compile as compile_model(xml, static_state="
                             "...) does, a decoder's prefill and decode entries")
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.entries and args.static_state is None:
        parser.error("--entries needs --static-state N")
    if args.worker:
        worker(args.cache, args.static_state, args.entries)
        return 0
    if args.report:
        runs = [json.loads(path.read_text()) for path in args.report]
        write(runs, args.markdown, args.failures)
        return 0
    if args.transformers:
        try:
            args.transformers_dir = install_transformers(args.transformers, args.cache / "site")
        except RuntimeError as error:
            print(f"error: {error}", file=sys.stderr)
            return 1
    env = worker_env(args.transformers_dir)
    found = versions(env)
    cache = args.cache / exports_folder(found)
    cache.mkdir(parents=True, exist_ok=True)
    only = args.only.split(",") if args.only else None
    results = with_progress(only, env, cache, args.jobs, args.timeout, args.static_state,
                            args.entries)
    run = {"date": datetime.date.today().isoformat(), "versions": found, "results": results}
    if args.static_state is not None:
        run["static_state"] = args.static_state
    if args.entries:
        run["entries"] = True
    if args.output:
        args.output.write_text(dump(run))
    write([run], args.markdown, args.failures)
    return 0


def dump(run: dict[str, Any]) -> str:
    """A run as JSON with one architecture a line (small, and diffs well)."""
    rows = ",\n".join("  " + json.dumps(result) for result in run["results"])
    head = json.dumps({k: v for k, v in run.items() if k != "results"})[:-1]
    return f'{head}, "results": [\n{rows}\n]}}\n'


def write(runs: list[dict[str, Any]], table: Path | None, refusals: Path | None) -> None:
    text = markdown(runs)
    if table:
        table.write_text(text)
    if refusals:
        refusals.write_text(failures(runs))
    print(text)


def with_progress(only: list[str] | None, env: dict[str, str], cache: Path, jobs: int,
                  timeout: float, static_state: int | None = None, entries: bool = False
                  ) -> list[dict[str, Any]]:
    """`run_sweep` with a rich progress bar on a TTY, a line per architecture otherwise."""
    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    console = Console(stderr=True)
    if not console.is_terminal:
        def plain(arch: str, result: dict[str, Any] | None) -> None:
            if result is not None:
                print(f"{arch}: {status(result)} {reason(result)[:200]}", file=sys.stderr,
                      flush=True)
        return run_sweep(only, env, cache, jobs, timeout, plain, static_state, entries)
    archs = only or list_architectures(env, cache)
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  TimeElapsedColumn(), console=console) as bar:
        task = bar.add_task("starting", total=len(archs))

        def update(arch: str, result: dict[str, Any] | None) -> None:
            if result is None:
                bar.update(task, description=arch)
                return
            bar.advance(task)
            console.print(f"{arch}: {status(result)} {reason(result)[:160]}")
        return run_sweep(archs, env, cache, jobs, timeout, update, static_state, entries)


if __name__ == "__main__":
    sys.exit(main())
