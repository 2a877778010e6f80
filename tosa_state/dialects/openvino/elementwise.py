"""Element-wise `openvino` ops: arithmetic, comparison, logical, Convert, Select (the
activations are in `activation`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    i1,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
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
    broadcast_shapes,
    check_same_element_type,
    check_same_shape,
    element_type,
    format_shape,
    shapes_compatible,
    tensor_shape,
)

AUTO_BROADCAST_VALUES = ("numpy", "none")


class ElementwiseBinaryOp(IRDLOperation):
    """Base of the binary element-wise ops: `lhs`, `rhs`, `auto_broadcast` ("numpy" or "none")."""

    lhs = operand_def(TensorLike)
    rhs = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    RESULT_IS_BOOLEAN: ClassVar[bool] = False
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = False

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute, auto_broadcast: str = "numpy"
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"auto_broadcast": StringAttr(auto_broadcast)},
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.lhs, self.rhs), "lhs and rhs")
        operand_element = element_type(self.lhs.type)
        if self.OPERANDS_ARE_BOOLEAN and operand_element != i1:
            raise VerifyException(f"{self.name}: operands must be boolean (i1) tensors")
        expected = i1 if self.RESULT_IS_BOOLEAN else operand_element
        if element_type(self.result.type) != expected:
            raise VerifyException(
                f"{self.name}: result element type must be {expected}, got "
                f"{element_type(self.result.type)}"
            )
        _verify_broadcast(
            self, [self.lhs.type, self.rhs.type], self.result.type, self.auto_broadcast.data
        )


def _verify_broadcast(
    op: IRDLOperation, operand_types: Sequence[Attribute], result_type: Attribute, mode: str
) -> None:
    if mode not in AUTO_BROADCAST_VALUES:
        raise VerifyException(
            f"{op.name}: auto_broadcast must be one of {', '.join(AUTO_BROADCAST_VALUES)}, "
            f"got '{mode}'"
        )
    shapes = [tensor_shape(t) for t in operand_types]
    if mode == "none":
        for shape in shapes[1:]:
            if not shapes_compatible(shapes[0], shape):
                raise VerifyException(
                    f'{op.name}: with auto_broadcast = "none" the operand shapes must match, '
                    f"got {format_shape(shapes[0])} and {format_shape(shape)}"
                )
        expected = shapes[0]
    else:
        expected = shapes[0]
        for shape in shapes[1:]:
            try:
                expected = broadcast_shapes(expected, shape)
            except VerifyException as e:
                raise VerifyException(f"{op.name}: {e}") from None
    if not shapes_compatible(expected, tensor_shape(result_type)):
        raise VerifyException(
            f"{op.name}: result shape {format_shape(tensor_shape(result_type))} does not match "
            f"the broadcast operand shape {format_shape(expected)}"
        )


@irdl_op_definition
class AddOp(ElementwiseBinaryOp):
    """Add-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/add-1.html
    """

    name = "openvino.add"


@irdl_op_definition
class SubtractOp(ElementwiseBinaryOp):
    """Subtract-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/subtract-1.html
    """

    name = "openvino.subtract"


@irdl_op_definition
class SquaredDifferenceOp(ElementwiseBinaryOp):
    """SquaredDifference-1: `(lhs - rhs) ** 2`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/squared-difference-1.html
    """

    name = "openvino.squared_difference"


@irdl_op_definition
class MultiplyOp(ElementwiseBinaryOp):
    """Multiply-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/multiply-1.html
    """

    name = "openvino.multiply"


@irdl_op_definition
class DivideOp(IRDLOperation):
    """Divide-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/divide-1.html

    `m_pythondiv` (default true): integer division rounds toward negative infinity (floor);
    false rounds toward zero.
    """

    name = "openvino.divide"

    lhs = operand_def(TensorLike)
    rhs = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))
    m_pythondiv = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(True))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        result_type: Attribute,
        auto_broadcast: str = "numpy",
        m_pythondiv: bool = True,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={
                "auto_broadcast": StringAttr(auto_broadcast),
                "m_pythondiv": bool_attr(m_pythondiv),
            },
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.lhs, self.rhs, self.result), "operands and result")
        _verify_broadcast(
            self, [self.lhs.type, self.rhs.type], self.result.type, self.auto_broadcast.data
        )


@irdl_op_definition
class ModOp(ElementwiseBinaryOp):
    """Mod-1 (remainder with the sign of the dividend).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/mod-1.html
    """

    name = "openvino.mod"


@irdl_op_definition
class FloorModOp(ElementwiseBinaryOp):
    """FloorMod-1 (remainder with the sign of the divisor).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/floormod-1.html
    """

    name = "openvino.floor_mod"


@irdl_op_definition
class PowerOp(ElementwiseBinaryOp):
    """Power-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/power-1.html
    """

    name = "openvino.power"


@irdl_op_definition
class MaximumOp(ElementwiseBinaryOp):
    """Maximum-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/maximum-1.html
    """

    name = "openvino.maximum"


@irdl_op_definition
class MinimumOp(ElementwiseBinaryOp):
    """Minimum-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/minimum-1.html
    """

    name = "openvino.minimum"


@irdl_op_definition
class GreaterOp(ElementwiseBinaryOp):
    """Greater-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/greater-1.html
    """

    name = "openvino.greater"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LessOp(ElementwiseBinaryOp):
    """Less-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/less-1.html
    """

    name = "openvino.less"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class EqualOp(ElementwiseBinaryOp):
    """Equal-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/equal-1.html
    """

    name = "openvino.equal"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LogicalAndOp(ElementwiseBinaryOp):
    """LogicalAnd-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-and-1.html
    """

    name = "openvino.logical_and"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LogicalOrOp(ElementwiseBinaryOp):
    """LogicalOr-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-or-1.html
    """

    name = "openvino.logical_or"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LogicalXorOp(ElementwiseBinaryOp):
    """LogicalXor-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-xor-1.html
    """

    name = "openvino.logical_xor"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LessEqualOp(ElementwiseBinaryOp):
    """LessEqual-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/lessequal-1.html
    """

    name = "openvino.less_equal"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class GreaterEqualOp(ElementwiseBinaryOp):
    """GreaterEqual-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/greater-equal-1.html
    """

    name = "openvino.greater_equal"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class NotEqualOp(ElementwiseBinaryOp):
    """NotEqual-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/notequal-1.html
    """

    name = "openvino.not_equal"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


def _check_bitwise_operand(op: IRDLOperation, value: SSAValue) -> None:
    """Bitwise ops take booleans and integers (signed or unsigned), not floats."""
    if not isinstance(element_type(value.type), IntegerType):
        raise VerifyException(
            f"{op.name}: operands must be boolean or integer tensors, got {value.type}"
        )


class BitwiseBinaryOp(ElementwiseBinaryOp):
    """Base of BitwiseAnd / Or / Xor-13: booleans or integers, the result of the same type."""

    def verify_(self) -> None:
        super().verify_()
        _check_bitwise_operand(self, self.lhs)


@irdl_op_definition
class BitwiseAndOp(BitwiseBinaryOp):
    """BitwiseAnd-13.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/bitwise/bitwise-and-13.html
    """

    name = "openvino.bitwise_and"


@irdl_op_definition
class BitwiseOrOp(BitwiseBinaryOp):
    """BitwiseOr-13.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/bitwise/bitwise-or-13.html
    """

    name = "openvino.bitwise_or"


@irdl_op_definition
class BitwiseXorOp(BitwiseBinaryOp):
    """BitwiseXor-13.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/bitwise/bitwise-xor-13.html
    """

    name = "openvino.bitwise_xor"


class ElementwiseUnaryOp(IRDLOperation):
    """Base of the unary element-wise ops: the result has the type of `input`."""

    input = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    OPERAND_IS_BOOLEAN: ClassVar[bool] = False

    def __init__(
        self,
        input: SSAValue,
        result_type: Attribute,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input], result_types=[result_type], properties=dict(properties or {})
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        if self.OPERAND_IS_BOOLEAN and element_type(self.input.type) != i1:
            raise VerifyException(f"{self.name}: input must be a boolean (i1) tensor")
        check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class TanhOp(ElementwiseUnaryOp):
    """Tanh-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/tanh-1.html
    """

    name = "openvino.tanh"


@irdl_op_definition
class ExpOp(ElementwiseUnaryOp):
    """Exp-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/exp-1.html
    """

    name = "openvino.exp"


@irdl_op_definition
class AbsOp(ElementwiseUnaryOp):
    """Abs-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/abs-1.html
    """

    name = "openvino.abs"


@irdl_op_definition
class NegativeOp(ElementwiseUnaryOp):
    """Negative-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/negative-1.html
    """

    name = "openvino.negative"


@irdl_op_definition
class LogOp(ElementwiseUnaryOp):
    """Log-1 (natural logarithm).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/log-1.html
    """

    name = "openvino.log"


@irdl_op_definition
class FloorOp(ElementwiseUnaryOp):
    """Floor-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/floor-1.html
    """

    name = "openvino.floor"


@irdl_op_definition
class CeilingOp(ElementwiseUnaryOp):
    """Ceiling-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/ceiling-1.html
    """

    name = "openvino.ceiling"


@irdl_op_definition
class SqrtOp(ElementwiseUnaryOp):
    """Sqrt-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/sqrt-1.html
    """

    name = "openvino.sqrt"


@irdl_op_definition
class SinOp(ElementwiseUnaryOp):
    """Sin-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/sin-1.html
    """

    name = "openvino.sin"


@irdl_op_definition
class CosOp(ElementwiseUnaryOp):
    """Cos-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/cos-1.html
    """

    name = "openvino.cos"


@irdl_op_definition
class ErfOp(ElementwiseUnaryOp):
    """Erf-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/erf-1.html
    """

    name = "openvino.erf"


@irdl_op_definition
class IdentityOp(ElementwiseUnaryOp):
    """Identity-16: forwards `input` unchanged (any element type; the result type is the
    input type).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/identity-16.html
    """

    name = "openvino.identity"

    def verify_(self) -> None:
        if self.result.type != self.input.type:
            raise VerifyException(
                f"{self.name}: result type {self.result.type} differs from the input type "
                f"{self.input.type}"
            )


@irdl_op_definition
class LogicalNotOp(ElementwiseUnaryOp):
    """LogicalNot-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-not-1.html
    """

    name = "openvino.logical_not"
    OPERAND_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class BitwiseNotOp(ElementwiseUnaryOp):
    """BitwiseNot-13 (booleans: logical not).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/bitwise/bitwise-not-13.html
    """

    name = "openvino.bitwise_not"

    def verify_(self) -> None:
        super().verify_()
        _check_bitwise_operand(self, self.input)


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """Convert-1: element type conversion.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/type/convert-1.html
    """

    name = "openvino.convert"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    destination_type = prop_def(TypeAttribute)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"destination_type": element_type(result_type)},
        )

    def verify_(self) -> None:
        if element_type(self.result.type) != self.destination_type:
            raise VerifyException(
                f"{self.name}: result element type {element_type(self.result.type)} differs "
                f"from destination_type {self.destination_type}"
            )
        check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """Select-1: `cond ? then : else`, broadcast.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/condition/select-1.html
    """

    name = "openvino.select"

    cond = operand_def(TensorLike)
    then_value = operand_def(TensorLike)
    else_value = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        cond: SSAValue,
        then_value: SSAValue,
        else_value: SSAValue,
        result_type: Attribute,
        auto_broadcast: str = "numpy",
    ):
        super().__init__(
            operands=[cond, then_value, else_value],
            result_types=[result_type],
            properties={"auto_broadcast": StringAttr(auto_broadcast)},
        )

    def verify_(self) -> None:
        if element_type(self.cond.type) != i1:
            raise VerifyException(f"{self.name}: cond must be a boolean (i1) tensor")
        values = (self.then_value, self.else_value, self.result)
        check_same_element_type(self, values, "then, else and result")
        operand_types = [self.cond.type, self.then_value.type, self.else_value.type]
        _verify_broadcast(self, operand_types, self.result.type, self.auto_broadcast.data)


ELEMENTWISE_OPS = (
    AddOp,
    SubtractOp,
    MultiplyOp,
    DivideOp,
    ModOp,
    FloorModOp,
    PowerOp,
    MaximumOp,
    MinimumOp,
    GreaterOp,
    LessOp,
    EqualOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalNotOp,
    LogicalXorOp,
    LessEqualOp,
    GreaterEqualOp,
    NotEqualOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    BitwiseNotOp,
    TanhOp,
    ExpOp,
    AbsOp,
    NegativeOp,
    LogOp,
    FloorOp,
    CeilingOp,
    SqrtOp,
    SinOp,
    CosOp,
    ErfOp,
    SquaredDifferenceOp,
    IdentityOp,
    ConvertOp,
    SelectOp,
)
