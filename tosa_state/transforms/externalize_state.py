"""`externalize-state`: TOSA variables become extra arguments and results.

The inverse of `make-stateful`, for targets without persistent memory (what OpenVINO's NPU
compiler does with `convert-assign-read-value`): the caller keeps the state and passes it
in and out on every call.

    tosa.variable @h = dense<0.0> : S
    func.func @main(%x: T) -> U {
      %h0 = tosa.variable.read @h : S
      ...
      tosa.variable.write @h, %h1 : S
      return %y : U
    }
  =>
    func.func @main(%x: T, %h0: S {tosa_state.name = "h",
                                   tosa_state.initial_value = dense<0.0> : S})
        -> (U, S {tosa_state.name = "h"}) {
      ...
      return %y, %h1 : U, S
    }

Each variable of the module (in declaration order) gets one argument and one result at the
end of the entry function's signature, both named after it. A read is the argument, or the
value last written before it in the same call; the result is the value last written (the
argument itself if the function never writes the variable). The initial value is kept on
the argument as `tosa_state.initial_value`, where `make-stateful` finds it again. Reads and
writes must sit directly in the entry function's body (not in other functions or regions).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.signature import (
    INITIAL_VALUE_ATTR,
    StateSignatureError,
    add_ports,
    callers,
    returned,
    select_entry,
)
from tosa_state.transforms.tosa_hoist_variables import hoist_variables


@dataclass(frozen=True)
class ExternalizeStatePass(ModulePass):
    """Turns every `tosa.variable` into an argument and a result of the entry function
    (`entry`, default `main`, else the only public one): the inverse of `make-stateful`."""

    name = "externalize-state"

    entry: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_variables(ctx, op)
        try:
            externalize_state(op, self.entry)
        except TosaStateError as error:
            raise PassFailedException(str(error)) from None


def externalize_state(module: ModuleOp, entry: str | None = None) -> list[str]:
    """Turn the module's variables into inputs and outputs of the entry function; returns
    their names, in the order of the new inputs and outputs."""
    variables = [op for op in module.body.block.ops if isinstance(op, VariableOp)]
    if not variables:
        return []
    func = select_entry(module, entry)
    if (call := next(callers(module, func), None)) is not None:
        raise StateSignatureError(error_at(call, f"externalize-state cannot change the "
                                           f"signature of '{func.sym_name.data}': it is "
                                           "called here"))
    _check_accesses(module, func)
    names = [v.var_name for v in variables]
    inputs = add_ports(func, [(v.tensor_type, _input_attrs(v)) for v in variables], [])
    current: dict[str, SSAValue] = dict(zip(names, inputs, strict=True))
    ret = returned(func)
    for op in list(func.body.block.ops):
        if isinstance(op, VariableReadOp):
            op.results[0].replace_all_uses_with(current[op.var_name])
            op.detach()
            op.erase()
        elif isinstance(op, VariableWriteOp):
            current[op.var_name] = op.input1
            op.detach()
            op.erase()
    outputs = [(current[name], DictionaryAttr({"tosa_state.name": StringAttr(name)}))
               for name in names]
    add_ports(func, [], outputs)
    assert returned(func) is ret
    for variable in variables:
        variable.detach()
        variable.erase()
    return names


def _input_attrs(variable: VariableOp) -> DictionaryAttr:
    attrs: dict[str, Attribute] = {"tosa_state.name": StringAttr(variable.var_name)}
    if variable.initial_value is not None:
        attrs[INITIAL_VALUE_ATTR] = variable.initial_value
    return DictionaryAttr(attrs)


def _check_accesses(module: ModuleOp, func: FuncOp) -> None:
    """Every read and write is an op of the entry function's body."""
    for op in module.walk():
        if isinstance(op, VariableReadOp | VariableWriteOp) and op.parent_op() is not func:
            raise StateSignatureError(error_at(
                op, f"externalize-state cannot move variable @{op.var_name} out of this "
                f"access: only reads and writes directly in the body of "
                f"'{func.sym_name.data}' can become its arguments and results"))
