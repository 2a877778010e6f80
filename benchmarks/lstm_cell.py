"""A stateful LSTM cell as TOSA ops, and the same cell hand-written in numpy.

The TOSA module keeps `h` and `c` in variables (zeros initially), like a Keras
`stateful=True` LSTM or an OpenVINO model after LowLatency2:

    z  = [x, h] @ W + b                    (one matmul over the concatenation)
    f, i, g, o = split(z)                  (OpenVINO's gate order: f, i, c, o)
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
    h' = sigmoid(o) * tanh(c')

Used by the benchmark (`python benchmarks/lstm_cell.py`), the examples and the tests. The
benchmark runs every contender on one thread: numpy's OpenBLAS (`OPENBLAS_NUM_THREADS=1`
unless the environment says otherwise), OpenVINO (`INFERENCE_NUM_THREADS=1`) and IREE
(`local-sync`). Before anything is timed, every contender's h over the first 20 steps must be
within `TOLERANCE` of numpy's, or the benchmark fails (`agreement.Disagreement`).

Needs only the base install (`pip install -e .`); OpenVINO runs when the `validate` extra is
installed and device `iree` when the `iree` extra is, each skipped with a line saying so
otherwise.
"""

from __future__ import annotations

import os

if __name__ == "__main__":  # one BLAS thread for numpy too, set before numpy is imported
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import time
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from agreement import check_agreement, optional_device

TOLERANCE = 3e-6
"""Largest |h - numpy's h| allowed over the first 20 steps: 5x the largest measured over
tosa-state, OpenVINO and iree (H = 16: 1.2e-7, 128: 2.4e-7, 512: 6.2e-7)."""


@dataclass(frozen=True)
class LstmWeights:
    """`w`: [2H, 4H] (rows: input then recurrent), `b`: [4H], float32."""

    w: np.ndarray
    b: np.ndarray

    @property
    def hidden(self) -> int:
        return self.b.shape[0] // 4

    @staticmethod
    def random(hidden: int, seed: int = 0) -> LstmWeights:
        rng = np.random.default_rng(seed)
        scale = 1.0 / np.sqrt(hidden)
        w = rng.uniform(-scale, scale, (2 * hidden, 4 * hidden)).astype(np.float32)
        b = rng.uniform(-scale, scale, (4 * hidden,)).astype(np.float32)
        return LstmWeights(w, b)


def _dense(array: np.ndarray) -> str:
    """`dense<...> : tensor<...>` for a float32 array (hex-encoded: exact and compact)."""
    shape = "x".join(map(str, array.shape))
    payload = np.ascontiguousarray(array, dtype="<f4").tobytes().hex().upper()
    return f'dense<"0x{payload}"> : tensor<{shape}xf32>'


