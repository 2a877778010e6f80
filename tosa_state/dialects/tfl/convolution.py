"""CONV_2D: NHWC input, OHWI filter, bias [O], SAME / VALID padding.

https://www.tensorflow.org/mlir/tfl_ops#tflconv_2d_tflconv2dop
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import DenseArrayBase, IntegerAttr, IntegerType, StringAttr, f32
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import (
    OPERANDS_FORMAT,
    Tensor,
    check_activation,
    check_hybrid,
    check_result_shape,
    check_same_element,
    dims,
    fmt,
    i32_attr,
    static,
)

PADDINGS = ("SAME", "VALID")


def output_size(size: int, kernel: int, stride: int, dilation: int, padding: str) -> int:
    """TFLite's output size of one spatial dim."""
    effective = (kernel - 1) * dilation + 1
    if padding == "SAME":
        return (size + stride - 1) // stride
    return (size - effective + stride) // stride


def same_padding(size: int, kernel: int, stride: int, dilation: int) -> tuple[int, int]:
    """SAME padding (before, after): the odd element goes after, as TensorFlow."""
    effective = (kernel - 1) * dilation + 1
    out = (size + stride - 1) // stride
    total = max((out - 1) * stride + effective - size, 0)
    return total // 2, total - total // 2


@irdl_op_definition
class Conv2DOp(IRDLOperation):
    """CONV_2D."""

    name = "tfl.conv_2d"

    input = operand_def(Tensor)
    filter = operand_def(Tensor)
    bias = opt_operand_def(Tensor)
    output = result_def(Tensor)
    padding = prop_def(StringAttr)
    stride_h = prop_def(IntegerAttr[IntegerType])
    stride_w = prop_def(IntegerAttr[IntegerType])
    dilation_h_factor = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(1))
    dilation_w_factor = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(1))
    fused_activation_function = prop_def(StringAttr, default_value=StringAttr("NONE"))
    filter_scale = opt_prop_def(DenseArrayBase)
    """Hybrid form: the int8 filter's scales (one, or one per output channel; zero points
    0); each input batch is quantized per call, as LiteRT's hybrid kernel does."""

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, filter: SSAValue, bias: SSAValue | None,
                 result_type: Attribute, padding: str, stride: tuple[int, int],
                 dilation: tuple[int, int], activation: str = "NONE",
                 filter_scale: Sequence[float] | None = None):
        properties: dict[str, Attribute] = {
            "padding": StringAttr(padding),
            "stride_h": i32_attr(stride[0]), "stride_w": i32_attr(stride[1]),
            "dilation_h_factor": i32_attr(dilation[0]),
            "dilation_w_factor": i32_attr(dilation[1]),
            "fused_activation_function": StringAttr(activation)}
        if filter_scale is not None:
            properties["filter_scale"] = DenseArrayBase.from_list(f32, list(filter_scale))
        super().__init__(operands=[value, filter, bias], result_types=[result_type],
                         properties=properties)

    def window(self) -> tuple[tuple[int, int], tuple[int, int]]:
        """(stride_h, stride_w), (dilation_h, dilation_w)."""
        return ((self.stride_h.value.data, self.stride_w.value.data),
                (self.dilation_h_factor.value.data, self.dilation_w_factor.value.data))

    def verify_(self) -> None:
        check_activation(self, self.fused_activation_function)
        if self.filter_scale is None:
            check_same_element(self, (self.input, self.filter, self.output),
                               "input, filter, result")
        else:
            check_hybrid(self, self.input, self.filter, self.output, self.filter_scale)
        if self.padding.data not in PADDINGS:
            raise VerifyException(f"{self.name}: padding must be SAME or VALID, "
                                  f"got '{self.padding.data}'")
        strides, dilations = self.window()
        if min(*strides, *dilations) < 1:
            raise VerifyException(f"{self.name}: strides and dilations must be >= 1")
        x, w = dims(self.input), dims(self.filter)
        if len(x) != 4 or len(w) != 4 or x[3] != w[3]:
            raise VerifyException(
                f"{self.name}: input {fmt(x)} (NHWC) and filter {fmt(w)} (OHWI) do not match"
            )
        if self.bias is not None and dims(self.bias) != (w[0],):
            raise VerifyException(f"{self.name}: bias must have shape [{w[0]}]")
        if not static(x) or not static(w):
            return
        out = [output_size(x[i + 1], w[i + 1], strides[i], dilations[i], self.padding.data)
               for i in range(2)]
        if min(out) < 1:
            raise VerifyException(f"{self.name}: the filter {fmt(w)} does not fit {fmt(x)}")
        check_result_shape(self, self.output, (x[0], *out, w[0]))


CONVOLUTION_OPS = (Conv2DOp,)
