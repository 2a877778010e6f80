"""TOSA 1.0 activation functions: `tosa.clamp` (bounds of the input's type, `nan_mode`),
`tosa.sigmoid`, `tosa.tanh`, `tosa.erf`.

https://www.mlplatform.org/tosa/tosa_spec.html#_activation_functions
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    FloatAttr,
    IntegerAttr,
    TensorType,
)
from xdsl.dialects.tosa import NanMode, NanModeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
)
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.elementwise_base import (
    FLOAT,
    NUMBER,
    _ActivationOp,
    _check_element_type,
    _check_same_element_type,
    _check_same_shape,
    _element_type,
    _NanModeOp,
)


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
