"""A growing state (a KV cache) at every lowering level: time per call vs cache length.

The model appends one step of `[1, heads, 1, dim]` to `@kv : tensor<1x?x?x?xf32>`-like state
`tensor<1x8x?x64xf32>` every call (`tosa.concat` along the time axis) and returns the sum
over time. Each call reads the cache, concatenates (numpy: one copy), and writes it back;
at the memref level the write copies into a buffer grown by doubling. Time per call must
grow linearly with the cache length (it copies the cache a bounded number of times), never
quadratically over a run. The baseline is the same step in numpy (`np.concatenate`).

    python benchmarks/growing_state.py [--lengths 64,256,1024,4096]
    python benchmarks/growing_state.py --memory [--steps 500]

`--memory`: issue 19's cache `[1, 4, T, 1024]` (`tensor<1x4x?x1024xf32>`) grown one step per
call for `--steps` calls at each level; prints the tracemalloc peak over the run beside the
data (the final cache), and the median µs per call at T = 64, 256, 500.

Needs only the base install (`pip install -e .`).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable

import numpy as np

HEADS, DIM = 8, 64

CACHE = f"tensor<1x{HEADS}x?x{DIM}xf32>"
STEP = f"tensor<1x{HEADS}x1x{DIM}xf32>"
MODEL = f"""
tosa.variable @kv : {CACHE}
func.func @main(%x: {STEP}) -> {STEP} {{
  %past = tosa.variable.read @kv : {CACHE}
  %all = tosa.concat %past, %x {{axis = 2 : i32}} : ({CACHE}, {STEP}) -> {CACHE}
  %sum = tosa.reduce_sum %all {{axis = 2 : i32}} : ({CACHE}) -> {STEP}
  tosa.variable.write @kv, %all : {CACHE}
  return %sum : {STEP}
}}
"""

LEVELS = {"memref (default)": None, "TOSA": "", "ml_program": "tosa-to-mlprogram"}


def _numpy_step() -> Callable[[np.ndarray], np.ndarray]:
    state = {"kv": np.zeros((1, HEADS, 0, DIM), np.float32)}

    def step(x: np.ndarray) -> np.ndarray:
        state["kv"] = np.concatenate([state["kv"], x], axis=2)
        return state["kv"].sum(axis=2, keepdims=True)

    return step


def _ours(pipeline: str | None) -> Callable[[np.ndarray], object]:
    import tosa_state as ts
    from tosa_state.frontends.mlir import parse_mlir

    module = parse_mlir(ts.make_context(), MODEL, "growing_state.mlir")
    request = ts.compile_model(module, pipeline=pipeline).create_infer_request()
    return lambda x: request.infer([x])


def per_call_us(step: Callable[[np.ndarray], object], lengths: list[int], window: int = 32
                ) -> dict[int, float]:
    """Median µs per call over `window` calls ending at each cache length."""
    x = np.ones((1, HEADS, 1, DIM), np.float32)
    times: dict[int, float] = {}
    done = 0
    for length in lengths:
        while done < length - window:
            step(x)
            done += 1
        samples = []
        while done < length:
            start = time.perf_counter()
            step(x)
            samples.append(time.perf_counter() - start)
            done += 1
        times[length] = statistics.median(samples) * 1e6
    return times


def memory(steps: int) -> None:
    """Peak traced memory of `steps` calls growing a `[1, 4, T, 1024]` cache, per level."""
    import tracemalloc

    import tosa_state as ts
    from tosa_state.frontends.mlir import parse_mlir

    cache, step = "tensor<1x4x?x1024xf32>", "tensor<1x4x1x1024xf32>"
    text = MODEL.replace(CACHE, cache).replace(STEP, step)
    data = steps * 4 * 1024 * 4
    print("| level | peak MB | data MB | peak / data | µs/call at " +
          ", ".join(str(n) for n in (64, 256, steps)) + " |")
    print("|---|--:|--:|--:|--:|")
    for name, pipeline in LEVELS.items():
        module = parse_mlir(ts.make_context(), text, "growing_state.mlir")
        request = ts.compile_model(module, pipeline=pipeline).create_infer_request()
        x = np.ones((1, 4, 1, 1024), np.float32)
        tracemalloc.start()
        times = []
        for _ in range(steps):
            start = time.perf_counter()
            request.infer([x])
            times.append(time.perf_counter() - start)
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
        at = [statistics.median(times[max(0, n - 16):n]) * 1e6 for n in (64, 256, steps)]
        print(f"| {name} | {peak / 1e6:.1f} | {data / 1e6:.1f} | {peak / data:.2f} | " +
              ", ".join(f"{t:.0f}" for t in at) + " |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--lengths", default="64,256,1024,4096")
    parser.add_argument("--memory", action="store_true")
    parser.add_argument("--steps", type=int, default=500)
    args = parser.parse_args()
    if args.memory:
        memory(args.steps)
        return
    lengths = [int(n) for n in args.lengths.split(",")]
    rows = {"numpy": per_call_us(_numpy_step(), lengths)}
    for name, pipeline in LEVELS.items():
        rows[name] = per_call_us(_ours(pipeline), lengths)
    print("| contender | " + " | ".join(f"length {n} µs" for n in lengths) + " |")
    print("|---|" + "--:|" * len(lengths))
    for name, times in rows.items():
        print(f"| {name} | " + " | ".join(f"{times[n]:.1f}" for n in lengths) + " |")


if __name__ == "__main__":
    main()
