"""CONV_2D."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from tflite.Padding import Padding
from xdsl.ir import Operation

from tosa_state.dialects.tfl.convolution import Conv2DOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput

_PADDINGS = {Padding.SAME: "SAME", Padding.VALID: "VALID"}


def _conv_2d(op: OperatorInput) -> Operation:
    options = op.options(tflite.Conv2DOptions, O.Conv2DOptions)
    if options is None:
        raise op.where.error("CONV_2D needs its Conv2DOptions")
    padding = op.read("padding", options.Padding)
    if padding not in _PADDINGS:
        raise op.where.error(f"padding #{padding} is neither SAME nor VALID")
    stride = (op.read("stride_h", options.StrideH), op.read("stride_w", options.StrideW))
    dilation = (op.read("dilation_h_factor", options.DilationHFactor),
                op.read("dilation_w_factor", options.DilationWFactor))
    return Conv2DOp(op.operand(0, "input"), op.operand(1, "filter"), op.optional(2),
                    op.result(), _PADDINGS[padding], stride, dilation, op.activation(options))


BUILDERS: dict[int, Builder] = {B.CONV_2D: Builder(_conv_2d, (2, 3))}
