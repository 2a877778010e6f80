"""`tosa.conv2d` and `tosa.depthwise_conv2d`: the interpreter against the definition (a
loop over output positions), for floats and for i8 with zero points, and against the TOSA
reference model."""

from __future__ import annotations

from unittest import mock

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter import im2col, tosa_tensor

ELEMENT = {np.dtype(np.float32): "f32", np.dtype(np.int8): "i8", np.dtype(np.int32): "i32"}


def conv_module(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], out_shape: tuple[int, ...],
    pad: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...], integer: bool,
    op: str = "conv2d",
) -> str:
    t, out_t, acc = ("i8", "i32", "i32") if integer else ("f32", "f32", "f32")

    def tensor(shape: tuple[int, ...], element: str) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{element}>"

    x, w, o = tensor(x_shape, t), tensor(w_shape, t), tensor(out_shape, out_t)
    b, zp = tensor((out_shape[3],), out_t), tensor((1,), t)

    def array(values: tuple[int, ...]) -> str:
        return f"array<i64: {', '.join(map(str, values))}>"

    return f"""
func.func @main(%x: {x}, %w: {w}, %b: {b}, %xzp: {zp}, %wzp: {zp}) -> {o} {{
  %0 = tosa.{op} %x, %w, %b, %xzp, %wzp {{acc_type = {acc}, dilation = {array(dilation)}, pad = {array(pad)}, stride = {array(stride)}}} : ({x}, {w}, {b}, {zp}, {zp}) -> {o}
  return %0 : {o}
}}
"""


def tensor_type(array: np.ndarray) -> str:
    return f"tensor<{'x'.join(map(str, array.shape))}x{ELEMENT[array.dtype]}>"


def dense(array: np.ndarray) -> str:
    """An f32 array as an MLIR attribute (hex: exact)."""
    payload = np.ascontiguousarray(array, "<f4").tobytes().hex().upper()
    return f'dense<"0x{payload}"> : {tensor_type(array)}'


def as_conv_weight(w: np.ndarray) -> np.ndarray:
    """A depthwise weight [KH, KW, C, M] as the equivalent dense [C*M, KH, KW, C] (zero
    outside each output channel's own input channel)."""
    kh, kw, c, m = w.shape
    dense = np.zeros((c * m, kh, kw, c), w.dtype)
    for channel in range(c):
        dense[channel * m : (channel + 1) * m, :, :, channel] = w[:, :, channel, :].transpose(2, 0, 1)
    return dense


def definition(x: np.ndarray, w: np.ndarray, b: np.ndarray, x_zp: int, w_zp: int,
               pad: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...],
               depthwise: bool = False) -> np.ndarray:
    """TOSA 1.0 CONV2D (or DEPTHWISE_CONV2D), element by element (in f64 / integers)."""
    n, ih, iw, _ = x.shape
    wide = np.float64 if x.dtype.kind == "f" else np.int64
    if depthwise:  # the zero point applies to the real taps only
        w = as_conv_weight(w.astype(wide) - w_zp)
        w_zp = 0
    oc, kh, kw, _ = w.shape
    top, bottom, left, right = pad
    oh = (ih - 1 + top + bottom - (kh - 1) * dilation[0]) // stride[0] + 1
    ow = (iw - 1 + left + right - (kw - 1) * dilation[1]) // stride[1] + 1
    xs, ws = x.astype(wide) - x_zp, w.astype(wide) - w_zp
    out = np.zeros((n, oh, ow, oc), wide)
    for b_ in range(n):
        for y in range(oh):
            for x_ in range(ow):
                for o in range(oc):
                    acc = b[o].astype(wide)
                    for ky in range(kh):
                        for kx in range(kw):
                            iy = y * stride[0] - top + ky * dilation[0]
                            ix = x_ * stride[1] - left + kx * dilation[1]
                            if 0 <= iy < ih and 0 <= ix < iw:
                                acc += np.dot(xs[b_, iy, ix], ws[o, ky, kx])
                    out[b_, y, x_, o] = acc
    return out


