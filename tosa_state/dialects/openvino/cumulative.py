"""Cumulative `openvino` ops: CumSum."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, i1
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_integer_operand,
    check_same_element_type,
    check_same_shape,
    element_type,
    tensor_shape,
)


@irdl_op_definition
class CumSumOp(IRDLOperation):
    """CumSum-3: running sums along `axis` (a 0-D integer input; negative counts from the end).
    `exclusive` leaves the element itself out, `reverse` sums from the end.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/cumsum-3.html
    """

    name = "openvino.cumsum"

    input = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    result = result_def(TensorLike)
    exclusive = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    reverse = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        axis: SSAValue,
        result_type: Attribute,
        exclusive: bool = False,
        reverse: bool = False,
    ):
        super().__init__(
            operands=[input, axis],
            result_types=[result_type],
            properties={"exclusive": bool_attr(exclusive), "reverse": bool_attr(reverse)},
        )

    def verify_(self) -> None:
        check_integer_operand(self, self.axis, "axis")
        axis_shape = tensor_shape(self.axis.type)
        if axis_shape is not None and axis_shape not in ((), (1,)):
            raise VerifyException(f"{self.name}: axis must be a scalar, got {self.axis.type}")
        check_same_element_type(self, (self.input, self.result), "input and result")
        if element_type(self.input.type) == i1:
            raise VerifyException(f"{self.name}: input must be numeric, got {self.input.type}")
        check_same_shape(self, self.input.type, self.result.type)


CUMULATIVE_OPS = (CumSumOp,)
