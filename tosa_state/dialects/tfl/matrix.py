"""FULLY_CONNECTED: `input [..., K]` (flattened to rows of K) times `filter [O, K]` transposed,
plus `bias [O]`.

https://www.tensorflow.org/mlir/tfl_ops#tflfully_connected_tflfullyconnectedop
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import BoolAttr, DenseArrayBase, StringAttr, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
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
    OPERANDS_FORMAT,
    Tensor,
    check_activation,
    check_hybrid,
    check_result_shape,
    check_same_element,
    dims,
    fmt,
    static,
)


@irdl_op_definition
class FullyConnectedOp(IRDLOperation):
    """FULLY_CONNECTED (weights_format DEFAULT; `keep_num_dims` keeps the input's leading dims)."""

    name = "tfl.fully_connected"

    input = operand_def(Tensor)
    filter = operand_def(Tensor)
    bias = opt_operand_def(Tensor)
    output = result_def(Tensor)
    fused_activation_function = prop_def(StringAttr, default_value=StringAttr("NONE"))
    weights_format = prop_def(StringAttr, default_value=StringAttr("DEFAULT"))
    keep_num_dims = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))
    filter_scale = opt_prop_def(DenseArrayBase)
    """Hybrid form: the int8 filter's scales (one, or one per output channel; zero points
    0); the input is quantized per call, as LiteRT's hybrid kernel does."""
    asymmetric_quantize_inputs = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, filter: SSAValue, bias: SSAValue | None,
                 result_type: Attribute, activation: str = "NONE",
                 keep_num_dims: bool = False,
                 hybrid: tuple[Sequence[float], bool] | None = None):
        properties: dict[str, Attribute] = {
            "fused_activation_function": StringAttr(activation),
            "keep_num_dims": BoolAttr.from_bool(keep_num_dims)}
        if hybrid is not None:
            properties["filter_scale"] = DenseArrayBase.from_list(f32, list(hybrid[0]))
            properties["asymmetric_quantize_inputs"] = BoolAttr.from_bool(hybrid[1])
        super().__init__(operands=[value, filter, bias], result_types=[result_type],
                         properties=properties)

    def verify_(self) -> None:
        check_activation(self, self.fused_activation_function)
        if self.filter_scale is None:
            check_same_element(self, [self.input, self.filter, self.output],
                               "input, filter and result")
        else:
            check_hybrid(self, self.input, self.filter, self.output, self.filter_scale)
        if self.weights_format.data != "DEFAULT":
            raise VerifyException(
                f"{self.name}: weights_format '{self.weights_format.data}' (only DEFAULT)"
            )
        filter_dims, input_dims = dims(self.filter), dims(self.input)
        if len(filter_dims) != 2:
            raise VerifyException(f"{self.name}: filter must be [O, K], got {fmt(filter_dims)}")
        units, depth = filter_dims
        if self.bias is not None and dims(self.bias) != (units,):
            raise VerifyException(
                f"{self.name}: bias must have shape [{units}], got {fmt(dims(self.bias))}"
            )
        if not static(input_dims):
            return
        size = math.prod(input_dims)
        if not input_dims or depth == 0 or size % depth:
            raise VerifyException(
                f"{self.name}: input {fmt(input_dims)} is not made of rows of {depth}"
            )
        if self.keep_num_dims.value.data:
            expected: tuple[int, ...] = (*input_dims[:-1], units)
        else:
            expected = (size // depth, units)
        check_result_shape(self, self.output, expected)


MATRIX_OPS = (FullyConnectedOp,)
