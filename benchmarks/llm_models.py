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

Exporting needs `pip install -e '.[test]'` (torch, transformers, optimum-intel, OpenVINO).
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
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

SIZES = {
    "tiny": _COMMON,
    # SmolLM-135M's shape (135M parameters, the embedding tied to the output projection: a
    # 538 MB f32 `.bin`), random weights
    "small": {
        "vocab_size": 49152,
        "hidden_size": 576,
        "intermediate_size": 1536,
        "num_hidden_layers": 30,
        "num_attention_heads": 9,
        "num_key_value_heads": 3,
        "max_position_embeddings": 4096,
        "tie_word_embeddings": True,
    },
    # one layer of 9 query heads of 16 in 3 groups (3 K / V heads): the smallest shape found on
    # which IREE 3.13 with --iree-opt-data-tiling miscompiles the static decode entry
    # (tosa_state.devices.iree_compile.DECODER_FLAGS; 3 heads of 64 in one group, or 2 in one,
    # compile right)
    "gqa3": {**_COMMON, "hidden_size": 144, "num_hidden_layers": 1,
             "num_attention_heads": 9, "num_key_value_heads": 3},
}
"""Configs by name: `export(..., size="small")` writes `root/<family>-small/`."""


def _config(family: str, sizes: dict[str, int] | None = None):  # -> transformers.PretrainedConfig
    """The model class and tiny config of `family` (`sizes`: `_COMMON`'s keys, default those)."""
    import transformers

    sizes = sizes or _COMMON
    if family == "llama":
        return transformers.LlamaForCausalLM, transformers.LlamaConfig(**sizes)
    if family == "qwen2":
        return transformers.Qwen2ForCausalLM, transformers.Qwen2Config(**sizes)
    if family == "mistral":
        return transformers.MistralForCausalLM, transformers.MistralConfig(**sizes)
    if family == "phi3":
        config = transformers.Phi3Config(**sizes, pad_token_id=0, bos_token_id=1, eos_token_id=2)
        return transformers.Phi3ForCausalLM, config
    if family == "gemma":
        config = transformers.GemmaConfig(
            **sizes, head_dim=16, pad_token_id=0, bos_token_id=1, eos_token_id=2
        )
        return transformers.GemmaForCausalLM, config
    if family == "gpt2":
        config = transformers.GPT2Config(
            vocab_size=sizes["vocab_size"], n_embd=sizes["hidden_size"],
            n_layer=sizes["num_hidden_layers"], n_head=sizes["num_attention_heads"],
            n_positions=sizes["max_position_embeddings"])
        return transformers.GPT2LMHeadModel, config
    raise ValueError(f"unknown family '{family}' (known: {', '.join(FAMILIES)})")


COMPRESSIONS = ("int8", "int4")
"""Suffixes of the compressed exports (`llama-int8`, `llama-int4`): optimum-intel's
`load_in_8bit=True` (NNCF INT8_ASYM, per channel) and
`OVWeightQuantizationConfig(bits=4, group_size=16)` (NNCF INT4, groups of 16)."""


def _export_here(name: str, directory: Path, sizes: dict[str, int] | None = None) -> None:
    sys.modules.setdefault("torchvision", None)  # type: ignore[arg-type]
    import torch
    from optimum.intel import OVModelForCausalLM, OVWeightQuantizationConfig

    family, _, compression = name.partition("-")
    torch.manual_seed(SEED)
    model_class, config = _config(family, sizes)
    # written aside and renamed: an export killed midway (a stopped test session) leaves none
    partial = directory.with_name(f".{directory.name}.partial")
    shutil.rmtree(partial, ignore_errors=True)
    source = partial / "source"
    model_class(config).save_pretrained(source)
    options: dict[str, object] = {"load_in_8bit": compression == "int8"}
    if compression == "int4":
        options["quantization_config"] = OVWeightQuantizationConfig(
            bits=4, group_size=16, ratio=1.0)
    elif compression not in ("", "int8"):
        raise ValueError(f"unknown compression '{compression}' (known: {COMPRESSIONS})")
    exported = OVModelForCausalLM.from_pretrained(
        source, export=True, stateful=True, compile=False, **options
    )
    exported.save_pretrained(partial)
    shutil.rmtree(directory, ignore_errors=True)
    partial.rename(directory)