def output_shape(x_shape, w_shape, pad, stride, dilation, depthwise: bool = False
                 ) -> tuple[int, ...] | None:
    n, ih, iw, _ = x_shape
    if depthwise:
        kh, kw, c, m = w_shape
        oc = c * m
    else:
        oc, kh, kw, _ = w_shape
    spans = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dilation[0],
             iw - 1 + pad[2] + pad[3] - (kw - 1) * dilation[1])
    if any(s < 0 or s % step for s, step in zip(spans, stride, strict=True)):
        return None
    return (n, spans[0] // stride[0] + 1, spans[1] // stride[1] + 1, oc)


def run_conv(x, w, b, x_zp, w_zp, pad, stride, dilation, depthwise=False) -> np.ndarray:
    out = output_shape(x.shape, w.shape, pad, stride, dilation, depthwise)
    assert out is not None
    text = conv_module(x.shape, w.shape, out, pad, stride, dilation, x.dtype == np.int8,
                       "depthwise_conv2d" if depthwise else "conv2d")
    module = parse_mlir(ts.make_context(), text, "conv.mlir")
    request = ts.compile_model(module, pipeline="").create_infer_request()
    zps = [np.array([x_zp], x.dtype), np.array([w_zp], w.dtype)]
    return request.infer([x, w, b, *zps])[0]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    data=st.data(),
    channels=st.integers(1, 3),
    out_channels=st.integers(1, 3),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    pad=st.tuples(*[st.integers(0, 2)] * 4),
    depthwise=st.booleans(),
    gather=st.sampled_from(["index", "strided"]),
    few_positions=st.sampled_from([0, 16, 10**9]),
)
def test_float_conv2d_matches_the_definition(
    data, channels, out_channels, kernel, stride, dilation, pad, depthwise, gather,
    few_positions
) -> None:
    """Both ways of gathering the columns (an index array; the strided view, as for images
    beyond `GATHER_LIMIT`) and both orientations of the matmul."""
    size = data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
    x_shape = (2, *size, channels)
    if depthwise:  # out_channels is the channel multiplier M
        w_shape, total = (*kernel, channels, out_channels), channels * out_channels
    else:
        w_shape, total = (out_channels, *kernel, channels), out_channels
    # only valid TOSA convolutions (the verifier's lit tests cover the others)
    assume(output_shape(x_shape, w_shape, pad, stride, dilation, depthwise) is not None)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(total).astype(np.float32)
    limit = 1 << 16 if gather == "index" else 0
    with (mock.patch.object(im2col, "GATHER_LIMIT", limit),
          mock.patch.object(tosa_tensor, "_FEW_POSITIONS", few_positions)):
        got = run_conv(x, w, b, 0, 0, pad, stride, dilation, depthwise)
    want = definition(x, w, b, 0, 0, pad, stride, dilation, depthwise)
    np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


@pytest.mark.parametrize("depthwise", [False, True])
def test_constant_weights_serve_every_call(depthwise: bool) -> None:
    """Weights folded into the plan are prepared once: later calls with other inputs (and
    another input shape) still compute with them."""
    rng = np.random.default_rng(5)
    w_shape = (3, 2, 4, 2) if depthwise else (5, 3, 2, 4)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(8 if depthwise else 5).astype(np.float32)
    pad, stride, dilation = (1, 0, 1, 1), (1, 2), (1, 1)
    out = output_shape((1, 7, 6, 4), w_shape, pad, stride, dilation, depthwise)
    op = "depthwise_conv2d" if depthwise else "conv2d"
    text = conv_module((1, 7, 6, 4), w_shape, out, pad, stride, dilation, False, op)
    constants = (f'%w = "tosa.const"() <{{values = {dense(w)}}}> : () -> {tensor_type(w)}\n'
                 f'  %b = "tosa.const"() <{{values = {dense(b)}}}> : () -> {tensor_type(b)}\n'
                 '  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> '
                 "tensor<1xf32>\n  %0")
    text = (text.replace("%w: ", "%w_in: ").replace("%b: ", "%b_in: ")
            .replace("%0", constants, 1).replace("%xzp, %wzp {", "%zp, %zp {"))
    module = parse_mlir(ts.make_context(), text, "conv.mlir")
    request = ts.compile_model(module, pipeline="").create_infer_request()
    for _ in range(3):
        x = rng.standard_normal((1, 7, 6, 4)).astype(np.float32)
        got = request.infer([x, w, b, np.zeros(1, np.float32), np.zeros(1, np.float32)])[0]
        want = definition(x, w, b, 0, 0, pad, stride, dilation, depthwise)
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_few_positions_with_a_bias_and_a_long_row() -> None:
    """A streaming-sized convolution (few output positions) with a patch row longer than
    the gather limit, with a bias (riding in the matmul as a ones column) and without."""
    rng = np.random.default_rng(8)
    x = rng.standard_normal((1, 1, 4, 1500)).astype(np.float32)
    w = rng.standard_normal((2, 1, 3, 1500)).astype(np.float32)
    pad, stride, dilation = (0, 0, 1, 1), (1, 1), (1, 1)
    for b in (np.array([0.5, -2.0], np.float32), np.zeros(2, np.float32)):
        got = run_conv(x, w, b, 0, 0, pad, stride, dilation)
        want = definition(x, w, b, 0, 0, pad, stride, dilation)
        np.testing.assert_allclose(got, want, rtol=1e-4, atol=1e-4)


