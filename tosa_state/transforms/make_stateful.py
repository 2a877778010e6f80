"""`make-stateful`: argument/result pairs of a function become TOSA variables.

What OpenVINO's `ov::pass::MakeStateful` does to a model's Parameter/Result pairs, for any
TOSA module (from OpenVINO IR, `.mlir`, or after `externalize-state`):

    func.func @main(%x: T, %h0: S) -> (U, S)      tosa.variable @h0h1 = dense<0.0> : S
      ...                                    =>   func.func @main(%x: T) -> U
      return %y, %h1 : U, S                         %h0 = tosa.variable.read @h0h1 : S
                                                    ...
                                                    tosa.variable.write @h0h1, %h1 : S
                                                    return %y : U

Like OpenVINO's pass (a `ReadValue-6` without an init input, named `input + output`):
- the variable is named after the input and the output it joins (`h0` + `h1` = `h0h1`; an
  input and an output of the same name `h`, which OpenVINO's unique tensor names exclude
  but `externalize-state` produces, give `h`, so that the two passes round-trip);
- it starts as zeros of the input's type (a dynamic-shape input gives a variable without an
  initial value, which must be set before it is read), unless the argument carries a
  `tosa_state.initial_value` attribute (which `externalize-state` leaves), then that value;
- the read comes first in the body and the write last, just before the return, so every use
  of the input sees the value of the previous call.

Inputs are named by their name attribute (`openvino.name` / `tosa_state.name`), their SSA
name in `.mlir` (`%h0`) or `arg<i>`; outputs by their name attribute, the SSA name of the
returned value or `result<i>`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.signature import (
    INITIAL_VALUE_ATTR,
    StateSignatureError,
    callers,
    find_input,
    find_output,
    remove_ports,
    returned,
    select_entry,
    zeros_of,
)


@dataclass(frozen=True)
class MakeStatefulPass(ModulePass):
    """Turns the entry function's argument/result pairs into `tosa.variable`s (as OpenVINO's
    MakeStateful). `pairs="h0=h1,c0=c1"`: input `h0` becomes a read of, and output `h1` a
    write to, variable `@h0h1`. `entry`: the function (default `main`, else the only
    public one)."""

    name = "make-stateful"

    pairs: str = ""
    entry: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            make_stateful(op, parse_pairs(self.pairs), self.entry)
        except TosaStateError as error:
            raise PassFailedException(str(error)) from None


def parse_pairs(text: str) -> dict[str, str]:
    """`"h0=h1,c0=c1"` as `{"h0": "h1", "c0": "c1"}`."""
    pairs: dict[str, str] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        source, equals, target = (s.strip() for s in item.partition("="))
        if not (equals and source and target):
            raise StateSignatureError(
                f"error: bad pair '{item}' in make-stateful's pairs: expected INPUT=OUTPUT "
                "(e.g. pairs=\"h0=h1,c0=c1\")")
        if source in pairs:
            raise StateSignatureError(f"error: input '{source}' is paired twice in "
                                      "make-stateful's pairs")
        pairs[source] = target
    if not pairs:
        raise StateSignatureError("error: make-stateful needs pairs=\"INPUT=OUTPUT,...\"")
    return pairs


def make_stateful(module: ModuleOp, pairs: Mapping[str, str], entry: str | None = None
                  ) -> list[VariableOp]:
    """Turn each input/output pair `(in, out)` of the entry function into variable
    `@<in><out>`; returns the new declarations."""
    func = select_entry(module, entry)
    if (call := next(callers(module, func), None)) is not None:
        raise StateSignatureError(error_at(call, f"make-stateful cannot change the signature "
                                           f"of '{func.sym_name.data}': it is called here"))
    ret = returned(func)
    joined = [(find_input(func, source), find_output(func, ret, target),
               source if source == target else source + target)
              for source, target in pairs.items()]
    outputs = [output for _, output, _ in joined]
    if len(set(outputs)) != len(outputs):
        raise StateSignatureError(error_at(func, "make-stateful pairs an output with two "
                                           "inputs"))
    declarations = [_join(module, func, ret, *pair) for pair in joined]
    remove_ports(func, [i for i, _, _ in joined], outputs)
    return declarations


def _join(module: ModuleOp, func: FuncOp, ret: ReturnOp, arg_index: int, result_index: int,
          name: str) -> VariableOp:
    arg, value = func.body.block.args[arg_index], ret.operands[result_index]
    if arg.type != value.type:
        raise StateSignatureError(error_at(
            func, f"make-stateful cannot join input {arg_index} of type '{arg.type}' with "
            f"output {result_index} of type '{value.type}': a variable has one type"))
    if not isinstance(arg.type, TensorType):
        raise StateSignatureError(error_at(func, f"input {arg_index} is not a ranked tensor: "
                                           f"'{arg.type}'"))
    if any(isinstance(op, VariableOp) and op.var_name == name for op in module.body.block.ops):
        raise StateSignatureError(error_at(func, f"make-stateful cannot declare variable "
                                           f"@{name}: the module already has one"))
    declaration = VariableOp(name, arg.type, _initial_value(func, arg_index, arg.type))
    Rewriter.insert_op(declaration, InsertPoint.before(func))
    read = VariableReadOp(name, arg.type)
    read.results[0].name_hint = arg.name_hint
    Rewriter.insert_op(read, InsertPoint.at_start(func.body.block))
    arg.replace_all_uses_with(read.results[0])  # the returned value too, if it is `arg`
    Rewriter.insert_op(VariableWriteOp(name, ret.operands[result_index]), InsertPoint.before(ret))
    return declaration


def _initial_value(func: FuncOp, index: int, tensor_type: TensorType
                   ) -> DenseIntOrFPElementsAttr | None:
    """The argument's `tosa_state.initial_value`, else zeros (None if the shape is dynamic)."""
    if func.arg_attrs is not None:
        attrs = func.arg_attrs.data[index]
        if isinstance(attrs, DictionaryAttr) and isinstance(
            value := attrs.data.get(INITIAL_VALUE_ATTR), DenseIntOrFPElementsAttr
        ):
            if value.type != tensor_type:
                raise StateSignatureError(error_at(
                    func, f"{INITIAL_VALUE_ATTR} of input {index} has type '{value.type}', "
                    f"not the input's '{tensor_type}'"))
            return value
    return zeros_of(tensor_type)