def _xmls(families: Sequence[str], root: Path, size: str) -> dict[str, Path]:
    suffix = "" if size == "tiny" else f"-{size}"
    return {family: root / f"{family}{suffix}" / XML_NAME for family in families}


def export_command(families: Sequence[str], root: Path, size: str = "tiny") -> list[str]:
    """The command that exports those of `families` not exported yet into `root` (empty
    when none is missing); run it with `EXPORT_ENV` over the environment."""
    missing = [family for family, xml in _xmls(families, root, size).items()
               if not xml.is_file()]
    return [sys.executable, __file__, size, str(root), *missing] if missing else []


EXPORT_ENV = {"TOKENIZERS_PARALLELISM": "false", "HF_HUB_OFFLINE": "1"}


def _run(command: list[str], env: dict[str, str]) -> tuple[int, str]:
    done = subprocess.run(command, capture_output=True, text=True, env=env, check=False)
    return done.returncode, done.stderr


def export(families: Sequence[str], root: Path, size: str = "tiny",
           run: Callable[[list[str], dict[str, str]], tuple[int, str]] = _run
           ) -> dict[str, Path]:
    """Export the models of `families` in config `size` (`SIZES`) into `root/<family>/`
    (`root/<family>-<size>/` for another size than tiny; those not exported yet, in one
    subprocess: torch and transformers load once); returns the `.xml` path of each.
    `run(command, env)` runs the export and returns its exit status and messages."""
    xmls = _xmls(families, root, size)
    command = export_command(families, root, size)
    if command:
        root.mkdir(parents=True, exist_ok=True)
        returncode, errors = run(command, {**os.environ, **EXPORT_ENV})
        failed = [family for family, xml in xmls.items() if not xml.is_file()]
        if returncode != 0 or failed:
            raise RuntimeError(f"exporting {', '.join(failed)} failed:\n{errors[-4000:]}")
    return xmls


if __name__ == "__main__":
    _size, _root = sys.argv[1], Path(sys.argv[2])
    for name in sys.argv[3:]:
        _export_here(name, _root / (name if _size == "tiny" else f"{name}-{_size}"),
                     SIZES[_size])


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


# ---------------------------------------------------------------------------------------------
# Generation against OpenVINO, call by call (tests/test_llm_*.py and export_sweep.py)
# ---------------------------------------------------------------------------------------------

RTOL, ATOL = 1e-4, 1e-5
"""The states' tolerance (KV caches, recurrent states)."""
LOGITS_ATOL = 1e-5
"""|logit - OpenVINO's|: 4.2x the largest the export sweep measured over its 54 + 46
architectures (falcon_mamba 2.4e-6, mamba 1.1e-6, every other at most 3.7e-7:
benchmarks/results/export_sweep_*.json, `max_error`); the tests' tiny Llama, Qwen2 and GPT-2
2.7e-7. (Was 1e-5 + 1e-4 relative.)"""
# f32 inference and KV cache: by default the CPU plugin keeps the cache in f16 or u8, which
# moves the logits by about 1e-4
OPENVINO_CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "KV_CACHE_PRECISION": "f32",
                   "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}
"""f32 everywhere; compressed weights dequantized, activations not quantized to int8."""