def test_weights_passed_as_inputs_are_read_on_every_call() -> None:
    rng = np.random.default_rng(6)
    x = rng.standard_normal((1, 4, 4, 2)).astype(np.float32)
    w = rng.standard_normal((3, 2, 2, 2)).astype(np.float32)
    b = np.zeros(3, np.float32)
    out = output_shape(x.shape, w.shape, (0, 0, 0, 0), (1, 1), (1, 1))
    text = conv_module(x.shape, w.shape, out, (0, 0, 0, 0), (1, 1), (1, 1), False)
    request = ts.compile_model(parse_mlir(ts.make_context(), text, "conv.mlir"),
                               pipeline="").create_infer_request()
    zp = np.zeros(1, np.float32)
    zp.flags.writeable = False
    for scale in (1.0, -2.0):
        w *= scale  # the same array, changed in place
        got = request.infer([x, w, b, zp, zp])[0]
        want = definition(x, w, b, 0, 0, (0, 0, 0, 0), (1, 1), (1, 1))
        np.testing.assert_allclose(got, want, rtol=1e-5, atol=1e-5)


def test_i8_conv2d_subtracts_zero_points_and_accumulates_in_i32() -> None:
    rng = np.random.default_rng(3)
    x = rng.integers(-128, 128, (1, 5, 5, 16)).astype(np.int8)
    w = rng.integers(-128, 128, (2, 3, 3, 16)).astype(np.int8)
    b = np.array([1000, -1000], np.int32)
    pad, stride, dilation = (1, 1, 1, 1), (2, 2), (1, 1)
    got = run_conv(x, w, b, -128, 127, pad, stride, dilation)
    want = definition(x, w, b, -128, 127, pad, stride, dilation)
    assert got.dtype == np.int32
    np.testing.assert_array_equal(got, want.astype(np.int32))
    assert np.abs(want).max() > 2**16  # an i16 accumulator would not do


def test_i8_depthwise_conv2d_subtracts_zero_points() -> None:
    rng = np.random.default_rng(4)
    x = rng.integers(-128, 128, (1, 5, 4, 3)).astype(np.int8)
    w = rng.integers(-128, 128, (3, 2, 3, 2)).astype(np.int8)
    b = rng.integers(-1000, 1000, 6).astype(np.int32)
    pad, stride, dilation = (1, 1, 0, 1), (1, 1), (1, 2)
    got = run_conv(x, w, b, 7, -9, pad, stride, dilation, depthwise=True)
    want = definition(x, w, b, 7, -9, pad, stride, dilation, depthwise=True)
    np.testing.assert_array_equal(got, want.astype(np.int32))


@pytest.mark.peers
def test_the_tosa_reference_model_agrees(tosa_reference_tools: None) -> None:
    from peers.tosa_reference import run_reference

    rng = np.random.default_rng(9)
    cases = [
        ((1, 6, 5, 3), (4, 3, 2, 3), (1, 2, 0, 1), (1, 2), (2, 1), np.float32, False),
        ((2, 5, 5, 4), (3, 3, 3, 4), (1, 1, 1, 1), (2, 2), (1, 1), np.int8, False),
        ((1, 6, 5, 3), (3, 2, 3, 2), (1, 1, 0, 1), (1, 1), (1, 2), np.float32, True),
        ((1, 5, 5, 2), (2, 2, 2, 3), (0, 1, 1, 0), (2, 2), (1, 1), np.int8, True),
    ]
    for x_shape, w_shape, pad, stride, dilation, dtype, depthwise in cases:
        out = output_shape(x_shape, w_shape, pad, stride, dilation, depthwise)
        text = conv_module(x_shape, w_shape, out, pad, stride, dilation, dtype == np.int8,
                           "depthwise_conv2d" if depthwise else "conv2d")
        if dtype == np.int8:
            x = rng.integers(-128, 128, x_shape).astype(np.int8)
            w = rng.integers(-128, 128, w_shape).astype(np.int8)
            b = rng.integers(-5000, 5000, out[3]).astype(np.int32)
            zps = [np.array([-3], np.int8), np.array([5], np.int8)]
        else:
            x, w = (rng.standard_normal(s).astype(dtype) for s in (x_shape, w_shape))
            b = rng.standard_normal(out[3]).astype(dtype)
            zps = [np.zeros(1, dtype), np.zeros(1, dtype)]
        inputs = [x, w, b, *zps]
        (theirs,) = run_reference(text, [inputs]).outputs
        module = parse_mlir(ts.make_context(), text, "conv.mlir")
        ours = ts.compile_model(module, pipeline="").create_infer_request().infer(inputs)
        assert ours[0].dtype == theirs[0].dtype
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-5)
