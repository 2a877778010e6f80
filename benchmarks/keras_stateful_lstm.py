"""The ST Edge AI document's Keras stateful LSTM (examples/keras_stateful_lstm.tflite): time
per call through tosa-state (`compile_model(...).create_infer_request().infer`) and through
the LiteRT interpreter (`ai-edge-litert`, its signature runner) on the same inputs, in one
process, with the compile time of tosa-state. Before anything is timed, the first call's
outputs must agree within `TOLERANCE`, or the benchmark fails (`agreement.Disagreement`).

    python benchmarks/keras_stateful_lstm.py [--rounds N]

Run after `pip install -e '.[test]'` (ai-edge-litert).
"""

from __future__ import annotations

import argparse
import statistics
import time
from collections.abc import Callable
from pathlib import Path

import numpy as np
from agreement import check_agreement

TOLERANCE = 2e-7
"""Largest |tosa-state - LiteRT| allowed on the first call: 6.7x the 3.0e-8 measured."""
MODEL = Path(__file__).resolve().parent.parent / "examples" / "keras_stateful_lstm.tflite"


def _per_call_us(step: Callable[[], object], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        step()
    return (time.perf_counter() - start) / calls * 1e6


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--calls", type=int, default=500)
    args = parser.parse_args()

    from ai_edge_litert.interpreter import Interpreter

    import tosa_state as ts

    start = time.perf_counter()
    request = ts.compile_model(MODEL).create_infer_request()
    compile_s = time.perf_counter() - start
    interpreter = Interpreter(model_path=str(MODEL))
    interpreter.allocate_tensors()
    runner = interpreter.get_signature_runner()
    x = np.random.default_rng(0).standard_normal((1, 1, 64)).astype(np.float32)
    ours_first = request.infer([x])[0]
    check_agreement("Keras stateful LSTM, first call",
                    {"tosa-state": ours_first, "LiteRT": runner(keras_tensor=x)["output_0"]},
                    "LiteRT", TOLERANCE)

    ours, theirs = [], []
    for _ in range(args.rounds):  # interleaved, medians
        ours.append(_per_call_us(lambda: request.infer([x]), args.calls))
        theirs.append(_per_call_us(lambda: runner(keras_tensor=x), args.calls))
    o, t = statistics.median(ours), statistics.median(theirs)
    print(f"compile_model: {compile_s * 1e3:.0f} ms")
    print(f"tosa-state: {o:.1f} us/call (range {min(ours):.1f}-{max(ours):.1f})")
    print(f"LiteRT:     {t:.1f} us/call (range {min(theirs):.1f}-{max(theirs):.1f})")
    print(f"tosa-state / LiteRT: {o / t:.2f}x")


if __name__ == "__main__":
    main()
