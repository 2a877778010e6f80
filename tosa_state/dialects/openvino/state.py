"""ReadValue and Assign (opset3 / opset6): the state of the `openvino` dialect."""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerAttr, IntegerType, StringAttr, i64
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    PartialShapeAttr,
    TensorLike,
    element_type,
    format_shape,
    tensor_shape,
)


def _version_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


@irdl_op_definition
class ReadValueOp(IRDLOperation):
    """ReadValue-3 / ReadValue-6: the value of variable `variable_id` before this step's Assign.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/read-value-6.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/read-value-3.html

    On the first step (and after a reset) it returns `init` (ReadValue-6 without `init`: zeros
    of `variable_shape` / `variable_type`). Opset 3 requires `init` and takes the variable's type
    from it; opset 6 declares the variable with `variable_shape` and `variable_type` (absent
    `variable_type` = OpenVINO's `dynamic`), which must relax the type of `init`.
    """

    name = "openvino.read_value"

    init = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    variable_id = prop_def(StringAttr)
    version = prop_def(IntegerAttr[IntegerType])
    variable_type = opt_prop_def(TypeAttribute)
    variable_shape = opt_prop_def(PartialShapeAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$variable_id (`(` $init^ `)`)? attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        variable_id: str,
        result_type: Attribute,
        init: SSAValue | None = None,
        *,
        version: int = 6,
        variable_type: Attribute | None = None,
        variable_shape: PartialShapeAttr | None = None,
    ):
        super().__init__(
            operands=[[init] if init is not None else []],
            result_types=[result_type],
            properties={
                "variable_id": StringAttr(variable_id),
                "version": _version_attr(version),
                "variable_type": variable_type,
                "variable_shape": variable_shape,
            },
        )

    def verify_(self) -> None:
        if not self.variable_id.data:
            raise VerifyException(f"{self.name}: variable_id must not be empty")
        version = self.version.value.data
        if version == 3:
            self._verify_opset3()
        elif version == 6:
            self._verify_opset6()
        else:
            raise VerifyException(f"{self.name}: version must be 3 or 6, got {version}")

    def _verify_opset3(self) -> None:
        if self.init is None:
            raise VerifyException(f"{self.name}: ReadValue-3 requires an init operand")
        if self.variable_type is not None or self.variable_shape is not None:
            raise VerifyException(
                f"{self.name}: ReadValue-3 takes its type from init; variable_type and "
                "variable_shape are opset 6 properties"
            )
        if self.init.type != self.result.type:
            raise VerifyException(
                f"{self.name}: result type {self.result.type} differs from the init type "
                f"{self.init.type}"
            )

    def _verify_opset6(self) -> None:
        if self.variable_shape is None:
            raise VerifyException(f"{self.name}: ReadValue-6 requires variable_shape")
        if self.init is not None:
            self._verify_relaxes(self.init.type, "init value")
        declared = self.variable_type
        result_element = element_type(self.result.type)
        if declared is not None and declared != result_element:
            raise VerifyException(
                f"{self.name}: result element type {result_element} differs from variable_type "
                f"{declared}"
            )
        if not self.variable_shape.compatible(tensor_shape(self.result.type)):
            raise VerifyException(
                f"{self.name}: result shape {format_shape(tensor_shape(self.result.type))} does "
                f"not fit variable_shape {self.variable_shape.to_openvino()}"
            )

    def _verify_relaxes(self, type_: Attribute, what: str) -> None:
        assert self.variable_shape is not None
        declared = self.variable_type
        if declared is not None and declared != element_type(type_):
            raise VerifyException(
                f"{self.name}: variable_type {declared} does not relax the {what}'s element type "
                f"{element_type(type_)} (it must be equal, or dynamic)"
            )
        shape = tensor_shape(type_)
        if not self.variable_shape.relaxes(shape):
            raise VerifyException(
                f"{self.name}: variable_shape {self.variable_shape.to_openvino()} does not "
                f"relax the {what}'s shape {format_shape(shape)}"
            )


@irdl_op_definition
class AssignOp(IRDLOperation):
    """Assign-3 / Assign-6: stores `value` into variable `variable_id` for the next step.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/assign-6.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/assign-3.html

    The IR's output port (a copy of `value` that nothing reads) is dropped.
    `openvino.assign "v", %x {version = 6 : i64} : tensor<1x4xf32>`
    """

    name = "openvino.assign"

    value = operand_def(TensorLike)
    variable_id = prop_def(StringAttr)
    version = prop_def(IntegerAttr[IntegerType])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$variable_id `,` $value attr-dict `:` type($value)"

    def __init__(self, variable_id: str, value: SSAValue, *, version: int = 6):
        super().__init__(
            operands=[value],
            properties={"variable_id": StringAttr(variable_id), "version": _version_attr(version)},
        )

    def verify_(self) -> None:
        if not self.variable_id.data:
            raise VerifyException(f"{self.name}: variable_id must not be empty")
        if self.version.value.data not in (3, 6):
            raise VerifyException(
                f"{self.name}: version must be 3 or 6, got {self.version.value.data}"
            )


STATE_OPS = (
    ReadValueOp,
    AssignOp,
)
