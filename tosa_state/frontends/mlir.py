"""The MLIR text frontend: parse with source locations, accept upstream spellings.

Ops parsed here carry a `FileLineColLoc` of where they start, so verifier and pass
diagnostics read `file:line:col: error: ...` like `mlir-opt`'s. Upstream MLIR's names
`tosa.variable_read` / `tosa.variable_write` parse to our `tosa.variable.read` /
`tosa.variable.write`. A hexadecimal literal in a float `dense<...>` is the element's bit
pattern, as in MLIR (xDSL 0.74 reads it as an integer value).
"""

from __future__ import annotations

import bisect
import re
import struct
from collections.abc import Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyDenseElement,
    AnyFloat,
    BytesAttr,
    ComplexType,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    FileLineColLoc,
    IndexType,
    IntAttr,
    IntegerType,
    ModuleOp,
    RankedStructure,
    ShapedType,
    StringAttr,
    UnknownLoc,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import base
from xdsl.parser import AttrParser, Parser, UnresolvedOperand
from xdsl.parser.generic_parser import ParserState
from xdsl.utils.exceptions import ParseError, VerifyException
from xdsl.utils.lexer import Input, Span
from xdsl.utils.mlir_lexer import MLIRLexer, MLIRToken, MLIRTokenKind

from tosa_state.diagnostics import ModelImportError
from tosa_state.dialects.tosa import UPSTREAM_SPELLINGS
from tosa_state.resources import dense_from_blob, split_metadata


class _LinearLexer(MLIRLexer):
    """xDSL's MLIR lexer with a string-literal pattern that cannot backtrack.

    xDSL 0.74 matches string literals with `"(?:[^"\\...]+|\\...)*"`, a nested quantifier:
    an unterminated string (a file cut inside `dense<"0x...">`) makes the regex engine try
    every split of the rest of the line, which takes forever after ~40 characters. The
    possessive quantifiers below accept exactly the same strings (the two alternatives start
    with different characters and neither consumes the closing quote) in linear time.
    """

    _unescaped_characters_regex = re.compile(
        r'"(?:[^"\\\n\v\f]++|\\(?:["nt\\]|[0-9A-Fa-f]{2}))*+"'
    )


_XDSL_MESSAGES = {
    # What xDSL says when a region is not closed (e.g. the input ends inside a function).
    " in block definition": "expected '}' to end the region, or a block label (^bb0:)",
}
"""xDSL parse error messages that say too little, and what to say instead."""


