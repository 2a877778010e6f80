"""The MLIR text frontend: parse with source locations, accept upstream spellings.

Ops parsed here carry a `FileLineColLoc` of where they start, so verifier and pass
diagnostics read `file:line:col: error: ...` like `mlir-opt`'s. Upstream MLIR's names
`tosa.variable_read` / `tosa.variable_write` parse to our `tosa.variable.read` /
`tosa.variable.write`.
"""

from __future__ import annotations

import bisect
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import FileLineColLoc, IntAttr, ModuleOp, StringAttr, UnknownLoc
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.utils.exceptions import ParseError, VerifyException

from tosa_state.diagnostics import ModelImportError
from tosa_state.dialects.tosa import UPSTREAM_SPELLINGS


class LocatedParser(Parser):
    """An xDSL parser that records `file:line:col` on every op it parses."""

    def __init__(self, ctx: Context, text: str, name: str, line_offset: int = 0):
        super().__init__(ctx, text, name)
        self._name = StringAttr(name)
        self._line_offset = line_offset
        self._line_starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]

    def _location(self, offset: int) -> FileLineColLoc:
        line = bisect.bisect_right(self._line_starts, offset) - 1
        column = offset - self._line_starts[line] + 1
        return FileLineColLoc(self._name, IntAttr(line + 1 + self._line_offset), IntAttr(column))

    def parse_operation(self) -> Operation:
        start = self._current_token.span.start
        op = super().parse_operation()
        if isinstance(op.location, UnknownLoc):
            op.location = self._location(start)
        return op

    def _get_op_by_name(self, name: str) -> type[Operation]:
        return super()._get_op_by_name(UPSTREAM_SPELLINGS.get(name, name))

    def error_message(self, error: ParseError) -> str:
        """`file:line:col: error: message` for a parse error."""
        loc = self._location(error.span.start)
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: error: {error.msg}"


def parse_mlir(ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0) -> ModuleOp:
    """Parse MLIR text into a module; bad input raises `ModelImportError` with a location.

    `line_offset` is the number of lines before `text` in its file (for split inputs).
    """
    parser = LocatedParser(ctx, text, name, line_offset)
    try:
        return parser.parse_module()
    except ParseError as error:
        raise ModelImportError(parser.error_message(error)) from None
    except VerifyException as error:
        # Raised by attribute/op constructors while parsing (e.g. a malformed attribute).
        loc = parser._location(parser.pos)
        raise ModelImportError(
            f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: error: {error}"
        ) from None


def read_mlir_file(ctx: Context, path: str | Path) -> ModuleOp:
    """Parse an `.mlir` file; a missing or unreadable file is a `ModelImportError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ModelImportError(f"{path}: error: cannot read file: {error}") from None
    return parse_mlir(ctx, text, str(path))
