"""LSTMCell-4 and GRUCell-3 as TOSA subgraphs, and LSTMSequence-5 / GRUSequence-5 as
unrolled steps of them.

Both compute their gates as `X W^T + H R^T + B` (weights are usually constants: the transposes
fold), split them in OpenVINO's gate order (LSTM: f, i, c, o; GRU: z, r, h), clip the
pre-activations to [-clip, clip] when `clip > 0`, and apply `activations` (sigmoid, tanh, relu).

- LSTM: `C' = f(Xf) * C + f(Xi) * g(Xc)`, `H' = f(Xo) * h(C')`.
- GRU: `z = f(Xz + Hz)`, `r = f(Xr + Hr)`, `h~ = g(Xh + (r * H) Rh^T + Rbh)` or, with
  `linear_before_reset`, `g(Xh + Wbh + r * (H Rh^T + Rbh))`; `H' = (1 - z) * h~ + z * H`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import numpy as np
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant,
    dims,
    element,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.elementwise import clamp_bounds
from tosa_state.transforms.openvino_to_tosa.matrix import matmul

Activation = Callable[[Emitter, SSAValue], SSAValue]


def _relu(e: Emitter, value: SSAValue) -> SSAValue:
    return e.clamp(value, *clamp_bounds(element(value), 0.0, float("inf")))


ACTIVATIONS: dict[str, Activation] = {
    "sigmoid": lambda e, v: e.unary(tew.SigmoidOp, v),
    "tanh": lambda e, v: e.unary(tew.TanhOp, v),
    "relu": _relu,
}


def _activations(op: ov.LSTMCellOp | ov.GRUCellOp) -> list[Activation]:
    names = [a.data.lower() for a in op.activations.data]
    unknown = [n for n in names if n not in ACTIVATIONS]
    if unknown:
        raise Unsupported(
            f"activation(s) {', '.join(unknown)} (supported: {', '.join(ACTIVATIONS)})"
        )
    if op.activations_alpha.get_values() or op.activations_beta.get_values():
        raise Unsupported("activations_alpha / activations_beta are not supported")
    return [ACTIVATIONS[n] for n in names]


def _gates(e: Emitter, x: SSAValue, w: SSAValue, count: int, hidden: int) -> list[SSAValue]:
    """`x W^T` split into `count` gates of width `hidden`."""
    product = matmul(e, x, w, transpose_b=True)
    return _chunks(e, product, count, hidden)


def _chunks(
    e: Emitter, value: SSAValue, count: int, hidden: int, axis: int = -1
) -> list[SSAValue]:
    """The `count` consecutive slices of size `hidden` of `value` along `axis`."""
    sizes = dims(value)
    axis %= len(sizes)
    return [
        e.slice(value, [k * hidden if d == axis else 0 for d in range(len(sizes))],
                [hidden if d == axis else n for d, n in enumerate(sizes)])
        for k in range(count)
    ]


def _clip(e: Emitter, value: SSAValue, clip: float) -> SSAValue:
    return e.clamp(value, *clamp_bounds(element(value), -clip, clip)) if clip > 0 else value


def lstm_step(e: Emitter, op: ov.LSTMCellOp | ov.LSTMSequenceOp, x: SSAValue, h: SSAValue,
              c: SSAValue, w: SSAValue, r: SSAValue, b: SSAValue) -> tuple[SSAValue, SSAValue]:
    """One LSTM step with `op`'s hidden size, clip and activations: (H', C')."""
    f, g, act_h = _activations(op)
    hidden = op.hidden_size.value.data
    clip = op.clip.value.data
    x_gates = _gates(e, x, w, 4, hidden)
    h_gates = _gates(e, h, r, 4, hidden)
    biases = _chunks(e, b, 4, hidden)
    pre = [
        _clip(e, e.add(e.add(xg, hg), bias), clip)
        for xg, hg, bias in zip(x_gates, h_gates, biases, strict=True)
    ]
    forget, inp, candidate, out = pre
    cell = e.add(e.mul(f(e, forget), c), e.mul(f(e, inp), g(e, candidate)))
    return e.mul(f(e, out), act_h(e, cell)), cell


def gru_step(e: Emitter, op: ov.GRUCellOp | ov.GRUSequenceOp, x: SSAValue, state: SSAValue,
             w: SSAValue, r: SSAValue, b: SSAValue) -> SSAValue:
    """One GRU step with `op`'s hidden size, clip, activations and
    `linear_before_reset`: H'."""
    f, g = _activations(op)
    hidden = op.hidden_size.value.data
    clip = op.clip.value.data
    linear_before_reset = bool(op.linear_before_reset.value.data)
    xz, xr, xh = _gates(e, x, w, 3, hidden)
    rz, rr, rh = _chunks(e, r, 3, hidden, axis=0)
    biases = _chunks(e, b, 4 if linear_before_reset else 3, hidden)
    hz = matmul(e, state, rz, transpose_b=True)
    hr = matmul(e, state, rr, transpose_b=True)
    z = f(e, _clip(e, e.add(e.add(xz, hz), biases[0]), clip))
    reset = f(e, _clip(e, e.add(e.add(xr, hr), biases[1]), clip))
    if linear_before_reset:
        recurrent = e.add(matmul(e, state, rh, transpose_b=True), biases[3])
        candidate = e.add(e.add(xh, biases[2]), e.mul(reset, recurrent))
    else:
        recurrent = matmul(e, e.mul(reset, state), rh, transpose_b=True)
        candidate = e.add(e.add(xh, recurrent), biases[2])
    candidate = g(e, _clip(e, candidate, clip))
    one = e.scalar(1.0, element(z), len(shape(z)))
    return e.add(e.mul(e.sub(one, z), candidate), e.mul(z, state))


