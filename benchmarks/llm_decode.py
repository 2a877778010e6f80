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

Device `iree` runs the model as it is (`iree`); with `--static-state N`, both devices run
the static form too (`static`: the interpreter, `iree-static`): `compile_model(xml,
static_state={"capacity": N, "prefill_chunk": 16})`, one module of two entries (a prefill
of 16 tokens, a one-token decode) sharing KV caches of N rows, fed the same inputs as the
dynamic model (docs/openvino.md). It replaces the pair of modules this benchmark once
compiled for device iree (`iree-2`: the dynamic one for the prefill, one with
`DECODE_SHAPES` for the steps, the caches handed over between them).

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
`--cache`/llm_exports/llama-small, about 30 s once), tosa-state's interpreter against
OpenVINO only. It measures, besides: compile time (`compile_model` and a request, both
runtimes alternately), peak resident memory (each runtime alone in a fresh subprocess, so
that one's peak does not hide the other's: after compiling, and through a 2048-token
prefill), prefills of 128 and 2048 tokens, decode steps at past 128 / 512 / 2048 with the
largest step over the median (a buffer regrown mid-run shows there).

With `--static-state N`, `--size small` measures device `iree` with the static form
instead (`iree-static`: `compile_model(xml, device="iree", static_state={"capacity": ...,
"prefill_chunk": 16})`, its weights as IREE parameters) against OpenVINO: the first compile
at capacity N (an empty artifact cache, in a fresh subprocess: its seconds, the process's
peak and its subprocesses'), the cached one (the runtimes alternately), a prefill of 128
tokens, and decode steps at past 128 / 512 / 2048, each with its own capacity fitted to
it (`fitted_capacity`: the past and the steps, rounded up to the chunk), so compiled once
more per past (not timed).

`--ab` measures what makes a call a transaction (docs/runtime.md "A failed call changes
nothing"): one compiled model, two requests, one with the journal off
(`VariableStore.transactions = False`), and on device `iree` (tiny only) the module compiled
with and without `tosa-runtime-checks` / `mlprogram-stores-last`; the two alternate call by
call (which goes first alternates too), and the median CPU time of `--steps` decode steps at
each past is printed with the difference. Beside it, the noise: the same comparison of two
requests of the same configuration (with the transaction: A/A), `--rounds` rounds of each,
interleaved, new requests each round; the A/B difference is "within the noise" when the
median of its rounds is no larger than the largest A/A difference (`within_noise`) and the
rounds of the two do not differ by a rank-sum test at 5% (`rank_p`: a consistent cost
below one wild A/A round is a cost).
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
CLOCK = [time.perf_counter]
"""The clock of the tiny model's timings: wall time, or the process's CPU time
(`--clock cpu`: what a call costs on a machine other processes load, where wall time
measures the scheduler)."""
DECODE_SHAPES = {"input_ids": [1, 1], "position_ids": [1, 1], "beam_idx": [1]}
"""The inputs of a decode step of batch 1 (`attention_mask` stays `[1, ?]`;
`iree_breakdown.py`)."""


def compile_request(runtime: str, xml: Path, static_state: int | None = None):
    """An infer request of `runtime` (`openvino`, `tosa-state`: the interpreter, or `iree`);
    `static_state`: tosa-state's static form (capacity N, prefill chunk `PREFILL`)."""
    if runtime == "openvino":
        import openvino as ov

        return ov.Core().compile_model(str(xml), "CPU", OPENVINO_CONFIG).create_infer_request()
    import tosa_state

    device = "iree" if runtime == "iree" else "interpreter"
    static = None if static_state is None else {"capacity": static_state,
                                                "prefill_chunk": PREFILL}
    return tosa_state.compile_model(xml, device=device, static_state=static
                                    ).create_infer_request()


def _call(request, openvino: bool = False) -> Callable[[dict[str, np.ndarray] | None], np.ndarray]:
    """`request` as a call: inputs in, logits out (`None` resets the state)."""

    def call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
        if inputs is None:
            request.reset_state()
            return np.empty(0)
        if openvino:
            request.infer(inputs)
            return request.get_tensor("logits").data.copy()
        return request.infer(inputs)["logits"]

    return call


def runtimes(xml: Path, iree: bool = True, static_state: int | None = None
             ) -> dict[str, Callable[[dict[str, np.ndarray] | None], np.ndarray]]:
    """One call per runtime: inputs in, logits out (`None` resets the state). With
    `static_state`, the static forms too (`static`: the interpreter, `iree-static`), fed
    the same inputs as the dynamic model."""
    calls = {"tosa-state": _call(compile_request("tosa-state", xml))}
    if static_state is not None:
        calls["static"] = _call(compile_request("tosa-state", xml, static_state))
    if iree:
        calls["iree"] = _call(compile_request("iree", xml))
        if static_state is not None:
            calls["iree-static"] = _call(compile_request("iree", xml, static_state))
    calls["openvino"] = _call(compile_request("openvino", xml), openvino=True)
    return calls


def _timed(call: Callable[[], object]) -> float:
    start = CLOCK[0]()
    call()
    return CLOCK[0]() - start


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
            start = CLOCK[0]()
            logits = call(inputs)
            samples[name].append(CLOCK[0]() - start)
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


def memory_child(runtime: str, xml: Path, prefill: int, static_state: int | None = None
                 ) -> None:
    """Runs in a fresh process: compile, then one prefill of `prefill` tokens; prints the
    peak and current resident memory after each, the compile's seconds (wall, and this
    process's CPU with its children's) and the peak of its subprocesses (`iree-compile`),
    as JSON."""
    base = _rss_mib()[1]
    start, cpu = time.perf_counter(), _cpu_seconds()
    request = compile_request(runtime, xml, static_state)
    seconds, cpu = time.perf_counter() - start, _cpu_seconds() - cpu
    compiled = _rss_mib()
    tools = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024
    request.infer(step_inputs(prompt(1, prefill, seed=0), 0))
    print(json.dumps({"start": base, "compile": compiled, "prefill": _rss_mib(),
                      "seconds": seconds, "cpu": cpu, "tools": tools}))


def _cpu_seconds() -> float:
    """CPU seconds of this process and of its finished children."""
    return sum(resource.getrusage(who).ru_utime + resource.getrusage(who).ru_stime
               for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def measure_memory(runtime: str, xml: Path, prefill: int, static_state: int | None = None
                   ) -> dict[str, object]:
    static = [] if static_state is None else ["--static-state", str(static_state)]
    done = subprocess.run(
        [sys.executable, __file__, "--memory-of", runtime, "--xml", str(xml),
         "--prefill", str(prefill), *static],
        capture_output=True, text=True, check=False)
    if done.returncode != 0:
        return {"error": done.stderr.strip().splitlines()[-1:] or [f"exit {done.returncode}"]}
    return json.loads(done.stdout.strip().splitlines()[-1])


def compile_seconds(xml: Path, repeats: int, static_state: int | None = None
                    ) -> dict[str, float]:
    """Median seconds of compiling the model and creating a request, runtimes alternating
    (both packages imported first: importing is not compiling; the previous model freed
    before each, outside the timing); `static_state`: device iree's static form (from its
    artifact cache) instead of the interpreter."""
    import openvino  # noqa: F401

    import tosa_state  # noqa: F401

    ours = "tosa-state" if static_state is None else "iree"
    samples: dict[str, list[float]] = {ours: [], "openvino": []}
    for _ in range(repeats):
        for name in samples:
            start = CLOCK[0]()
            request = compile_request(name, xml, static_state if name == "iree" else None)
            samples[name].append(CLOCK[0]() - start)
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
    for runtime in ("tosa-state", "openvino"):
        found = measure_memory(runtime, xml, max(SMALL_PREFILLS))
        if "error" in found:
            print(f"  {runtime:>10} memory: failed: {found['error']}")
            continue
        (peak_c, now_c), (peak_p, _) = found["compile"], found["prefill"]  # type: ignore[misc]
        print(f"  {runtime:>10} resident MiB: {found['start']:.0f} before compiling, "
              f"compile peak {peak_c:.0f} ({peak_c / bin_mib:.2f}x the .bin) then {now_c:.0f}, "
              f"peak through a {max(SMALL_PREFILLS)}-token prefill {peak_p:.0f}")
    seconds = compile_seconds(xml, max(3, repeats // 3))
    print(f"  compile s: tosa-state {seconds['tosa-state']:.2f}, openvino "
          f"{seconds['openvino']:.2f} ({seconds['tosa-state'] / seconds['openvino']:.2f}x)")
    calls = runtimes(xml, iree=False)
    print(f"  logits agree within {check_agreement(calls, SMALL_TOLERANCE):.1e} of the largest")
    print(f"{'ms per call':>22} {'tosa-state':>11} {'openvino':>9} {'ratio':>6} "
          f"{'max/median':>18}")
    for length in SMALL_PREFILLS:
        f = prefill_ms(calls, repeats if length < 1024 else max(1, repeats // 3), length)
        print(f"{f'prefill {length} tokens':>22} {f['tosa-state']:11.1f} {f['openvino']:9.1f} "
              f"{f['tosa-state'] / f['openvino']:5.2f}x")
    for past in SMALL_PASTS:
        samples = decode_samples(calls, past, steps)
        f = {name: float(np.median(v)) for name, v in samples.items()}
        spikes = " ".join(f"{max(v) / f[name]:.2f}" for name, v in samples.items())
        print(f"{f'decode, past {past}':>22} {f['tosa-state']:11.1f} {f['openvino']:9.1f} "
              f"{f['tosa-state'] / f['openvino']:5.2f}x {spikes:>18}")
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def fitted_capacity(past: int, steps: int) -> int:
    """A static capacity for `steps` decode steps after `past` positions: rounded up to a
    whole prefill chunk."""
    return -(-(past + steps + 1) // PREFILL) * PREFILL


def small_static(xml: Path, capacity: int, repeats: int, steps: int) -> None:
    """`--size small --static-state N`: device iree's static form against OpenVINO."""
    from tosa_state.devices.iree_compile import CACHE_ENV

    print(f"SmolLM-135M-shaped Llama ({xml.with_suffix('.bin').stat().st_size / 1e6:.0f} MB "
          f"of f32 weights), one thread, static state on device iree ({CLOCK[0].__name__}); "
          f"load average before: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    bin_mib = xml.with_suffix(".bin").stat().st_size / 2**20
    prefill = min(min(SMALL_PREFILLS), capacity)
    # device iree's first compile is a first one: an empty artifact cache, for this run only
    with tempfile.TemporaryDirectory(prefix="llm-decode-iree-") as cache:
        os.environ[CACHE_ENV] = cache
        for runtime in ("iree", "openvino"):
            found = measure_memory(runtime, xml, prefill, capacity)
            if "error" in found:
                print(f"  {runtime:>10} first compile: failed: {found['error']}")
                continue
            (peak_c, now_c), (peak_p, _) = found["compile"], found["prefill"]  # type: ignore[misc]
            # a child spawned by vfork counts its parent's pages until exec, so this is at
            # least this process's resident memory when iree-compile started
            tools = (f" (its subprocesses' peak {found['tools']:.0f}, the spawning "
                     "process's pages included)" if runtime == "iree" else "")
            print(f"  {runtime:>10} first compile {found['seconds']:.1f} s ({found['cpu']:.1f} s "
                  f"of CPU); resident MiB: {found['start']:.0f} before, compile peak "
                  f"{peak_c:.0f}{tools}, {bin_mib:.0f} MiB of weights, then {now_c:.0f}; "
                  f"peak through a {prefill}-token prefill {peak_p:.0f}",
                  flush=True)
        seconds = compile_seconds(xml, max(3, repeats // 3), capacity)
        print(f"  cached compile s ({CLOCK[0].__name__}): iree {seconds['iree']:.2f}, openvino "
              f"{seconds['openvino']:.2f} ({seconds['iree'] / seconds['openvino']:.2f}x)",
              flush=True)
        print(f"{'ms per call':>24} {'capacity':>8} {'iree-static':>11} {'openvino':>9} "
              f"{'ratio':>6} {'max/median':>11}")
        theirs = _call(compile_request("openvino", xml), openvino=True)
        for past in SMALL_PASTS:
            fitted = fitted_capacity(past, steps)
            calls = {"iree-static": _call(compile_request("iree", xml, fitted)),
                     "openvino": theirs}
            if past == min(SMALL_PASTS):
                worst = check_agreement(calls, SMALL_TOLERANCE)
                print(f"  logits agree within {worst:.1e} of the largest", flush=True)
                f = prefill_ms(calls, repeats, min(SMALL_PREFILLS))
                print(f"{f'prefill {min(SMALL_PREFILLS)} tokens':>24} {fitted:8} "
                      f"{f['iree-static']:11.1f} {f['openvino']:9.1f} "
                      f"{f['iree-static'] / f['openvino']:5.2f}x", flush=True)
            samples = decode_samples(calls, past, steps)
            f = {name: float(np.median(v)) for name, v in samples.items()}
            spikes = " ".join(f"{max(v) / f[name]:.2f}" for name, v in samples.items())
            print(f"{f'decode, past {past}':>24} {fitted:8} {f['iree-static']:11.1f} "
                  f"{f['openvino']:9.1f} {f['iree-static'] / f['openvino']:5.2f}x "
                  f"{spikes:>11}", flush=True)
            del calls
            gc.collect()
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def ab_calls(xml: Path, iree: bool) -> dict[str, tuple[Callable, Callable]]:
    """Per device, two makers of a call of a new request: with the transaction, without."""
    from functools import partial

    import tosa_state
    from tosa_state.devices import DEFAULT_PIPELINES, IREE
    from tosa_state.devices.iree import IreeExecutable
    from tosa_state.runtime.model import CompiledModel

    def call_of(request: tosa_state.InferRequest) -> Callable:
        def call(inputs: dict[str, np.ndarray] | None) -> np.ndarray:
            if inputs is None:
                request.reset_state()
                return np.empty(0)
            return request.infer(inputs)["logits"]
        return call

    def without_journal(compiled: tosa_state.CompiledModel) -> Callable:
        request = compiled.create_infer_request()
        request.device_request.store.transactions = False
        return call_of(request)

    compiled = tosa_state.compile_model(xml)
    makers = {"interpreter": (lambda: call_of(compiled.create_infer_request()),
                              lambda: without_journal(compiled))}
    if iree:
        checked = tosa_state.compile_model(xml, device="iree")
        lowered = tosa_state.compile_model(xml, pipeline=DEFAULT_PIPELINES[IREE]).module
        unchecked = CompiledModel(lowered, partial(IreeExecutable, transactions=False))
        makers["iree"] = (lambda: call_of(checked.create_infer_request()),
                          lambda: call_of(unchecked.create_infer_request()))
    return makers


def paired_cpu_ms(pair: tuple[Callable, Callable], past: int, steps: int
                  ) -> tuple[float, float]:
    """Median CPU ms of a one-token step after `past` positions of each of two calls, the
    two alternating (and which goes first)."""
    tokens = prompt(1, past, seed=1)
    next_token = []
    for call in pair:
        call(None)
        next_token.append(call(step_inputs(tokens, 0))[:, -1:].argmax(-1))
    samples: tuple[list[float], list[float]] = ([], [])
    for step in range(steps):
        for i in ((0, 1) if step % 2 == 0 else (1, 0)):
            inputs = step_inputs(next_token[i], past + step)
            start = time.process_time()
            logits = pair[i](inputs)
            samples[i].append(time.process_time() - start)
            next_token[i] = logits[:, -1:].argmax(-1)
    first, second = (1e3 * float(np.median(v)) for v in samples)
    return first, second


def within_noise(ab: list[float], aa: list[float]) -> bool:
    """Whether the A/B difference (its median over the rounds, in %) is within the noise:
    no larger than the largest A/A difference (the same configuration in both arms, measured
    the same way)."""
    return abs(float(np.median(ab))) <= max(abs(d) for d in aa)


def rank_p(ab: list[float], aa: list[float]) -> float:
    """The one-sided p-value of the rank-sum (Mann-Whitney) test that the A/B rounds are
    larger than the A/A rounds, exact (every split of the pooled rounds): how often rounds
    drawn from one distribution split with the first as high. A consistent cost smaller than
    the largest A/A round still shows here; a single wild A/A round does not hide it."""
    import itertools

    def u(first: Sequence[float], second: Sequence[float]) -> float:
        return sum((a > b) + 0.5 * (a == b) for a in first for b in second)

    pooled, seen = [*ab, *aa], u(ab, aa)
    splits = list(itertools.combinations(range(len(pooled)), len(ab)))
    higher = 0
    for chosen in splits:
        first = [pooled[i] for i in chosen]
        second = [pooled[i] for i in range(len(pooled)) if i not in chosen]
        higher += u(first, second) >= seen - 1e-9
    return higher / len(splits)


def ab(xml: Path, size: str, steps: int, rounds: int) -> None:
    print(f"{size} Llama, the transaction's cost: median CPU ms of {steps} decode steps, "
          f"with (A) and without (B) it, alternating call by call; the noise: A against A "
          f"(two requests, measured alike); {rounds} rounds of each; load average before: "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    pasts = (64, 512) if size == "tiny" else (128, 512)
    for device, (with_it, without_it) in ab_calls(xml, iree=size == "tiny").items():
        for past in pasts:
            ab_diffs, aa_diffs, ms = [], [], []
            for round_ in range(rounds):  # A/B and A/A interleaved: the load of a moment
                # hits both; new requests each round, made in a rotating order: a request's
                # own place in memory (a bias of a point or two between two requests, the
                # first made the slower) varies from round to round in both
                roles = [("on", with_it), ("off", without_it), ("again", with_it)]
                shift = round_ % 3
                made = {role: make() for role, make in roles[shift:] + roles[:shift]}
                on, off, again = made["on"], made["off"], made["again"]
                a, b = paired_cpu_ms((on, off), past, steps)
                ab_diffs.append(100 * (a / b - 1))
                ms.append((a, b))
                a1, a2 = paired_cpu_ms((on, again), past, steps)
                aa_diffs.append(100 * (a1 / a2 - 1))
                del on, off, again, made
            a, b = (float(np.median(column)) for column in zip(*ms, strict=True))
            p = rank_p(ab_diffs, aa_diffs)
            verdict = ("within the noise" if within_noise(ab_diffs, aa_diffs) and p >= 0.05
                       else "BEYOND the noise")
            print(f"  {device:>11} past {past:>4}: A/B {np.median(ab_diffs):+5.1f}% "
                  f"(median ms {a:.3f} vs {b:.3f}; rounds "
                  f"{' '.join(f'{d:+.1f}' for d in ab_diffs)}), "
                  f"A/A within {max(abs(d) for d in aa_diffs):.1f}% "
                  f"(rounds {' '.join(f'{d:+.1f}' for d in aa_diffs)}), rank-sum p {p:.3f}: "
                  f"{verdict}", flush=True)
    print(f"load average after: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the exported model is kept")
    parser.add_argument("--repeats", type=int, default=15, help="timed prefills")
    parser.add_argument("--steps", type=int, default=25, help="timed decode steps per past")
    parser.add_argument("--size", choices=("tiny", "small"), default="tiny",
                        help="tiny: 2 layers, hidden 64; small: SmolLM-135M's shape")
    parser.add_argument("--static-state", type=int, metavar="N",
                        help="also the static forms (compile_model(..., static_state=N): "
                        "prefill and decode entries) on the interpreter (static) and device "
                        "iree (iree-static); with --size small, device iree's static form "
                        "only (first and cached compile at capacity N)")
    parser.add_argument("--clock", choices=("wall", "cpu"), default="wall",
                        help="time calls by the wall clock, or by this process's CPU time "
                        "(for a loaded machine)")
    parser.add_argument("--pasts", default=",".join(map(str, PASTS)),
                        help="past lengths of the decode rows (tiny)")
    parser.add_argument("--ab", action="store_true",
                        help="the transaction's cost: each device with and without it")
    parser.add_argument("--rounds", type=int, default=5,
                        help="--ab: rounds of the A/B and the A/A comparison each")
    parser.add_argument("--memory-of", help=argparse.SUPPRESS)  # the memory subprocess
    parser.add_argument("--xml", type=Path, help=argparse.SUPPRESS)
    parser.add_argument("--prefill", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_of:
        memory_child(args.memory_of, args.xml, args.prefill, args.static_state)
        return 0
    try:
        import openvino  # noqa: F401
        import optimum.intel  # noqa: F401
    except ImportError as error:
        print(f"error: {error.name} is not installed (pip install -e '.[test]')",
              file=sys.stderr)
        return 1
    xml = export(["llama"], args.cache / "llm_exports", args.size)["llama"]
    if args.ab:
        ab(xml, args.size, args.steps, args.rounds)
        return 0
    if args.clock == "cpu":
        CLOCK[0] = time.process_time
    if args.size == "small":
        if args.static_state is None:
            small(xml, args.repeats, args.steps)
        else:
            small_static(xml, args.static_state, args.repeats, args.steps)
        return 0
    pasts = [int(p) for p in args.pasts.split(",")]
    if args.static_state is not None and args.static_state < max(pasts) + args.steps + 1:
        parser.error(f"--static-state must hold past {max(pasts)} and {args.steps} steps: "
                     f"at least {max(pasts) + args.steps + 1}")
    calls = runtimes(xml, static_state=args.static_state)
    worst = check_agreement(calls, TOLERANCE)
    prefill = prefill_ms(calls, args.repeats)
    print(f"tiny Llama (2 layers, hidden 64), single thread, median ms per call "
          f"({args.clock} clock) "
          f"(logits agree within {worst:.1e} of the largest); load average "
          f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}"
          + ("" if args.static_state is None else
             f"; static: capacity {args.static_state}, prefill chunk {PREFILL}"))
    ours = [name for name in calls if name != "openvino"]
    print(f"{'call':>18} " + " ".join(f"{name:>11}" for name in [*ours, "openvino"])
          + " " + " ".join(f"{name + '/ov':>15}" for name in ours) + f" {'growth':>7}")

    def row(label: str, f: dict[str, float], growth: str = "") -> str:
        return (f"{label:>18} " + " ".join(f"{f[name]:11.3f}" for name in [*ours, "openvino"])
                + " " + " ".join(f"{f[name] / f['openvino']:14.2f}x" for name in ours)
                + f" {growth}")

    print(row(f"prefill {PREFILL} tokens", prefill))
    first = None
    for past in pasts:
        step = decode_ms(calls, past, args.steps)
        first = first or step["tosa-state"]
        print(row(f"decode, past {past}", step, f"{step['tosa-state'] / first:6.2f}x"),
              flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
