"""UNIDIRECTIONAL_SEQUENCE_LSTM: TFLite's fused LSTM over a sequence (what the converter makes
of a tf_keras `LSTM`), with its state in two variable tensors that persist across calls.

https://www.tensorflow.org/mlir/tfl_ops#tflunidirectional_sequence_lstm_tflunidirectionalsequencelstmop
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, DictionaryAttr, FloatAttr, StringAttr, f32, i8
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    AttrSizedOperandSegments,
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import (
    Tensor,
    check_activation,
    check_same_element,
    compatible,
    dims,
    element,
    fmt,
)

LSTM_OPERANDS = (
    "input",
    "input_to_input_weights", "input_to_forget_weights", "input_to_cell_weights",
    "input_to_output_weights",
    "recurrent_to_input_weights", "recurrent_to_forget_weights", "recurrent_to_cell_weights",
    "recurrent_to_output_weights",
    "cell_to_input_weights", "cell_to_forget_weights", "cell_to_output_weights",
    "input_gate_bias", "forget_gate_bias", "cell_bias", "output_gate_bias",
    "projection_weights", "projection_bias",
    "input_activation_state", "input_cell_state",
    "input_layer_norm_coefficients", "forget_layer_norm_coefficients",
    "cell_layer_norm_coefficients", "output_layer_norm_coefficients",
)
"""TFLite's input order; the optional ones may be absent."""
LSTM_REQUIRED = frozenset({
    "input", "input_to_forget_weights", "input_to_cell_weights", "input_to_output_weights",
    "recurrent_to_forget_weights", "recurrent_to_cell_weights", "recurrent_to_output_weights",
    "forget_gate_bias", "cell_bias", "output_gate_bias", "input_activation_state",
    "input_cell_state",
})


@irdl_op_definition
class UnidirectionalSequenceLSTMOp(IRDLOperation):
    """UNIDIRECTIONAL_SEQUENCE_LSTM: gates i, f, c, o; `cell_clip` > 0 clips the cell state;
    the result is the output at every step ([B, T, U], or [T, B, U] with `time_major`)."""

    name = "tfl.unidirectional_sequence_lstm"

    input = operand_def(Tensor)
    input_to_input_weights = opt_operand_def(Tensor)
    input_to_forget_weights = operand_def(Tensor)
    input_to_cell_weights = operand_def(Tensor)
    input_to_output_weights = operand_def(Tensor)
    recurrent_to_input_weights = opt_operand_def(Tensor)
    recurrent_to_forget_weights = operand_def(Tensor)
    recurrent_to_cell_weights = operand_def(Tensor)
    recurrent_to_output_weights = operand_def(Tensor)
    cell_to_input_weights = opt_operand_def(Tensor)
    cell_to_forget_weights = opt_operand_def(Tensor)
    cell_to_output_weights = opt_operand_def(Tensor)
    input_gate_bias = opt_operand_def(Tensor)
    forget_gate_bias = operand_def(Tensor)
    cell_bias = operand_def(Tensor)
    output_gate_bias = operand_def(Tensor)
    projection_weights = opt_operand_def(Tensor)
    projection_bias = opt_operand_def(Tensor)
    input_activation_state = operand_def(Tensor)
    input_cell_state = operand_def(Tensor)
    input_layer_norm_coefficients = opt_operand_def(Tensor)
    forget_layer_norm_coefficients = opt_operand_def(Tensor)
    cell_layer_norm_coefficients = opt_operand_def(Tensor)
    output_layer_norm_coefficients = opt_operand_def(Tensor)
    output = result_def(Tensor)

    fused_activation_function = prop_def(StringAttr, default_value=StringAttr("TANH"))
    cell_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    proj_clip = prop_def(FloatAttr, default_value=FloatAttr(0.0, f32))
    time_major = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    weight_scales = opt_prop_def(DictionaryAttr)
    """Hybrid form: the scale of each int8 weight, by operand name (zero points 0); the
    input and the state are quantized per call, as LiteRT's hybrid kernel does."""
    asymmetric_quantize_inputs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (AttrSizedOperandSegments(as_property=True),)

    def __init__(self, operands: Sequence[SSAValue | None], result_type: Attribute,
                 activation: str, cell_clip: float, proj_clip: float, time_major: bool,
                 hybrid: tuple[dict[str, float], bool] | None = None):
        properties: dict[str, Attribute] = {
            "fused_activation_function": StringAttr(activation),
            "cell_clip": FloatAttr(cell_clip, f32), "proj_clip": FloatAttr(proj_clip, f32),
            "time_major": BoolAttr.from_bool(time_major)}
        if hybrid is not None:
            properties["weight_scales"] = DictionaryAttr(
                {k: FloatAttr(v, f32) for k, v in hybrid[0].items()})
            properties["asymmetric_quantize_inputs"] = BoolAttr.from_bool(hybrid[1])
        super().__init__(operands=[[v] if v is not None else [] for v in operands],
                         result_types=[result_type], properties=properties)

    def hybrid_scales(self) -> dict[str, float]:
        """The int8 weights' scales by operand name (empty: a float LSTM)."""
        if self.weight_scales is None:
            return {}
        return {k: float(v.value.data) for k, v in self.weight_scales.data.items()
                if isinstance(v, FloatAttr)}

    def operand_named(self, name: str) -> SSAValue | None:
        value = getattr(self, name)
        assert value is None or isinstance(value, SSAValue)
        return value

    def verify_(self) -> None:
        check_activation(self, self.fused_activation_function)
        hybrid = self.hybrid_scales()
        present = [v for n in LSTM_OPERANDS
                   if (v := self.operand_named(n)) is not None and n not in hybrid]
        check_same_element(self, (*present, self.output), "operands and result")
        for name in hybrid:
            if name not in LSTM_OPERANDS or "weights" not in name or \
                    (value := self.operand_named(name)) is None or element(value) != i8:
                raise VerifyException(f"{self.name}: weight_scales names {name}, which is not "
                                      "an i8 weight of the op")
        x = dims(self.input)
        if len(x) != 3:
            raise VerifyException(f"{self.name}: input must have rank 3, got {fmt(x)}")
        batch, depth = (x[1], x[2]) if self.time_major.value.data else (x[0], x[2])
        units = dims(self.forget_gate_bias)[0] if dims(self.forget_gate_bias) else -1
        expected = {
            "input_to_": (units, depth), "recurrent_to_": (units, units),
            "_bias": (units,), "input_activation_state": (batch, units),
            "input_cell_state": (batch, units),
        }
        for name in LSTM_OPERANDS[1:]:
            value = self.operand_named(name)
            if value is None or name.startswith(("cell_to", "projection", "input_layer",
                                                  "forget_layer", "cell_layer", "output_layer")):
                continue
            shape = next(s for k, s in expected.items() if k in name)
            if not compatible(dims(value), shape):
                raise VerifyException(
                    f"{self.name}: {name} must have shape {fmt(shape)}, got {fmt(dims(value))}"
                )
        out = (x[0], x[1], units)
        if self.projection_weights is None and not compatible(dims(self.output), out):
            raise VerifyException(
                f"{self.name}: result shape {fmt(dims(self.output))} must be {fmt(out)}"
            )


RNN_OPS = (UnidirectionalSequenceLSTMOp,)
