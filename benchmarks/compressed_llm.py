"""The tiny Llama with compressed weights (optimum-intel's int8 and int4 exports) beside the
f32 one: resident weight memory and decode time, tosa-state (interpreter) against OpenVINO.

The models are `llm_models.py`'s tiny Llama (2 layers, hidden size 64, vocabulary 128) exported
three times by optimum-intel: f32, `load_in_8bit=True` (NNCF INT8_ASYM, per output channel)
and `OVWeightQuantizationConfig(bits=4, group_size=16)` (INT4_ASYM in groups of 16; the
embedding and the head in int8, as NNCF's default backup). Measured:

- `.bin`: the weights file;
- resident: the bytes the compiled model keeps for its constants (`resident_weight_bytes`:
  the module's dense attributes and the plan's folded constants, each buffer counted once),
  apart from the 64 KiB position table every decoder export holds;
- decode: median milliseconds of one call with one token after `past` cached positions.

OpenVINO runs on its CPU plugin with `INFERENCE_NUM_THREADS=1`, f32 precision and
`DYNAMIC_QUANTIZATION_GROUP_SIZE=0` (tosa-state is single-threaded numpy); the six
runtimes alternate call by call in one process, so that a loaded machine slows each alike:
compare ratios. Run `python benchmarks/compressed_llm.py` (the `test` extra installs torch,
transformers, optimum-intel and nncf; the exports are cached in `--cache`).
"""

from __future__ import annotations

import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from llm_models import export, prompt, step_inputs

MODELS = ("llama", "llama-int8", "llama-int4")


POSITION_TABLE = np.arange(8192, dtype=np.int64)
"""The constant `[0, ..., 8191]` a Range of run-time length is sliced from (docs/openvino.md):
64 KiB every decoder export holds whatever its weights."""


def resident_weight_bytes(compiled) -> tuple[int, int]:  # a tosa_state CompiledModel
    """The bytes a compiled model (interpreter) keeps for its constants: its module's dense
    attributes and the constants its plan folded, each underlying buffer counted once (a
    constant that is a view of an attribute's bytes costs nothing more). Returns (the bytes
    of everything but the position table, the position table's bytes)."""
    from xdsl.dialects.builtin import DenseIntOrFPElementsAttr

    buffers: dict[int, int] = {}
    table = 0
    for op in compiled.module.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            if isinstance(attr, DenseIntOrFPElementsAttr):
                raw = attr.data.data
                if len(raw) == POSITION_TABLE.nbytes and raw == POSITION_TABLE.tobytes():
                    table = len(raw)
                else:
                    buffers[id(raw)] = len(raw)
    for constant in compiled.executable.plan.constants:
        root = constant
        while isinstance(root, np.ndarray) and root.base is not None:
            root = root.base
        if isinstance(root, np.ndarray) and not np.array_equal(root, POSITION_TABLE):
            buffers[id(root)] = root.nbytes
    return sum(buffers.values()), table


def runtimes(xmls: dict[str, Path]) -> dict[str, Callable[[dict | None], np.ndarray]]:
    """One call per model and runtime: inputs in, logits out (`None` resets the state)."""
    import openvino as ov

    import tosa_state

    config = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32",
              "KV_CACHE_PRECISION": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}
    calls = {}
    for name, xml in xmls.items():
        for runtime in ("tosa-state", "OpenVINO"):
            if runtime == "tosa-state":
                request = tosa_state.compile_model(xml).create_infer_request()
            else:
                request = ov.Core().compile_model(str(xml), "CPU", config).create_infer_request()
            calls[f"{name} {runtime}"] = _call(request, runtime == "OpenVINO")
    return calls


def _call(request, openvino: bool) -> Callable[[dict | None], np.ndarray]:
    def call(inputs: dict | None) -> np.ndarray:
        if inputs is None:
            request.reset_state()
            return np.empty(0)
        if openvino:
            request.infer(inputs)
            return request.get_tensor("logits").data.copy()
        return request.infer(inputs)["logits"]

    return call


def decode_ms(calls: dict[str, Callable], past: int, steps: int) -> dict[str, float]:
    """Median ms of a one-token call after `past` positions, the runtimes interleaved."""
    times: dict[str, list[float]] = {name: [] for name in calls}
    tokens = prompt(1, past, seed=5)
    for call in calls.values():
        call(None)
        call(step_inputs(tokens, 0))
    token = np.array([[7]], np.int64)
    for step in range(steps):
        for name, call in calls.items():
            start = time.perf_counter()
            call(step_inputs(token, past + step))
            times[name].append((time.perf_counter() - start) * 1e3)
    return {name: statistics.median(t) for name, t in times.items()}


def main() -> int:
    import argparse

    import tosa_state

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the exports are kept")
    parser.add_argument("--steps", type=int, default=25, help="timed decode steps per past")
    parser.add_argument("--pasts", type=int, nargs="+", default=[64, 256])
    args = parser.parse_args()
    xmls = export(MODELS, args.cache / "compressed_llm")
    print("model        .bin bytes  resident bytes  resident/.bin  (+ position table)")
    for name, xml in xmls.items():
        size = xml.with_suffix(".bin").stat().st_size
        resident, table = resident_weight_bytes(tosa_state.compile_model(xml))
        print(f"{name:<12} {size:>10}  {resident:>14}  {resident / size:>13.2f}  (+ {table})")
    calls = runtimes(xmls)
    for past in args.pasts:
        ms = decode_ms(calls, past, args.steps)
        base = ms["llama tosa-state"]
        print(f"\ndecode after {past} positions (median ms; ratio to f32 tosa-state)")
        for name, value in ms.items():
            print(f"  {name:<22} {value:8.2f}  {value / base:5.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
