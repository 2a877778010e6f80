"""TOSA 1.0 elementwise operators: activation, elementwise unary / binary / ternary,
comparison and type conversion.

Every op prints like upstream MLIR's `tosa-opt`, and parses both that form and the generic one:

```mlir
%0 = tosa.add %a, %b : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
%1 = tosa.clamp %b {max_val = 6 : i8, min_val = 0 : i8} : (tensor<4xi8>) -> tensor<4xi8>
%2 = tosa.maximum %a, %a {nan_mode = IGNORE} : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
%3 = "tosa.maximum"(%c, %c) <{nan_mode = #tosa.nan_mode<IGNORE>}> : (tensor<i8>, tensor<i8>)
       -> tensor<i8>
```

Verifiers check what the TOSA 1.0 specification requires of each op's operand types, with
upstream MLIR's wording where it has one: TOSA broadcasting (equal ranks, each dimension equal
or 1), element types (a family per op, same type in and out, `i1` results of comparisons),
`tosa.mul`'s shift and `tosa.negate`'s zero points (when constant), `tosa.clamp`'s bounds and
the type pairs `tosa.cast` converts. Deviations from the specification, on purpose:

- Element types are checked per family, not per profile: e.g. `tosa.add` takes any of i8, i16,
  i32, i64, f16, bf16, f32, f64 (the spec has i32, f16, bf16, f32), as upstream's op verifier
  does. Only `f64` is outside TOSA; OpenVINO models use it.
- `tosa.cast` allows the specification's pairs plus conversions from and to `i64` / `f64` and
  between floating-point types and `i1` (OpenVINO's `Convert` needs them); see `CAST_PAIRS`.
- Dynamic dimensions (`?`) are accepted and compatible with any size, like upstream.

- TOSA 1.0 specification: https://www.mlplatform.org/tosa/tosa_spec.html
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/
"""

from __future__ import annotations

import math
from abc import ABC
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import ClassVar, Self

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
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
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Commutative, Pure
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


@irdl_op_definition
class ClampOp(_NanModeOp):
    """`output = min(max(input, min_val), max_val)`; with `nan_mode = IGNORE` a NaN input
    yields `min_val`, with `PROPAGATE` (the default) NaN.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaclamp-mlirtosaclampop
    """

    name = "tosa.clamp"

    input = operand_def(TensorType)
    min_val = prop_def(IntegerAttr | FloatAttr)
    max_val = prop_def(IntegerAttr | FloatAttr)
    output = result_def(TensorType)

    def __init__(
        self,
        input: SSAValue | Operation,
        min_val: int | float | IntegerAttr | FloatAttr,
        max_val: int | float | IntegerAttr | FloatAttr,
        nan_mode: NanMode | None = None,
        result_type: Attribute | None = None,
    ):
        value = SSAValue.get(input)
        element_type = _element_type(value)
        properties: dict[str, Attribute] = {
            "min_val": _bound_attr(min_val, element_type),
            "max_val": _bound_attr(max_val, element_type),
        }
        if nan_mode is not None:
            properties["nan_mode"] = NanModeAttr(nan_mode)
        super().__init__(
            operands=[value], result_types=[result_type or value.type], properties=properties
        )

    def verify_(self) -> None:
        _check_element_type("operand", 0, self.input, NUMBER)
        _check_same_element_type([self.input, self.output], with_results=True)
        _check_same_shape(
            self.input, self.output, "requires the same shape for all operands and results"
        )
        element_type = _element_type(self.input)
        low, high = self.min_val, self.max_val
        if low.type != element_type or high.type != element_type:
            raise VerifyException(
                "min/max attributes types are incompatible with input/output element types."
            )
        bounds = f"got min_val={low}, max_val={high}"
        if (
            isinstance(low, FloatAttr)
            and isinstance(high, FloatAttr)
            and (math.isnan(low.value.data) or math.isnan(high.value.data))
        ):
            raise VerifyException(f"min/max attributes should not be 'NaN', {bounds}")
        if low.value.data > high.value.data:
            raise VerifyException(f"expected min_val <= max_val, {bounds}")


