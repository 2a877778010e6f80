"""A model's signature: which function is its entry, what its inputs and outputs are
called, and how passes add or remove them (shared by the runtime, `specialize-input-shapes`,
`make-stateful` and `externalize-state`)."""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence

import numpy as np
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    ModuleOp,
    StringAttr,
    TensorType,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.ir import Attribute, BlockArgument, SSAValue

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dtypes import numpy_dtype, numpy_to_dense

NAME_ATTRS = ("openvino.name", "tosa_state.name")
"""Argument / result attributes that name a model's inputs and outputs."""


class EntryError(TosaStateError):
    """No function, or no single function, to run."""


def select_entry(module: ModuleOp, entry: str | None) -> FuncOp:
    """The function to run: `entry`, else `main`, else the only public function."""
    funcs = [op for op in module.body.block.ops if isinstance(op, FuncOp)]
    names = ", ".join(f.sym_name.data for f in funcs) or "none"
    if entry is not None:
        for func in funcs:
            if func.sym_name.data == entry:
                return func
        raise EntryError(f"error: no function named '{entry}' in the module (functions: {names})")
    public = [f for f in funcs if f.sym_visibility is None or f.sym_visibility.data == "public"]
    for func in public:
        if func.sym_name.data == "main":
            return func
    if len(public) == 1:
        return public[0]
    raise EntryError(f"error: cannot choose the entry function among {names}; name one "
                     "(--entry / entry=...)")


def input_names(func: FuncOp) -> list[str]:
    """The names of `func`'s inputs (see `port_names`)."""
    args = func.body.block.args if func.body.blocks else ()
    count = len(func.function_type.inputs.data)
    return port_names(func.arg_attrs, count, "arg", [a.name_hint for a in args])


def positional_index(key: str, prefix: str, count: int) -> int | None:
    """`i` when `key` is `<prefix><i>` (`arg1`, `result0`) for an existing port, else None."""
    match = re.fullmatch(rf"{prefix}(0|[1-9][0-9]*)", key)
    return int(match.group(1)) if match and int(match.group(1)) < count else None


def port_names(
    attrs: ArrayAttr | None, count: int, prefix: str, hints: Sequence[str | None] = ()
) -> list[str]:
    """The names of `count` arguments or results: their name attribute, else their SSA name
    as the parser kept it (`hints`: `%x` gives `x`), else `<prefix><index>` (`arg0`,
    `result1`, ...). Lookups accept `<prefix><index>` as an alias of every name
    (`positional_index`)."""
    names = [f"{prefix}{i}" for i in range(count)]
    for i, hint in enumerate(hints[:count]):
        if hint:
            names[i] = hint
    if attrs is None:
        return names
    for i, entry in enumerate(attrs.data[:count]):
        if isinstance(entry, DictionaryAttr):
            for key in NAME_ATTRS:
                if isinstance(value := entry.data.get(key), StringAttr):
                    names[i] = value.data
                    break
    return names


# -- changing a function's inputs and outputs (make-stateful, externalize-state) ------------

INITIAL_VALUE_ATTR = "tosa_state.initial_value"
"""Argument attribute: the value a state input starts from (`externalize-state` records a
variable's initial value there; `make-stateful` declares the variable with it)."""


class StateSignatureError(TosaStateError):
    """Inputs/outputs that cannot become state, or state that cannot become inputs/outputs."""


def returned(func: FuncOp) -> ReturnOp:
    """The `func.return` ending the function's single block."""
    if len(func.body.blocks) != 1 or not isinstance(ret := func.body.block.last_op, ReturnOp):
        raise StateSignatureError(error_at(func, f"function '{func.sym_name.data}' must have "
                                           "one block ending in 'func.return'"))
    return ret


def callers(module: ModuleOp, func: FuncOp) -> Iterator[CallOp]:
    """The calls of `func` in `module`."""
    for op in module.walk():
        if isinstance(op, CallOp) and op.callee.root_reference.data == func.sym_name.data:
            yield op


