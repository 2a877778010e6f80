"""UNIDIRECTIONAL_SEQUENCE_LSTM, unrolled over its (static) time steps.

Per step, as TFLite's kernel: i = sigmoid(x Wi^T + h Ri^T + bi) (1 - f without input-gate
weights: CIFG), f = sigmoid(x Wf^T + h Rf^T + bf), g = act(x Wc^T + h Rc^T + bc),
c = f c + i g (clipped to +-cell_clip when it is > 0), o = sigmoid(x Wo^T + h Ro^T + bo),
h = o act(c). The result stacks every step's h. The state inputs are variable tensors
(`tosa.variable`s here): the final h and c are written back, so the state persists across
calls as in LiteRT. Peepholes, projection and layer normalisation (which Keras exports do not
use) are refused. The hybrid form (int8 weights, float input and state) multiplies as
LiteRT's hybrid kernel: the input and h quantized per batch row at each step, and its
gates use the same sigmoid and tanh as LiteRT's x86 build (`tensor_utils::
ApplyActivationToVector`: Eigen's `logistic()` and `tanh()` packet code, SSE without FMA), so
that h equals LiteRT's bit for bit and its per-call int8 quantization rounds the same way.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import f32, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.rnn import LSTM_OPERANDS, UnidirectionalSequenceLSTMOp
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa.variables import VariableReadOp, VariableWriteOp
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate
from tosa_state.transforms.tflite_to_tosa.matrix import hybrid_matmul
from tosa_state.transforms.tflite_to_tosa.quantized import divide
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.products import matmul
from tosa_state.transforms.tosa_builder.values import Unsupported, require_constant, shape

_REFUSED = ("cell_to_", "projection_", "_layer_norm_")


class UnidirectionalSequenceLSTM(TflPattern):
    """UNIDIRECTIONAL_SEQUENCE_LSTM (f32 or hybrid, no peephole / projection / layer norm)."""

    OPS = (UnidirectionalSequenceLSTMOp,)

    def convert(self, op: UnidirectionalSequenceLSTMOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        present = [n for n in LSTM_OPERANDS if op.operand_named(n) is not None]
        v = dict(zip(present, operands, strict=True))
        if refused := [n for n in present if any(k in n for k in _REFUSED)]:
            raise Unsupported(f"{', '.join(refused)} (peepholes, projection and layer "
                              "normalisation are not supported)")
        time_major = op.time_major.value.data
        x = v["input"]
        dims = shape(x)
        steps, batch = (dims[0], dims[1]) if time_major else (dims[1], dims[0])
        activation = op.fused_activation_function
        clip = op.cell_clip.value.data
        h, c = v["input_activation_state"], v["input_cell_state"]
        units = shape(h)[1]

        scales = op.hybrid_scales()
        if scales and not op.asymmetric_quantize_inputs.value.data:
            raise Unsupported("a hybrid LSTM with symmetric input quantization "
                              "(asymmetric_quantize_inputs = false) is not supported yet")

        def act(value: SSAValue) -> SSAValue:
            if scales and activation.data == "TANH":
                return eigen_tanh(e, value)
            return activate(e, value, activation)

        def product(rows: SSAValue, weight: str) -> SSAValue:
            if weight in scales:  # int8 weight: LiteRT's hybrid product, per batch row
                return hybrid_matmul(e, rows, require_constant(v[weight], weight),
                                     np.array([scales[weight]], np.float32))
            return matmul(e, rows, v[weight], transpose_b=True)

        def gate(name: str, x_t: SSAValue, h: SSAValue) -> SSAValue:
            x_part = product(x_t, f"input_to_{name}_weights")
            h_part = product(h, f"recurrent_to_{name}_weights")
            bias = v.get(f"{name}_gate_bias" if name != "cell" else "cell_bias")
            if bias is None:
                return e.add(x_part, h_part)
            if scales:  # LiteRT's hybrid kernel accumulates onto the bias, input first
                return e.add(e.add(bias, x_part), h_part)
            return e.add(e.add(x_part, h_part), bias)

        def gates(x_t: SSAValue, h: SSAValue) -> tuple[SSAValue, SSAValue | None, SSAValue]:
            """The forget, input (None with CIFG) and output gates; the hybrid form's
            sigmoid runs once on the three side by side (fewer, larger ops)."""
            names = ["forget", "output"] + (["input"] if "input_to_input_weights" in v else [])
            if not scales:
                found = {n: e.unary(tew.SigmoidOp, gate(n, x_t, h)) for n in names}
            else:
                joined = eigen_sigmoid(e, e.concat([gate(n, x_t, h) for n in names], 1))
                found = {n: e.slice(joined, [0, k * units], [batch, units])
                         for k, n in enumerate(names)}
            return found["forget"], found.get("input"), found["output"]

        outputs = []
        for t in range(steps):
            start = [t, 0, 0] if time_major else [0, t, 0]
            size = [1, batch, dims[2]] if time_major else [batch, 1, dims[2]]
            x_t = e.reshape(e.slice(x, start, size), (batch, dims[2]))
            f, i, o = gates(x_t, h)
            if i is None:  # coupled input and forget gates
                i = e.sub(e.scalar(1.0, f.type.element_type, 2), f)
            g = act(gate("cell", x_t, h))
            c = e.add(e.mul(f, c), e.mul(i, g))
            if clip > 0:
                c = e.clamp(c, -clip, clip)
            h = e.mul(o, act(c) if activation.data != "NONE" else c)
            outputs.append(e.reshape(h, (1, batch, units) if time_major else (batch, 1, units)))
        for state, value in ((v["input_activation_state"], h), (v["input_cell_state"], c)):
            if isinstance(state.owner, VariableReadOp):  # a variable tensor: it persists
                e.emit(VariableWriteOp(state.owner.var_name, value))
        return [e.concat(outputs, 0 if time_major else 1)]


def _f32(e: Emitter, value: float) -> SSAValue:
    return e.const(np.full((1, 1), value, np.float32))


def _fma_free(e: Emitter, a: SSAValue, b: SSAValue, c: SSAValue) -> SSAValue:
    """Eigen's `pmadd(a, b, c)` without FMA (SSE): `a * b` rounded, then `+ c` rounded."""
    return e.add(e.mul(a, b), c)


