"""Soak: long runs on each device, resident memory printed every 10 %; the run fails when
memory grows after warm-up.

Two workloads, each on device `interpreter` and device `iree`, each in a fresh subprocess
(memory a previous run freed would hide a leak of the next one):

- **streaming**: silero-vad (the ONNX file of the installed `silero-vad` package, made
  stateful as in `streaming_vad.py`), 100 000 calls of one 576-sample chunk; in every block
  of 1 000 calls the state is reset (`reset_state()`) at the start, saved at call 300
  (`query_state()`) and put back at call 700 (`VariableState.state = ...`).
- **decode**: `llm_models.py`'s tiny Llama (optimum-intel export, KV caches growing every
  call), 5 000 one-token greedy decode steps in conversations of 250 steps: each starts with
  `reset_state()` and a prefill of 8 tokens, saves every cache at step 100 and sets them back
  at step 200 (the conversation rewinds to step 100), so a cache holds at most 208
  positions.

Resident memory (`/proc/self/statm`, after a `gc.collect()`) is sampled after every 10 % of
the calls: the samples fall at the same point of a block / conversation. The first 10 %
are the warm-up; the run fails (exit code 1) when a later sample exceeds the one at 10 % by
more than `GROWTH_LIMIT_MB`. Also printed: wall and CPU µs per call after the warm-up
(resets and `set_state` included; the CPU time is the one to read on a busy machine) and
the peak resident memory (`VmHWM`). `--leak BYTES` keeps that many bytes per call alive, to show
that the bound catches a leak.

Run `nice -n 10 python benchmarks/soak.py` after `pip install -e '.[test]'` (silero-vad,
torch, transformers and optimum-intel for the export, cached in `--cache`; IREE for the
`iree` device).
"""

from __future__ import annotations

import os

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # as the other benchmarks: one thread

import gc
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import numpy as np

WORKLOADS = ("streaming", "decode")
DEVICES = ("interpreter", "iree")
CALLS = {"streaming": 100_000, "decode": 5_000}
BLOCK = 1_000
"""Streaming: calls between resets; the state is saved at 30 % of a block, set at 70 %."""
CONVERSATION, SAVE_AT, REWIND_AT, PROMPT = 250, 100, 200, 8
"""Decode: steps per conversation, the step whose caches are saved, the step that sets
them back, prompt tokens."""
SAMPLES = 10
GROWTH_LIMIT_MB = 4.0
"""Allowed growth of resident memory after warm-up (the sample at 10 %)."""


def resident_mb(field: str = "VmRSS") -> float:
    """Resident memory of this process now (`VmRSS`) or its peak (`VmHWM`), MiB."""
    gc.collect()
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) / 1024
    raise RuntimeError(f"no {field} in /proc/self/status")


def streaming(device: str, xml: Path) -> Iterator[None]:
    """One silero-vad call per iteration, with the block's reset, save and set."""
    from streaming_vad import audio_chunks

    import tosa_state

    request = tosa_state.compile_model(xml, device=device).create_infer_request()
    chunks = audio_chunks(BLOCK)
    saved: dict[str, np.ndarray] = {}
    call = 0
    while True:
        phase = call % BLOCK
        if phase == 0:
            request.reset_state()
        elif phase == 3 * BLOCK // 10:
            saved = {v.name: v.state for v in request.query_state()}
        elif phase == 7 * BLOCK // 10:
            for variable in request.query_state():
                variable.state = saved[variable.name]
        request.infer([chunks[phase]])
        call += 1
        yield


def decode(device: str, xml: Path) -> Iterator[None]:
    """One greedy decode step per iteration; each conversation starts with a reset and a
    prefill, saves the caches at `SAVE_AT` and sets them back at `REWIND_AT`."""
    from llm_models import prompt, step_inputs

    import tosa_state

    request = tosa_state.compile_model(xml, device=device).create_infer_request()
    conversation = 0
    while True:
        request.reset_state()
        tokens = prompt(1, PROMPT, seed=conversation)
        logits = request.infer(step_inputs(tokens, 0))["logits"]
        past = PROMPT
        saved: tuple[dict[str, np.ndarray], int, np.ndarray] | None = None
        for step in range(CONVERSATION):
            token = logits[:, -1:].argmax(-1)
            if step == SAVE_AT:
                saved = ({v.name: v.state for v in request.query_state()}, past, logits)
            elif step == REWIND_AT and saved is not None:
                states, past, logits = saved
                for variable in request.query_state():
                    variable.state = states[variable.name]
                token = logits[:, -1:].argmax(-1)
            logits = request.infer(step_inputs(token, past))["logits"]
            past += 1
            yield
        conversation += 1


