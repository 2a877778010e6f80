"""Resource variables: VAR_HANDLE (a handle named by `shared_name`), READ_VARIABLE,
ASSIGN_VARIABLE.

https://www.tensorflow.org/mlir/tfl_ops#tflvar_handle_tflvarhandleop
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import OPERANDS_FORMAT, ResourceType, Tensor

Resource = base(ResourceType)


@irdl_op_definition
class VarHandleOp(IRDLOperation):
    """VAR_HANDLE: the handle of the resource variable `shared_name` (in `container`)."""

    name = "tfl.var_handle"

    container = prop_def(StringAttr, default_value=StringAttr(""))
    shared_name = prop_def(StringAttr)
    handle = result_def(Resource)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($handle)"

    def __init__(self, shared_name: str, container: str = ""):
        super().__init__(result_types=[ResourceType()],
                         properties={"shared_name": StringAttr(shared_name),
                                     "container": StringAttr(container)})

    def verify_(self) -> None:
        if not self.shared_name.data:
            raise VerifyException(f"{self.name}: shared_name must not be empty")


def variable_name(handle: SSAValue) -> str | None:
    """The variable a handle names, when it comes straight from a VAR_HANDLE."""
    owner = handle.owner
    if isinstance(owner, VarHandleOp):
        container = owner.container.data
        return f"{container}/{owner.shared_name.data}" if container else owner.shared_name.data
    return None


@irdl_op_definition
class ReadVariableOp(IRDLOperation):
    """READ_VARIABLE: the current value of the variable."""

    name = "tfl.read_variable"

    resource_id = operand_def(Resource)
    result = result_def(Tensor)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, handle: SSAValue, result_type: Attribute):
        super().__init__(operands=[handle], result_types=[result_type])


@irdl_op_definition
class AssignVariableOp(IRDLOperation):
    """ASSIGN_VARIABLE: `value` becomes the variable's value."""

    name = "tfl.assign_variable"

    resource_id = operand_def(Resource)
    value = operand_def(Tensor)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$resource_id `,` $value attr-dict `:` type($resource_id) `,` type($value)"

    def __init__(self, handle: SSAValue, value: SSAValue):
        super().__init__(operands=[handle, value])


@irdl_op_definition
class VariableTensorOp(IRDLOperation):
    """A TFLite variable tensor (`is_variable`): a tensor whose value persists across calls,
    zeros at first and after LiteRT's `reset_all_variables()`. The fused sequence ops read
    their state from it and write their final state back."""

    name = "tfl.variable_tensor"

    tensor_name = prop_def(StringAttr)
    output = result_def(Tensor)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($output)"

    def __init__(self, tensor_name: str, result_type: Attribute):
        super().__init__(result_types=[result_type],
                         properties={"tensor_name": StringAttr(tensor_name)})

    def verify_(self) -> None:
        if not self.tensor_name.data:
            raise VerifyException(f"{self.name}: tensor_name must not be empty")


STATE_OPS = (VarHandleOp, ReadVariableOp, AssignVariableOp, VariableTensorOp)