def tosa_lstm_module(weights: LstmWeights) -> str:
    """The cell as an MLIR module: `func.func @main(%x: tensor<1xHxf32>) -> tensor<1xHxf32>`."""
    h = weights.hidden
    v, v3, z3 = f"tensor<1x{h}xf32>", f"tensor<1x1x{h}xf32>", f"tensor<1x1x{4 * h}xf32>"
    w3 = f"tensor<1x{2 * h}x{4 * h}xf32>"

    def gate(name: str, k: int) -> str:
        return (
            f'    %{name}_start = tosa.const_shape {{values = dense<[0, 0, {k * h}]> : '
            f"tensor<3xindex>}} : () -> !tosa.shape<3>\n"
            f"    %{name} = tosa.slice %z, %{name}_start, %gate_size : "
            f"({z3}, !tosa.shape<3>, !tosa.shape<3>) -> {v3}\n"
        )

    def unary(op: str, result: str, operand: str) -> str:
        return f"    %{result} = tosa.{op} %{operand} : ({v3}) -> {v3}\n"

    def binary(op: str, result: str, a: str, b: str) -> str:
        if op == "mul":
            return (f"    %{result} = tosa.mul %{a}, %{b}, %shift : ({v3}, {v3}, tensor<1xi8>)"
                    f" -> {v3}\n")
        return f"    %{result} = tosa.{op} %{a}, %{b} : ({v3}, {v3}) -> {v3}\n"

    return (
        f"tosa.variable @h = dense<0.0> : {v}\n"
        f"tosa.variable @c = dense<0.0> : {v}\n"
        f"func.func @main(%x: {v}) -> {v} {{\n"
        f'    %w = "tosa.const"() <{{values = {_dense(weights.w.reshape(1, 2 * h, 4 * h))}}}> : '
        f"() -> {w3}\n"
        f'    %b = "tosa.const"() <{{values = {_dense(weights.b.reshape(1, 1, 4 * h))}}}> : '
        f"() -> {z3}\n"
        f'    %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : '
        f"() -> tensor<1xf32>\n"
        f'    %shift = "tosa.const"() <{{values = dense<0> : tensor<1xi8>}}> : () -> tensor<1xi8>\n'
        f"    %rank3 = tosa.const_shape {{values = dense<[1, 1, {h}]> : tensor<3xindex>}} : "
        f"() -> !tosa.shape<3>\n"
        f"    %rank2 = tosa.const_shape {{values = dense<[1, {h}]> : tensor<2xindex>}} : "
        f"() -> !tosa.shape<2>\n"
        f"    %gate_size = tosa.const_shape {{values = dense<[1, 1, {h}]> : tensor<3xindex>}} : "
        f"() -> !tosa.shape<3>\n"
        f"    %h0 = tosa.variable.read @h : {v}\n"
        f"    %c0 = tosa.variable.read @c : {v}\n"
        f"    %x3 = tosa.reshape %x, %rank3 : ({v}, !tosa.shape<3>) -> {v3}\n"
        f"    %h3 = tosa.reshape %h0, %rank3 : ({v}, !tosa.shape<3>) -> {v3}\n"
        f"    %c3 = tosa.reshape %c0, %rank3 : ({v}, !tosa.shape<3>) -> {v3}\n"
        f"    %xh = tosa.concat %x3, %h3 {{axis = 2 : i32}} : ({v3}, {v3}) -> "
        f"tensor<1x1x{2 * h}xf32>\n"
        f"    %mm = tosa.matmul %xh, %w, %zp, %zp : (tensor<1x1x{2 * h}xf32>, {w3}, "
        f"tensor<1xf32>, tensor<1xf32>) -> {z3}\n"
        f"    %z = tosa.add %mm, %b : ({z3}, {z3}) -> {z3}\n"
        + gate("f", 0)
        + gate("i", 1)
        + gate("g", 2)
        + gate("o", 3)
        + unary("sigmoid", "fs", "f")
        + unary("sigmoid", "is", "i")
        + unary("tanh", "gt", "g")
        + unary("sigmoid", "os", "o")
        + binary("mul", "fc", "fs", "c3")
        + binary("mul", "ig", "is", "gt")
        + binary("add", "c1", "fc", "ig")
        + unary("tanh", "ct", "c1")
        + binary("mul", "h1", "os", "ct")
        + f"    %h2 = tosa.reshape %h1, %rank2 : ({v3}, !tosa.shape<2>) -> {v}\n"
        f"    %c2 = tosa.reshape %c1, %rank2 : ({v3}, !tosa.shape<2>) -> {v}\n"
        f"    tosa.variable.write @h, %h2 : {v}\n"
        f"    tosa.variable.write @c, %c2 : {v}\n"
        f"    return %h2 : {v}\n"
        "}\n"
    )


class NumpyLstm:
    """The same cell by hand: state in two arrays, one matmul per step."""

    def __init__(self, weights: LstmWeights):
        self.w, self.b = weights.w, weights.b
        self.hidden = weights.hidden
        self.reset()

    def reset(self) -> None:
        self.h = np.zeros((1, self.hidden), np.float32)
        self.c = np.zeros((1, self.hidden), np.float32)

    def step(self, x: np.ndarray) -> np.ndarray:
        n = self.hidden
        z = np.concatenate((x, self.h), axis=1) @ self.w + self.b
        f = 1.0 / (1.0 + np.exp(-z[:, :n]))
        i = 1.0 / (1.0 + np.exp(-z[:, n : 2 * n]))
        g = np.tanh(z[:, 2 * n : 3 * n])
        o = 1.0 / (1.0 + np.exp(-z[:, 3 * n :]))
        self.c = f * self.c + i * g
        self.h = o * np.tanh(self.c)
        return self.h


def openvino_lstm_model(weights: LstmWeights):  # -> openvino.Model
    """The same cell as an OpenVINO model with ReadValue-6 / Assign-6 state."""
    import openvino as ov
    import openvino.opset13 as ops
    from openvino.opset6 import assign, read_value

    n = weights.hidden
    x = ops.parameter([1, n], np.float32, name="x")
    zeros = ops.constant(np.zeros((1, n), np.float32))
    h = read_value(zeros, "h", np.float32, [1, n])
    c = read_value(zeros, "c", np.float32, [1, n])
    z = ops.add(ops.matmul(ops.concat([x, h], 1), ops.constant(weights.w), False, False),
                ops.constant(weights.b))
    f, i, g, o = ops.split(z, ops.constant(np.int64(1)), 4).outputs()
    c1 = ops.add(ops.multiply(ops.sigmoid(f), c), ops.multiply(ops.sigmoid(i), ops.tanh(g)))
    h1 = ops.multiply(ops.sigmoid(o), ops.tanh(c1))
    result = ops.result(h1)
    return ov.Model([result], [assign(h1, "h"), assign(c1, "c")], [x], "lstm_cell")


def median_step_seconds(
    steppers: dict[str, Callable[[np.ndarray], object]], xs: list[np.ndarray], repeats: int
) -> dict[str, float]:
    """Median seconds per step of each stepper; the batches interleave, so that a busy
    machine slows every contender alike."""
    samples: dict[str, list[float]] = {name: [] for name in steppers}
    for _ in range(repeats):
        for name, step in steppers.items():
            start = time.perf_counter()
            for x in xs:
                step(x)
            samples[name].append((time.perf_counter() - start) / len(xs))
    return {name: float(np.median(values)) for name, values in samples.items()}