class LocatedParser(Parser):
    """An xDSL parser that records `file:line:col` on every op it parses, and reports every
    problem with the text as a `ParseError` at the right place (see `parse_mlir`)."""

    def __init__(
        self,
        ctx: Context,
        text: str,
        name: str,
        line_offset: int = 0,
        blobs: dict[str, bytes] | None = None,
    ):
        super().__init__(ctx, "", name)  # `text` is lexed by `parse_module`, with our lexer
        self._blobs = blobs or {}
        """The builtin `dense_resource` blobs of the file (see `tosa_state.resources`)."""
        self._text = text
        self._name = StringAttr(name)
        self._line_offset = line_offset
        self._line_starts = [0, *(i + 1 for i, c in enumerate(text) if c == "\n")]
        self._first_uses: dict[str, Span] = {}
        """Where each value used before its definition is first used."""
        self.last_token: Span | None = None
        """The last token consumed: where constructor errors are reported."""
        self._literal_elements: list[Parser._TensorLiteralElement] = []
        """The elements of the dense literal being parsed, in order."""

    def parse_module(self, allow_implicit_module: bool = True) -> ModuleOp:
        self._resume_from(ParserState(_LinearLexer(Input(self._text, self._name.data))))
        if self._current_token.kind == MLIRTokenKind.EOF:
            return ModuleOp([])  # nothing but whitespace and comments, as mlir-opt allows
        try:
            return super().parse_module(allow_implicit_module)
        except ParseError as error:
            # xDSL reports values never defined at the end of the input; point at the use.
            undefined = [n for n in self.forward_ssa_references if n in self._first_uses]
            if error.msg.startswith("values used but not defined") and undefined:
                name = min(undefined, key=lambda n: self._first_uses[n].start)
                raise ParseError(
                    self._first_uses[name], f"use of undeclared SSA value %{name}"
                ) from None
            raise

    def _consume_token(self, expected_kind: MLIRTokenKind | None = None) -> MLIRToken:
        # xDSL asserts the kind of some tokens (e.g. the `)` of `dense<(1, 2)>`): a parse
        # error for the user instead.
        token = self._current_token
        if expected_kind is not None and token.kind != expected_kind:
            want = expected_kind.value if isinstance(expected_kind.value, str) else None
            self.raise_error(
                f"unexpected '{token.text}'" + (f", expected '{want}'" if want else ""),
                token.span,
            )
        self.last_token = token.span
        return super()._consume_token(expected_kind)

    def resolve_operand(self, operand: UnresolvedOperand, type: Attribute) -> SSAValue:
        if operand.operand_name not in self.ssa_values:
            self._first_uses.setdefault(operand.operand_name, operand.span)
        return super().resolve_operand(operand, type)

    def _register_ssa_definition(self, name: str, values: Sequence[SSAValue], span: Span) -> None:
        self._first_uses.pop(name, None)
        super()._register_ssa_definition(name, values, span)

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
        try:
            return super()._get_op_by_name(UPSTREAM_SPELLINGS.get(name, name))
        except ParseError as error:
            # xDSL points after the name (at the next token, maybe on the next line).
            end = self._current_token.span.start
            start = self.lexer.input.content.rfind(name, 0, end)
            if start < 0:
                raise
            raise ParseError(Span(start, start + len(name), self.lexer.input), error.msg) \
                from None

    def _parse_builtin_dense_resource_attr(self) -> DenseResourceAttr:
        # A blob becomes the plain `dense` attribute it stands for, as it is parsed. (xDSL
        # registers each key in the builtin dialect's global storage, renaming a key seen
        # in an earlier parse: the key is read here instead.)
        keyword = self.last_token  # `dense_resource`
        start = keyword.start if keyword is not None else self.pos
        self.parse_characters("<", " in dense_resource attribute")
        key = self.parse_identifier(" for resource handle")
        self.parse_characters(">", " in dense_resource attribute")
        self.parse_characters(":", " in dense_resource attribute")
        pos = self.pos
        shaped = self.parse_type()
        if not isinstance(shaped, ShapedType):
            self.raise_error(f"dense resource should have a shaped type, got: {shaped}", pos)
        try:
            return dense_from_blob(  # type: ignore[return-value]
                DenseResourceAttr.from_params(key, shaped), self._blobs
            )
        except ValueError as error:
            self.raise_error(str(error), start, self.pos)

    # -- dense literals -------------------------------------------------------------------
    # xDSL 0.74 builds the constraint of a dense literal's type anew for every literal
    # (~3 ms each): a model with thousands of constants parsed in seconds. Built once here.

    def _parse_dense_literal_type(
        self,
    ) -> RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType]:
        type = self.expect(self.parse_optional_type, "Dense attribute must be typed!")
        if not _DENSE_LITERAL_TYPE.verifies(type):
            self.raise_error(
                "Expected memref, vector or tensor type of integer, index, float, or complex "
                "type"
            )
        if any(dim == DYNAMIC_INDEX for dim in type.get_shape()):  # type: ignore[attr-defined]
            self.raise_error("Dense literal attribute should have a static shape.")
        return type  # type: ignore[return-value]

    # -- hexadecimal float literals -----------------------------------------------------
    # MLIR reads `0x7FC00000` in a float `dense<...>` as the element's bit pattern (that
    # is how NaN and infinities print); xDSL 0.74 reads it as the integer 2143289344.

    def _parse_tensor_literal_element(self) -> Parser._TensorLiteralElement:
        element = super()._parse_tensor_literal_element()
        if isinstance(element.value, int) and "0x" in element.span.text[:3].lower():
            element = _HexLiteral(element.is_negative, element.value, element.span)
        self._literal_elements.append(element)
        return element

    def parse_dense_int_or_fp_elements_attr(
        self, type: RankedStructure[AnyDenseElement] | None
    ) -> DenseIntOrFPElementsAttr:
        self._literal_elements = []
        attr = super().parse_dense_int_or_fp_elements_attr(type)
        elements, self._literal_elements = self._literal_elements, []
        element_type = attr.get_element_type()
        if not isinstance(element_type, AnyFloat) or not any(
            isinstance(e, _HexLiteral) for e in elements
        ):
            return attr
        width = element_type.compile_time_size
        raw = bytearray(attr.data.data)
        count = len(raw) // width
        for index, element in enumerate(elements):
            if isinstance(element, _HexLiteral):
                pattern = int(element.value).to_bytes(width, "little")
                for target in range(count) if len(elements) == 1 else (index,):  # splat: all
                    raw[target * width : (target + 1) * width] = pattern
        return DenseIntOrFPElementsAttr(attr.type, BytesAttr(bytes(raw)))

    def error_message(self, error: ParseError) -> str:
        """`file:line:col: error: message` for a parse error."""
        message = _XDSL_MESSAGES.get(error.msg, error.msg)
        if "{first_char}" in message:  # an xDSL lexer message that forgot its f-string
            message = message.replace("{first_char}", f"'{self._text[error.span.start]}'")
        return self._diagnostic(error.span.start, message)

    def _diagnostic(self, offset: int, message: str) -> str:
        loc = self._location(offset)
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: error: {message}"


