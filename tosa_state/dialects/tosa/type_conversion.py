"""TOSA 1.0 type conversion and table lookup: `tosa.cast` (the specification's pairs plus the
extension pairs of `CAST_PAIRS`), `tosa.rescale` (integer scaling by multiplier/shift pairs,
per tensor or per channel, with zero points) and `tosa.table` (i8 / i16 lookup tables).

https://www.mlplatform.org/tosa/tosa_spec.html#_type_conversion
"""

from __future__ import annotations

from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    TensorType,
    i8,
    i16,
    i32,
)
from xdsl.dialects.tosa import RoundingModeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.elementwise_base import (
    ANY,
    CAST_PAIRS,
    ElementTypes,
    TosaElementwiseOperation,
    _check_element_type,
    _check_same_shape,
    _element_type,
    constant_values,
)

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