def eigen_sigmoid(e: Emitter, x: SSAValue) -> SSAValue:
    """Eigen's `scalar_logistic_op<float>::packetOp` (the x86 LiteRT build): `exp(x)` as
    `(2^m p(r))^2` with `x/2 = m ln2 + r` (Cephes's two-part ln 2, a degree-5 polynomial),
    then `e / (1 + e)`; 0 below -104. Each multiply and add rounded to f32, `2^m` built
    exactly from its exponent bits (`tosa.logical_left_shift` + `tensor.bitcast`)."""
    half, one = _f32(e, 0.5), _f32(e, 1.0)
    t = e.mul(e.elementwise(tew.MinimumOp, x, _f32(e, 16.63553237915039)), half)
    m = e.unary(tew.FloorOp, _fma_free(e, t, _f32(e, 1.4426950216293335), half))
    r = _fma_free(e, m, _f32(e, -0.693359375), t)
    r = _fma_free(e, m, _f32(e, 2.1219444170128554e-4), r)
    r2 = e.mul(r, r)
    even = _fma_free(e, r2, _f32(e, 0.04189866781234741), _f32(e, 0.49999141693115234))
    odd = _fma_free(e, r2, _f32(e, 0.00833471305668354), _f32(e, 0.16666877269744873))
    p = _fma_free(e, r2, _fma_free(e, r, odd, even), e.add(r, one))
    biased = e.cast(e.clamp(e.add(m, _f32(e, 127.0)), 0.0, 255.0), i32)
    shifted = e.elementwise(tew.LogicalLeftShiftOp, biased,
                            e.const(np.full((1, 1), 23, np.int32), i32))
    power = e.mul(e.bitcast(shifted, f32), p)
    squared = e.mul(power, power)
    result = divide(e, squared, e.add(squared, one))
    below = e.greater(_f32(e, -104.0), x)
    return e.select(below, _f32(e, 0.0), result)


def eigen_tanh(e: Emitter, x: SSAValue) -> SSAValue:
    """Eigen's `ptanh_float` (the x86 LiteRT build): x clamped to +-7.90738964, then the
    rational `(x + x^3 P(x^2)) / Q(x^2)` (P of degree 3, Q of degree 4 with Q(0) = 1),
    every multiply and add rounded to f32 (no FMA)."""
    limit = 7.9073896408081055
    x = e.clamp(x, -limit, limit)
    x2 = e.mul(x, x)
    x3 = e.mul(x, x2)
    p = _f32(e, 1.3945536281312343e-08)
    for c in (2.1027335606049746e-05, 0.0035207567270845175, 0.1340216100215912):
        p = _fma_free(e, p, x2, _f32(e, c))
    q = _f32(e, 8.015776984393597e-07)
    for c in (0.0003326951409690082, 0.02597254514694214, 0.46735483407974243, 1.0):
        q = _fma_free(e, q, x2, _f32(e, c))
    numerator = e.add(e.mul(p, x3), x)
    return divide(e, numerator, q)


RNN_PATTERNS = (UnidirectionalSequenceLSTM,)
