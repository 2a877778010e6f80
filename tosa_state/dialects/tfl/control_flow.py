"""Control flow: WHILE (cond / body subgraphs as functions) and CALL_ONCE (an init subgraph
run once per interpreter).

https://www.tensorflow.org/mlir/tfl_ops#tflwhile_tflwhileop
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import ModuleOp, StringAttr, SymbolRefAttr, TensorType, i1
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    prop_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import OPERANDS_FORMAT, Tensor, compatible, dims


def lookup_function(op: Operation, name: str) -> FuncOp | None:
    """The `func.func @name` of the module holding `op`."""
    module = op.parent_op()
    while module is not None and not isinstance(module, ModuleOp):
        module = module.parent_op()
    if module is None:
        return None
    for candidate in module.body.block.ops:
        if isinstance(candidate, FuncOp) and candidate.sym_name.data == name:
            return candidate
    return None


def _all_compatible(a: Sequence[Attribute], b: Sequence[Attribute]) -> bool:
    """Tensor types pairwise of one element type and compatible shapes."""
    return len(a) == len(b) and all(
        isinstance(x, TensorType) and isinstance(y, TensorType)
        and x.element_type == y.element_type and compatible(dims(x), dims(y))
        for x, y in zip(a, b, strict=True)
    )


@irdl_op_definition
class WhileOp(IRDLOperation):
    """WHILE: `inputs` flow through `body` while `cond` returns true; the last values are the
    results. `cond` and `body` name functions of the module."""

    name = "tfl.while"

    inputs = var_operand_def(Tensor)
    outputs = var_result_def(Tensor)
    cond = prop_def(SymbolRefAttr)
    body = prop_def(SymbolRefAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, inputs: Sequence[SSAValue], result_types: Sequence[Attribute],
                 cond: str, body: str):
        super().__init__(operands=[list(inputs)], result_types=[list(result_types)],
                         properties={"cond": SymbolRefAttr(cond), "body": SymbolRefAttr(body)})

    def functions(self) -> tuple[FuncOp, FuncOp]:
        """The cond and body functions (`VerifyException` if missing)."""
        found = []
        for what, ref in (("cond", self.cond), ("body", self.body)):
            func = lookup_function(self, ref.root_reference.data)
            if func is None:
                raise VerifyException(
                    f"{self.name}: {what} function @{ref.root_reference.data} does not exist"
                )
            found.append(func)
        return found[0], found[1]

    def verify_(self) -> None:
        types = [v.type for v in self.inputs]
        if not _all_compatible(types, [r.type for r in self.outputs]):
            raise VerifyException(f"{self.name}: results must have the types of the inputs")
        if self.parent_op() is None:
            return
        cond, body = self.functions()
        if not _all_compatible(cond.function_type.inputs.data, types) or list(
            cond.function_type.outputs.data
        ) != [TensorType(i1, [])]:
            raise VerifyException(
                f"{self.name}: cond @{cond.sym_name.data} must take the loop values "
                "and return tensor<i1>"
            )
        if not _all_compatible(body.function_type.inputs.data, types) or not _all_compatible(
            body.function_type.outputs.data, types
        ):
            raise VerifyException(
                f"{self.name}: body @{body.sym_name.data} must map the loop values to values "
                "of the same types"
            )


@irdl_op_definition
class CallOnceOp(IRDLOperation):
    """CALL_ONCE: runs `session_init_function` (no arguments, no results) once."""

    name = "tfl.call_once"

    session_init_function = prop_def(StringAttr)

    traits = traits_def()
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict"

    def __init__(self, function: str):
        super().__init__(properties={"session_init_function": StringAttr(function)})

    def function(self) -> FuncOp:
        name = self.session_init_function.data
        func = lookup_function(self, name)
        if func is None:
            raise VerifyException(f"{self.name}: init function @{name} does not exist")
        return func

    def verify_(self) -> None:
        if self.parent_op() is None:
            return
        func = self.function()
        if func.function_type.inputs.data or func.function_type.outputs.data:
            raise VerifyException(
                f"{self.name}: init function @{func.sym_name.data} must take and return nothing"
            )


CONTROL_FLOW_OPS = (WhileOp, CallOnceOp)
