"""`tosa.conv2d`: the interpreter against the definition (a loop over output positions),
for floats and for i8 with zero points, and against the TOSA reference model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir

ELEMENT = {np.dtype(np.float32): "f32", np.dtype(np.int8): "i8", np.dtype(np.int32): "i32"}


def conv_module(
    x_shape: tuple[int, ...], w_shape: tuple[int, ...], out_shape: tuple[int, ...],
    pad: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...], integer: bool,
) -> str:
    t, out_t, acc = ("i8", "i32", "i32") if integer else ("f32", "f32", "f32")

    def tensor(shape: tuple[int, ...], element: str) -> str:
        return f"tensor<{'x'.join(map(str, shape))}x{element}>"

    x, w, o = tensor(x_shape, t), tensor(w_shape, t), tensor(out_shape, out_t)
    b, zp = tensor((w_shape[0],), out_t), tensor((1,), t)

    def array(values: tuple[int, ...]) -> str:
        return f"array<i64: {', '.join(map(str, values))}>"

    return f"""
func.func @main(%x: {x}, %w: {w}, %b: {b}, %xzp: {zp}, %wzp: {zp}) -> {o} {{
  %0 = tosa.conv2d %x, %w, %b, %xzp, %wzp {{acc_type = {acc}, dilation = {array(dilation)}, pad = {array(pad)}, stride = {array(stride)}}} : ({x}, {w}, {b}, {zp}, {zp}) -> {o}
  return %0 : {o}
}}
"""


def definition(x: np.ndarray, w: np.ndarray, b: np.ndarray, x_zp: int, w_zp: int,
               pad: tuple[int, ...], stride: tuple[int, ...], dilation: tuple[int, ...]
               ) -> np.ndarray:
    """TOSA 1.0 CONV2D, element by element (in f64 / Python integers)."""
    n, ih, iw, _ = x.shape
    oc, kh, kw, _ = w.shape
    top, bottom, left, right = pad
    oh = (ih - 1 + top + bottom - (kh - 1) * dilation[0]) // stride[0] + 1
    ow = (iw - 1 + left + right - (kw - 1) * dilation[1]) // stride[1] + 1
    wide = np.float64 if x.dtype.kind == "f" else np.int64
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


def output_shape(x_shape, w_shape, pad, stride, dilation) -> tuple[int, ...] | None:
    n, ih, iw, _ = x_shape
    oc, kh, kw, _ = w_shape
    spans = (ih - 1 + pad[0] + pad[1] - (kh - 1) * dilation[0],
             iw - 1 + pad[2] + pad[3] - (kw - 1) * dilation[1])
    if any(s < 0 or s % step for s, step in zip(spans, stride, strict=True)):
        return None
    return (n, spans[0] // stride[0] + 1, spans[1] // stride[1] + 1, oc)


def run_conv(x, w, b, x_zp, w_zp, pad, stride, dilation) -> np.ndarray:
    out = output_shape(x.shape, w.shape, pad, stride, dilation)
    assert out is not None
    text = conv_module(x.shape, w.shape, out, pad, stride, dilation, x.dtype == np.int8)
    module = parse_mlir(ts.make_context(), text, "conv.mlir")
    request = ts.compile_model(module, pipeline="").create_infer_request()
    zps = [np.array([x_zp], x.dtype), np.array([w_zp], w.dtype)]
    return request.infer([x, w, b, *zps])[0]


@settings(max_examples=40, deadline=None)
@given(
    data=st.data(),
    channels=st.integers(1, 3),
    out_channels=st.integers(1, 3),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    dilation=st.tuples(st.integers(1, 2), st.integers(1, 2)),
    pad=st.tuples(*[st.integers(0, 2)] * 4),
)
def test_float_conv2d_matches_the_definition(
    data, channels, out_channels, kernel, stride, dilation, pad
) -> None:
    size = data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6)))
    x_shape, w_shape = (2, *size, channels), (out_channels, *kernel, channels)
    # only valid TOSA conv2d's (the verifier's lit tests cover the others)
    assume(output_shape(x_shape, w_shape, pad, stride, dilation) is not None)
    rng = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1)))
    x = rng.standard_normal(x_shape).astype(np.float32)
    w = rng.standard_normal(w_shape).astype(np.float32)
    b = rng.standard_normal(out_channels).astype(np.float32)
    got = run_conv(x, w, b, 0, 0, pad, stride, dilation)
    want = definition(x, w, b, 0, 0, pad, stride, dilation)
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


@pytest.mark.peers
def test_the_tosa_reference_model_agrees(tosa_reference_tools: None) -> None:
    from peers.tosa_reference import run_reference

    rng = np.random.default_rng(9)
    cases = [
        ((1, 6, 5, 3), (4, 3, 2, 3), (1, 2, 0, 1), (1, 2), (2, 1), np.float32),
        ((2, 5, 5, 4), (3, 3, 3, 4), (1, 1, 1, 1), (2, 2), (1, 1), np.int8),
    ]
    for x_shape, w_shape, pad, stride, dilation, dtype in cases:
        out = output_shape(x_shape, w_shape, pad, stride, dilation)
        text = conv_module(x_shape, w_shape, out, pad, stride, dilation, dtype == np.int8)
        if dtype == np.int8:
            x = rng.integers(-128, 128, x_shape).astype(np.int8)
            w = rng.integers(-128, 128, w_shape).astype(np.int8)
            b = rng.integers(-5000, 5000, w_shape[0]).astype(np.int32)
            zps = [np.array([-3], np.int8), np.array([5], np.int8)]
        else:
            x, w = (rng.standard_normal(s).astype(dtype) for s in (x_shape, w_shape))
            b = rng.standard_normal(w_shape[0]).astype(dtype)
            zps = [np.zeros(1, dtype), np.zeros(1, dtype)]
        inputs = [x, w, b, *zps]
        (theirs,) = run_reference(text, [inputs]).outputs
        module = parse_mlir(ts.make_context(), text, "conv.mlir")
        ours = ts.compile_model(module, pipeline="").create_infer_request().infer(inputs)
        assert ours[0].dtype == theirs[0].dtype
        np.testing.assert_allclose(ours[0], theirs[0], rtol=1e-5, atol=1e-5)