def _bound_attr(
    value: int | float | IntegerAttr | FloatAttr, element_type: Attribute
) -> IntegerAttr | FloatAttr:
    if isinstance(value, IntegerAttr | FloatAttr):
        return value
    if element_type in FLOAT:
        return FloatAttr(float(value), element_type)  # pyright: ignore[reportArgumentType]
    return IntegerAttr(int(value), element_type)  # pyright: ignore[reportArgumentType]


@irdl_op_definition
class SigmoidOp(_ActivationOp):
    """`output = 1 / (1 + exp(-input))`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosasigmoid-mlirtosasigmoidop
    """

    name = "tosa.sigmoid"


@irdl_op_definition
class TanhOp(_ActivationOp):
    """`output = tanh(input)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosatanh-mlirtosatanhop
    """

    name = "tosa.tanh"


@irdl_op_definition
class ErfOp(_ActivationOp):
    """`output = erf(input)`, the Gauss error function (used by GELU).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaerf-mlirtosaerfop
    """

    name = "tosa.erf"


@irdl_op_definition
class AbsOp(_ElementwiseUnaryOp):
    """`output = |input1|` (`-0.0` gives `0.0`; the most negative integer gives itself).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaabs-mlirtosaabsop
    """

    name = "tosa.abs"
    ELEMENT_TYPES: ClassVar[ElementTypes] = NUMBER


@irdl_op_definition
class ExpOp(_FloatUnaryOp):
    """`output = e ** input1`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaexp-mlirtosaexpop
    """

    name = "tosa.exp"


@irdl_op_definition
class LogOp(_FloatUnaryOp):
    """`output = ln(input1)` (`-inf` for 0, NaN for negative inputs).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalog-mlirtosalogop
    """

    name = "tosa.log"


@irdl_op_definition
class ReciprocalOp(_FloatUnaryOp):
    """`output = 1 / input1`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareciprocal-mlirtosareciprocalop
    """

    name = "tosa.reciprocal"


@irdl_op_definition
class RsqrtOp(_FloatUnaryOp):
    """`output = 1 / sqrt(input1)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosarsqrt-mlirtosarsqrtop
    """

    name = "tosa.rsqrt"


@irdl_op_definition
class FloorOp(_FloatUnaryOp):
    """`output = floor(input1)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosafloor-mlirtosafloorop
    """

    name = "tosa.floor"


@irdl_op_definition
class CeilOp(_FloatUnaryOp):
    """`output = ceil(input1)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaceil-mlirtosaceilop
    """

    name = "tosa.ceil"


@irdl_op_definition
class SinOp(_FloatUnaryOp):
    """`output = sin(input1)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosasin-mlirtosasinop
    """

    name = "tosa.sin"


@irdl_op_definition
class CosOp(_FloatUnaryOp):
    """`output = cos(input1)`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosacos-mlirtosacosop
    """

    name = "tosa.cos"


@irdl_op_definition
class BitwiseNotOp(_ElementwiseUnaryOp):
    """`output = ~input1` on integers.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosabitwise_not-mlirtosabitwisenotop
    """

    name = "tosa.bitwise_not"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER


@irdl_op_definition
class ClzOp(_ElementwiseUnaryOp):
    """`output` = the number of leading zero bits of `input1` (its width for 0, 0 for
    negative values).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaclz-mlirtosaclzop
    """

    name = "tosa.clz"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER


@irdl_op_definition
class LogicalNotOp(_ElementwiseUnaryOp):
    """`output = !input1` on `i1` tensors.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_not-mlirtosalogicalnotop
    """

    name = "tosa.logical_not"
    ELEMENT_TYPES: ClassVar[ElementTypes] = BOOL


