"""UNIDIRECTIONAL_SEQUENCE_LSTM, unrolled over its (static) time steps.

Per step, as TFLite's kernel: i = sigmoid(x Wi^T + h Ri^T + bi) (1 - f without input-gate
weights: CIFG), f = sigmoid(x Wf^T + h Rf^T + bf), g = act(x Wc^T + h Rc^T + bc),
c = f c + i g (clipped to +-cell_clip when it is > 0), o = sigmoid(x Wo^T + h Ro^T + bo),
h = o act(c). The result stacks every step's h. The state inputs are variable tensors
(`tosa.variable`s here): the final h and c are written back, so the state persists across
calls as in LiteRT. Peepholes, projection and layer normalisation (which Keras exports do not
use) are refused. The hybrid form (int8 weights, float input and state) multiplies as
LiteRT's hybrid kernel: the input and h quantized per batch row at each step.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.rnn import LSTM_OPERANDS, UnidirectionalSequenceLSTMOp
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa.variables import VariableReadOp, VariableWriteOp
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    Unsupported,
    require_constant,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.matrix import matmul
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate
from tosa_state.transforms.tflite_to_tosa.matrix import hybrid_matmul

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

        outputs = []
        for t in range(steps):
            start = [t, 0, 0] if time_major else [0, t, 0]
            size = [1, batch, dims[2]] if time_major else [batch, 1, dims[2]]
            x_t = e.reshape(e.slice(x, start, size), (batch, dims[2]))
            f = e.unary(tew.SigmoidOp, gate("forget", x_t, h))
            if "input_to_input_weights" in v:
                i = e.unary(tew.SigmoidOp, gate("input", x_t, h))
            else:  # coupled input and forget gates
                i = e.sub(e.scalar(1.0, f.type.element_type, 2), f)
            g = activate(e, gate("cell", x_t, h), activation)
            c = e.add(e.mul(f, c), e.mul(i, g))
            if clip > 0:
                c = e.clamp(c, -clip, clip)
            o = e.unary(tew.SigmoidOp, gate("output", x_t, h))
            h = e.mul(o, activate(e, c, activation) if activation.data != "NONE" else c)
            outputs.append(e.reshape(h, (1, batch, units) if time_major else (batch, 1, units)))
        for state, value in ((v["input_activation_state"], h), (v["input_cell_state"], c)):
            if isinstance(state.owner, VariableReadOp):  # a variable tensor: it persists
                e.emit(VariableWriteOp(state.owner.var_name, value))
        return [e.concat(outputs, 0 if time_major else 1)]


RNN_PATTERNS = (UnidirectionalSequenceLSTM,)
