"""Quantized TFLite models per call: tosa-state (interpreter) against LiteRT, in one process.

The models are the checked-in fixtures of `tests/tflite_models/` (made by
`make_tflite_models.py`): the seed LSTM (Keras `stateful=True`, unrolled) as float, dynamic
range (int8 weights, float activations: LiteRT's hybrid kernels) and full integer, and the
tf_keras `LSTM(64)` fused to one hybrid UNIDIRECTIONAL_SEQUENCE_LSTM. LiteRT runs its built-in
kernels (`BUILTIN_WITHOUT_DEFAULT_DELEGATES`, what tosa-state matches: bit for bit but the
unfused dynamic-range cells, within a few f32 ulps) and, for reference, its default XNNPACK
delegate; one thread each. Before anything is timed, tosa-state's outputs over the fixture's
inputs must be within the case's tolerance (`CASES`) of the built-in kernels', or the
benchmark fails (`agreement.Disagreement`). The runtimes alternate in batches of `--batch`
calls over the fixture's inputs; medians of the per-call times.

    python benchmarks/tflite_quantized.py [--rounds 30] [--batch 20]

Run after `pip install -e '.[test]'` (ai-edge-litert).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time
from collections.abc import Callable
from pathlib import Path

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from agreement import check_agreement

MODELS = Path(__file__).resolve().parent.parent / "tests" / "tflite_models"
CASES = {
    "seed LSTM, float": MODELS / "seed_lstm",
    "seed LSTM, dynamic range": MODELS / "quantized" / "seed_lstm_dynamic_range",
    "seed LSTM, full integer": MODELS / "quantized" / "seed_lstm_full_integer",
    "fused LSTM(64), dynamic range": MODELS / "quantized" / "tf_keras_lstm_dynamic_range",
}
TOLERANCES = {
    "seed LSTM, float": 2e-6,  # measured 3.6e-7
    "seed LSTM, dynamic range": 1e-6,  # measured 1.8e-7
    "seed LSTM, full integer": 0.0,  # equal
    "fused LSTM(64), dynamic range": 0.0,  # equal
}
"""Largest |tosa-state - LiteRT built-in| allowed over the fixture's 12 inputs (run in order
from a fresh state): about 5x the error measured, 0 where the outputs are equal."""


def _quantized(path: Path, inputs: np.ndarray) -> np.ndarray:
    """`inputs` as the model's input type: int8 by the input's scale and zero point for a
    full-integer model (as its QUANTIZE would), unchanged for float inputs."""
    from ai_edge_litert.interpreter import Interpreter

    (detail,) = Interpreter(model_path=str(path)).get_input_details()
    if detail["dtype"] != np.int8:
        return inputs
    scale, zero = detail["quantization"]
    return np.clip(np.round(inputs / scale) + zero, -128, 127).astype(np.int8)


def _litert(path: Path, builtin: bool) -> Callable[[np.ndarray], object]:
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    options = ({"experimental_op_resolver_type": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES}
               if builtin else {})
    interpreter = Interpreter(model_path=str(path), num_threads=1, **options)
    interpreter.allocate_tensors()
    runner = interpreter.get_signature_runner()
    (name,) = runner.get_input_details()
    return lambda x: runner(**{name: x})


def _ours(path: Path) -> Callable[[np.ndarray], object]:
    import tosa_state as ts

    request = ts.compile_model(path).create_infer_request()
    return lambda x: request.infer([x])


def _first(result: object) -> np.ndarray:
    """The first output of a call (a tosa-state result, or LiteRT's dict of outputs)."""
    if isinstance(result, dict):
        return np.array(next(iter(result.values())))
    return np.array(result[0])  # type: ignore[index]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--batch", type=int, default=20)
    args = parser.parse_args()
    load = os.getloadavg()
    print(f"median µs per call, one thread; load average before: {load[0]:.1f} {load[1]:.1f} "
          f"{load[2]:.1f}")
    print(f"{'model':>30} {'tosa-state':>11} {'LiteRT builtin':>15} {'LiteRT XNNPACK':>15} "
          f"{'ts / builtin':>13}")
    for label, stem in CASES.items():
        path = stem.with_suffix(".tflite")
        inputs = _quantized(path, np.load(f"{stem}_keras.npz")["inputs"])
        runners = {"ours": _ours(path), "builtin": _litert(path, True),
                   "xnnpack": _litert(path, False)}
        outputs = {key: np.concatenate([_first(runners[key](x)) for x in inputs])
                   for key in ("ours", "builtin")}
        check_agreement(label, outputs, "builtin", TOLERANCES[label])
        times: dict[str, list[float]] = {k: [] for k in runners}
        for _ in range(2):  # warm up
            for run in runners.values():
                run(inputs[0])
        for round_ in range(args.rounds):
            for key, run in runners.items():
                start = time.perf_counter()
                for i in range(args.batch):
                    run(inputs[(round_ * args.batch + i) % len(inputs)])
                times[key].append((time.perf_counter() - start) / args.batch * 1e6)
        ours, builtin, xnnpack = (statistics.median(times[k]) for k in runners)
        print(f"{label:>30} {ours:>11.1f} {builtin:>15.1f} {xnnpack:>15.1f} "
              f"{ours / builtin:>12.2f}x")


if __name__ == "__main__":
    main()
