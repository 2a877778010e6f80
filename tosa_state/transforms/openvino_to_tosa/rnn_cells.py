"""LSTMCell-4 and GRUCell-3 as TOSA subgraphs.

Both compute their gates as `X W^T + H R^T + B` (weights are usually constants: the transposes
fold), split them in OpenVINO's gate order (LSTM: f, i, c, o; GRU: z, r, h), clip the
pre-activations to [-clip, clip] when `clip > 0`, and apply `activations` (sigmoid, tanh, relu).

- LSTM: `C' = f(Xf) * C + f(Xi) * g(Xc)`, `H' = f(Xo) * h(C')`.
- GRU: `z = f(Xz + Hz)`, `r = f(Xr + Hr)`, `h~ = g(Xh + (r * H) Rh^T + Rbh)` or, with
  `linear_before_reset`, `g(Xh + Wbh + r * (H Rh^T + Rbh))`; `H' = (1 - z) * h~ + z * H`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
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
    dims = shape(value)
    axis %= len(dims)
    return [
        e.slice(value, [k * hidden if d == axis else 0 for d in range(len(dims))],
                [hidden if d == axis else n for d, n in enumerate(dims)])
        for k in range(count)
    ]


def _clip(e: Emitter, value: SSAValue, clip: float) -> SSAValue:
    return e.clamp(value, *clamp_bounds(element(value), -clip, clip)) if clip > 0 else value


class LSTMCell(OpenVINOPattern):
    """LSTMCell-4 (gate order f, i, c, o)."""

    OPS = (ov.LSTMCellOp,)

    def convert(self, op: ov.LSTMCellOp, e: Emitter) -> Sequence[SSAValue]:
        f, g, h = _activations(op)
        hidden = op.hidden_size.value.data
        clip = op.clip.value.data
        x_gates = _gates(e, op.x, op.w, 4, hidden)
        h_gates = _gates(e, op.initial_hidden_state, op.r, 4, hidden)
        biases = _chunks(e, op.b, 4, hidden)
        pre = [
            _clip(e, e.add(e.add(xg, hg), bias), clip)
            for xg, hg, bias in zip(x_gates, h_gates, biases, strict=True)
        ]
        forget, inp, candidate, out = pre
        cell = e.add(
            e.mul(f(e, forget), op.initial_cell_state), e.mul(f(e, inp), g(e, candidate))
        )
        return [e.mul(f(e, out), h(e, cell)), cell]


class GRUCell(OpenVINOPattern):
    """GRUCell-3 (gate order z, r, h; both `linear_before_reset` forms)."""

    OPS = (ov.GRUCellOp,)

    def convert(self, op: ov.GRUCellOp, e: Emitter) -> Sequence[SSAValue]:
        f, g = _activations(op)
        hidden = op.hidden_size.value.data
        clip = op.clip.value.data
        state = op.initial_hidden_state
        linear_before_reset = bool(op.linear_before_reset.value.data)
        xz, xr, xh = _gates(e, op.x, op.w, 3, hidden)
        rz, rr, rh = _chunks(e, op.r, 3, hidden, axis=0)
        biases = _chunks(e, op.b, 4 if linear_before_reset else 3, hidden)
        hz = matmul(e, state, rz, transpose_b=True)
        hr = matmul(e, state, rr, transpose_b=True)
        z = f(e, _clip(e, e.add(e.add(xz, hz), biases[0]), clip))
        r = f(e, _clip(e, e.add(e.add(xr, hr), biases[1]), clip))
        if linear_before_reset:
            recurrent = e.add(matmul(e, state, rh, transpose_b=True), biases[3])
            candidate = e.add(e.add(xh, biases[2]), e.mul(r, recurrent))
        else:
            recurrent = matmul(e, e.mul(r, state), rh, transpose_b=True)
            candidate = e.add(e.add(xh, recurrent), biases[2])
        candidate = g(e, _clip(e, candidate, clip))
        one = e.scalar(1.0, element(z), len(shape(z)))
        keep = e.mul(z, state)
        return [e.add(e.mul(e.sub(one, z), candidate), keep)]


RNN_CELL_PATTERNS = (LSTMCell, GRUCell)
