"""A Llama decoding token by token: tosa-state (interpreter, and device `iree` for the tiny
one) against OpenVINO, in one process.

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

OpenVINO runs with `INFERENCE_NUM_THREADS=1` and f32 precision (tosa-state is numpy with
`OPENBLAS_NUM_THREADS=1` unless set otherwise, IREE `local-sync`); the runtimes alternate
call by call, so that a busy machine slows each alike. Their logits over a prompt and 8
greedy steps must agree first, within `TOLERANCE` (`SMALL_TOLERANCE` for `--size small`) of
OpenVINO's relative to its largest logit, or the benchmark fails (`agreement.Disagreement`).
Run `python benchmarks/llm_decode.py` after `pip install -e '.[test]'` (torch, transformers,
optimum-intel, OpenVINO, IREE; the export is cached in `--cache`).

`--size small` runs a real-size decoder instead: SmolLM-135M's shape (hidden 576, 30 layers,
9 query / 3 K/V heads, intermediate 1536, vocabulary 49152, tied embedding: 135M parameters,
a 538 MB `.bin`; random weights, exported by the pinned optimum-intel and transformers into
`--cache`/llm_exports/llama-small, about 30 s once), tosa-state's interpreter and device
`iree` (the dynamic module, its weights as IREE parameters) against OpenVINO. It measures,
besides: compile time (`compile_model` and a request, the runtimes alternately; device
`iree` from its artifact cache, filled by its first compile, which is timed alone in the
memory subprocess with an empty cache), peak resident memory (each runtime alone in a fresh
subprocess, so that one's peak does not hide the other's: after compiling, with
`iree-compile`'s own peak, and through a 2048-token prefill), prefills of 128 and 2048
tokens, decode steps at past 128 / 512 / 2048 with the largest step over the median (a
buffer regrown mid-run shows there).
"""

from __future__ import annotations

import gc
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

# One thread for numpy's BLAS too, as for OpenVINO: OpenBLAS's threads spin while waiting, so
# on a loaded machine its default (one per core) made every matmul up to 10x slower.
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import agreement
import numpy as np
from llm_models import export, prompt, step_inputs

PASTS = (64, 128, 256, 512, 1024)
PREFILL = 16
SMALL_PASTS = (128, 512, 2048)
SMALL_PREFILLS = (128, 2048)
OPENVINO_CONFIG = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32",
                   "KV_CACHE_PRECISION": "f32"}
TOLERANCE = 2e-6
"""Largest |logit - OpenVINO's| / OpenVINO's largest |logit| of the tiny Llama: 5.6x the
3.6e-7 the README's three runs printed."""
SMALL_TOLERANCE = 1e-5
"""The same for `--size small`: 5x the 2.0e-6 the README's runs printed."""
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


def compile_request(runtime: str, xml: Path):  # -> an infer request of either runtime
    if runtime == "openvino":
        import openvino as ov

        return ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG).create_infer_request()
    import tosa_state

    device = "iree" if runtime == "iree" else "interpreter"
    return tosa_state.compile_model(xml, device=device).create_infer_request()


def runtimes(xml: Path, iree: bool = True, pair: bool = True
             ) -> dict[str, Callable[[dict[str, np.ndarray] | None], np.ndarray]]:
    """One call per runtime: inputs in, logits out (`None` resets the state); `pair`: with
    `iree-2` (`iree_pair`) too."""
    ours = compile_request("tosa-state", xml)
    iree_request = compile_request("iree", xml) if iree else None
    theirs = compile_request("openvino", xml)

    def tosa_state_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            ours.reset_state()
            return np.empty(0)
        return ours.infer(inputs)["logits"]

    def iree_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        assert iree_request is not None
        if inputs is None:
            iree_request.reset_state()
            return np.empty(0)
        return iree_request.infer(inputs)["logits"]

    def openvino_call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            theirs.reset_state()
            return np.empty(0)
        theirs.infer(inputs)
        return theirs.get_tensor("logits").data.copy()

    if not iree:
        return {"tosa-state": tosa_state_call, "openvino": openvino_call}
    if not pair:
        return {"tosa-state": tosa_state_call, "iree": iree_call, "openvino": openvino_call}
    return {"tosa-state": tosa_state_call, "iree": iree_call, "iree-2": iree_pair(xml),
            "openvino": openvino_call}


