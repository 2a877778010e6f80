"""A tiny Llama decoding token by token: tosa-state (interpreter and device `iree`) against
OpenVINO, in one process.

The model is `llm_models.py`'s tiny Llama (2 layers, hidden size 64, 4 query / 2 K/V heads,
vocabulary 128, random weights) exported by optimum-intel as stateful IR (the KV caches in
ReadValue / Assign variables of shape [?, 2, ?, 16], grown by a Concat every call). Both
runtimes compile the IR once, without input shapes. Measured, as median milliseconds:

- prefill: one call with a prompt of 16 tokens (after `reset_state()`);
- decode: one call with one token after `past` cached positions, for past 64 ... 1024
  (the cache is filled by one prefill of `past` tokens first, then a few decode steps are
  timed); the last column is the step time divided by the one at past 64.

Device `iree` runs twice: the model as it is (`iree`), and as a pair of modules
(`iree-2`): the same one for the prefill, then one compiled with `input_shapes` fixed to a
step of one token of batch 1 (`DECODE_SHAPES`) for the decode steps, the KV caches handed
over once, after the prefill, through the state-control functions (docs/runtime.md).

OpenVINO runs with `INFERENCE_NUM_THREADS=1` and f32 precision (tosa-state is
single-threaded numpy, IREE `local-sync`); the runtimes alternate call by call, so that a
busy machine slows each alike, and their logits are checked to agree first. Run
`python benchmarks/llm_decode.py` (the `test` extra installs torch, transformers and
optimum-intel; the export is cached in `--cache`).
"""

from __future__ import annotations

import sys
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from llm_models import export, prompt, step_inputs

PASTS = (64, 128, 256, 512, 1024)
PREFILL = 16
DECODE_SHAPES = {"input_ids": [1, 1], "position_ids": [1, 1], "beam_idx": [1]}
"""The inputs of a decode step of batch 1 (`attention_mask` stays `[1, ?]`)."""


def iree_pair(xml: Path) -> Callable[[dict[str, np.ndarray] | None], np.ndarray]:
    """Device iree as a prefill module (the model as it is) and a decode module
    (`input_shapes=DECODE_SHAPES`): a call goes to the module its inputs fit; the state
    moves to it (query_state / state =) when the other one ran last."""
    import tosa_state

    prefill = tosa_state.compile_model(xml, device="iree").create_infer_request()
    decode = tosa_state.compile_model(xml, device="iree", input_shapes=DECODE_SHAPES
                                      ).create_infer_request()
    live: list[tosa_state.InferRequest | None] = [None]

    def call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            prefill.reset_state()
            decode.reset_state()
            live[0] = None
            return np.empty(0)
        one_step = all(inputs[name].shape == tuple(shape)
                       for name, shape in DECODE_SHAPES.items())
        request = decode if one_step else prefill
        if live[0] is not None and live[0] is not request:
            states = {state.name: state for state in request.query_state()}
            for state in live[0].query_state():
                states[state.name].state = state.state
        live[0] = request
        return request.infer(inputs)["logits"]

    return call


def runtimes(xml: Path) -> dict[str, Callable[[dict[str, np.ndarray] | None], np.ndarray]]:
    """One call per runtime: inputs in, logits out (`None` resets the state)."""
    import openvino as ov

    import tosa_state

    ours = tosa_state.compile_model(xml).create_infer_request()
    iree = tosa_state.compile_model(xml, device="iree").create_infer_request()
    config = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32",
              "KV_CACHE_PRECISION": "f32"}
    theirs = ov.Core().compile_model(str(xml), "CPU", config).create_infer_request()

    def tosa_state_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            ours.reset_state()
            return np.empty(0)
        return ours.infer(inputs)["logits"]

    def iree_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            iree.reset_state()
            return np.empty(0)
        return iree.infer(inputs)["logits"]

    def openvino_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            theirs.reset_state()
            return np.empty(0)
        theirs.infer(inputs)
        return theirs.get_tensor("logits").data.copy()

    return {"tosa-state": tosa_state_call, "iree": iree_call, "iree-2": iree_pair(xml),
            "openvino": openvino_call}


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def prefill_ms(calls: dict[str, Callable], repeats: int) -> dict[str, float]:
    tokens = prompt(1, PREFILL, seed=0)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            call(None)
            samples[name].append(_timed(lambda c=call: c(step_inputs(tokens, 0))))
    return {name: 1e3 * float(np.median(v)) for name, v in samples.items()}


