"""TOSA 1.0 elementwise operators: elementwise unary / binary / ternary and comparison here;
activation functions (`activation.py`) and type conversion (`type_conversion.py`) in modules
of their own, the shared checks and base classes in `elementwise_base.py`. Every name callers
use is importable from here (`from tosa_state.dialects.tosa import elementwise as tew`).

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

from typing import ClassVar

from xdsl.dialects.builtin import (
    BoolAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    i8,
    i16,
    i32,
)
from xdsl.dialects.tosa import NanModeAttr, RoundingModeAttr
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
from xdsl.traits import Commutative
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.activation import (
    ClampOp,
    ErfOp,
    SigmoidOp,
    TanhOp,
)
from tosa_state.dialects.tosa.elementwise_base import (
    ANY,
    BOOL,
    CAST_PAIRS,
    EXTENSION_CAST_PAIRS,
    FLOAT,
    INTDIV_INTEGER,
    INTEGER,
    NUMBER,
    SHIFT,
    SPEC_CAST_PAIRS,
    ElementTypes,
    TosaElementwiseOperation,
    _BinaryOp,
    _broadcast_type,
    _check_element_type,
    _check_same_element_type,
    _check_same_shape,
    _check_scalar_tensor,
    _ComparisonOp,
    _element_type,
    _ElementwiseUnaryOp,
    _FloatUnaryOp,
    _NanModeBinaryOp,
    _UnaryOp,
    broadcast_shape,
    constant_values,
    verify_broadcast,
)
from tosa_state.dialects.tosa.type_conversion import (
    CastOp,
    RescaleOp,
    TableOp,
)


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

__all__ = [
    "CAST_PAIRS",
    "ELEMENTWISE_ATTRS",
    "ELEMENTWISE_OPS",
    "EXTENSION_CAST_PAIRS",
    "SPEC_CAST_PAIRS",
    "AbsOp",
    "AddOp",
    "ArithmeticRightShiftOp",
    "BitwiseAndOp",
    "BitwiseNotOp",
    "BitwiseOrOp",
    "BitwiseXorOp",
    "CastOp",
    "CeilOp",
    "ClampOp",
    "ClzOp",
    "CosOp",
    "ElementTypes",
    "EqualOp",
    "ErfOp",
    "ExpOp",
    "FloorOp",
    "GreaterEqualOp",
    "GreaterOp",
    "IntDivOp",
    "LogOp",
    "LogicalAndOp",
    "LogicalLeftShiftOp",
    "LogicalNotOp",
    "LogicalOrOp",
    "LogicalRightShiftOp",
    "LogicalXorOp",
    "MaximumOp",
    "MinimumOp",
    "MulOp",
    "NegateOp",
    "PowOp",
    "ReciprocalOp",
    "RescaleOp",
    "RsqrtOp",
    "SelectOp",
    "SigmoidOp",
    "SinOp",
    "SubOp",
    "TableOp",
    "TanhOp",
    "_BinaryOp",
    "_UnaryOp",
    "broadcast_shape",
    "constant_values",
    "verify_broadcast",
]