def _timed(call: Callable[[], object]) -> float:
    start = time.perf_counter()
    call()
    return time.perf_counter() - start


def prefill_ms(calls: dict[str, Callable], repeats: int, length: int = PREFILL
               ) -> dict[str, float]:
    tokens = prompt(1, length, seed=0)
    samples: dict[str, list[float]] = {name: [] for name in calls}
    for _ in range(repeats):
        for name, call in calls.items():
            call(None)
            samples[name].append(_timed(lambda c=call: c(step_inputs(tokens, 0))))
    return {name: 1e3 * float(np.median(v)) for name, v in samples.items()}


def decode_ms(calls: dict[str, Callable], past: int, steps: int) -> dict[str, float]:
    """Median ms of a one-token step after `past` positions (the cache filled by a prefill)."""
    return {name: float(np.median(v)) for name, v in decode_samples(calls, past, steps).items()}


def decode_samples(calls: dict[str, Callable], past: int, steps: int
                   ) -> dict[str, list[float]]:
    """The ms of `steps` one-token steps after `past` positions, per runtime."""
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
    return {name: [1e3 * t for t in v] for name, v in samples.items()}


def check_agreement(calls: dict[str, Callable], tolerance: float) -> float:
    """Largest difference of the logits over a prompt and 8 greedy steps from OpenVINO's,
    relative to its largest logit; `agreement.Disagreement` beyond `tolerance`."""
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
    return agreement.check_agreement("Llama logits", logits, "openvino", tolerance,
                                     relative=True)


# ---------------------------------------------------------------------------------------------
# --size small: the real-size decoder
# ---------------------------------------------------------------------------------------------


def _rss_mib() -> tuple[float, float]:
    """(peak, current) resident memory of this process, MiB."""
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    with open("/proc/self/statm") as statm:
        current = int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    return peak, current


def memory_child(runtime: str, xml: Path, prefill: int) -> None:
    """Runs in a fresh process: compile, then one prefill of `prefill` tokens; prints the
    peak and current resident memory after each, the compile's seconds and the peak of its
    subprocesses (`iree-compile`), as JSON."""
    base = _rss_mib()[1]
    start = time.perf_counter()
    request = compile_request(runtime, xml)
    seconds = time.perf_counter() - start
    compiled = _rss_mib()
    tools = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    request.infer(step_inputs(prompt(1, prefill, seed=0), 0))
    print(json.dumps({"start": base, "compile": compiled, "prefill": _rss_mib(),
                      "seconds": seconds, "tools": tools}))


