"""Activation `openvino` ops added for the optimum-intel architectures: SoftPlus, ErfInv.

(The older activations live in `elementwise`.)
"""

from __future__ import annotations

from xdsl.dialects.builtin import AnyFloat
from xdsl.irdl import irdl_op_definition
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import element_type
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


ACTIVATION_OPS = (SoftPlusOp, ErfInvOp)
