"""What the `tosa` dialect's elementwise chapters share: the element type families each op
accepts, `tosa.cast`'s type pairs, the checks of TOSA broadcasting and element types (upstream
MLIR's wording), the syntax `operands attr-dict : (operand types) -> result type`, and the
base classes of the unary, binary and comparison operators.

- TOSA 1.0 specification: https://www.mlplatform.org/tosa/tosa_spec.html
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/
"""

from __future__ import annotations

from abc import ABC
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    TensorType,
    UnitAttr,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.dialects.tosa import NanMode, NanModeAttr, RoundingMode, RoundingModeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

# ---------------------------------------------------------------------------------------
# Element type families
# ---------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ElementTypes:
    """A family of element types an operand or result may have, with its description."""

    types: frozenset[Attribute]
    description: str

    def __contains__(self, element_type: Attribute) -> bool:
        return element_type in self.types


BOOL = ElementTypes(frozenset({i1}), "1-bit signless integer")
INTEGER = ElementTypes(frozenset({i8, i16, i32, i64}), "8/16/32/64-bit signless integer")
INTDIV_INTEGER = ElementTypes(
    frozenset({i32, i64}), "32-bit signless integer or 64-bit signless integer"
)
SHIFT = ElementTypes(frozenset({i8}), "8-bit signless integer")
FLOAT = ElementTypes(frozenset({f16, bf16, f32, f64}), "floating-point")
NUMBER = ElementTypes(
    INTEGER.types | FLOAT.types, "8/16/32/64-bit signless integer or floating-point"
)
ANY = ElementTypes(BOOL.types | NUMBER.types, "1/8/16/32/64-bit signless integer or floating-point")


def _cast_pairs(table: dict[Attribute, Iterable[Attribute]]) -> frozenset[tuple[Attribute, ...]]:
    return frozenset((src, dst) for src, dsts in table.items() for dst in dsts)


SPEC_CAST_PAIRS = _cast_pairs(
    {
        i1: (i8, i16, i32),
        i8: (i1, i16, i32, f16, bf16, f32),
        i16: (i1, i8, i32, f16, bf16, f32),
        i32: (i1, i8, i16, i64, f16, bf16, f32),
        i64: (i32,),
        bf16: (i8, i16, i32, f32),
        f16: (i8, i16, i32, f32),
        f32: (i8, i16, i32, f16, bf16),
    }
)
"""`tosa.cast`'s supported data types in TOSA 1.0 (and 1.1's EXT-INT64 `i32 <-> i64`)."""

EXTENSION_CAST_PAIRS = _cast_pairs(
    {
        i1: (i64, f16, bf16, f32, f64),
        i8: (i64, f64),
        i16: (i64, f64),
        i32: (f64,),
        i64: (i1, i8, i16, f16, bf16, f32, f64),
        f16: (i1, i64, f64),
        bf16: (i1, i64, f64),
        f32: (i1, i64, f64),
        f64: (i1, i8, i16, i32, i64, f16, bf16, f32),
    }
)
"""Conversions beyond the specification, for OpenVINO models: from and to `i64` / `f64`,
and between floating-point types and `i1` (`x != 0`, and `0.0` / `1.0`)."""

CAST_PAIRS = SPEC_CAST_PAIRS | EXTENSION_CAST_PAIRS
"""Every `(input, output)` element type pair `tosa.cast` accepts. Not accepted: identity
casts and `f16 <-> bf16`, which the specification leaves out."""

NAN_PROPAGATE = NanModeAttr(NanMode.PROPAGATE)

# ---------------------------------------------------------------------------------------
# Verification helpers
# ---------------------------------------------------------------------------------------


def _element_type(value: SSAValue) -> Attribute:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.element_type


def _shape(value: SSAValue) -> tuple[int, ...]:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return tuple(value_type.get_shape())


def _shape_str(shape: Sequence[int]) -> str:
    return "x".join("?" if d < 0 else str(d) for d in shape)


def _compatible(a: int, b: int) -> bool:
    """Equal dimensions, or one is dynamic (negative: xDSL's `DYNAMIC_INDEX`)."""
    return a == b or a < 0 or b < 0