def find_input(func: FuncOp, key: str) -> int:
    """The index of the input named `key` (`input_names`, else `arg<i>`)."""
    args = func.body.block.args
    names = input_names(func)
    hints = [a.name_hint for a in args]
    if (index := _lookup(key, names, "arg", hints)) is None:
        raise StateSignatureError(error_at(
            func, f"no input named '{key}' (inputs: {_listed(names, hints)})"))
    return index


def find_output(func: FuncOp, ret: ReturnOp, key: str) -> int:
    """The index of the output named `key`: by name attribute, else `result<i>`, else the
    SSA name of the returned value."""
    names = port_names(func.res_attrs, len(ret.operands), "result")
    hints = [v.name_hint for v in ret.operands]
    if (index := _lookup(key, names, "result", hints)) is None:
        raise StateSignatureError(error_at(
            func, f"no output named '{key}' (outputs: {_listed(names, hints)})"))
    return index


def _lookup(key: str, names: list[str], prefix: str, hints: list[str | None]) -> int | None:
    """Names first, then positions, then SSA names: an SSA name never hides a port name."""
    if key in names:
        return names.index(key)
    if (index := positional_index(key, prefix, len(names))) is not None:
        return index
    return hints.index(key) if key in hints else None


def _listed(names: list[str], hints: list[str | None]) -> str:
    """`x, h0 (%h0)`: each port's name, and its SSA name where it has another one."""
    shown = [name if hint in (None, name) else f"{name} (%{hint})"
             for name, hint in zip(names, hints, strict=True)]
    return ", ".join(shown) or "none"


def remove_ports(func: FuncOp, inputs: Sequence[int], outputs: Sequence[int]) -> None:
    """Drop the (unused) arguments `inputs` and the returned values `outputs`, with their
    attributes."""
    block, ret = func.body.block, returned(func)
    for index in sorted(inputs, reverse=True):
        block.erase_arg(block.args[index])
    kept = [v for i, v in enumerate(ret.operands) if i not in set(outputs)]
    ret.operands = kept
    func.arg_attrs = _kept(func.arg_attrs, set(inputs))
    func.res_attrs = _kept(func.res_attrs, set(outputs))
    _update_type(func)


def add_ports(func: FuncOp, inputs: Sequence[tuple[TensorType, DictionaryAttr]],
              outputs: Sequence[tuple[SSAValue, DictionaryAttr]]) -> list[BlockArgument]:
    """Append arguments (type, attributes) and returned values (value, attributes); returns
    the new arguments."""
    block, ret = func.body.block, returned(func)
    arg_attrs = _attrs(func.arg_attrs, len(block.args))
    res_attrs = _attrs(func.res_attrs, len(ret.operands))
    new = [block.insert_arg(t, len(block.args)) for t, _ in inputs]
    ret.operands = [*ret.operands, *(v for v, _ in outputs)]
    func.arg_attrs = ArrayAttr([*arg_attrs, *(a for _, a in inputs)])
    func.res_attrs = ArrayAttr([*res_attrs, *(a for _, a in outputs)])
    _update_type(func)
    return new


def zeros_of(tensor_type: TensorType) -> DenseIntOrFPElementsAttr | None:
    """Zeros of a static tensor type as a dense attribute; None for a dynamic shape."""
    if not tensor_type.has_static_shape():
        return None
    dtype = numpy_dtype(tensor_type.get_element_type())
    return numpy_to_dense(np.zeros(tensor_type.get_shape(), dtype),
                          tensor_type.get_element_type())


def _attrs(attrs: ArrayAttr | None, count: int) -> list[Attribute]:
    return list(attrs.data) if attrs is not None else [DictionaryAttr({})] * count


def _kept(attrs: ArrayAttr | None, dropped: set[int]) -> ArrayAttr | None:
    """The attributes of the ports kept; None when none of them has any."""
    if attrs is None:
        return None
    kept = [a for i, a in enumerate(attrs.data) if i not in dropped]
    if all(isinstance(a, DictionaryAttr) and not a.data for a in kept):
        return None
    return ArrayAttr(kept)


def _update_type(func: FuncOp) -> None:
    func.function_type = FunctionType.from_lists(
        [a.type for a in func.body.block.args], [v.type for v in returned(func).operands])