def measure_memory(runtime: str, xml: Path, prefill: int) -> dict[str, object]:
    done = subprocess.run(
        [sys.executable, __file__, "--memory-of", runtime, "--xml", str(xml),
         "--prefill", str(prefill)],
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_seconds(xml: Path, repeats: int, names: Sequence[str] = ("tosa-state", "openvino")
                    ) -> dict[str, float]:
    """Median seconds of compiling the model and creating a request, runtimes alternating
    (the packages imported first: importing is not compiling; the previous model freed
    before each, outside the timing; device `iree` from its artifact cache)."""
    import openvino  # noqa: F401

    import tosa_state  # noqa: F401

    samples: dict[str, list[float]] = {name: [] for name in names}
    for _ in range(repeats):
        for name in samples:
            start = time.perf_counter()
            request = compile_request(name, xml)
            samples[name].append(time.perf_counter() - start)
            # each compile starts from the same heap: a compiled model's IR is freed by the
            # collector, not on `del`, and left alive it would hold its weights' arena
            del request
            gc.collect()
    return {name: float(np.median(v)) for name, v in samples.items()}


def small(xml: Path, repeats: int, steps: int) -> None:
    print(f"SmolLM-135M-shaped Llama ({xml.with_suffix('.bin').stat().st_size / 1e6:.0f} MB "
          f"of f32 weights), one thread; load average before: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    bin_mib = xml.with_suffix(".bin").stat().st_size / 2**20
    # device iree's first compile is a first one: an empty artifact cache, for this run only
    with tempfile.TemporaryDirectory(prefix="llm-decode-iree-") as cache:
        os.environ["TOSA_STATE_IREE_CACHE"] = cache
        _small(xml, bin_mib, repeats, steps)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def _small(xml: Path, bin_mib: float, repeats: int, steps: int) -> None:
    for runtime in ("tosa-state", "iree", "openvino"):
        found = measure_memory(runtime, xml, max(SMALL_PREFILLS))
        if "error" in found:
            print(f"  {runtime:>10} memory: failed: {found['error']}")
            continue
        (peak_c, now_c), (peak_p, _) = found["compile"], found["prefill"]  # type: ignore[misc]
        tools = f", iree-compile peak {found['tools']:.0f}" if runtime == "iree" else ""
        print(f"  {runtime:>10} resident MiB: {found['start']:.0f} before compiling, "
              f"compile peak {peak_c:.0f} ({peak_c / bin_mib:.2f}x the .bin){tools} then "
              f"{now_c:.0f}, peak through a {max(SMALL_PREFILLS)}-token prefill {peak_p:.0f}; "
              f"first compile {found['seconds']:.1f} s")
    seconds = compile_seconds(xml, max(3, repeats // 3), ("tosa-state", "iree", "openvino"))
    print(f"  compile s: tosa-state {seconds['tosa-state']:.2f}, iree (cached) "
          f"{seconds['iree']:.2f}, openvino {seconds['openvino']:.2f} "
          f"({seconds['tosa-state'] / seconds['openvino']:.2f}x, "
          f"{seconds['iree'] / seconds['openvino']:.2f}x)")
    calls = runtimes(xml, pair=False)
    print(f"  logits agree within {check_agreement(calls, SMALL_TOLERANCE):.1e} of the largest")
    print(f"{'ms per call':>22} {'tosa-state':>11} {'iree':>8} {'openvino':>9} {'ratio':>6} "
          f"{'iree/ov':>7} {'max/median':>18}")

    def row(label: str, f: dict[str, float], spikes: str = "") -> str:
        return (f"{label:>22} {f['tosa-state']:11.1f} {f['iree']:8.1f} {f['openvino']:9.1f} "
                f"{f['tosa-state'] / f['openvino']:5.2f}x {f['iree'] / f['openvino']:6.2f}x "
                f"{spikes:>18}")

    for length in SMALL_PREFILLS:
        f = prefill_ms(calls, repeats if length < 1024 else max(1, repeats // 3), length)
        print(row(f"prefill {length} tokens", f))
    for past in SMALL_PASTS:
        samples = decode_samples(calls, past, steps)
        f = {name: float(np.median(v)) for name, v in samples.items()}
        spikes = " ".join(f"{max(v) / f[name]:.2f}" for name, v in samples.items())
        print(row(f"decode, past {past}", f, spikes))


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the exported model is kept")
    parser.add_argument("--repeats", type=int, default=15, help="timed prefills")
    parser.add_argument("--steps", type=int, default=25, help="timed decode steps per past")
    parser.add_argument("--size", choices=("tiny", "small"), default="tiny",
                        help="tiny: 2 layers, hidden 64; small: SmolLM-135M's shape")
    parser.add_argument("--memory-of", help=argparse.SUPPRESS)  # the memory subprocess
    parser.add_argument("--xml", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--prefill", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_of:
        memory_child(args.memory_of, args.xml, args.prefill)
        return 0
    try:
        import openvino  # noqa: F401
        import optimum.intel  # noqa: F401
    except ImportError as error:
        print(f"error: {error.name} is not installed (pip install -e '.[test]')",
              file=sys.stderr)
        return 1
    xml = export(["llama"], args.cache / "llm_exports", args.size)["llama"]
    if args.size == "small":
        small(xml, args.repeats, args.steps)
        return 0
    calls = runtimes(xml)
    worst = check_agreement(calls, TOLERANCE)
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