_DENSE_LITERAL_TYPE = base(RankedStructure[IntegerType | IndexType | AnyFloat | ComplexType])


class _HexLiteral(Parser._TensorLiteralElement):
    """A hexadecimal integer in a tensor literal: for a float element type, the bit
    pattern of the element (written by `LocatedParser.parse_dense_int_or_fp_elements_attr`
    once the attribute is built; 0.0 stands in until then)."""

    def to_type(self, parser: AttrParser, type: Attribute) -> object:
        if not isinstance(type, AnyFloat):
            return super().to_type(parser, type)  # type: ignore[arg-type]
        if self.is_negative:  # reported after the minus, as upstream does
            parser.raise_error(
                "hexadecimal float literal should not have a leading minus",
                Span(self.span.start + 1, self.span.end, self.span.input),
            )
        if self.value >= 1 << (8 * type.compile_time_size):  # type: ignore[operator]
            parser.raise_error("hexadecimal float constant out of range for type", self.span)
        return 0.0


def parse_mlir(ctx: Context, text: str, name: str = "<stdin>", line_offset: int = 0) -> ModuleOp:
    """Parse MLIR text into a module; bad input raises `ModelImportError` with a location.

    `line_offset` is the number of lines before `text` in its file (for split inputs).
    """
    text, blobs = split_metadata(text, name)
    parser = LocatedParser(ctx, text, name, line_offset, blobs)
    try:
        return parser.parse_module()
    except ParseError as error:
        raise ModelImportError(parser.error_message(error)) from None
    except (VerifyException, ValueError, OverflowError, struct.error, MemoryError) as error:
        # xDSL builds attributes, types and blocks while it parses: a constructor rejecting
        # what the text asks for (an integer out of range, `^12` as a block name, an integer
        # type of 10^19 bits, ...) is an error in the input, at the last token read.
        if isinstance(error, MemoryError):
            message = "the value is too large to represent"
        elif isinstance(error, struct.error | OverflowError):
            message = f"integer out of range ({error})"
        elif all(isinstance(a, str) for a in error.args) and error.args:
            message = " ".join(error.args)
        else:
            message = str(error)
        offset = parser.last_token.start if parser.last_token is not None else parser.pos
        raise ModelImportError(parser._diagnostic(offset, message)) from None


def read_mlir_file(ctx: Context, path: str | Path) -> ModuleOp:
    """Parse an `.mlir` file; a missing or unreadable file is a `ModelImportError`."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ModelImportError(f"{path}: error: cannot read file: {error}") from None
    return parse_mlir(ctx, text, str(path))
