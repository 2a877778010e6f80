"""Printing modules in our spelling or in upstream MLIR's.

- `dotted` (default): `tosa.variable.read` / `tosa.variable.write`, TOSA compute ops in
  the custom form `tosa-opt` prints.
- `upstream`: `tosa.variable_read` / `tosa.variable_write`, and TOSA ops that carry
  properties or regions in generic form: upstream tools disagree on their custom syntax
  (`tosa-opt` prints `{axis = 1 : i32}`, `iree-opt` prints `axis(1)`), but both parse the
  generic form. The result parses in `iree-opt` and `tosa-opt`.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from io import StringIO
from typing import IO

from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.printer import Printer

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.resources import ELIDED, BlobWriter, element_count, resource_able


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


@dataclass(frozen=True)
class LargeConstants:
    """How to print dense constants of many elements (`None`: no limit)."""

    elide_over: int | None = None
    """More elements: `dense_resource<__elided__>`, as mlir-opt's
    `--mlir-elide-elementsattrs-if-larger` (not parseable back into data)."""
    resources_over: int | None = None
    """More elements: `dense_resource<key>` with the blob in the file's metadata."""


@dataclass(eq=False, repr=False)
class SpellingPrinter(Printer):
    """An xDSL printer that can print upstream MLIR's spelling of TOSA ops, and large
    constants fast, elided, or as `dense_resource` blobs."""

    spelling: Spelling = field(default=Spelling.DOTTED)
    large: LargeConstants = field(default_factory=LargeConstants)
    blobs: BlobWriter = field(default_factory=BlobWriter)
    _owner: str = "blob"

    def print_attribute(self, attribute: Attribute) -> None:
        if not isinstance(attribute, DenseIntOrFPElementsAttr) or not resource_able(attribute):
            return super().print_attribute(attribute)
        count = element_count(attribute)
        data = attribute.data.data
        width = len(data) // count if count else 0
        view = memoryview(data)
        if count <= 1 or (width and view[width:] == view[:-width]):  # a splat: short anyway
            return super().print_attribute(attribute)
        large = self.large
        if large.elide_over is not None and count > large.elide_over:
            self.print_string(f"dense_resource<{ELIDED}> : ")
            return self.print_attribute(attribute.type)
        if large.resources_over is not None and count > large.resources_over:
            key = self.blobs.add(self._owner, attribute)
            self.print_string(f"dense_resource<{key}> : ")
            return self.print_attribute(attribute.type)
        if count <= 100:
            return super().print_attribute(attribute)
        # What xDSL prints, without decoding every element first (xDSL 0.74 does).
        self.print_string(f'dense<"0x{data.hex().upper()}"> : ')
        return self.print_attribute(attribute.type)

    def print_op(self, op: Operation) -> None:
        if isinstance(sym := op.properties.get("sym_name"), StringAttr):
            self._owner = sym.data  # a blob is named after its variable or global
        elif not isinstance(op, ModuleOp | FuncOp):
            self._owner = op.name.split(".")[-1]
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


def write_module(
    stream: IO[str],
    module: Operation,
    *,
    spelling: Spelling | str = Spelling.DOTTED,
    generic: bool = False,
    debuginfo: bool = False,
    large: LargeConstants | None = None,
) -> None:
    """Write `module` in the given spelling, ending with a newline, then its blobs (a
    `{-# dialect_resources: ... #-}` section) in bounded pieces."""
    for piece in module_pieces(
        module, spelling=spelling, generic=generic, debuginfo=debuginfo, large=large
    ):
        stream.write(piece)


UPSTREAM_LESS_DIALECTS = {"tosa_state": "tosa-expand-dequantize"}
"""Our dialects that have no upstream MLIR counterpart, with the pass that lowers them to
upstream ops."""

UNLOWERED_OPS = {"tosa_state.check_capacity": "a static state's guard (tosa-static-state), "
                                              "which only tosa-state's interpreter runs"}
"""Ops of those dialects that no pass lowers to upstream ops, with what they are."""


def check_upstream_spelling(module: Operation) -> None:
    """Upstream spelling promises text upstream tools parse: an op of a dialect upstream MLIR
    lacks is an error naming it and the pass that lowers it (raised before any output)."""
    for op in module.walk():
        dialect = op.name.split(".", 1)[0]
        if (what := UNLOWERED_OPS.get(op.name)) is not None:
            raise TosaStateError(error_at(
                op, f"'{op.name}' op has no upstream MLIR spelling: it is {what}"))
        if (lowering := UPSTREAM_LESS_DIALECTS.get(dialect)) is not None:
            raise TosaStateError(error_at(
                op, f"'{op.name}' op has no upstream MLIR spelling: lower it first "
                f"(-p '...,{lowering}')"))


def module_pieces(
    module: Operation,
    *,
    spelling: Spelling | str = Spelling.DOTTED,
    generic: bool = False,
    debuginfo: bool = False,
    large: LargeConstants | None = None,
) -> Iterator[str]:
    """The text of `module` (see `write_module`): the module, then the blob section in
    pieces, hex-encoded as they are asked for. Upstream spelling is checked first
    (`check_upstream_spelling`)."""
    if Spelling(spelling) is Spelling.UPSTREAM:
        check_upstream_spelling(module)
    return _pieces(module, Spelling(spelling), generic, debuginfo, large)


def _pieces(module: Operation, spelling: Spelling, generic: bool, debuginfo: bool,
            large: LargeConstants | None) -> Iterator[str]:
    text = StringIO()
    printer = SpellingPrinter(
        stream=text,
        spelling=Spelling(spelling),
        print_generic_format=generic,
        print_debuginfo=debuginfo,
        large=large or LargeConstants(),
    )
    printer.print_op(module)
    text.write("\n")
    yield text.getvalue()
    yield from printer.blobs.chunks()


def print_module(
    module: Operation,
    *,
    spelling: Spelling | str = Spelling.DOTTED,
    generic: bool = False,
    debuginfo: bool = False,
    large: LargeConstants | None = None,
) -> str:
    """The text of `module` in the given spelling, ending with a newline."""
    return "".join(module_pieces(
        module, spelling=spelling, generic=generic, debuginfo=debuginfo, large=large
    ))