class GenerationPair:
    """One request of tosa-state and one of the OpenVINO CPU plugin on the same IR, fed the same
    inputs; every call compares the logits (RTOL/ATOL), the greedy tokens and every state
    (`query_state`), raising AssertionError at the first difference.

    The inputs of a call are those of `step_inputs` (plus `cache_position`) that the model has,
    and `extra` arrays (e.g. a seq2seq decoder's `encoder_hidden_states`, batch 1) repeated to
    the batch; an input the model has and neither provides is an error."""

    def __init__(self, xml: Path, compiled=None, extra: dict[str, np.ndarray] | None = None,
                 conv_kernel: int | None = None, full_mask: bool = True) -> None:
        """`compiled`: a tosa_state CompiledModel of `xml` (else compiled here). `conv_kernel`:
        feed `cache_position` as optimum-intel's state-space models want it (`0 ... kernel-1`
        for a prompt, `[past]` for a step; else `past ... past+n-1`); `full_mask=False`: the
        attention mask of a step covers the new tokens only (Mamba's convention)."""
        import openvino as ov

        import tosa_state

        model = ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG)
        self.theirs = model.create_infer_request()
        self.ours = (compiled or tosa_state.compile_model(xml)).create_infer_request()
        self.names = [port.get_any_name() for port in model.inputs]
        self.extra = extra or {}
        self.conv_kernel, self.full_mask = conv_kernel, full_mask
        self.past = 0
        self.calls = 0
        self.max_error = 0.0

    def inputs(self, tokens: np.ndarray, beam_idx: np.ndarray | None) -> dict[str, np.ndarray]:
        known = step_inputs(tokens, self.past, beam_idx)
        count = tokens.shape[1]
        known["cache_position"] = np.arange(self.past, self.past + count, dtype=np.int64)
        if self.conv_kernel is not None:
            known["cache_position"] = np.arange(self.conv_kernel, dtype=np.int64) \
                if self.past == 0 else np.array([self.past], np.int64)
        if not self.full_mask and self.past:
            known["attention_mask"] = np.ones(tokens.shape, np.int64)
        for name, value in self.extra.items():
            known[name] = np.repeat(value, tokens.shape[0], axis=0)
        missing = [name for name in self.names if name not in known]
        if missing:
            raise ValueError(f"no value for the model's inputs {missing}")
        return {name: known[name] for name in self.names}

    def call(self, tokens: np.ndarray, beam_idx: np.ndarray | None = None) -> np.ndarray:
        """One call with `tokens` [batch, n]; returns the greedy next tokens [batch, 1]."""
        inputs = self.inputs(tokens, beam_idx)
        self.theirs.infer(inputs)
        want = self.theirs.get_tensor("logits").data.copy()
        got = self.ours.infer(self.our_inputs(inputs, tokens))["logits"]
        what = f"call {self.calls} (past {self.past}, {tokens.shape[1]} new tokens)"
        if got.shape == want.shape:
            self.max_error = max(self.max_error, float(np.max(np.abs(got - want), initial=0)))
        np.testing.assert_allclose(got, want, rtol=0, atol=LOGITS_ATOL,
                                   err_msg=f"{what}: logits")
        ours_next, theirs_next = got[:, -1].argmax(-1), want[:, -1].argmax(-1)
        np.testing.assert_array_equal(ours_next, theirs_next, err_msg=f"{what}: greedy tokens")
        self.past += tokens.shape[1]
        self.compare_states(what)
        self.calls += 1
        return theirs_next[:, None]

    def our_inputs(self, inputs: dict[str, np.ndarray], tokens: np.ndarray
                   ) -> dict[str, np.ndarray]:
        """What tosa-state's request gets for OpenVINO's `inputs` (the same here)."""
        return inputs

    def compare_states(self, what: str) -> None:
        theirs = {s.name: s.state.data.copy() for s in self.theirs.query_state()}
        ours = {s.name: s.state for s in self.ours.query_state()}
        assert sorted(ours) == sorted(theirs), f"{what}: states {sorted(ours)} {sorted(theirs)}"
        for name, want in theirs.items():
            assert ours[name].shape == want.shape, (
                f"{what}: state {name} shape {ours[name].shape} != {want.shape}")
            np.testing.assert_allclose(ours[name], want, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{what}: state {name}")

    @property
    def state_names(self) -> list[str]:
        return sorted(s.name for s in self.ours.query_state())

    def reset(self) -> None:
        self.theirs.reset_state()
        self.ours.reset_state()
        self.past = 0

    def generate(self, tokens: np.ndarray, steps: int) -> list[np.ndarray]:
        produced = [self.call(tokens)]
        for _ in range(steps):
            produced.append(self.call(produced[-1]))
        return produced


def run_generation(pair: GenerationPair) -> None:
    """The generation every LLM comparison runs (21 calls): a prompt of 5 tokens and 8 greedy
    steps; `reset_state()`, a prompt of 3 tokens and 3 steps; `reset_state()`, a batch of 2:
    a prompt of 4 tokens, 2 steps, a `beam_idx` that swaps the rows, one that duplicates row 0,
    2 more steps."""
    pair.generate(prompt(1, 5, seed=1), steps=8)
    pair.reset()
    pair.generate(prompt(1, 3, seed=2), steps=3)
    pair.reset()
    tokens = pair.generate(prompt(2, 4, seed=3), steps=2)[-1]
    tokens = pair.call(tokens[::-1], beam_idx=np.array([1, 0]))
    tokens = pair.call(tokens, beam_idx=np.array([0, 0]))
    for _ in range(2):
        tokens = pair.call(tokens)


class OpenVINOModel:
    """A second OpenVINO request in the place of tosa-state's (`GenerationPair(xml,
    OpenVINOModel(xml))`): checks that OpenVINO itself runs a generation as fed."""

    class _State:
        def __init__(self, state) -> None:  # an openvino VariableState
            self.name, self.state = state.name, state.state.data.copy()

    def __init__(self, xml: Path) -> None:
        import openvino as ov

        self.compiled = ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG)

    def create_infer_request(self) -> OpenVINOModel:
        self.request = self.compiled.create_infer_request()
        return self

    def infer(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
        self.request.infer(inputs)
        return {"logits": self.request.get_tensor("logits").data.copy()}

    def query_state(self) -> list[_State]:
        return [self._State(state) for state in self.request.query_state()]

    def reset_state(self) -> None:
        self.request.reset_state()


# ---------------------------------------------------------------------------------------------
# Static-capacity state (`tosa-static-state`), call by call against OpenVINO's dynamic model
# ---------------------------------------------------------------------------------------------


def static_step_inputs(tokens: np.ndarray, past: int, capacity: int,
                       beam_idx: np.ndarray | None = None) -> dict[str, np.ndarray]:
    """`step_inputs` for a model made static by `tosa-static-state{capacity=N}`, laid out as
    OpenVINO GenAI's static generate model: the attention mask covers the capacity, ones
    over the `past` valid rows and over the last `n` (where the concat puts the new ones),
    zeros over the empty rows between; positions continue from `past` as before."""
    inputs = step_inputs(tokens, past, beam_idx)
    batch, count = tokens.shape
    mask = np.zeros((batch, capacity), np.int64)
    mask[:, :past] = 1
    mask[:, capacity - count:] = 1
    inputs["attention_mask"] = mask
    return inputs


def compile_static(xml: Path, capacity: int):  # -> tosa_state.CompiledModel
    """`xml` made static by `tosa-static-state{capacity=N}` alone, then the default lowering:
    the model as exported (one entry, any batch), fed the layout of `static_step_inputs`."""
    import tosa_state
    from tosa_state.api import DEFAULT_PIPELINE

    pipeline = f"tosa-static-state{{capacity={capacity}}},{DEFAULT_PIPELINE}"
    return tosa_state.compile_model(xml, pipeline=pipeline)


def compile_entries(xml: Path, capacity: int, batches: Sequence[int] = (1, 2)):
    """`xml` compiled as a user compiles it for a static cache: `compile_model(xml,
    static_state={"capacity": N, "batch": B})`. A decoder gets a `prefill` and a `decode`
    entry of one batch each (`tosa_state.transforms.static_entries`), so it is compiled for
    each of `batches` and each call runs on the model of its batch (`EntriesByBatch`); any
    other model keeps its one entry (the pass alone, any batch: `compile_static`'s form)."""
    import tosa_state

    models = {batch: tosa_state.compile_model(xml, static_state={"capacity": capacity,
                                                                 "batch": batch})
              for batch in batches[:1]}
    if models[batches[0]].static is None:
        return models[batches[0]]
    for batch in batches[1:]:
        models[batch] = tosa_state.compile_model(xml, static_state={"capacity": capacity,
                                                                    "batch": batch})
    return EntriesByBatch(models)


class EntriesByBatch:
    """Models of static entries compiled for different batches as one: a request runs each
    call on the request of the call's batch (`input_ids`' first dim), which may change only
    from the initial state or after `reset_state()` (a batch-1 state is not a batch-2 one)."""

    def __init__(self, models: dict[int, object]) -> None:
        self.models = models
        self.static = next(iter(models.values())).static

    def create_infer_request(self) -> EntriesByBatch.Request:
        return self.Request({batch: model.create_infer_request()
                             for batch, model in self.models.items()})

    class Request:
        def __init__(self, requests: dict[int, object]) -> None:
            self.requests = requests
            self.current = next(iter(requests.values()))
            self.fresh = True

        def infer(self, inputs: dict[str, np.ndarray]) -> dict[str, np.ndarray]:
            request = self.requests[inputs["input_ids"].shape[0]]
            if request is not self.current and not self.fresh:
                raise ValueError("the batch changed without a reset_state()")
            self.current, self.fresh = request, False
            return request.infer(inputs)

        def query_state(self) -> list:
            return self.current.query_state()

        def reset_state(self) -> None:
            for request in self.requests.values():
                request.reset_state()
            self.fresh = True


class StaticGenerationPair(GenerationPair):
    """A `GenerationPair` whose tosa-state side is made static with `capacity` (OpenVINO
    runs the dynamic model as exported). The variables the pass made static are those with a
    count (`<name>__count`, `tosa_state.count_of`): when there are any, ours gets the attention
    mask of `static_step_inputs`, each of them compares its first `past` rows along its time
    axis (the one dim where its shape differs from OpenVINO's: the capacity against `past`)
    and its count holds `past`; a model with none (state-space caches, windows of fixed
    length) passed through unchanged and is fed and compared as the dynamic one."""

    def __init__(self, xml: Path, capacity: int, compiled=None, **feeding) -> None:
        self.capacity = capacity
        compiled = compiled or compile_static(xml, capacity)
        # a model compiled with static entries (prefill and decode) builds the layout itself
        self.entries = getattr(compiled, "static", None) is not None
        super().__init__(xml, compiled, **feeding)
        names = {s.name for s in self.theirs.query_state()}
        self.static = sorted(name for name in names if f"{name}__count" in
                             {s.name for s in self.ours.query_state()})

    def our_inputs(self, inputs: dict[str, np.ndarray], tokens: np.ndarray
                   ) -> dict[str, np.ndarray]:
        if self.entries or not self.static or "attention_mask" not in inputs:
            return inputs
        mask = static_step_inputs(tokens, self.past, self.capacity)["attention_mask"]
        return {**inputs, "attention_mask": mask}

    def compare_states(self, what: str) -> None:
        theirs = {s.name: s.state.data.copy() for s in self.theirs.query_state()}
        ours = {s.name: s.state for s in self.ours.query_state()}
        counts = {f"{name}__count" for name in self.static}
        assert sorted(set(ours) - counts) == sorted(theirs), f"{what}: states"
        for name, want in theirs.items():
            got = ours[name]
            if name in self.static:
                np.testing.assert_array_equal(ours[f"{name}__count"], [self.past],
                                              err_msg=f"{what}: count of {name}")
                got = _valid_rows(got, want.shape, self.capacity, f"{what}: state {name}")
            assert got.shape == want.shape, f"{what}: state {name} shape {got.shape}"
            np.testing.assert_allclose(got, want, rtol=RTOL, atol=ATOL,
                                       err_msg=f"{what}: state {name}")


def _valid_rows(state: np.ndarray, shape: tuple[int, ...], capacity: int, what: str
                ) -> np.ndarray:
    """The rows of a static `state` that OpenVINO's of `shape` holds: along the one axis
    where the shapes differ, which must be `capacity` rows in ours (none differs when the
    past fills the capacity)."""
    axes = [axis for axis, (a, b) in enumerate(zip(state.shape, shape, strict=True)) if a != b]
    assert len(axes) <= 1 and all(state.shape[a] == capacity for a in axes), (
        f"{what}: shape {state.shape}, OpenVINO's {shape}, capacity {capacity}")
    if not axes:
        return state
    return np.take(state, np.arange(shape[axes[0]]), axis=axes[0])


def run_to_capacity(pair: StaticGenerationPair, batch: int = 1) -> None:
    """From a reset: a prompt of `capacity - 2` tokens, a step with a `beam_idx` that swaps
    the rows (when `batch` is 2), a step that fills the capacity exactly."""
    pair.reset()
    tokens = pair.call(prompt(batch, pair.capacity - 2, seed=4))
    beam = np.arange(batch)[::-1].copy()
    tokens = pair.call(tokens[beam], beam_idx=beam)
    pair.call(tokens)
    if pair.static:
        assert pair.past == pair.capacity, (pair.past, pair.capacity)