class LSTMCell(OpenVINOPattern):
    """LSTMCell-4 (gate order f, i, c, o)."""

    OPS = (ov.LSTMCellOp,)

    def convert(self, op: ov.LSTMCellOp, e: Emitter) -> Sequence[SSAValue]:
        return list(lstm_step(e, op, op.x, op.initial_hidden_state, op.initial_cell_state,
                              op.w, op.r, op.b))


class GRUCell(OpenVINOPattern):
    """GRUCell-3 (gate order z, r, h; both `linear_before_reset` forms)."""

    OPS = (ov.GRUCellOp,)

    def convert(self, op: ov.GRUCellOp, e: Emitter) -> Sequence[SSAValue]:
        return [gru_step(e, op, op.x, op.initial_hidden_state, op.w, op.r, op.b)]


def _take(e: Emitter, value: SSAValue, start: Sequence[int], size: Sequence[int],
          squeezed: Sequence[int]) -> SSAValue:
    """The slice `start`/`size` of `value`, reshaped to `squeezed` (its size-1 dims gone)."""
    return e.reshape(e.slice(value, start, size), squeezed)


class RecurrentSequence(OpenVINOPattern):
    """LSTMSequence-5 and GRUSequence-5, unrolled over the (static) time steps, once per
    direction (the reverse direction walks the steps backwards). With sequence lengths
    shorter than `T` (forward only), a batch element's state stops changing after its
    last step and its outputs are zeros."""

    OPS = (ov.LSTMSequenceOp, ov.GRUSequenceOp)

    def convert(self, op: ov.LSTMSequenceOp | ov.GRUSequenceOp, e: Emitter
                ) -> Sequence[SSAValue]:
        lstm = isinstance(op, ov.LSTMSequenceOp)
        n, steps, inputs = shape(op.x)
        hidden = op.hidden_size.value.data
        direction = op.direction.data
        directions = 2 if direction == "bidirectional" else 1
        lengths = constant(op.sequence_lengths)
        full = lengths is not None and bool(np.all(np.asarray(lengths) >= steps))
        if not full and direction != "forward":
            raise Unsupported(f"{direction} direction with sequence lengths shorter than the "
                              f"{steps} steps")
        ys, hs, cs = [], [], []
        for d in range(directions):
            gates = op.GATES * hidden
            w = _take(e, op.w, (d, 0, 0), (1, gates, inputs), (gates, inputs))
            r = _take(e, op.r, (d, 0, 0), (1, gates, hidden), (gates, hidden))
            bias = shape(op.b)[1]
            b = _take(e, op.b, (d, 0), (1, bias), (bias,))
            h = _take(e, op.initial_hidden_state, (0, d, 0), (n, 1, hidden), (n, hidden))
            c = (_take(e, op.initial_cell_state, (0, d, 0), (n, 1, hidden), (n, hidden))  # type: ignore[union-attr]
                 if lstm else None)
            backwards = direction == "reverse" or d == 1
            outputs: list[SSAValue | None] = [None] * steps
            for t in (reversed(range(steps)) if backwards else range(steps)):
                x_t = _take(e, op.x, (0, t, 0), (n, 1, inputs), (n, inputs))
                if lstm:
                    new_h, new_c = lstm_step(e, op, x_t, h, c, w, r, b)  # type: ignore[arg-type]
                else:
                    new_h, new_c = gru_step(e, op, x_t, h, w, r, b), None  # type: ignore[arg-type]
                if full:
                    h, c, y = new_h, new_c, new_h
                else:
                    running = self._running(e, op.sequence_lengths, t)
                    h = e.select(running, new_h, h)
                    c = e.select(running, new_c, c) if lstm else None  # type: ignore[arg-type]
                    zeros = e.const(np.zeros((1, 1)), element(new_h))
                    y = e.select(running, new_h, zeros)
                outputs[t] = e.reshape(y, (n, 1, 1, hidden))
            ys.append(e.concat([o for o in outputs if o is not None], 2))
            hs.append(e.reshape(h, (n, 1, hidden)))
            if c is not None:
                cs.append(e.reshape(c, (n, 1, hidden)))
        results = [e.concat(ys, 1), e.concat(hs, 1)]
        return [*results, e.concat(cs, 1)] if lstm else results

    @staticmethod
    def _running(e: Emitter, lengths: SSAValue, step: int) -> SSAValue:
        """`[N, 1]` booleans: whether each batch element still runs at `step`."""
        column = e.reshape(lengths, (shape(lengths)[0], 1))
        return e.greater(column, e.scalar(step, element(lengths), 2))


RNN_CELL_PATTERNS = (LSTMCell, GRUCell, RecurrentSequence)
