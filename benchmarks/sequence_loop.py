"""LSTMSequence-5 and TensorIterator-1 over T time steps: compile time and per-step run
time against T.

The model is an OpenVINO LSTMSequence (batch 1, input 40, hidden H) whose initial states are
variables (what MakeStateful leaves of a torch `nn.LSTM`), saved as IR; its `tensor_iterator`
form is the same model after OpenVINO's `convert_sequence_to_tensor_iterator` (a
TensorIterator whose body is an LSTMCell, what OpenVINO's own transformations and the ONNX
`Scan` frontend produce). For each kind and T it reports, in one process:

- compile: `tosa_state.compile_model` (import, convert-openvino-to-tosa, lowering, plan)
  and OpenVINO's `Core.compile_model`;
- per step: the median time of one call divided by T, for tosa-state, OpenVINO (CPU,
  f32) and a numpy loop over the steps.

    python benchmarks/sequence_loop.py                # T = 10, 100, 1000; H = 64
    python benchmarks/sequence_loop.py --steps 10,1000 --hidden 16,256
    python benchmarks/sequence_loop.py --kinds tensor_iterator
    python benchmarks/sequence_loop.py --kinds tensor_iterator --hidden 16,64 --steps 10,100 \
        --repeats 200 --best

Sequences and TensorIterators become one `tosa.while_loop` (see docs/openvino.md), so
compile time does not grow with T; before, they were unrolled into T cell copies (T=1000:
about 25 s).

Before anything is timed, tosa-state's and OpenVINO's outputs of one call must be within
`TOLERANCE` of the numpy loop's, or the benchmark fails (`agreement.Disagreement`). Run after
`pip install -e '.[validate]'` (OpenVINO).
"""

from __future__ import annotations

import argparse
import itertools
import tempfile
import time
from pathlib import Path

import numpy as np
from agreement import check_agreement

INPUTS = 40
TOLERANCE = 1e-6
"""Largest |output - the numpy loop's| allowed: 4.8x the largest measured, both kinds (H = 64,
T = 10 / 100 / 1000: 6.7e-8 / 1.0e-7 / 1.5e-7; T = 1000, H = 16 / 256: 2.1e-7 / 1.1e-7)."""


def _weights(hidden: int, seed: int = 0) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(seed)
    scale = 1.0 / np.sqrt(hidden)

    def uniform(*dims: int) -> np.ndarray:
        return rng.uniform(-scale, scale, dims).astype(np.float32)

    return {"w": uniform(1, 4 * hidden, INPUTS), "r": uniform(1, 4 * hidden, hidden),
            "b": uniform(1, 4 * hidden)}


KINDS = ("sequence", "tensor_iterator")


def save_model(path: Path, steps: int, hidden: int, kind: str = "sequence") -> Path:
    """The stateful LSTMSequence model as IR at `path` (model.xml); `kind` "tensor_iterator"
    turns the sequence into a TensorIterator first."""
    import openvino as ov
    import openvino.opset13 as ops
    from openvino._offline_transformations import (
        convert_sequence_to_tensor_iterator_transformation,
    )

    weights = _weights(hidden)
    x = ops.parameter([1, steps, INPUTS], np.float32, name="x")
    zeros = ops.constant(np.zeros((1, 1, hidden), np.float32))
    h = ops.read_value(zeros, "h", np.float32, [1, 1, hidden])
    c = ops.read_value(zeros, "c", np.float32, [1, 1, hidden])
    lengths = ops.constant(np.array([steps], np.int32))
    node = ops.lstm_sequence(x, h, c, lengths, ops.constant(weights["w"]),
                             ops.constant(weights["r"]), ops.constant(weights["b"]), hidden,
                             "forward")
    zero = ops.constant(np.float32(0))
    writes = [ops.assign(ops.add(node.output(1), zero), "h"),
              ops.assign(ops.add(node.output(2), zero), "c")]
    model = ov.Model([ops.result(node.output(0), name="y")], writes, [x], "lstm_sequence")
    if kind == "tensor_iterator":
        convert_sequence_to_tensor_iterator_transformation(model)
        found = [op.get_type_name() for op in model.get_ordered_ops()]
        assert "TensorIterator" in found and "LSTMSequence" not in found, found
    xml = path / "model.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def numpy_sequence(weights: dict[str, np.ndarray], hidden: int):
    """The same model as a numpy loop (state kept between calls)."""
    w, r, b = weights["w"][0].T.copy(), weights["r"][0].T.copy(), weights["b"][0]
    state = {"h": np.zeros((1, hidden), np.float32), "c": np.zeros((1, hidden), np.float32)}

    def sigmoid(v: np.ndarray) -> np.ndarray:
        return 1.0 / (1.0 + np.exp(-v))

    def run(x: np.ndarray) -> np.ndarray:
        projected = x[0] @ w + b
        h, c = state["h"], state["c"]
        ys = np.empty((x.shape[1], hidden), np.float32)
        for t in range(x.shape[1]):
            z = projected[t] + h @ r
            f, i, g, o = np.split(z, 4, axis=1)
            c = sigmoid(f) * c + sigmoid(i) * np.tanh(g)
            h = sigmoid(o) * np.tanh(c)
            ys[t] = h[0]
        state["h"], state["c"] = h, c
        return ys

    return run