@irdl_op_definition
class NegateOp(TosaElementwiseOperation):
    """`output = clamp(-(input1 - input1_zp) + output_zp)` to the range of the element type.

    The zero points are `tensor<1xT>` operands and must be 0 unless `T` is `i8`; for
    floating-point types they are ignored at run time (the verifier rejects non-zero
    constants). Integer results saturate, they do not wrap.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosanegate-mlirtosanegateop
    """

    name = "tosa.negate"

    input1 = operand_def(TensorType)
    input1_zp = operand_def(TensorType)
    output_zp = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        input1_zp: SSAValue | Operation,
        output_zp: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        value = SSAValue.get(input1)
        super().__init__(
            operands=[value, input1_zp, output_zp], result_types=[result_type or value.type]
        )

    def verify_(self) -> None:
        _check_element_type("operand", 0, self.input1, NUMBER)
        _check_scalar_tensor(1, self.input1_zp, NUMBER)
        _check_scalar_tensor(2, self.output_zp, NUMBER)
        _check_element_type("result", 0, self.output, NUMBER)
        element_type = _element_type(self.input1)
        output_type = _element_type(self.output)
        if element_type != output_type:
            raise VerifyException(
                "expect input and output to have same element type, "
                f"got '{element_type}' and '{output_type}'"
            )
        for role, zp in (("input1", self.input1_zp), ("output", self.output_zp)):
            if _element_type(zp) != element_type:
                raise VerifyException(
                    f"expect both {role} and its zero point are the same element type, "
                    f"got '{element_type}' and '{_element_type(zp)}'"
                )
            values = constant_values(zp)
            if element_type != i8 and values is not None and any(v != 0 for v in values):
                raise VerifyException(f"{role} zero point must be zero for non-int8 integer types")
        _check_same_shape(self.input1, self.output, "requires the same shape for input1 and output")


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


@irdl_op_definition
class AddOp(_BinaryOp):
    """`output = input1 + input2`; integers wrap around.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaadd-mlirtosaaddop
    """

    name = "tosa.add"
    ELEMENT_TYPES: ClassVar[ElementTypes] = NUMBER
    traits = traits_def(Commutative())


@irdl_op_definition
class SubOp(_BinaryOp):
    """`output = input1 - input2`; integers wrap around.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosasub-mlirtosasubop
    """

    name = "tosa.sub"
    ELEMENT_TYPES: ClassVar[ElementTypes] = NUMBER


