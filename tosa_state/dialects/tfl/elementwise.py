"""Element-wise `tfl` ops: ADD, SUB, MUL (numpy broadcasting, fused activation), LESS,
LOGICAL_AND, RELU, LOGISTIC, TANH.

https://www.tensorflow.org/mlir/tfl_ops
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import StringAttr, i1
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

from tosa_state.dialects.tfl.common import (
    OPERANDS_FORMAT,
    Tensor,
    broadcast,
    check_activation,
    check_boolean,
    check_result_shape,
    check_same_element,
    dims,
    element,
)


class BinaryOp(IRDLOperation):
    """`lhs` op `rhs` with numpy broadcasting."""

    lhs = operand_def(Tensor)
    rhs = operand_def(Tensor)
    output = result_def(Tensor)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    BOOLEAN_RESULT: ClassVar[bool] = False
    BOOLEAN_OPERANDS: ClassVar[bool] = False

    def __init__(self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute,
                 properties: dict[str, Attribute] | None = None):
        super().__init__(operands=[lhs, rhs], result_types=[result_type],
                         properties=properties or {})

    def verify_(self) -> None:
        check_same_element(self, (self.lhs, self.rhs), "lhs and rhs")
        if self.BOOLEAN_OPERANDS:
            check_boolean(self, self.lhs, "lhs")
        expected = i1 if self.BOOLEAN_RESULT else element(self.lhs)
        if element(self.output) != expected:
            raise VerifyException(
                f"{self.name}: result element type must be {expected}, got {element(self.output)}"
            )
        check_result_shape(self, self.output, broadcast(self, dims(self.lhs), dims(self.rhs)))


class ArithmeticOp(BinaryOp):
    """A binary op with a fused activation."""

    fused_activation_function = prop_def(StringAttr, default_value=StringAttr("NONE"))

    def verify_(self) -> None:
        super().verify_()
        check_activation(self, self.fused_activation_function)


@irdl_op_definition
class AddOp(ArithmeticOp):
    """ADD."""

    name = "tfl.add"


@irdl_op_definition
class SubOp(ArithmeticOp):
    """SUB."""

    name = "tfl.sub"


@irdl_op_definition
class MulOp(ArithmeticOp):
    """MUL."""

    name = "tfl.mul"


@irdl_op_definition
class LessOp(BinaryOp):
    """LESS: `lhs < rhs`, a boolean tensor."""

    name = "tfl.less"
    BOOLEAN_RESULT: ClassVar[bool] = True


@irdl_op_definition
class LogicalAndOp(BinaryOp):
    """LOGICAL_AND of boolean tensors."""

    name = "tfl.logical_and"
    BOOLEAN_RESULT: ClassVar[bool] = True
    BOOLEAN_OPERANDS: ClassVar[bool] = True


class UnaryOp(IRDLOperation):
    """A float op on one tensor; the result has its type."""

    x = operand_def(Tensor)
    y = result_def(Tensor)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, x: SSAValue, result_type: Attribute):
        super().__init__(operands=[x], result_types=[result_type])

    def verify_(self) -> None:
        if self.x.type != self.y.type:
            raise VerifyException(
                f"{self.name}: result type {self.y.type} must be the input type {self.x.type}"
            )


@irdl_op_definition
class ReluOp(UnaryOp):
    """RELU: max(x, 0)."""

    name = "tfl.relu"


@irdl_op_definition
class LogisticOp(UnaryOp):
    """LOGISTIC: 1 / (1 + exp(-x))."""

    name = "tfl.logistic"


@irdl_op_definition
class TanhOp(UnaryOp):
    """TANH."""

    name = "tfl.tanh"


ELEMENTWISE_OPS = (AddOp, SubOp, MulOp, LessOp, LogicalAndOp, ReluOp, LogisticOp, TanhOp)