def _seconds(call, x: np.ndarray, repeats: int, best: bool = False) -> float:
    """The median (or with `best` the minimum) time of `repeats` calls, after one."""
    call(x)
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call(x)
        times.append(time.perf_counter() - start)
    return float(np.min(times) if best else np.median(times))


def measure(steps: int, hidden: int, repeats: int = 5, kind: str = "sequence",
            best: bool = False) -> dict[str, float]:
    import openvino as ov

    import tosa_state as ts

    with tempfile.TemporaryDirectory() as folder:
        xml = save_model(Path(folder), steps, hidden, kind)
        start = time.perf_counter()
        request = ts.compile_model(xml).create_infer_request()
        ours_compile = time.perf_counter() - start
        core = ov.Core()
        start = time.perf_counter()
        compiled = core.compile_model(core.read_model(str(xml)), "CPU",
                                      {"INFERENCE_PRECISION_HINT": "f32"})
        theirs_compile = time.perf_counter() - start
        ov_request = compiled.create_infer_request()
    x = np.random.default_rng(1).standard_normal((1, steps, INPUTS)).astype(np.float32)
    reference = numpy_sequence(_weights(hidden), hidden)
    ours = request.infer([x])[0]
    theirs = ov_request.infer({"x": x})[0]
    expected = reference(x)
    request.reset_state()
    ov_request.reset_state()
    reference = numpy_sequence(_weights(hidden), hidden)
    check_agreement(f"{kind} T = {steps} H = {hidden}",
                    {"tosa-state": ours[0, 0], "openvino": theirs[0, 0], "numpy": expected},
                    "numpy", TOLERANCE)
    return {
        "compile": ours_compile,
        "ov_compile": theirs_compile,
        "step": _seconds(lambda v: request.infer([v]), x, repeats, best) / steps,
        "ov_step": _seconds(lambda v: ov_request.infer({"x": v}), x, repeats, best) / steps,
        "np_step": _seconds(reference, x, repeats, best) / steps,
    }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--steps", default="10,100,1000", help="time steps T, comma-separated")
    parser.add_argument("--hidden", default="64", help="hidden sizes H, comma-separated")
    parser.add_argument("--kinds", default=",".join(KINDS),
                        help=f"models, comma-separated ({', '.join(KINDS)})")
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--best", action="store_true",
                        help="the minimum time per call instead of the median (steadier on a "
                             "loaded machine)")
    args = parser.parse_args()
    print(f"{'model':>15} {'H':>5} {'T':>6} | {'compile s':>9} {'OpenVINO':>9} | "
          f"{'step us':>8} {'OpenVINO':>9} {'numpy':>8} | {'vs numpy':>8}")
    kinds = args.kinds.split(",")
    unknown = [k for k in kinds if k not in KINDS]
    if unknown:
        parser.error(f"unknown model kind(s) {', '.join(unknown)} (known: {', '.join(KINDS)})")
    for kind, hidden, steps in itertools.product(kinds, _ints(args.hidden), _ints(args.steps)):
        r = measure(steps, hidden, args.repeats, kind, args.best)
        print(f"{kind:>15} {hidden:>5} {steps:>6} | "
              f"{r['compile']:>9.3f} {r['ov_compile']:>9.3f} | "
              f"{r['step'] * 1e6:>8.1f} {r['ov_step'] * 1e6:>9.1f} "
              f"{r['np_step'] * 1e6:>8.1f} | {r['step'] / r['np_step']:>7.2f}x", flush=True)


def _ints(text: str) -> list[int]:
    return [int(v) for v in text.split(",")]


if __name__ == "__main__":
    main()
