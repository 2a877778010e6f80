"""CONV_2D: TFLite's NHWC input and OHWI filter are `tosa.conv2d`'s layouts; SAME padding
becomes explicit pads (the odd one after, as TensorFlow)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, f32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.convolution import Conv2DOp, output_size, same_padding
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import Emitter, Unsupported, element, shape
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate


class Conv2D(TflPattern):
    """CONV_2D (f32)."""

    OPS = (Conv2DOp,)

    def convert(self, op: Conv2DOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        x, w = operands[0], operands[1]
        if element(x) != f32:
            raise Unsupported(f"convolution of {element(x)} values (f32 only)")
        n, height, width, _ = shape(x)
        out_channels, kernel_h, kernel_w, _ = shape(w)
        strides, dilations = op.window()
        padding = op.padding.data
        pads: list[int] = []
        sizes = []
        for axis, (size, kernel) in enumerate(((height, kernel_h), (width, kernel_w))):
            sizes.append(output_size(size, kernel, strides[axis], dilations[axis], padding))
            pads += (same_padding(size, kernel, strides[axis], dilations[axis])
                     if padding == "SAME" else (0, 0))
        bias = operands[2] if len(operands) > 2 else e.const(np.zeros(out_channels), f32)
        zero = e.const(np.zeros(1), f32)
        result_type = TensorType(f32, (n, *sizes, out_channels))
        conv = e.value(tt.Conv2DOp([x, w, bias, zero, zero], result_type, pads, list(strides),
                                   list(dilations), f32))
        return [activate(e, conv, op.fused_activation_function)]


CONVOLUTION_PATTERNS = (Conv2D,)
