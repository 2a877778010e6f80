"""Printing modules in our spelling or in upstream MLIR's.

- `dotted` (default): `tosa.variable.read` / `tosa.variable.write`, TOSA compute ops in
  the custom form `tosa-opt` prints.
- `upstream`: `tosa.variable_read` / `tosa.variable_write`, and TOSA ops that carry
  properties or regions in generic form: upstream tools disagree on their custom syntax
  (`tosa-opt` prints `{axis = 1 : i32}`, `iree-opt` prints `axis(1)`), but both parse the
  generic form. The result parses in `iree-opt` and `tosa-opt`.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from io import StringIO

from xdsl.ir import Operation
from xdsl.printer import Printer

from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp


class Spelling(StrEnum):
    DOTTED = "dotted"
    UPSTREAM = "upstream"


_UPSTREAM_NAMES: dict[type[Operation], str] = {
    VariableReadOp: VariableReadOp.UPSTREAM_NAME,
    VariableWriteOp: VariableWriteOp.UPSTREAM_NAME,
}


def _needs_generic_upstream(op: Operation) -> bool:
    if isinstance(op, VariableOp):
        return False  # same custom syntax upstream
    return op.name.startswith("tosa.") and bool(op.properties or op.regions)


@dataclass(eq=False, repr=False)
class SpellingPrinter(Printer):
    """An xDSL printer that can print upstream MLIR's spelling of TOSA ops."""

    spelling: Spelling = field(default=Spelling.DOTTED)

    def print_op(self, op: Operation) -> None:
        if self.spelling is not Spelling.UPSTREAM:
            return super().print_op(op)
        if (upstream_name := _UPSTREAM_NAMES.get(type(op))) is not None:
            return self._print_renamed(op, upstream_name)
        if _needs_generic_upstream(op) and not self.print_generic_format:
            self.print_generic_format = True
            try:
                return super().print_op(op)
            finally:
                self.print_generic_format = False
        return super().print_op(op)

    def _print_renamed(self, op: Operation, name: str) -> None:
        self._print_results(op)
        if self.print_generic_format:
            self.print_string(f'"{name}"')
            self.print_op_with_default_format(op)
        else:
            self.print_string(name)
            op.print(self)


def print_module(
    module: Operation,
    *,
    spelling: Spelling | str = Spelling.DOTTED,
    generic: bool = False,
    debuginfo: bool = False,
) -> str:
    """The text of `module` in the given spelling, ending with a newline."""
    stream = StringIO()
    printer = SpellingPrinter(
        stream=stream,
        spelling=Spelling(spelling),
        print_generic_format=generic,
        print_debuginfo=debuginfo,
    )
    printer.print_op(module)
    stream.write("\n")
    return stream.getvalue()
