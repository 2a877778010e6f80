"""LSTMCell-4 / -1, GRUCell-3 and RNNCell-0 as TOSA subgraphs, and LSTMSequence-5 /
GRUSequence-5 / RNNSequence-5 as a `tosa.while_loop` over time of the same cell subgraph.

Both compute their gates as `X W^T + H R^T + B` (weights are usually constants: the transposes
fold), split them in OpenVINO's gate order (LSTM: f, i, c, o; GRU: z, r, h), clip the
pre-activations to [-clip, clip] when `clip > 0`, and apply `activations` (sigmoid, tanh, relu).

- LSTM: `C' = f(Xf) * C + f(Xi) * g(Xc)`, `H' = f(Xo) * h(C')`.
- RNN: `H' = f(X W^T + H R^T + B)`.
- GRU: `z = f(Xz + Hz)`, `r = f(Xr + Hr)`, `h~ = g(Xh + (r * H) Rh^T + Rbh)` or, with
  `linear_before_reset`, `g(Xh + Wbh + r * (H Rh^T + Rbh))`; `H' = (1 - z) * h~ + z * H`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType, i32
from xdsl.ir import SSAValue

from tosa_state.diagnostics import LAYER_ATTR, describe_layer
from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant,
    dims,
    element,
    is_static,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.loops import TimeLoop
from tosa_state.transforms.openvino_to_tosa.sizes import (
    Size,
    held_size,
    reshape,
    same,
    static,
    sub,
    window,
)
from tosa_state.transforms.tosa_builder.products import matmul, product3
from tosa_state.transforms.tosa_builder.values import clamp_bounds

Activation = Callable[[Emitter, SSAValue], SSAValue]


def _relu(e: Emitter, value: SSAValue) -> SSAValue:
    return e.clamp(value, *clamp_bounds(element(value), 0.0, float("inf")))


ACTIVATIONS: dict[str, Activation] = {
    "sigmoid": lambda e, v: e.unary(tew.SigmoidOp, v),
    "tanh": lambda e, v: e.unary(tew.TanhOp, v),
    "relu": _relu,
}


def _activations(op: ov.LSTMCellOp | ov.GRUCellOp | ov.RNNCellOp, direction: int = 0
                 ) -> list[Activation]:
    """The activations of `op`; a bidirectional sequence may list them per direction (as
    ONNX does, and OpenVINO's ONNX frontend keeps): then those of `direction`."""
    names = [a.data.lower() for a in op.activations.data]
    count = len(op.DEFAULT_ACTIVATIONS)
    names = names[direction * count:(direction + 1) * count] if len(names) > count else names
    unknown = [n for n in names if n not in ACTIVATIONS]
    if unknown:
        raise Unsupported(
            f"activation(s) {', '.join(unknown)} (supported: {', '.join(ACTIVATIONS)})"
        )
    if op.activations_alpha.get_values() or op.activations_beta.get_values():
        raise Unsupported("activations_alpha / activations_beta are not supported")
    return [ACTIVATIONS[n] for n in names]


def _chunk(e: Emitter, value: SSAValue, k: int, size: int, axis: int = -1) -> SSAValue:
    """The `k`-th slice of `size` entries of `value` along `axis`."""
    sizes = dims(value)
    axis %= len(sizes)
    return e.slice(value, [k * size if d == axis else 0 for d in range(len(sizes))],
                   [size if d == axis else n for d, n in enumerate(sizes)])


def _chunks(e: Emitter, value: SSAValue, count: int, size: int) -> list[SSAValue]:
    """The `count` consecutive slices of `size` entries of `value` along its last axis."""
    return [_chunk(e, value, k, size) for k in range(count)]


def _clip(e: Emitter, value: SSAValue, clip: float) -> SSAValue:
    return e.clamp(value, *clamp_bounds(element(value), -clip, clip)) if clip > 0 else value


def lstm_cell(e: Emitter, op: ov.LSTMCellOp | ov.LSTMSequenceOp, gates: SSAValue, c: SSAValue,
              direction: int = 0) -> tuple[SSAValue, SSAValue]:
    """(H', C') from the gates' pre-activations `X W^T + H R^T + B` (last axis: f, i, c, o)."""
    if isinstance(op, ov.LSTMCellOp) and (op.p is not None or op.input_forget.value.data):
        return _peephole_lstm_cell(e, op, gates, c)
    f, g, act_h = _activations(op, direction)
    pre = _clip(e, gates, op.clip.value.data)
    # f on all four gates at once (one op instead of three; the candidate's share is unused)
    hidden = op.hidden_size.value.data
    activated = f(e, pre)
    forget, inp, out = (_chunk(e, activated, k, hidden) for k in (0, 1, 3))
    candidate = g(e, _chunk(e, pre, 2, hidden))
    cell = e.add(e.mul(forget, c), e.mul(inp, candidate))
    return e.mul(out, act_h(e, cell)), cell


def _peephole_lstm_cell(e: Emitter, op: ov.LSTMCellOp, gates: SSAValue, c: SSAValue
                        ) -> tuple[SSAValue, SSAValue]:
    """LSTMCell-1 as OpenVINO's reference (`lstm_cell_v1`): with P = [P_f, P_i, P_o],
    `f = F(clip(g_f + P_f ⊙ C))`, `i = F(clip(g_i + P_i ⊙ C))` (or `1 - f` with
    `input_forget`), `C' = f ⊙ C + i ⊙ G(clip(g_c))`, `o = F(clip(g_o + P_o ⊙ C'))`,
    `H' = o ⊙ H(C')`."""
    act_f, act_g, act_h = _activations(op)
    hidden, clip = op.hidden_size.value.data, op.clip.value.data
    pre_f, pre_i, pre_c, pre_o = _chunks(e, gates, 4, hidden)
    peepholes = op.p
    peep_f, peep_i, peep_o = ([_chunk(e, peepholes, k, hidden) for k in range(3)]
                              if peepholes is not None else [None] * 3)

    def gate(pre: SSAValue, peephole: SSAValue | None, cell: SSAValue) -> SSAValue:
        if peephole is not None:
            pre = e.add(pre, e.mul(peephole, cell))
        return act_f(e, _clip(e, pre, clip))

    forget = gate(pre_f, peep_f, c)
    if op.input_forget.value.data:
        inp = e.sub(e.scalar(1.0, element(forget), len(dims(forget))), forget)
    else:
        inp = gate(pre_i, peep_i, c)
    cell = e.add(e.mul(forget, c), e.mul(inp, act_g(e, _clip(e, pre_c, clip))))
    return e.mul(gate(pre_o, peep_o, cell), act_h(e, cell)), cell


def rnn_cell(e: Emitter, op: ov.RNNCellOp | ov.RNNSequenceOp, gates: SSAValue,
             direction: int = 0) -> SSAValue:
    """H' = f(X W^T + H R^T + B), from the pre-activation `gates`."""
    (f,) = _activations(op, direction)
    return f(e, _clip(e, gates, op.clip.value.data))


Recurrence = Callable[[Emitter, SSAValue], SSAValue]
"""GRU: the recurrent term of the candidate gate, given the reset gate r."""


def gru_cell(e: Emitter, op: ov.GRUCellOp | ov.GRUSequenceOp, x_gates: SSAValue,
             h_gates: SSAValue, state: SSAValue, recurrence: Recurrence, direction: int = 0
             ) -> SSAValue:
    """H' from `x_gates = X W^T + [Bz, Br, Bh]` (z, r, h), `h_gates = H [Rz, Rr]^T` and the
    candidate's recurrent term: `(r * H) Rh^T`, or `r * (H Rh^T + Rbh)` with
    `linear_before_reset`."""
    f, g = _activations(op, direction)
    hidden = op.hidden_size.value.data
    clip = op.clip.value.data
    x_zr, xh = _chunk(e, x_gates, 0, 2 * hidden), _chunk(e, x_gates, 2, hidden)
    # z and r together: one add and one f
    z, reset = _chunks(e, f(e, _clip(e, e.add(x_zr, h_gates), clip)), 2, hidden)
    candidate = g(e, _clip(e, e.add(xh, recurrence(e, reset)), clip))
    one = e.scalar(1.0, element(z), len(dims(z)))
    return e.add(e.mul(e.sub(one, z), candidate), e.mul(z, state))


@dataclass(frozen=True)
class _GruWeights:
    """GRU weights prepared for `gru_cell`: `x_bias` joins `X W^T`, `r_zr` / `r_h` are
    `[Rz, Rr]^T` / `Rh^T`, `r_bias` is Rbh with `linear_before_reset` (else None)."""

    x_bias: SSAValue
    r_zr: SSAValue
    r_h: SSAValue
    r_bias: SSAValue | None


def _gru_weights(e: Emitter, op: ov.GRUCellOp | ov.GRUSequenceOp, r: SSAValue, b: SSAValue
                 ) -> _GruWeights:
    hidden = op.hidden_size.value.data
    rz, rr, rh = (_chunk(e, r, k, hidden, axis=0) for k in range(3))
    r_zr = e.transpose(e.concat([rz, rr], 0), (1, 0))
    r_bias = None
    x_bias = b
    if op.linear_before_reset.value.data:
        x_bias, r_bias = e.slice(b, [0], [3 * hidden]), e.slice(b, [3 * hidden], [hidden])
    return _GruWeights(x_bias, r_zr, e.transpose(rh, (1, 0)), r_bias)


def _recurrence(weights: _GruWeights, state: SSAValue,
                product: Callable[[Emitter, SSAValue, SSAValue], SSAValue]) -> Recurrence:
    r_h, r_bias = weights.r_h, weights.r_bias
    if r_bias is None:
        return lambda e, reset: product(e, e.mul(reset, state), r_h)
    return lambda e, reset: e.mul(reset, e.add(product(e, state, r_h), r_bias))


def _matmul(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    return matmul(e, a, b)


def _gates(e: Emitter, op: ov.LSTMCellOp | ov.RNNCellOp) -> SSAValue:
    """`[X, H] [W, R]^T + B`: the pre-activations with one matmul."""
    inputs = e.concat([op.x, op.initial_hidden_state], 1)
    return e.add(matmul(e, inputs, e.concat([op.w, op.r], 1), transpose_b=True), op.b)


class LSTMCell(OpenVINOPattern):
    """LSTMCell-4 and LSTMCell-1 (gate order f, i, c, o; -1's peepholes, input_forget)."""

    OPS = (ov.LSTMCellOp,)

    def convert(self, op: ov.LSTMCellOp, e: Emitter) -> Sequence[SSAValue]:
        return list(lstm_cell(e, op, _gates(e, op), op.initial_cell_state))


class RNNCell(OpenVINOPattern):
    """RNNCell-0: `f(X W^T + H R^T + B)`."""

    OPS = (ov.RNNCellOp,)

    def convert(self, op: ov.RNNCellOp, e: Emitter) -> Sequence[SSAValue]:
        return [rnn_cell(e, op, _gates(e, op))]


class GRUCell(OpenVINOPattern):
    """GRUCell-3 (gate order z, r, h; both `linear_before_reset` forms)."""

    OPS = (ov.GRUCellOp,)

    def convert(self, op: ov.GRUCellOp, e: Emitter) -> Sequence[SSAValue]:
        weights = _gru_weights(e, op, op.r, op.b)
        state = op.initial_hidden_state
        x_gates = e.add(matmul(e, op.x, op.w, transpose_b=True), weights.x_bias)
        h_gates = matmul(e, state, weights.r_zr)
        return [gru_cell(e, op, x_gates, h_gates, state, _recurrence(weights, state, _matmul))]


def _row(e: Emitter, bias: SSAValue) -> SSAValue:
    """A bias `[K]` as `[1, 1, K]` (the rank of the values inside the loop)."""
    return e.reshape(bias, (1, 1, *shape(bias)))


def _take(e: Emitter, value: SSAValue, start: Sequence[int], size: Sequence[int],
          squeezed: Sequence[int]) -> SSAValue:
    """The slice `start`/`size` of `value`, reshaped to `squeezed` (its size-1 dims gone)."""
    return e.reshape(e.slice(value, start, size), squeezed)


Sequence_ = ov.LSTMSequenceOp | ov.GRUSequenceOp | ov.RNNSequenceOp


class RecurrentSequence(OpenVINOPattern):
    """LSTMSequence-5, GRUSequence-5 and RNNSequence-5 as one `tosa.while_loop` over the
    time steps per direction (the reverse direction walks the steps backwards). A step
    gathers its row of `X`, computes `[X_t, H] [W^T; R^T] + B` (one matmul; GRU:
    `X_t W^T + B` and `H R^T` apart, its candidate gate needs them so; weights transposed
    and joined once, outside the loop) and applies the cell; its output is scattered into
    `Y`. (Projecting all steps with one matmul before the loop is no faster here: a large
    matmul wakes BLAS threads that then compete with the loop for the cores.) With sequence
    lengths shorter than `T`,
    a batch element's state stops changing after its last step (a reverse walk starts at
    its last step) and its outputs there are zeros. A bidirectional sequence may list its
    activations per direction (ONNX's convention).

    Inside the loop the values have shape `[1, N, *]` (a matmul's batched form)."""

    OPS = (ov.LSTMSequenceOp, ov.GRUSequenceOp, ov.RNNSequenceOp)

    def convert(self, op: Sequence_, e: Emitter) -> Sequence[SSAValue]:
        x, states = self._operands(op, e)
        n, steps = e.size(x, 0), e.size(x, 1)
        direction = op.direction.data
        lengths = constant(op.sequence_lengths)
        if lengths is not None and isinstance(steps, int):
            full = bool(np.all(np.asarray(lengths) >= steps))
        else:  # every length T (torch's `Broadcast(T, [batch])`): no step is masked
            length = held_size(op.sequence_lengths)
            full = length is not None and any(same(length, t) for t in (steps, e.size(op.x, 1)))
        outs: list[list[SSAValue]] = []
        for d in range(2 if direction == "bidirectional" else 1):
            backwards = direction == "reverse" or d == 1
            outs.append(self._direction(op, e, x, states, d, backwards,
                                        None if full else op.sequence_lengths))
        hidden = op.hidden_size.value.data
        results = []
        for k in range(len(outs[0])):  # Y [N, D, T, H], then the states [N, D, H]
            extents = (n, 1, steps, hidden) if k == 0 else (n, 1, hidden)
            results.append(e.concat([reshape(e, o[k], extents) for o in outs], 1))
        return results

    @staticmethod
    def _operands(op: Sequence_, e: Emitter) -> tuple[SSAValue, list[SSAValue]]:
        """X and the initial states, checked: X is `[N, T, input_size]` (a `?` input size is
        the weights'), the states `[N, D, H]`. A state with dynamic dims is checked at run
        time (a `tosa.reshape` to `[N, D, H]` that fails naming the layer): an empty one
        comes from a variable of dynamic shape, which OpenVINO starts empty (and empties
        again at a reset) and rejects until the user sets it."""
        x, state_values = op.x, [op.initial_hidden_state]
        if isinstance(op, ov.LSTMSequenceOp):
            state_values.append(op.initial_cell_state)
        directions = 2 if op.direction.data == "bidirectional" else 1
        hidden = op.hidden_size.value.data
        inputs = shape(op.w)[2]
        found = [dims(s) for s in state_values]
        batch = next((b for b in (dims(x)[0], *(f[0] for f in found)) if b != DYN), DYN)
        x_dims = dims(x)  # [N, T, input_size] or `?`s there (checked by the op's verifier)
        if x_dims != (batch, x_dims[1], inputs):
            x = e.generalize(x, TensorType(element(x), [batch, x_dims[1], inputs]))
        n = e.size(x, 0)
        states = []
        for what, state, state_dims in zip(("initial hidden state", "initial cell state"),
                                           state_values, found, strict=False):
            if is_static(state_dims):  # the op's verifier checked it against X
                states.append(state)
                continue
            states.append(_checked_state(e, op, state, what, [n, directions, hidden]))
        return x, states

    def _direction(self, op: Sequence_, e: Emitter, x: SSAValue, states: list[SSAValue],
                   d: int, backwards: bool, lengths: SSAValue | None) -> list[SSAValue]:
        """Y [N, T, H], H [N, H] (and C [N, H]) of direction `d`."""
        n, steps, inputs = e.size(x, 0), e.size(x, 1), shape(op.w)[2]
        nd = static(n)
        hidden = op.hidden_size.value.data
        gates = op.GATES * hidden
        w = _take(e, op.w, (d, 0, 0), (1, gates, inputs), (gates, inputs))
        r = _take(e, op.r, (d, 0, 0), (1, gates, hidden), (gates, hidden))
        bias = shape(op.b)[1]
        b = _take(e, op.b, (d, 0), (1, bias), (bias,))
        loop = TimeLoop(self.lowering, e, steps)
        body = loop.body
        carried = [loop.carry(_state_of(e, s, d, n, hidden)) for s in states]
        if not isinstance(op, ov.GRUSequenceOp):
            x_bias, r_t = b, e.transpose(r, (1, 0))
            gru = None
        else:
            gru = _gru_weights(e, op, r, b)  # type: ignore[arg-type]
            x_bias, r_t = gru.x_bias, gru.r_zr
        start, delta = (sub(e, steps, 1), -1) if backwards else (0, 1)
        x_sizes = [n, steps, inputs]
        x_t = body.reshape(loop.step_part(x, 1, 1, start, delta, x_sizes), (1, nd, inputs))
        w_t = e.reshape(e.transpose(w, (1, 0)), (1, inputs, gates))
        h = carried[0]
        if gru is None:  # [X_t, H] [W^T; R^T] + B: one matmul
            weights = loop.invariant(e.concat([w_t, e.reshape(r_t, (1, *shape(r_t)))], 1))
            pre = body.add(product3(body, body.concat([x_t, h], 2), weights),
                           loop.invariant(_row(e, x_bias)))
            new = (list(lstm_cell(body, op, pre, carried[1], d))  # type: ignore[arg-type]
                   if isinstance(op, ov.LSTMSequenceOp) else [rnn_cell(body, op, pre, d)])  # type: ignore[arg-type]
        else:
            x_t = body.add(product3(body, x_t, loop.invariant(w_t)),
                           loop.invariant(_row(e, x_bias)))
            h_gates = product3(body, h, loop.invariant(e.reshape(r_t, (1, *shape(r_t)))))
            inside = _GruWeights(
                gru.x_bias, gru.r_zr, loop.invariant(e.reshape(gru.r_h, (1, hidden, hidden))),
                None if gru.r_bias is None else loop.invariant(_row(e, gru.r_bias)))
            new = [gru_cell(body, op, x_t, h_gates, h, _recurrence(inside, h, product3), d)]  # type: ignore[arg-type]
        y = new[0]
        if lengths is not None:
            running = self._running(e, loop, lengths, n, start, delta)
            new = [body.select(running, v, old) for v, old in zip(new, carried, strict=True)]
            y = body.select(running, new[0], body.const(np.zeros((1, 1, 1)), element(y)))
        for arg, value in zip(carried, new, strict=True):
            loop.update(arg, value)
        ys = loop.stack(body.reshape(y, (nd, 1, hidden)), 1, steps, start, delta,
                        [n, 1, hidden])
        finals, stacked = loop.build()
        return [stacked[ys], *(e.reshape(finals[a], (nd, hidden)) for a in carried)]

    @staticmethod
    def _running(e: Emitter, loop: TimeLoop, lengths: SSAValue, n: Size, start: Size,
                 delta: int) -> SSAValue:
        """`[1, N, 1]` booleans: whether each batch element runs at the step (its index is
        below its sequence length)."""
        limits = loop.invariant(reshape(e, e.cast(lengths, i32), (1, n, 1)))
        position = loop.body.reshape(loop.index(n, 1, start, delta), (1, static(n), 1))
        return loop.body.greater(limits, position)


def _state_of(e: Emitter, state: SSAValue, d: int, n: Size, hidden: int) -> SSAValue:
    """The initial state of direction `d` as `[1, N, H]`."""
    if is_static(dims(state)):
        return _take(e, state, (0, d, 0), (static(n), 1, hidden), (1, static(n), hidden))
    # checked by `_checked_state`: one reshape, not merged with that check
    rows = window(e, state, (0, d, 0), (n, 1, hidden)) if dims(state)[1] != 1 else state
    result_type = TensorType(element(state), [1, static(n), hidden])
    return e.reshape_op(rows, e.shape_operand([1, n, hidden]), result_type)


def _checked_state(e: Emitter, op: Sequence_, state: SSAValue, what: str,
                   expected: Sequence[Size]) -> SSAValue:
    """`state` reshaped to `expected` (`[N, D, H]`, N from X) at run time: a state of
    another size (an empty one above all: a variable of dynamic shape starts so, and is so
    again after a reset) fails there, with a message naming the layer that says so."""
    result_type = TensorType(element(state), [static(s) for s in expected])
    check = tt.ReshapeOp(state, e.shape_operand(list(expected)), result_type)
    layer = describe_layer(op)
    reason = (f"the {what} does not have the shape [batch, directions, hidden_size] of "
              "this call's X: a state variable of dynamic shape starts empty (and is empty "
              "again after a reset), set it with set_state first")
    # named before it is emitted: not the same op as a plain reshape of `state`
    check.attributes[LAYER_ATTR] = StringAttr(f"{layer}: {reason}" if layer else reason)
    return e.value(check)


RNN_CELL_PATTERNS = (LSTMCell, GRUCell, RNNCell, RecurrentSequence)
