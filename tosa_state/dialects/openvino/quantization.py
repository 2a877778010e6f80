"""Quantization `openvino` ops: FakeQuantize."""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, IntegerAttr, IntegerType, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    check_same_element_type,
    element_type,
    i64_attr,
)
from tosa_state.dialects.openvino.elementwise import _verify_broadcast


@irdl_op_definition
class FakeQuantizeOp(IRDLOperation):
    """FakeQuantize-1: `x` mapped onto `levels` evenly spaced values. With
    `lo = min(input_low, input_high)` and `hi = max(...)`: `output_low` where `x <= lo`,
    `output_high` where `x > hi`, else
    `round((x - input_low) / (input_high - input_low) * (levels - 1)) / (levels - 1) *
    (output_high - output_low) + output_low`, rounding half to even (`std::nearbyint`). The
    four bounds broadcast against `x` (`auto_broadcast`: numpy or none).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/quantization/fake-quantize-1.html
    """

    name = "openvino.fake_quantize"

    input = operand_def(TensorLike)
    input_low = operand_def(TensorLike)
    input_high = operand_def(TensorLike)
    output_low = operand_def(TensorLike)
    output_high = operand_def(TensorLike)
    result = result_def(TensorLike)
    levels = prop_def(IntegerAttr[IntegerType])
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, operands: tuple[SSAValue, SSAValue, SSAValue, SSAValue, SSAValue],
                 result_type: Attribute, levels: int, auto_broadcast: str = "numpy"):
        super().__init__(
            operands=list(operands),
            result_types=[result_type],
            properties={"levels": i64_attr(levels), "auto_broadcast": StringAttr(auto_broadcast)},
        )

    def bounds(self) -> tuple[SSAValue, SSAValue, SSAValue, SSAValue]:
        """input_low, input_high, output_low, output_high."""
        return self.input_low, self.input_high, self.output_low, self.output_high

    def verify_(self) -> None:
        levels = self.levels.value.data
        if levels < 2:
            raise VerifyException(f"{self.name}: levels must be at least 2, got {levels}")
        if not isinstance(element_type(self.input.type), AnyFloat):
            raise VerifyException(f"{self.name}: input must be a floating-point tensor, got "
                                  f"{self.input.type}")
        check_same_element_type(self, (self.input, *self.bounds(), self.result),
                                "input, bounds and result")
        _verify_broadcast(self, [self.input.type, *(v.type for v in self.bounds())],
                          self.result.type, self.auto_broadcast.data)


QUANTIZATION_OPS = (FakeQuantizeOp,)
