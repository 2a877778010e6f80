"""Index-driven data-movement `openvino` ops: Roll."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    check_integer_operand,
    check_rank_at_most_one,
    check_same_element_type,
    check_same_shape,
    tensor_shape,
)


@irdl_op_definition
class RollOp(IRDLOperation):
    """Roll-7: shifts `data` cyclically by `shift[i]` along `axes[i]` (0-D or 1-D integer
    inputs; one shift for all axes, or one per axis; negative axes count from the end).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/roll-7.html
    """

    name = "openvino.roll"

    input = operand_def(TensorLike)
    shift = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, shift: SSAValue, axes: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, shift, axes], result_types=[result_type])

    def verify_(self) -> None:
        for value, what in ((self.shift, "shift"), (self.axes, "axes")):
            check_integer_operand(self, value, what)
            check_rank_at_most_one(self, value, what)
        shift, axes = tensor_shape(self.shift.type), tensor_shape(self.axes.type)
        if shift and axes is not None and shift[0] not in (1, DYNAMIC_INDEX):
            count = 1 if axes == () else axes[0]
            if count not in (shift[0], DYNAMIC_INDEX):
                raise VerifyException(
                    f"{self.name}: shift has {shift[0]} elements but axes has {count}"
                )
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)


INDEXING_OPS = (RollOp,)