def soak(workload: str, device: str, xml: Path, calls: int, leak: int) -> dict:
    """Run `calls` calls (the model compiled at the first); resident MiB after every tenth
    of them, and the seconds per call after the warm-up."""
    kept: list[bytes] = []
    run = (streaming if workload == "streaming" else decode)(device, xml)
    samples: list[float] = []
    started = cpu = 0.0
    for index in range(calls):
        next(run)
        if leak:
            kept.append(os.urandom(leak))
        if (index + 1) % (calls // SAMPLES) == 0:
            samples.append(resident_mb())
            print(f"  {workload} {device}: {(index + 1) * 100 // calls:3d} % "
                  f"({index + 1} calls) {samples[-1]:8.1f} MiB", file=sys.stderr, flush=True)
            if len(samples) == 1:
                started, cpu = time.perf_counter(), time.process_time()
    timed = calls - calls // SAMPLES
    return {"workload": workload, "device": device, "calls": calls, "samples": samples,
            "per_call": (time.perf_counter() - started) / timed,
            "cpu_per_call": (time.process_time() - cpu) / timed, "peak": resident_mb("VmHWM")}


def models(cache: Path, directory: Path) -> dict[str, Path]:
    from llm_models import export
    from streaming_vad import silero_stateful_ir

    return {"streaming": silero_stateful_ir(directory),
            "decode": export(["llama"], cache / "llm_exports")["llama"]}


def report(result: dict) -> bool:
    """Print one run's line; whether memory stayed within the bound after warm-up."""
    samples = result["samples"]
    growth = max(samples[1:]) - samples[0]
    ok = growth <= GROWTH_LIMIT_MB
    print(f"{result['workload']:>9} {result['device']:>11} {result['calls']:>7} "
          f"{result['per_call'] * 1e6:8.0f} {result['cpu_per_call'] * 1e6:8.0f} "
          f"{samples[0]:8.1f} {samples[-1]:8.1f} {growth:+8.2f} "
          f"{result['peak']:8.1f}  {'ok' if ok else 'GREW'}")
    print("    MiB at 10 % ... 100 %: " + " ".join(f"{s:.1f}" for s in samples))
    return ok


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the tiny Llama export is kept")
    parser.add_argument("--workloads", default=",".join(WORKLOADS))
    parser.add_argument("--devices", default=",".join(DEVICES))
    parser.add_argument("--scale", type=float, default=1.0,
                        help="fraction of the calls to run (1: 100 000 and 5 000)")
    parser.add_argument("--leak", type=int, default=0, metavar="BYTES",
                        help="keep BYTES alive per call (shows that a leak fails the run)")
    parser.add_argument("--one", nargs=3, help=argparse.SUPPRESS)  # workload device xml
    args = parser.parse_args()
    if args.one:
        workload, device, xml = args.one
        calls = max(SAMPLES, int(CALLS[workload] * args.scale))
        print(json.dumps(soak(workload, device, Path(xml), calls, args.leak)))
        return 0
    load = os.getloadavg()
    print(f"soak: load average {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; growth limit "
          f"{GROWTH_LIMIT_MB} MiB after warm-up (the sample at 10 %)"
          + (f"; leaking {args.leak} bytes a call on purpose" if args.leak else ""))
    ok = True
    with tempfile.TemporaryDirectory() as directory:
        xmls = models(args.cache, Path(directory))
        print(f"{'workload':>9} {'device':>11} {'calls':>7} {'µs/call':>8} {'cpu µs':>8} "
              f"{'MiB 10%':>8} "
              f"{'MiB 100%':>8} {'growth':>8} {'peak':>8}")
        for workload in args.workloads.split(","):
            for device in args.devices.split(","):
                done = subprocess.run(
                    [sys.executable, __file__, "--one", workload, device, str(xmls[workload]),
                     "--scale", str(args.scale), "--leak", str(args.leak)],
                    stdout=subprocess.PIPE, text=True, check=False)
                if done.returncode != 0:
                    print(f"{workload} {device}: the run failed (exit {done.returncode})")
                    ok = False
                    continue
                ok &= report(json.loads(done.stdout.strip().splitlines()[-1]))
    load = os.getloadavg()
    print(f"load average at the end {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    print("PASSED: memory flat after warm-up" if ok else
          f"FAILED: memory grew more than {GROWTH_LIMIT_MB} MiB after warm-up")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
