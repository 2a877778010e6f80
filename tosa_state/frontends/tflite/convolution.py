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
    weight = op.quantization[1] if len(op.quantization) > 1 else None
    scales = None
    if weight is not None and op.quantization[0] is None:  # LiteRT's hybrid kernel
        if weight.dimension != 0 and len(weight.scales) > 1:
            raise op.where.error(f"per-channel filter scales along dimension {weight.dimension}"
                                 " (expected 0, the output channels)")
        scales = weight.scales
    return Conv2DOp(op.operand(0, "input"), op.operand(1, "filter"), op.optional(2),
                    op.result(), _PADDINGS[padding], stride, dilation, op.activation(options),
                    scales)


BUILDERS: dict[int, Builder] = {B.CONV_2D: Builder(_conv_2d, (2, 3))}
HYBRID_WEIGHTS: dict[int, tuple[int, ...]] = {B.CONV_2D: (1,)}
"""CONV_2D takes an int8 filter with float input and output (hybrid)."""