def measure(hidden: int, pipeline: str | None = None, steps: int = 200,
            repeats: int = 15) -> dict[str, float]:
    """Median seconds per step for tosa-state, numpy and (when installed) OpenVINO and
    tosa-state's device `iree`."""
    from tosa_state import compile_model, make_context
    from tosa_state.frontends.mlir import parse_mlir

    weights = LstmWeights.random(hidden)
    module = parse_mlir(make_context(), tosa_lstm_module(weights), f"lstm{hidden}.mlir")
    request = compile_model(module, pipeline=pipeline).create_infer_request()
    xs = [x.reshape(1, hidden) for x in
          np.random.default_rng(0).standard_normal((steps, hidden)).astype(np.float32)]
    steppers: dict[str, Callable[[np.ndarray], object]] = {
        "tosa-state": lambda x: request.infer([x]),
        "numpy": NumpyLstm(weights).step,
    }
    if optional_device("openvino", "openvino", "validate"):
        import openvino as ov

        compiled = ov.Core().compile_model(openvino_lstm_model(weights), "CPU",
                                           {"INFERENCE_PRECISION_HINT": "f32",
                                            "INFERENCE_NUM_THREADS": 1})
        ov_request = compiled.create_infer_request()
        steppers["openvino"] = lambda x: ov_request.infer([x])
    if optional_device("iree", "iree.runtime", "iree"):  # local-sync: one thread
        iree_request = compile_model(module, device="iree").create_infer_request()
        steppers["iree"] = lambda x: iree_request.infer([x])
    check_steppers(f"LSTM cell H = {hidden}", steppers, xs[:20])  # also the warm-up
    return median_step_seconds(steppers, xs, repeats)


def check_steppers(what: str, steppers: dict[str, Callable[[np.ndarray], object]],
                   xs: list[np.ndarray], tolerance: float = TOLERANCE) -> float:
    """Runs every stepper over `xs` (each returns h, or results whose first is h) and checks
    that each h is within `tolerance` of the `numpy` stepper's; returns the largest error."""

    def h(result: object) -> np.ndarray:
        return np.array(result if isinstance(result, np.ndarray) else result[0])  # type: ignore[index]

    outputs = {name: np.concatenate([h(step(x)) for x in xs]) for name, step in steppers.items()}
    return check_agreement(what, outputs, "numpy", tolerance)


def memory_growth(hidden: int = 16, steps: int = 10_000, pipeline: str | None = None) -> int:
    """Bytes allocated and still alive after `steps` more calls (after a warm-up)."""
    import gc
    import tracemalloc

    from tosa_state import compile_model, make_context
    from tosa_state.frontends.mlir import parse_mlir

    module = parse_mlir(make_context(), tosa_lstm_module(LstmWeights.random(hidden)))
    request = compile_model(module, pipeline=pipeline).create_infer_request()
    x = np.ones((1, hidden), np.float32)
    for _ in range(100):
        request.infer([x])
    gc.collect()
    tracemalloc.start()
    before = tracemalloc.take_snapshot()
    for _ in range(steps):
        request.infer([x])
    gc.collect()
    after = tracemalloc.take_snapshot()
    tracemalloc.stop()
    return sum(stat.size_diff for stat in after.compare_to(before, "filename"))


def main() -> None:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pipeline", default=None,
                        help="lowering to benchmark (default: compile_model's default)")
    parser.add_argument("--sizes", default="16,128,512")
    args = parser.parse_args()
    print(f"stateful LSTM cell, batch 1, median µs per step (pipeline: "
          f"{'default' if args.pipeline is None else repr(args.pipeline)})")
    print(f"{'H':>5} {'tosa-state':>11} {'numpy':>8} {'openvino':>9} {'iree':>8} "
          f"{'ts/numpy':>9} {'ov/numpy':>9} {'iree/numpy':>10}")
    for hidden in (int(h) for h in args.sizes.split(",")):
        f = measure(hidden, args.pipeline)

        def us(name: str, width: int, f: dict[str, float] = f) -> str:
            return f"{f[name] * 1e6:{width}.1f}" if name in f else f"{'-':>{width}}"

        def ratio(name: str, width: int, f: dict[str, float] = f) -> str:
            return f"{f[name] / f['numpy']:{width - 1}.2f}x" if name in f else f"{'-':>{width}}"

        print(f"{hidden:>5} {us('tosa-state', 11)} {us('numpy', 8)} {us('openvino', 9)} "
              f"{us('iree', 8)} {ratio('tosa-state', 9)} {ratio('openvino', 9)} "
              f"{ratio('iree', 10)}")
    growth = memory_growth(pipeline=args.pipeline)
    print(f"memory still allocated after 10000 more steps (H=16): {growth} bytes")


if __name__ == "__main__":
    main()
