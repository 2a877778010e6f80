"""Activation `openvino` ops: ReLU, Sigmoid, Gelu, HSwish, HSigmoid, Elu, Swish, PRelu, Clamp,
SoftPlus, ErfInv (OpenVINO's "activation" operation specs; Tanh and Exp, which it files under
arithmetic too, stay in `elementwise`).
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat, Float64Type, FloatAttr, StringAttr, f64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
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
    check_same_shape,
    element_type,
    tensor_shape,
)
from tosa_state.dialects.openvino.elementwise import ElementwiseUnaryOp


class _FloatUnaryOp(ElementwiseUnaryOp):
    """An element-wise op of floating-point tensors only."""

    def verify_(self) -> None:
        super().verify_()
        if not isinstance(element_type(self.input.type), AnyFloat):
            raise VerifyException(
                f"{self.name}: input must be a floating-point tensor, got {self.input.type}"
            )


@irdl_op_definition
class SoftPlusOp(_FloatUnaryOp):
    """SoftPlus-4: `ln(1 + e^x)`, `x` from a type-dependent threshold on (floats only).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/softplus-4.html
    """

    name = "openvino.softplus"


@irdl_op_definition
class ErfInvOp(_FloatUnaryOp):
    """ErfInv-17: the inverse of the Gauss error function, `erf(erfinv(x)) = x` on (-1, 1);
    +-inf at +-1, NaN beyond (floats only).

    https://docs.openvino.ai/2026/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/erfinv-17.html
    """

    name = "openvino.erfinv"


@irdl_op_definition
class ReluOp(ElementwiseUnaryOp):
    """ReLU-1 (IR type `ReLU`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/relu-1.html
    """

    name = "openvino.relu"


@irdl_op_definition
class SigmoidOp(ElementwiseUnaryOp):
    """Sigmoid-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/sigmoid-1.html
    """

    name = "openvino.sigmoid"


@irdl_op_definition
class GeluOp(ElementwiseUnaryOp):
    """Gelu-2 / Gelu-7: `0.5 x (1 + erf(x / sqrt 2))`, or its tanh approximation.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/gelu-7.html
    """

    name = "openvino.gelu"

    approximation_mode = prop_def(StringAttr, default_value=StringAttr("erf"))
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, input: SSAValue, result_type: Attribute, approximation_mode: str = "erf"):
        super().__init__(input, result_type, {"approximation_mode": StringAttr(approximation_mode)})

    def verify_(self) -> None:
        super().verify_()
        if self.approximation_mode.data not in ("erf", "tanh"):
            raise VerifyException(
                f"{self.name}: approximation_mode must be 'erf' or 'tanh', got "
                f"'{self.approximation_mode.data}'"
            )


@irdl_op_definition
class HSwishOp(ElementwiseUnaryOp):
    """HSwish-4: `x * min(max(x + 3, 0), 6) / 6`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/hswish-4.html
    """

    name = "openvino.hswish"


@irdl_op_definition
class HSigmoidOp(ElementwiseUnaryOp):
    """HSigmoid-5: `min(max(x + 3, 0), 6) / 6`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/hsigmoid-5.html
    """

    name = "openvino.hsigmoid"


@irdl_op_definition
class EluOp(ElementwiseUnaryOp):
    """Elu-1: `x` where `x > 0`, else `alpha (exp(x) - 1)`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/elu-1.html
    """

    name = "openvino.elu"

    alpha = prop_def(FloatAttr[Float64Type])
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, input: SSAValue, result_type: Attribute, alpha: float):
        super().__init__(input, result_type, {"alpha": FloatAttr(alpha, f64)})


@irdl_op_definition
class SwishOp(IRDLOperation):
    """Swish-4: `x * sigmoid(beta x)`, `beta` a scalar input (1 without it).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/swish-4.html
    """

    name = "openvino.swish"

    input = operand_def(TensorLike)
    beta = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, beta: SSAValue | None, result_type: Attribute):
        super().__init__(operands=[input, [] if beta is None else [beta]],
                         result_types=[result_type])

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)
        if self.beta is not None:
            check_same_element_type(self, (self.input, self.beta), "input and beta")
            if tensor_shape(self.beta.type) not in ((), (1,), None):
                raise VerifyException(f"{self.name}: beta must be a scalar, got {self.beta.type}")


@irdl_op_definition
class PReluOp(IRDLOperation):
    """PRelu-1: `x` where `x >= 0`, else `slope * x`; a 1-D `slope` as long as the channel
    dimension (dimension 1) applies per channel, other slopes broadcast as numpy.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/prelu-1.html
    """

    name = "openvino.prelu"

    input = operand_def(TensorLike)
    slope = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, slope: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, slope], result_types=[result_type])

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.slope, self.result),
                                 "input, slope and result")
        check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class ClampOp(IRDLOperation):
    """Clamp-1: `min(max(input, min), max)`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/clamp-1.html
    """

    name = "openvino.clamp"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    min = prop_def(FloatAttr[Float64Type])
    max = prop_def(FloatAttr[Float64Type])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute, min: float, max: float):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"min": FloatAttr(min, f64), "max": FloatAttr(max, f64)},
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)
        if self.min.value.data > self.max.value.data:
            raise VerifyException(
                f"{self.name}: min {self.min.value.data} is greater than max {self.max.value.data}"
            )


ACTIVATION_OPS = (
    ReluOp,
    SigmoidOp,
    GeluOp,
    HSwishOp,
    HSigmoidOp,
    EluOp,
    SwishOp,
    PReluOp,
    ClampOp,
    SoftPlusOp,
    ErfInvOp,
)
