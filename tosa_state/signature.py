"""A model's signature: which function is its entry, and what its inputs and outputs are
called (shared by the runtime and by `specialize-input-shapes`)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp

from tosa_state.diagnostics import TosaStateError

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
