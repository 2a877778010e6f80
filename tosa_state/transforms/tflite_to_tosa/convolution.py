"""CONV_2D: TFLite's NHWC input and OHWI filter are `tosa.conv2d`'s layouts; SAME padding
becomes explicit pads (the odd one after, as TensorFlow). The hybrid form (int8 filter,
float activations) quantizes each batch per call as LiteRT does and convolves in int8."""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, f32, i8, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.convolution import Conv2DOp, output_size, same_padding
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate
from tosa_state.transforms.tflite_to_tosa.matrix import dequantize_products, quantize_rows
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import Unsupported, element, require_constant, shape


class Conv2D(TflPattern):
    """CONV_2D (f32, or hybrid: an int8 filter with f32 activations)."""

    OPS = (Conv2DOp,)

    def convert(self, op: Conv2DOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        x, w = operands[0], operands[1]
        hybrid = op.filter_scale is not None
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
        if hybrid:
            conv = _hybrid_conv(e, op, x, w, pads, (n, *sizes, out_channels))
            return [activate(e, e.add(conv, bias), op.fused_activation_function)]
        zero = e.const(np.zeros(1), f32)
        result_type = TensorType(f32, (n, *sizes, out_channels))
        conv = e.value(tt.Conv2DOp([x, w, bias, zero, zero], result_type, pads, list(strides),
                                   list(dilations), f32))
        return [activate(e, conv, op.fused_activation_function)]


def _hybrid_conv(e: Emitter, op: Conv2DOp, x: SSAValue, w: SSAValue, pads: list[int],
                 out_shape: tuple[int, ...]) -> SSAValue:
    """LiteRT's hybrid CONV_2D (`EvalHybridPerChannel`): each batch's input quantized to int8
    as a whole (`quantize_rows` on [N, H*W*C]), an i8 `tosa.conv2d` into i32 by the int8
    filter `w` (used as it is), minus zero point x the filter's sums per output channel (a
    new constant), times batch scale x channel scale in f32 (the bias is added after)."""
    weight = require_constant(w, "the int8 filter")
    if any(pads):
        raise Unsupported("a hybrid CONV_2D with padding (LiteRT pads with each batch's zero "
                          "point) is not supported yet")
    batch = shape(x)[0]
    q8, scale, point = quantize_rows(e, e.reshape(x, (batch, math.prod(shape(x)[1:]))))
    strides, dilations = op.window()
    channels = weight.shape[0]
    zp = e.const(np.zeros(1, np.int8), i8)
    acc = e.value(tt.Conv2DOp([e.reshape(q8, shape(x)), w,
                               e.const(np.zeros(channels, np.int32), i32), zp, zp],
                              TensorType(i32, out_shape), pads, list(strides),
                              list(dilations), i32))
    scales = np.asarray(op.filter_scale.get_values(), np.float32)  # type: ignore[union-attr]
    return dequantize_products(e, acc, e.reshape(point, (batch, 1, 1, 1)),
                               weight.astype(np.int32).reshape(channels, -1).sum(axis=1),
                               e.reshape(scale, (batch, 1, 1, 1)), scales)


CONVOLUTION_PATTERNS = (Conv2D,)