def decode_ms(calls: dict[str, Callable], past: int, steps: int) -> dict[str, float]:
    """Median ms of a one-token step after `past` positions (the cache filled by a prefill)."""
    tokens = prompt(1, past, seed=1)
    next_token = {}
    for name, call in calls.items():
        call(None)
        logits = call(step_inputs(tokens, 0))
        next_token[name] = logits[:, -1:].argmax(-1)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for step in range(steps):
        for name, call in calls.items():
            inputs = step_inputs(next_token[name], past + step)
            start = time.perf_counter()
            logits = call(inputs)
            samples[name].append(time.perf_counter() - start)
            next_token[name] = logits[:, -1:].argmax(-1)
    return {name: 1e3 * float(np.median(v)) for name, v in samples.items()}


def check_agreement(calls: dict[str, Callable]) -> float:
    """Largest difference of the logits over a prompt and 8 greedy steps, relative to the
    largest logit."""
    tokens = prompt(1, PREFILL, seed=2)
    logits = {}
    for name, call in calls.items():
        call(None)
        out, seq = [], tokens
        for step in range(9):
            result = call(step_inputs(seq, 0 if step == 0 else PREFILL + step - 1))
            out.append(result)
            seq = result[:, -1:].argmax(-1)
        logits[name] = np.concatenate([o.reshape(-1) for o in out])
    theirs = logits["openvino"]
    return max(float(np.max(np.abs(ours - theirs)) / np.max(np.abs(theirs)))
               for ours in logits.values())


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the exported model is kept")
    parser.add_argument("--repeats", type=int, default=15, help="timed prefills")
    parser.add_argument("--steps", type=int, default=25, help="timed decode steps per past")
    args = parser.parse_args()
    try:
        import openvino  # noqa: F401
        import optimum.intel  # noqa: F401
    except ImportError as error:
        print(f"error: {error.name} is not installed (pip install -e '.[test]')",
              file=sys.stderr)
        return 1
    xml = export(["llama"], args.cache / "llm_exports")["llama"]
    calls = runtimes(xml)
    worst = check_agreement(calls)
    prefill = prefill_ms(calls, args.repeats)
    print(f"tiny Llama (2 layers, hidden 64), single thread, median ms per call "
          f"(logits agree within {worst:.1e} of the largest)")
    print(f"{'call':>18} {'tosa-state':>11} {'iree':>7} {'iree-2':>7} {'openvino':>9} "
          f"{'ratio':>6} {'iree/ov':>7} {'iree-2/ov':>9} {'growth':>7}")

    def row(label: str, f: dict[str, float], growth: str = "") -> str:
        return (f"{label:>18} {f['tosa-state']:11.2f} {f['iree']:7.2f} {f['iree-2']:7.2f} "
                f"{f['openvino']:9.2f} {f['tosa-state'] / f['openvino']:5.1f}x "
                f"{f['iree'] / f['openvino']:6.2f}x {f['iree-2'] / f['openvino']:8.2f}x "
                f"{growth}")

    print(row(f"prefill {PREFILL} tokens", prefill))
    first = None
    for past in PASTS:
        step = decode_ms(calls, past, args.steps)
        first = first or step["tosa-state"]
        print(row(f"decode, past {past}", step, f"{step['tosa-state'] / first:6.2f}x"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
