"""Importing the recurrent cells: LSTMCell, GRUCell, RNNCell, LSTMSequence, GRUSequence,
RNNSequence."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _cell_attributes(b: OpBuilder, default_activations: str) -> dict[str, object]:
    return {
        "hidden_size": b.data_int("hidden_size"),
        "activations": b.data_list("activations", default_activations),
        "activations_alpha": b.data_floats("activations_alpha"),
        "activations_beta": b.data_floats("activations_beta"),
        "clip": b.data_float("clip", 0.0),
    }


def _build_lstm_cell(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh,tanh")
    if b.layer.version == "opset4":
        if len(b.operands) != 6:
            b.fail(f"LSTMCell-4 takes 6 inputs, got {len(b.operands)}")
        return ov.LSTMCellOp(b.operands, b.result_types, **attributes)  # type: ignore[arg-type]
    # LSTMCell-1: peepholes P (input 6) and input_forget; OpenVINO's reference takes W, R,
    # B in the gate order f, i, c, o only (and throws for another weights_format)
    weights_format = b.data("weights_format", "fico").strip().lower()
    if weights_format != "fico":
        b.fail(f"weights_format '{weights_format}' is not fico (OpenVINO's reference takes "
               "only fico)")
    return ov.LSTMCellOp(b.operands, b.result_types,
                         input_forget=b.data_bool("input_forget", False),
                         **attributes)  # type: ignore[arg-type]


def _build_gru_cell(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh")
    linear_before_reset = b.data_bool("linear_before_reset", False)
    return ov.GRUCellOp(
        b.operands,
        b.result_types[0],
        linear_before_reset=linear_before_reset,
        **attributes,  # type: ignore[arg-type]
    )


def _direction(b: OpBuilder) -> str:
    direction = b.data("direction").strip().lower()
    if direction not in ov.DIRECTIONS:
        b.fail(f"direction '{direction}' is not one of {', '.join(ov.DIRECTIONS)}")
    return direction


def _build_lstm_sequence(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh,tanh")
    return ov.LSTMSequenceOp(b.operands, b.result_types, direction=_direction(b),
                             **attributes)  # type: ignore[arg-type]


def _build_gru_sequence(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh")
    return ov.GRUSequenceOp(
        b.operands, b.result_types, direction=_direction(b),
        linear_before_reset=b.data_bool("linear_before_reset", False),
        **attributes,  # type: ignore[arg-type]
    )


def _build_rnn_cell(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "tanh")
    return ov.RNNCellOp(b.operands, b.result_types[0], **attributes)  # type: ignore[arg-type]


def _build_rnn_sequence(b: OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "tanh")
    return ov.RNNSequenceOp(b.operands, b.result_types, direction=_direction(b),
                            **attributes)  # type: ignore[arg-type]


RNN_CELL_LAYERS: dict[str, OpSpec] = {
    "LSTMCell": OpSpec(("opset1", "opset4"), (6, 7), _build_lstm_cell, outputs=2),
    "GRUCell": OpSpec(("opset3",), (5, 5), _build_gru_cell),
    "LSTMSequence": OpSpec(("opset5",), (7, 7), _build_lstm_sequence, outputs=3),
    "GRUSequence": OpSpec(("opset5",), (6, 6), _build_gru_sequence, outputs=2),
    "RNNCell": OpSpec(("opset1",), (5, 5), _build_rnn_cell),
    "RNNSequence": OpSpec(("opset5",), (6, 6), _build_rnn_sequence, outputs=2),
}