def _check_element_type(kind: str, index: int, value: SSAValue, allowed: ElementTypes) -> None:
    """`operand #1 must be tensor of floating-point values, but got 'tensor<4xi32>'`."""
    value_type = value.type
    if not isinstance(value_type, TensorType) or value_type.element_type not in allowed:
        raise VerifyException(
            f"{kind} #{index} must be tensor of {allowed.description} values, "
            f"but got '{value_type}'"
        )


def _check_scalar_tensor(index: int, value: SSAValue, allowed: ElementTypes) -> None:
    """Shift and zero-point operands are `tensor<1xT>`."""
    value_type = value.type
    if not (
        isinstance(value_type, TensorType)
        and tuple(value_type.get_shape()) == (1,)
        and value_type.element_type in allowed
    ):
        raise VerifyException(
            f"operand #{index} must be scalar tensor of {allowed.description} values, "
            f"but got '{value_type}'"
        )


def _check_same_element_type(values: Sequence[SSAValue], with_results: bool) -> None:
    if len({_element_type(v) for v in values}) > 1:
        what = "all operands and results" if with_results else "all operands"
        raise VerifyException(f"requires the same element type for {what}")


def _check_same_shape(operand: SSAValue, result: SSAValue, message: str) -> None:
    shape, result_shape = _shape(operand), _shape(result)
    if len(shape) != len(result_shape) or not all(
        _compatible(a, b) for a, b in zip(shape, result_shape, strict=True)
    ):
        raise VerifyException(message)


def broadcast_shape(shapes: Sequence[Sequence[int]]) -> tuple[int, ...] | None:
    """The TOSA broadcast of equal-rank `shapes`, or None when they are incompatible.

    Each dimension must be equal across shapes or 1; a dynamic dimension (negative, e.g.
    `DYNAMIC_INDEX`) is compatible with any size.
    """
    if len({len(s) for s in shapes}) > 1:
        return None
    result: list[int] = []
    for dims in zip(*shapes, strict=True):
        sizes = {d for d in dims if d > 1 or d == 0}
        if len(sizes) > 1:
            return None
        if sizes:
            result.append(sizes.pop())
        else:
            result.append(DYNAMIC_INDEX if any(d < 0 for d in dims) else 1)
    return tuple(result)


def verify_broadcast(operands: Sequence[SSAValue], result: SSAValue) -> None:
    """Upstream MLIR's `ResultsBroadcastableShape` check for TOSA's equal-rank broadcasting."""
    shapes = [_shape(v) for v in operands]
    result_shape = _shape(result)
    if len({len(s) for s in shapes}) > 1:
        raise VerifyException("operands don't have matching ranks")
    if len(result_shape) != len(shapes[0]):
        raise VerifyException("result type has different rank than operands")
    expected = broadcast_shape(shapes)
    if expected is None:
        raise VerifyException("operands don't have broadcast-compatible shapes")
    if not all(_compatible(r, e) for r, e in zip(result_shape, expected, strict=True)):
        raise VerifyException(
            f"result type '{_shape_str(result_shape)}' not broadcast compatible with "
            f"broadcasted operands's shapes '{_shape_str(expected)}'"
        )


def constant_values(value: SSAValue) -> tuple[int | float, ...] | None:
    """The elements of `value` when `tosa.const` or `arith.constant` defines it."""
    owner = value.owner
    if isinstance(owner, Operation) and owner.name in ("tosa.const", "arith.constant"):
        attr = owner.properties.get("values", owner.properties.get("value"))
        if isinstance(attr, DenseIntOrFPElementsAttr):
            return tuple(attr.get_values())
    return None


def _broadcast_type(values: Sequence[SSAValue], element_type: Attribute) -> TensorType:
    shape = broadcast_shape([_shape(v) for v in values])
    if shape is None:
        raise ValueError(
            "operand shapes are not broadcast-compatible: "
            + ", ".join(f"'{v.type}'" for v in values)
        )
    return TensorType(element_type, shape)


# ---------------------------------------------------------------------------------------
# Syntax: `operands attr-dict : (operand types) -> result type`
# ---------------------------------------------------------------------------------------