@irdl_op_definition
class MulOp(TosaElementwiseOperation):
    """`output = input1 * input2`, with a `shift` operand (`tensor<1xi8>`) for `i32`.

    For `i32` operands and `shift > 0` the product is computed in 64 bits and rounded:
    `(a * b + (1 << (shift - 1))) >> shift`. Otherwise the result is the product in the
    result type (`i8` / `i16` operands may give an `i32` result), integers wrapping around.
    The shift must be 0 for other types (checked when it is a constant; ignored at run time).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosamul-mlirtosamulop
    """

    name = "tosa.mul"
    traits = traits_def(Commutative())

    input1 = operand_def(TensorType)
    input2 = operand_def(TensorType)
    shift = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        input2: SSAValue | Operation,
        shift: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        lhs, rhs = SSAValue.get(input1), SSAValue.get(input2)
        if result_type is None:
            element_type = _element_type(lhs)
            if element_type in (i8, i16):
                element_type = i32
            result_type = _broadcast_type([lhs, rhs], element_type)
        super().__init__(operands=[lhs, rhs, shift], result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("operand", 0, self.input1, NUMBER)
        _check_element_type("operand", 1, self.input2, NUMBER)
        _check_scalar_tensor(2, self.shift, SHIFT)
        _check_element_type("result", 0, self.output, NUMBER)
        element_type = _element_type(self.input1)
        result_type = _element_type(self.output)
        if result_type in INTEGER:
            _check_same_element_type([self.input1, self.input2], with_results=False)
            if not isinstance(element_type, IntegerType):
                raise VerifyException("requires the same element type for all operands")
            assert isinstance(result_type, IntegerType)
            if element_type.width.data > result_type.width.data:
                raise VerifyException("invalid data type size for operands or result")
        else:
            _check_same_element_type([self.input1, self.input2, self.output], with_results=True)
        shift = constant_values(self.shift)
        if shift is not None:
            (value,) = shift
            if value != 0 and element_type in FLOAT:
                raise VerifyException("require shift to be 0 for float type")
            if value != 0 and element_type != i32:
                raise VerifyException(
                    f"require shift to be 0 for '{element_type}' operands, got {value}"
                )
            if not 0 <= int(value) <= 63:
                raise VerifyException(f"require shift to be in [0, 63], got {value}")
        verify_broadcast([self.input1, self.input2], self.output)


@irdl_op_definition
class PowOp(_BinaryOp):
    """`output = input1 ** input2` (floating-point).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosapow-mlirtosapowop
    """

    name = "tosa.pow"
    ELEMENT_TYPES: ClassVar[ElementTypes] = FLOAT


@irdl_op_definition
class MaximumOp(_NanModeBinaryOp):
    """`output = max(input1, input2)`; `nan_mode = IGNORE` returns the non-NaN operand.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosamaximum-mlirtosamaximumop
    """

    name = "tosa.maximum"
    traits = traits_def(Commutative())


@irdl_op_definition
class MinimumOp(_NanModeBinaryOp):
    """`output = min(input1, input2)`; `nan_mode = IGNORE` returns the non-NaN operand.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaminimum-mlirtosaminimumop
    """

    name = "tosa.minimum"
    traits = traits_def(Commutative())


@irdl_op_definition
class IntDivOp(_BinaryOp):
    """`output = input1 / input2` on `i32` / `i64`, rounding toward zero.

    Division by zero is an error at run time (UNPREDICTABLE in the specification).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaintdiv-mlirtosaintdivop
    """

    name = "tosa.intdiv"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTDIV_INTEGER


@irdl_op_definition
class LogicalAndOp(_BinaryOp):
    """`output = input1 && input2` on `i1` tensors.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_and-mlirtosalogicalandop
    """

    name = "tosa.logical_and"
    ELEMENT_TYPES: ClassVar[ElementTypes] = BOOL
    traits = traits_def(Commutative())


@irdl_op_definition
class LogicalOrOp(_BinaryOp):
    """`output = input1 || input2` on `i1` tensors.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_or-mlirtosalogicalorop
    """

    name = "tosa.logical_or"
    ELEMENT_TYPES: ClassVar[ElementTypes] = BOOL
    traits = traits_def(Commutative())


@irdl_op_definition
class LogicalXorOp(_BinaryOp):
    """`output = input1 != input2` on `i1` tensors.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_xor-mlirtosalogicalxorop
    """

    name = "tosa.logical_xor"
    ELEMENT_TYPES: ClassVar[ElementTypes] = BOOL
    traits = traits_def(Commutative())


@irdl_op_definition
class BitwiseAndOp(_BinaryOp):
    """`output = input1 & input2` on integers.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosabitwise_and-mlirtosabitwiseandop
    """

    name = "tosa.bitwise_and"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER
    traits = traits_def(Commutative())


@irdl_op_definition
class BitwiseOrOp(_BinaryOp):
    """`output = input1 | input2` on integers.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosabitwise_or-mlirtosabitwiseorop
    """

    name = "tosa.bitwise_or"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER
    traits = traits_def(Commutative())


@irdl_op_definition
class BitwiseXorOp(_BinaryOp):
    """`output = input1 ^ input2` on integers.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosabitwise_xor-mlirtosabitwisexorop
    """

    name = "tosa.bitwise_xor"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER
    traits = traits_def(Commutative())


@irdl_op_definition
class LogicalLeftShiftOp(_BinaryOp):
    """`output = input1 << input2`, the bits shifted out dropped; each shift amount must
    be in [0, width - 1].

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_left_shift-mlirtosalogicalleftshiftop
    """

    name = "tosa.logical_left_shift"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER


@irdl_op_definition
class LogicalRightShiftOp(_BinaryOp):
    """`output = input1 >> input2` with zeros shifted in (`input1` read as unsigned); each
    shift amount must be in [0, width - 1].

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosalogical_right_shift-mlirtosalogicalrightshiftop
    """

    name = "tosa.logical_right_shift"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER


@irdl_op_definition
class ArithmeticRightShiftOp(_BinaryOp):
    """`output = input1 >> input2` with the sign shifted in; with `round`, plus the last
    bit shifted out (round half up). Each shift amount must be in [0, width - 1].

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaarithmetic_right_shift-mlirtosaarithmeticrightshiftop
    """

    name = "tosa.arithmetic_right_shift"
    ELEMENT_TYPES: ClassVar[ElementTypes] = INTEGER

    round = prop_def(BoolAttr)

    @classmethod
    def _parse_keyword_properties(cls, parser: Parser) -> dict[str, Attribute]:
        """`round(true)`, as newer upstream MLIR (iree-opt) prints it; `tosa-opt` and we
        print `{round = true}`."""
        if parser.parse_optional_keyword("round") is None:
            return {}
        parser.parse_punctuation("(")
        value = parser.parse_boolean()
        parser.parse_punctuation(")")
        return {"round": IntegerAttr.from_bool(value)}

    def __init__(
        self,
        input1: SSAValue | Operation,
        input2: SSAValue | Operation,
        round: bool,
        result_type: Attribute | None = None,
    ):
        super().__init__(input1, input2, result_type, {"round": IntegerAttr.from_bool(round)})


@irdl_op_definition
class EqualOp(_ComparisonOp):
    """`output = input1 == input2` (`i1` result; NaN is unequal to everything).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaequal-mlirtosaequalop
    """

    name = "tosa.equal"
    traits = traits_def(Commutative())


@irdl_op_definition
class GreaterOp(_ComparisonOp):
    """`output = input1 > input2` (`i1` result).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosagreater-mlirtosagreaterop
    """

    name = "tosa.greater"


@irdl_op_definition
class GreaterEqualOp(_ComparisonOp):
    """`output = input1 >= input2` (`i1` result).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosagreater_equal-mlirtosagreaterequalop
    """

    name = "tosa.greater_equal"


# ---------------------------------------------------------------------------------------
# Ternary operator
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class SelectOp(TosaElementwiseOperation):
    """`output = input1 ? input2 : input3`, elementwise with TOSA broadcasting.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaselect-mlirtosaselectop
    """

    name = "tosa.select"

    input1 = operand_def(TensorType)
    input2 = operand_def(TensorType)
    input3 = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        input2: SSAValue | Operation,
        input3: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        values = [SSAValue.get(v) for v in (input1, input2, input3)]
        if result_type is None:
            result_type = _broadcast_type(values, _element_type(values[1]))
        super().__init__(operands=values, result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("operand", 0, self.input1, BOOL)
        _check_element_type("operand", 1, self.input2, ANY)
        _check_element_type("operand", 2, self.input3, ANY)
        output_type = _element_type(self.output)
        for operand in (self.input2, self.input3):
            if _element_type(operand) != output_type:
                raise VerifyException(
                    "expect input and output to have same element type, "
                    f"got '{_element_type(operand)}' and '{output_type}'"
                )
        verify_broadcast([self.input1, self.input2, self.input3], self.output)


# ---------------------------------------------------------------------------------------
# Type conversion
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class CastOp(TosaElementwiseOperation):
    """Converts each element to the result's element type.

    Floating-point to integer rounds to nearest, ties to even, and saturates (NaN gives 0);
    to `i1` is `x != 0`; from `i1` gives 0 / 1; integer narrowing wraps around; to a
    narrower floating-point type rounds to nearest even. Allowed pairs: `CAST_PAIRS`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosacast-mlirtosacastop
    """

    name = "tosa.cast"

    input = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(self, input: SSAValue | Operation, result_type: Attribute):
        value = SSAValue.get(input)
        if not isinstance(result_type, TensorType):
            input_type = value.type
            assert isinstance(input_type, TensorType)
            result_type = TensorType(result_type, input_type.get_shape())
        super().__init__(operands=[value], result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("operand", 0, self.input, ANY)
        _check_element_type("result", 0, self.output, ANY)
        _check_same_shape(
            self.input, self.output, "requires the same shape for all operands and results"
        )
        pair = (_element_type(self.input), _element_type(self.output))
        if pair not in CAST_PAIRS:
            raise VerifyException(
                "illegal: operation operand/result data types did not align with any "
                f"profile or extension, got ({pair[0]},{pair[1]})"
            )


@irdl_op_definition
class TableOp(TosaElementwiseOperation):
    """Table lookup: i8 inputs index a 256-entry i8 table (`table[x + 128]`); i16 inputs
    interpolate linearly between the 513 entries of an i16 table into an i32 result
    (`(table[i] << 7) + (table[i + 1] - table[i]) * fraction`, 7 fraction bits).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosatable-mlirtosatableop
    """

    name = "tosa.table"

    input1 = operand_def(TensorType)
    table = operand_def(TensorType)
    output = result_def(TensorType)

    LAYOUTS: ClassVar[dict[Attribute, tuple[int, Attribute]]] = {i8: (256, i8), i16: (513, i32)}
    """Input element type -> (table size, output element type)."""

    def verify_(self) -> None:
        input_t = _element_type(self.input1)
        if input_t not in self.LAYOUTS:
            raise VerifyException(f"expect input element type i8 or i16, got '{input_t}'")
        size, output_t = self.LAYOUTS[input_t]
        table_type = self.table.type
        assert isinstance(table_type, TensorType)
        if table_type.element_type != input_t or table_type.get_shape() not in ((size,),
                                                                               (DYNAMIC_INDEX,)):
            raise VerifyException(
                f"expect table to be a tensor<{size}x{input_t}>, got '{table_type}'"
            )
        if _element_type(self.output) != output_t:
            raise VerifyException(
                f"expect output element type '{output_t}', got '{_element_type(self.output)}'"
            )
        _check_same_shape(self.input1, self.output,
                          "requires the same shape for input1 and output")


RESCALE_TYPES = frozenset({i8, i16, i32})
"""Element types RESCALE converts between (unsigned 8/16-bit values travel as i8 / i16)."""


@irdl_op_definition
class RescaleOp(TosaElementwiseOperation):
    """`output = clamp(apply_scale(input - input_zp, multiplier, shift) + output_zp)`: integer
    rescaling with a 32-bit (`scale32`) or 16-bit multiplier, per channel (the last
    dimension) or not; `rounding_mode` SINGLE_ROUND or DOUBLE_ROUND (INEXACT_ROUND runs as
    SINGLE_ROUND); `input_unsigned` / `output_unsigned` read i8 / i16 as ui8 / ui16.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosarescale-mlirtosarescaleop
    """

    name = "tosa.rescale"

    input = operand_def(TensorType)
    multiplier = operand_def(TensorType)
    shift = operand_def(TensorType)
    input_zp = operand_def(TensorType)
    output_zp = operand_def(TensorType)
    output = result_def(TensorType)
    scale32 = prop_def(BoolAttr)
    rounding_mode = prop_def(RoundingModeAttr)
    per_channel = prop_def(BoolAttr)
    input_unsigned = prop_def(BoolAttr)
    output_unsigned = prop_def(BoolAttr)

    def verify_(self) -> None:
        for index, value in enumerate((self.input,)):
            _check_element_type("operand", index, value, ElementTypes(RESCALE_TYPES,
                                                                      "8/16/32-bit integer"))
        _check_element_type("result", 0, self.output,
                            ElementTypes(RESCALE_TYPES, "8/16/32-bit integer"))
        _check_same_shape(self.input, self.output,
                          "requires the same shape for input and output")
        # the spec's ERROR_IFs: no unsigned side facing an i32 side, no 16-bit double rounding
        if self.input_unsigned.value.data and _element_type(self.output) == i32:
            raise VerifyException("expect an i8 or i16 output when input_unsigned is set")
        if self.output_unsigned.value.data and _element_type(self.input) == i32:
            raise VerifyException("expect an i8 or i16 input when output_unsigned is set")
        if not self.scale32.value.data and self.rounding_mode.data == "DOUBLE_ROUND":
            raise VerifyException("DOUBLE_ROUND is only allowed with scale32 = true")
        scale_t = i32 if self.scale32.value.data else i16
        channels = 1
        if self.per_channel.value.data:
            output_type = self.output.type
            assert isinstance(output_type, TensorType)
            shape = output_type.get_shape()
            channels = shape[-1] if shape else 1
        for what, value, element_type in (("multiplier", self.multiplier, scale_t),
                                          ("shift", self.shift, i8)):
            value_type = value.type
            assert isinstance(value_type, TensorType)
            if value_type.element_type != element_type or value_type.get_num_dims() != 1 or \
                    value_type.get_shape()[0] not in (channels, DYNAMIC_INDEX):
                raise VerifyException(
                    f"expect '{what}' to be a tensor<{channels}x{element_type}>, got "
                    f"'{value_type}'"
                )
        for what, zp, operand in (("input_zp", self.input_zp, self.input),
                                  ("output_zp", self.output_zp, self.output)):
            zp_type = zp.type
            assert isinstance(zp_type, TensorType)
            if zp_type.get_shape() != (1,) or zp_type.element_type != _element_type(operand):
                raise VerifyException(
                    f"expect '{what}' to be a tensor<1x{_element_type(operand)}>, got "
                    f"'{zp_type}'"
                )
        for what, zp, unsigned in (("input_zp", self.input_zp, self.input_unsigned),
                                   ("output_zp", self.output_zp, self.output_unsigned)):
            element_type = _element_type(zp)
            may_offset = element_type == i8 or (element_type == i16 and unsigned.value.data)
            values = constant_values(zp)
            if not may_offset and values is not None and any(v != 0 for v in values):
                raise VerifyException(
                    f"expect '{what}' to be zero unless its type is i8, ui8 or ui16"
                )


ELEMENTWISE_OPS: list[type[IRDLOperation]] = [
    # activation
    ClampOp,
    SigmoidOp,
    TanhOp,
    ErfOp,
    # elementwise binary
    AddOp,
    SubOp,
    MulOp,
    PowOp,
    MaximumOp,
    MinimumOp,
    IntDivOp,
    LogicalAndOp,
    LogicalOrOp,
    LogicalXorOp,
    BitwiseAndOp,
    BitwiseOrOp,
    BitwiseXorOp,
    LogicalLeftShiftOp,
    LogicalRightShiftOp,
    ArithmeticRightShiftOp,
    # elementwise unary
    AbsOp,
    BitwiseNotOp,
    ClzOp,
    CosOp,
    SinOp,
    ExpOp,
    LogOp,
    NegateOp,
    ReciprocalOp,
    RsqrtOp,
    LogicalNotOp,
    FloorOp,
    CeilOp,
    # elementwise ternary
    SelectOp,
    # comparison
    EqualOp,
    GreaterOp,
    GreaterEqualOp,
    # type conversion
    CastOp,
    RescaleOp,
    TableOp,
]

ELEMENTWISE_ATTRS: list[type[Attribute]] = [NanModeAttr, RoundingModeAttr]
"""`#tosa.nan_mode<...>` and `#tosa.rounding_mode<...>` (xDSL's classes: they match upstream).
Registered here only; other modules of the dialect import them from this module without
listing them again."""
