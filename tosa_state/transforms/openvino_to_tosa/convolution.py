"""Convolution-1 and GroupConvolution-1 as `tosa.conv2d` / `tosa.depthwise_conv2d`, and
MaxPool-1/-8/-14 and AvgPool-1/-14/-16 as `tosa.max_pool2d` / `tosa.avg_pool2d` (dilated:
one window per kernel tap).

OpenVINO convolves `NC[H]W` inputs by `OI[H]W` filters; TOSA's conv2d takes `NHWC` inputs
and `OHWI` weights. A 1-D convolution becomes a 2-D one of height 1. OpenVINO's output size
rounds down; TOSA requires the padded extent to fit the strides exactly, so the trailing
padding (or the input's tail, which no output position reaches) is trimmed to fit.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import TensorType, bf16, f16, f32, i8, i32
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims_of,
    dtype_of,
    element,
    shape,
)

_ACCUMULATOR = {f32: f32, f16: f32, bf16: f32}
"""Float types `tosa.conv2d` takes, and the type it accumulates in."""


def auto_pads(
    auto_pad: str, size: int, kernel: int, stride: int, dilation: int, begin: int, end: int
) -> tuple[int, int]:
    """(begin, end) padding of one spatial axis under `auto_pad`."""
    if auto_pad == "valid":
        return 0, 0
    if auto_pad == "explicit":
        return begin, end
    if size == DYN and stride == 1:  # the size cancels out
        total = (kernel - 1) * dilation
        small, large = total // 2, total - total // 2
        return (small, large) if auto_pad == "same_upper" else (large, small)
    total = max((math.ceil(size / stride) - 1) * stride + (kernel - 1) * dilation + 1 - size, 0)
    small, large = total // 2, total - total // 2
    return (small, large) if auto_pad == "same_upper" else (large, small)


def _fit(size: int, kernel: int, stride: int, dilation: int, begin: int, end: int
         ) -> tuple[int, int, int]:
    """(input size, begin, end) with OpenVINO's output size and an exact TOSA extent. A
    dynamic size (`DYN`) needs stride 1: then every padded extent fits, whatever the size
    is at run time (TOSA's padding is static)."""
    extent = (kernel - 1) * dilation + 1
    if size == DYN:
        if stride != 1:
            raise Unsupported("a strided convolution or pooling over a dynamic spatial size")
        return size, begin, end
    outputs = (size + begin + end - extent) // stride + 1
    if outputs < 1:
        raise Unsupported(f"the kernel (extent {extent}) is larger than the padded input")
    needed = (outputs - 1) * stride + extent  # padded input positions the outputs read
    end = needed - size - begin
    if end < 0:  # the input's tail is never read
        size, end = size + end, 0
    return size, begin, end


def convolve(e: Emitter, op: ov.ConvolutionBase, x: SSAValue, w: SSAValue,
             depthwise: bool = False, input_zp: int | None = None) -> SSAValue:
    """`x [N, C, spatial...]` convolved by `w [O, C, kernel...]` with `op`'s strides,
    dilations and padding: one `tosa.conv2d` between transposes. With `depthwise`, `w` is
    `[C, M, kernel...]` (each channel by its own M filters) and the op is
    `tosa.depthwise_conv2d`. With `input_zp`, an i8 `x` (that zero point) by an i8 `w`
    accumulates into an i32 result (see `quantization`)."""
    element_type = element(x)
    integer = input_zp is not None and element_type == i8
    accumulator = i32 if integer else _ACCUMULATOR.get(element_type)
    if accumulator is None:
        raise Unsupported(f"convolution of {element_type} values (floats only)")
    dims, filter_dims = dims_of(x), shape(w)
    spatial = len(dims) - 2
    if spatial not in (1, 2):
        raise Unsupported(f"{spatial}-D convolution (1-D and 2-D only)")
    strides, dilations = list(op.strides.get_values()), list(op.dilations.get_values())
    begins, ends = list(op.pads_begin.get_values()), list(op.pads_end.get_values())
    if spatial == 1:  # as 2-D with height 1
        x = e.reshape(x, (*dims[:2], 1, dims[2]))
        w = e.reshape(w, (*filter_dims[:2], 1, filter_dims[2]))
        strides, dilations = [1, *strides], [1, *dilations]
        begins, ends = [0, *begins], [0, *ends]
    n, channels, height, width = dims_of(x)
    if channels == DYN:  # the filters fix the channels
        channels = filter_dims[0] if depthwise else filter_dims[1]
        x = e.generalize(x, TensorType(element_type, [n, channels, height, width]))
    first, second, kernel_h, kernel_w = shape(w)
    out_channels = first * second if depthwise else first
    sizes, pads = [], []
    for axis, (size, kernel) in enumerate(((height, kernel_h), (width, kernel_w))):
        begin, end = auto_pads(op.auto_pad.data, size, kernel, strides[axis], dilations[axis],
                               begins[axis], ends[axis])
        size, begin, end = _fit(size, kernel, strides[axis], dilations[axis], begin, end)
        sizes.append(size)
        pads += [begin, end]
    x = e.slice(x, (0, 0, 0, 0), (n, channels, *sizes))
    x = e.transpose(x, (0, 2, 3, 1))
    w = e.transpose(w, (2, 3, 0, 1) if depthwise else (0, 2, 3, 1))  # [KH,KW,C,M] / OHWI
    out_element = i32 if integer else element_type
    bias = e.const(np.zeros(out_channels), out_element)
    zero = e.const(np.zeros(1), element_type)
    input_zero = e.const(np.array([input_zp]), element_type) if input_zp else zero
    out_h, out_w = (
        DYN if size == DYN else
        (size + pads[2 * i] + pads[2 * i + 1] - (kernel - 1) * dilations[i] - 1) // strides[i] + 1
        for i, (size, kernel) in enumerate(zip(sizes, (kernel_h, kernel_w), strict=True))
    )
    result_type = TensorType(out_element, (n, out_h, out_w, out_channels))
    cls = tt.DepthwiseConv2DOp if depthwise else tt.Conv2DOp
    conv = e.value(cls([x, w, bias, input_zero, zero], result_type, pads, strides, dilations,
                       accumulator))
    result = e.transpose(conv, (0, 3, 1, 2))
    if spatial == 1:
        result = e.reshape(result, (n, out_channels, out_w))
    return result


class Convolution(OpenVINOPattern):
    """Convolution-1 (1-D and 2-D, float): transposes around one `tosa.conv2d` (zero
    bias and zero points; f16 / bf16 accumulate in f32)."""

    OPS = (ov.ConvolutionOp,)

    def convert(self, op: ov.ConvolutionOp, e: Emitter) -> Sequence[SSAValue]:
        return [convolve(e, op, op.input, op.filter)]


class GroupConvolution(OpenVINOPattern):
    """GroupConvolution-1: one `tosa.depthwise_conv2d` when each group has one input
    channel; otherwise one convolution per group (its slice of input channels by its
    filters), concatenated along the channels."""

    OPS = (ov.GroupConvolutionOp,)

    def convert(self, op: ov.GroupConvolutionOp, e: Emitter) -> Sequence[SSAValue]:
        dims, filter_dims = dims_of(op.input), shape(op.filter)
        groups, per_group = filter_dims[0], filter_dims[2]
        if per_group == 1:  # [G, M, 1, kernel...] -> [G, M, kernel...]
            filters = e.reshape(op.filter, (groups, filter_dims[1], *filter_dims[3:]))
            return [convolve(e, op, op.input, filters, depthwise=True)]
        outputs = []
        for group in range(groups):
            x = e.slice(op.input, (0, group * per_group, *[0] * (len(dims) - 2)),
                        (dims[0], per_group, *dims[2:]))
            w = e.slice(op.filter, (group, *[0] * (len(filter_dims) - 1)),
                        (1, *filter_dims[1:]))
            outputs.append(convolve(e, op, x, e.reshape(w, filter_dims[1:])))
        return [outputs[0] if groups == 1 else e.concat(outputs, 1)]


def _lowest(element_type: Attribute) -> float | int:
    """The lowest finite value of `element_type`: what OpenVINO's MaxPool pads with."""
    dtype = dtype_of(element_type)
    if dtype.kind == "f" or dtype == dtype_of(bf16):
        return float(ml_dtypes.finfo(dtype).min)
    return int(np.iinfo(dtype).min)


def _padded(e: Emitter, x: SSAValue, pads: list[int], fill: float | int
            ) -> tuple[SSAValue, list[int]]:
    """`x [N, C, H, W]` padded by `pads` = [top, bottom, left, right] with `fill`, and its
    new [H, W]."""
    padded = e.pad(x, [0, 0, 0, 0, *pads], fill)
    return padded, list(shape(padded)[2:])


def _pool_extent(op: ov.PoolBase, axis: int, size: int, kernel: int, stride: int
                 ) -> tuple[int, int, int, int]:
    """(input size, begin, explicit end, end) of one spatial axis of a pooling: OpenVINO's
    output size (rounded down, or up with `ceil`) with an exact TOSA extent; `explicit end`
    is the requested padding, `end` what TOSA gets."""
    begin, end = auto_pads(op.auto_pad.data, size, kernel, stride, 1,
                           op.pads_begin.get_values()[axis], op.pads_end.get_values()[axis])
    span = size + begin + end - kernel
    if span < 0:
        raise Unsupported(f"the kernel ({kernel}) is larger than the padded input")
    rounding = op.rounding_type.data
    outputs = (span // stride if rounding == "floor" else -(-span // stride)) + 1
    if rounding == "ceil_torch" and (outputs - 1) * stride >= size + begin:
        outputs -= 1  # as PyTorch: no last window that starts in the end padding
    needed = (outputs - 1) * stride + kernel
    tosa_end = needed - size - begin
    if tosa_end < 0:  # the input's tail is never read
        size, tosa_end = size + tosa_end, 0
    return size, begin, min(end, tosa_end), tosa_end


class Pool(OpenVINOPattern):
    """MaxPool-1/-8/-14 and AvgPool-1/-14/-16 (1-D and 2-D): transposes around one TOSA
    pooling.
    MaxPool pads its input with the lowest value first (TOSA's padding must be smaller than
    the kernel; OpenVINO's `ceil` windows may lie in the padding only). An AvgPool that
    counts its padding (`exclude_pad` false) pads the input with zeros first, so that only
    the rounding's extra end padding stays out of the count."""

    OPS = (ov.MaxPoolOp, ov.AvgPoolOp)

    def convert(self, op: ov.MaxPoolOp | ov.AvgPoolOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        average = isinstance(op, ov.AvgPoolOp)
        if average and element_type not in _ACCUMULATOR:
            raise Unsupported(f"average pooling of {element_type} values (floats only)")
        if isinstance(op, ov.MaxPoolOp) and op.indices and op.indices[0].uses:
            raise Unsupported("the indices output of MaxPool")
        dims = shape(op.input)
        spatial = len(dims) - 2
        if spatial not in (1, 2):
            raise Unsupported(f"{spatial}-D pooling (1-D and 2-D only)")
        kernel, strides = list(op.kernel.get_values()), list(op.strides.get_values())
        dilations = list(op.dilations.get_values()) if op.dilations is not None else []
        x = op.input
        if spatial == 1:
            x = e.reshape(x, (*dims[:2], 1, dims[2]))
            kernel, strides, dilations = [1, *kernel], [1, *strides], [1, *dilations]
        if any(d != 1 for d in dilations):
            result = _dilated_pool(e, op, x, kernel, strides, dilations)
            return [e.reshape(result, shape(op.results[0])) if spatial == 1 else result,
                    *_unused_indices(e, op)]
        n, channels, height, width = shape(x)
        sizes, counted, pads = [], [], []
        for axis, size in enumerate((height, width)):
            if spatial == 1 and axis == 0:
                sizes.append(size)
                counted += [0, 0]
                pads += [0, 0]
                continue
            size, begin, explicit_end, end = _pool_extent(op, axis - (2 - spatial), size,
                                                          kernel[axis], strides[axis])
            sizes.append(size)
            counted += [begin, explicit_end]
            pads += [begin, end]
        x = e.slice(x, (0, 0, 0, 0), (n, channels, *sizes))
        if not average:  # pad explicitly with the lowest value
            x, sizes = _padded(e, x, pads, _lowest(element_type))
            pads = [0, 0, 0, 0]
        elif not bool(op.exclude_pad.value.data) and any(pads):
            # the padding counts, the rounding's extra end too: OpenVINO divides by the kernel
            x, sizes = _padded(e, x, pads, 0)
            pads = [0, 0, 0, 0]
        if any(pad >= kernel[i // 2] for i, pad in enumerate(pads)):
            raise Unsupported(f"average pooling windows that lie in the padding only (padding "
                              f"{pads} for a kernel {kernel})")
        x = e.transpose(x, (0, 2, 3, 1))
        out_h = (sizes[0] + pads[0] + pads[1] - kernel[0]) // strides[0] + 1
        out_w = (sizes[1] + pads[2] + pads[3] - kernel[1]) // strides[1] + 1
        result_type = TensorType(element_type, (n, out_h, out_w, channels))
        if average:
            zero = e.const(np.zeros(1), element_type)
            pooled = e.value(tt.AvgPool2DOp(x, zero, zero, result_type, kernel, strides, pads,
                                            _ACCUMULATOR[element_type]))
        else:
            pooled = e.value(tt.MaxPool2DOp(x, result_type, kernel, strides, pads))
        result = e.transpose(pooled, (0, 3, 1, 2))
        if spatial == 1:
            result = e.reshape(result, (n, channels, out_w))
        return [result, *_unused_indices(e, op)]


def _unused_indices(e: Emitter, op: ov.MaxPoolOp | ov.AvgPoolOp) -> list[SSAValue]:
    """A MaxPool's indices output (unused: checked) as zeros."""
    if isinstance(op, ov.MaxPoolOp) and op.indices:
        return [e.const(np.zeros(shape(op.indices[0])), element(op.indices[0]))]
    return []


def _dilated_pool(e: Emitter, op: ov.MaxPoolOp | ov.AvgPoolOp, x: SSAValue,
                  kernel: list[int], strides: list[int], dilations: list[int]) -> SSAValue:
    """A dilated pooling of `x [N, C, H, W]` (TOSA's poolings have no dilation): the input
    padded (lowest value / zeros) to exactly the extent the outputs read, one strided
    window per kernel tap (`_taps`), combined by `tosa.maximum` or summed and divided by the
    kernel size, or (`exclude-pad`) by the count of taps inside the input."""
    n, channels, *sizes = shape(x)
    if DYN in sizes:
        raise Unsupported("a dilated pooling over a dynamic spatial size")
    average = isinstance(op, ov.AvgPoolOp)
    begins, ends = ([0] * (2 - len(v.get_values())) + list(v.get_values())
                    for v in (op.pads_begin, op.pads_end))  # a 1-D pooling: height 1
    outputs, pads = [], []
    for axis, size in enumerate(sizes):
        begin, end = auto_pads(op.auto_pad.data, size, kernel[axis], strides[axis],
                               dilations[axis], begins[axis], ends[axis])
        extent = (kernel[axis] - 1) * dilations[axis] + 1
        span = size + begin + end - extent
        if span < 0:
            raise Unsupported(f"the kernel (extent {extent}) is larger than the padded input")
        rounding = op.rounding_type.data
        count = (span // strides[axis] if rounding == "floor" else -(-span // strides[axis])) + 1
        if rounding == "ceil_torch" and (count - 1) * strides[axis] >= size + begin:
            count -= 1
        outputs.append(count)
        pads += [begin, (count - 1) * strides[axis] + extent - size - begin]
    sizes = [min(s, s + p) for s, p in zip(sizes, pads[1::2], strict=True)]  # tails unread
    x = e.slice(x, (0, 0, 0, 0), (n, channels, *sizes))
    element_type = element(x)
    fill = 0 if average else _lowest(element_type)
    x = e.pad(x, [0, 0, 0, 0, pads[0], max(pads[1], 0), pads[2], max(pads[3], 0)], fill)
    taps = _taps(e, x, kernel, strides, dilations, outputs)
    combined = taps[0]
    for tap in taps[1:]:
        combined = (e.add(combined, tap) if average else
                    e.elementwise(tew.MaximumOp, combined, tap))
    if not average:
        return combined
    if bool(op.exclude_pad.value.data):  # the count of taps inside the input, per output
        inside = np.zeros(shape(x)[2:])
        inside[pads[0]:pads[0] + sizes[0], pads[2]:pads[2] + sizes[1]] = 1
        counts = sum(inside[i * dilations[0]::strides[0], j * dilations[1]::strides[1]][
            :outputs[0], :outputs[1]] for i in range(kernel[0]) for j in range(kernel[1]))
        scale = (1.0 / np.maximum(counts, 1)).reshape(1, 1, *outputs)
    else:
        scale = np.full((1, 1, 1, 1), 1.0 / math.prod(kernel))
    return e.mul(combined, e.const(scale, element_type))


def _taps(e: Emitter, x: SSAValue, kernel: list[int], strides: list[int],
          dilations: list[int], outputs: list[int]) -> list[SSAValue]:
    """`x[:, :, i*dh + o*sh, j*dw + p*sw]` for each tap (i, j) and output (o, p): a slice per
    tap, strided by a reshape to [..., outputs, stride] and a slice of its first column."""
    n, channels = shape(x)[:2]
    taps = []
    for i in range(kernel[0]):
        for j in range(kernel[1]):
            start = [0, 0, i * dilations[0], j * dilations[1]]
            lengths = [(o - 1) * s + 1 for o, s in zip(outputs, strides, strict=True)]
            tap = e.slice(x, start, [n, channels, *lengths])
            if strides == [1, 1]:
                taps.append(tap)
                continue
            full = [o * s for o, s in zip(outputs, strides, strict=True)]
            tap = e.pad(tap, [0, 0, 0, 0, 0, full[0] - lengths[0], 0, full[1] - lengths[1]])
            tap = e.reshape(tap, [n, channels, outputs[0], strides[0], outputs[1], strides[1]])
            tap = e.slice(tap, [0] * 6, [n, channels, outputs[0], 1, outputs[1], 1])
            taps.append(e.reshape(tap, [n, channels, *outputs]))
    return taps


CONVOLUTION_PATTERNS = (Convolution, GroupConvolution, Pool)
