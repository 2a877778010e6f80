"""A stateful LSTM cell as TOSA ops, and the same cell hand-written in numpy.

The TOSA module keeps `h` and `c` in variables (zeros initially), like a Keras
`stateful=True` LSTM or an OpenVINO model after LowLatency2:

    z  = [x, h] @ W + b                    (one matmul over the concatenation)
    f, i, g, o = split(z)                  (OpenVINO's gate order: f, i, c, o)
    c' = sigmoid(f) * c + sigmoid(i) * tanh(g)
    h' = sigmoid(o) * tanh(c')

Used by the benchmark (`python -m benchmarks.lstm_cell`), the examples and the tests.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np


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
        f'    %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>\n'
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
