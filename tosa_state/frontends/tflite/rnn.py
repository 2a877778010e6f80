"""UNIDIRECTIONAL_SEQUENCE_LSTM (its state inputs are variable tensors)."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from xdsl.ir import Operation

from tosa_state.dialects.tfl.rnn import LSTM_OPERANDS, LSTM_REQUIRED, UnidirectionalSequenceLSTMOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _lstm(op: OperatorInput) -> Operation:
    options = op.options(tflite.UnidirectionalSequenceLSTMOptions,
                         O.UnidirectionalSequenceLSTMOptions)
    if options is None:
        raise op.where.error("UNIDIRECTIONAL_SEQUENCE_LSTM needs its options")
    operands = [op.optional(i) for i in range(len(LSTM_OPERANDS))]
    for index, name in enumerate(LSTM_OPERANDS):
        if name in LSTM_REQUIRED:
            op.operand(index, name)
    scales: dict[str, float] = {}
    if op.quantization and op.quantization[0] is None:  # LiteRT's hybrid kernel
        for index, params in enumerate(op.quantization):
            if params is None:
                continue
            if params.per_channel:
                raise op.where.error(f"{LSTM_OPERANDS[index]} is quantized per channel (a "
                                     "hybrid LSTM takes one scale per weight)")
            scales[LSTM_OPERANDS[index]] = params.scales[0]
    hybrid = None
    if scales:
        hybrid = (scales, bool(op.read("asymmetric_quantize_inputs",
                                       options.AsymmetricQuantizeInputs)))
    return UnidirectionalSequenceLSTMOp(
        operands, op.result(), op.activation(options),
        float(op.read("cell_clip", options.CellClip)),
        float(op.read("proj_clip", options.ProjClip)),
        bool(op.read("time_major", options.TimeMajor)),
        hybrid,
    )


BUILDERS: dict[int, Builder] = {B.UNIDIRECTIONAL_SEQUENCE_LSTM: Builder(_lstm, (20, 24))}
HYBRID_WEIGHTS: dict[int, tuple[int, ...]] = {
    B.UNIDIRECTIONAL_SEQUENCE_LSTM: tuple(range(1, 9))}
"""UNIDIRECTIONAL_SEQUENCE_LSTM takes int8 input and recurrent weights with float input,
state and output (hybrid)."""