def _parse_attr_entry(parser: Parser) -> tuple[str, Attribute]:
    name = parser.parse_identifier_or_str_literal("as an attribute name")
    if parser.parse_optional_punctuation("=") is None:
        return name, UnitAttr()
    if name in _KEYWORD_ENUMS:
        enum, attr_type = _KEYWORD_ENUMS[name]
        pos = parser.pos
        if (keyword := parser.parse_optional_identifier()) is not None:
            try:
                return name, attr_type(enum(keyword))
            except ValueError:
                parser.raise_error(
                    f"expected {name} {' or '.join(enum)}, got '{keyword}'", pos, parser.pos
                )
    return name, parser.parse_attribute()


_KEYWORD_ENUMS: dict[str, tuple[type[StrEnum], type[Attribute]]] = {
    "nan_mode": (NanMode, NanModeAttr),
    "rounding_mode": (RoundingMode, RoundingModeAttr),
}
"""Enum properties `tosa-opt` prints as a bare keyword (`nan_mode = IGNORE`)."""


class TosaElementwiseOperation(IRDLOperation, ABC):
    """An elementwise TOSA op, printed like upstream MLIR's `tosa-opt` prints it.

    `%r = tosa.op %a, %b {props} : (types) -> type`, where the dictionary holds the
    properties (sorted by name, `nan_mode` as a bare `IGNORE`, omitted when `PROPAGATE`)
    and any discardable attributes.
    """

    traits = traits_def(Pure())

    @classmethod
    def parse(cls, parser: Parser) -> Self:
        pos = parser.pos
        operands = parser.parse_comma_separated_list(
            parser.Delimiter.NONE, parser.parse_unresolved_operand
        )
        expected = len(cls.get_irdl_definition().operands)
        if len(operands) != expected:
            parser.raise_error(
                f"expected {expected} operands, got {len(operands)}", pos, parser.pos
            )
        entries: dict[str, Attribute] = cls._parse_keyword_properties(parser)
        if parser.parse_optional_punctuation("{") is not None and (
            parser.parse_optional_punctuation("}") is None
        ):
            for name, attr in parser.parse_comma_separated_list(
                parser.Delimiter.NONE, lambda: _parse_attr_entry(parser)
            ):
                if name in entries:
                    parser.raise_error(f"duplicate key '{name}' in dictionary attribute")
                entries[name] = attr
            parser.parse_punctuation("}")
        parser.parse_punctuation(":")
        type_pos = parser.pos
        function_type = parser.parse_function_type()
        if len(function_type.outputs) != 1:
            parser.raise_error("expected one result type", type_pos, parser.pos)
        resolved = parser.resolve_operands(operands, function_type.inputs.data, pos)
        property_names = cls.get_irdl_definition().properties
        return cls.build(
            operands=resolved,
            result_types=function_type.outputs.data,
            properties={k: v for k, v in sorted(entries.items()) if k in property_names},
            attributes={k: v for k, v in sorted(entries.items()) if k not in property_names},
        )

    @classmethod
    def _parse_keyword_properties(cls, parser: Parser) -> dict[str, Attribute]:
        """Properties some upstream versions print as keywords after the operands."""
        return {}

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        entries = {
            name: attr
            for name, attr in sorted({**self.properties, **self.attributes}.items())
            if not (name == "nan_mode" and attr == NAN_PROPAGATE)
        }
        if entries:
            printer.print_string(" {")
            printer.print_list(entries.items(), lambda entry: _print_entry(printer, *entry))
            printer.print_string("}")
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)


def _print_entry(printer: Printer, name: str, attr: Attribute) -> None:
    printer.print_identifier_or_string_literal(name)
    if isinstance(attr, UnitAttr):
        return
    printer.print_string(" = ")
    if isinstance(attr, NanModeAttr | RoundingModeAttr):
        printer.print_string(attr.data)
    else:
        printer.print_attribute(attr)


def _nan_mode_def():
    # Not optional: like upstream MLIR, every op holds the property (PROPAGATE when not
    # given), so generic forms from upstream and from here are structurally equal.
    return prop_def(NanModeAttr, default_value=NAN_PROPAGATE)


