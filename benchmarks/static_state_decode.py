"""A decode step of the tiny Llama on the interpreter, its caches dynamic (as exported) and
of fixed capacity (`compile_model(..., static_state=N)`: its prefill and decode entries, fed
the dynamic model's inputs), interleaved in one process.

For each capacity and past length: a prompt of `past` tokens in each request, then `steps`
one-token steps alternating between the two (the first `warmup` of each not timed); the
medians and their ratio; the warm-up steps' logits must agree (`LOGITS_ATOL`), or the
benchmark fails. One BLAS thread (`OPENBLAS_NUM_THREADS=1`, unless set).

    python benchmarks/static_state_decode.py [--capacities 256,1024] [--pasts 64,700]

Run after `pip install -e '.[test]'` (transformers and optimum-intel export the model,
OpenVINO is its peer).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
import llm_models
from agreement import check_agreement

import tosa_state

LOGITS_ATOL = 2e-6
"""tests/test_static_state.py measured the static Llama's logits within 1.8e-7 of the dynamic
model's (OpenVINO's); the warm-up steps here must agree within about 10x that."""


def decode_us(dynamic, static, capacity: int, past: int, steps: int, warmup: int
              ) -> tuple[float, float]:
    """Median µs of a one-token step after `past` tokens: dynamic, static."""
    ours, theirs = dynamic.create_infer_request(), static.create_infer_request()
    prompt = llm_models.prompt(1, past, seed=1)
    ours.infer(llm_models.step_inputs(prompt, 0))
    theirs.infer(llm_models.step_inputs(prompt, 0))
    token = np.array([[5]])
    times: dict[str, list[float]] = {"dynamic": [], "static": []}
    for step in range(warmup + steps):
        calls = (("dynamic", ours, llm_models.step_inputs(token, past + step)),
                 ("static", theirs, llm_models.step_inputs(token, past + step)))
        logits = {}
        for name, request, inputs in calls:
            start = time.perf_counter()
            logits[name] = request.infer(inputs)[0]
            if step >= warmup:
                times[name].append(time.perf_counter() - start)
        if step < warmup:  # the two forms must agree before anything counts
            check_agreement(f"capacity {capacity}, past {past + step}", logits, "dynamic",
                            LOGITS_ATOL)
    return (1e6 * float(np.median(times["dynamic"])), 1e6 * float(np.median(times["static"])))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cache", type=Path, default=Path.home() / ".cache" / "tosa-state",
                        help="where the export is kept")
    parser.add_argument("--capacities", default="256,1024")
    parser.add_argument("--pasts", default="64,700", help="past lengths (each < capacity - "
                        "steps - warmup is measured)")
    parser.add_argument("--steps", type=int, default=50)
    parser.add_argument("--warmup", type=int, default=10)
    args = parser.parse_args()
    xml = llm_models.export(["llama"], args.cache / "llm_exports")["llama"]
    dynamic = tosa_state.compile_model(xml)
    print(f"{'capacity':>8} {'past':>5} {'dynamic µs':>11} {'static µs':>10} {'ratio':>6}")
    for capacity in (int(c) for c in args.capacities.split(",")):
        static = tosa_state.compile_model(xml, static_state=capacity)
        for past in (int(p) for p in args.pasts.split(",")):
            if past + args.warmup + args.steps > capacity:
                continue
            d, s = decode_us(dynamic, static, capacity, past, args.steps, args.warmup)
            print(f"{capacity:>8} {past:>5} {d:11.0f} {s:10.0f} {s / d:5.2f}x", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