class _NanModeOp(TosaElementwiseOperation, ABC):
    """An op with a `nan_mode` property (`PROPAGATE` by default)."""

    nan_mode = _nan_mode_def()

    @property
    def ignores_nan(self) -> bool:
        """True for `nan_mode = IGNORE`: a NaN operand yields the other operand."""
        return self.nan_mode.data == NanMode.IGNORE


# ---------------------------------------------------------------------------------------
# Unary operators
# ---------------------------------------------------------------------------------------


class _UnaryOp(TosaElementwiseOperation, ABC):
    """`output = f(input)`, same shape and element type (from `ELEMENT_TYPES`)."""

    ELEMENT_TYPES: ClassVar[ElementTypes]

    def __init__(self, input: SSAValue | Operation, result_type: Attribute | None = None):
        value = SSAValue.get(input)
        super().__init__(operands=[value], result_types=[result_type or value.type])

    def verify_(self) -> None:
        operand, result = self.operands[0], self.results[0]
        _check_element_type("operand", 0, operand, self.ELEMENT_TYPES)
        _check_same_element_type([operand, result], with_results=True)
        _check_same_shape(operand, result, "requires the same shape for all operands and results")


class _ActivationOp(_UnaryOp, ABC):
    """A floating-point activation function `output = f(input)`."""

    ELEMENT_TYPES: ClassVar[ElementTypes] = FLOAT

    input = operand_def(TensorType)
    output = result_def(TensorType)


class _ElementwiseUnaryOp(_UnaryOp, ABC):
    input1 = operand_def(TensorType)
    output = result_def(TensorType)


class _FloatUnaryOp(_ElementwiseUnaryOp, ABC):
    ELEMENT_TYPES: ClassVar[ElementTypes] = FLOAT


# ---------------------------------------------------------------------------------------
# Binary operators
# ---------------------------------------------------------------------------------------


class _BinaryOp(TosaElementwiseOperation, ABC):
    """`output = f(input1, input2)` with TOSA broadcasting.

    Operands have a type of `ELEMENT_TYPES`; the result has the same element type, or
    one of `RESULT_TYPES` when that is set (comparisons give `i1`).
    """

    ELEMENT_TYPES: ClassVar[ElementTypes]
    RESULT_TYPES: ClassVar[ElementTypes | None] = None

    input1 = operand_def(TensorType)
    input2 = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        input2: SSAValue | Operation,
        result_type: Attribute | None = None,
        properties: dict[str, Attribute] | None = None,
    ):
        lhs, rhs = SSAValue.get(input1), SSAValue.get(input2)
        if result_type is None:
            element_type = i1 if self.RESULT_TYPES is BOOL else _element_type(lhs)
            result_type = _broadcast_type([lhs, rhs], element_type)
        super().__init__(
            operands=[lhs, rhs], result_types=[result_type], properties=properties or {}
        )

    def verify_(self) -> None:
        operands = (self.input1, self.input2)
        for index, operand in enumerate(operands):
            _check_element_type("operand", index, operand, self.ELEMENT_TYPES)
        _check_element_type("result", 0, self.output, self.RESULT_TYPES or self.ELEMENT_TYPES)
        if self.RESULT_TYPES is None:
            _check_same_element_type([*operands, self.output], with_results=True)
        else:
            _check_same_element_type(operands, with_results=False)
        verify_broadcast(operands, self.output)


class _NanModeBinaryOp(_BinaryOp, _NanModeOp, ABC):
    ELEMENT_TYPES: ClassVar[ElementTypes] = NUMBER

    def __init__(
        self,
        input1: SSAValue | Operation,
        input2: SSAValue | Operation,
        result_type: Attribute | None = None,
        nan_mode: NanMode | None = None,
    ):
        properties = {} if nan_mode is None else {"nan_mode": NanModeAttr(nan_mode)}
        super().__init__(input1, input2, result_type, properties)


class _ComparisonOp(_BinaryOp, ABC):
    ELEMENT_TYPES: ClassVar[ElementTypes] = NUMBER
    RESULT_TYPES: ClassVar[ElementTypes | None] = BOOL
