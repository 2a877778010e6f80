"""`tosa.max_pool2d` and `tosa.avg_pool2d`: the interpreter against the definition (a loop
over windows, padding excluded) and against the TOSA reference model."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir


def pool_module(op: str, x_shape, out_shape, kernel, stride, pad, nan_mode: str = "") -> str:
    def tensor(shape) -> str:
        return f"tensor<{'x'.join(map(str, shape))}xf32>"

    def array(values) -> str:
        return f"array<i64: {', '.join(map(str, values))}>"

    attrs = f"kernel = {array(kernel)}, pad = {array(pad)}, stride = {array(stride)}"
    x, o = tensor(x_shape), tensor(out_shape)
    if op == "max":
        mode = f", nan_mode = {nan_mode}" if nan_mode else ""
        body = f"%0 = tosa.max_pool2d %x {{{attrs}{mode}}} : ({x}) -> {o}"
    else:
        body = (f'%zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>\n'
                f"  %0 = tosa.avg_pool2d %x, %zp, %zp {{acc_type = f32, {attrs}}} : "
                f"({x}, tensor<1xf32>, tensor<1xf32>) -> {o}")
    return f"func.func @main(%x: {x}) -> {o} {{\n  {body}\n  return %0 : {o}\n}}\n"


def output_shape(x_shape, kernel, stride, pad) -> tuple[int, ...] | None:
    n, ih, iw, c = x_shape
    spans = (ih + pad[0] + pad[1] - kernel[0], iw + pad[2] + pad[3] - kernel[1])
    if any(s < 0 or s % step for s, step in zip(spans, stride, strict=True)):
        return None
    return (n, spans[0] // stride[0] + 1, spans[1] // stride[1] + 1, c)


def definition(op: str, x: np.ndarray, out_shape, kernel, stride, pad) -> np.ndarray:
    out = np.zeros(out_shape, np.float64)
    for b in range(out_shape[0]):
        for y in range(out_shape[1]):
            for x_ in range(out_shape[2]):
                rows = [r for r in range(y * stride[0] - pad[0], y * stride[0] - pad[0] + kernel[0])
                        if 0 <= r < x.shape[1]]
                cols = [c for c in range(x_ * stride[1] - pad[2],
                                         x_ * stride[1] - pad[2] + kernel[1]) if 0 <= c < x.shape[2]]
                window = x[b][np.ix_(rows, cols)].astype(np.float64)
                out[b, y, x_] = window.max(axis=(0, 1)) if op == "max" else window.mean(axis=(0, 1))
    return out


def run(text: str, x: np.ndarray) -> np.ndarray:
    module = parse_mlir(ts.make_context(), text, "pool.mlir")
    return ts.compile_model(module, pipeline="").create_infer_request().infer([x])[0]


@settings(max_examples=40, deadline=None,
          suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(
    data=st.data(),
    op=st.sampled_from(["max", "avg"]),
    kernel=st.tuples(st.integers(1, 3), st.integers(1, 3)),
    stride=st.tuples(st.integers(1, 2), st.integers(1, 2)),
)
def test_pooling_matches_the_definition(data, op, kernel, stride) -> None:
    pad = data.draw(st.tuples(*[st.integers(0, kernel[0] - 1)] * 2,
                              *[st.integers(0, kernel[1] - 1)] * 2))
    x_shape = (2, *data.draw(st.tuples(st.integers(1, 6), st.integers(1, 6))), 3)
    out_shape = output_shape(x_shape, kernel, stride, pad)
    assume(out_shape is not None)
    x = np.random.default_rng(data.draw(st.integers(0, 2**32 - 1))).standard_normal(x_shape)
    x = x.astype(np.float32)
    got = run(pool_module(op, x_shape, out_shape, kernel, stride, pad), x)
    np.testing.assert_allclose(got, definition(op, x, out_shape, kernel, stride, pad),
                               rtol=1e-6, atol=1e-6)


def test_max_pool_nan_modes() -> None:
    x = np.array([1.0, np.nan, 3.0, 2.0], np.float32).reshape(1, 2, 2, 1)
    shape = (1, 1, 1, 1)
    propagate = run(pool_module("max", x.shape, shape, (2, 2), (1, 1), (0, 0, 0, 0)), x)
    ignore = run(pool_module("max", x.shape, shape, (2, 2), (1, 1), (0, 0, 0, 0), "IGNORE"), x)
    assert np.isnan(propagate).all() and ignore.item() == 3.0


I8_AVG = """
func.func @main(%x: tensor<1x5x6x2xi8>, %izp: tensor<1xi8>, %ozp: tensor<1xi8>) -> tensor<1x3x6x2xi8> {
  %0 = tosa.avg_pool2d %x, %izp, %ozp {acc_type = i32, kernel = array<i64: 3, 2>, pad = array<i64: 1, 1, 1, 0>, stride = array<i64: 2, 1>} : (tensor<1x5x6x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x6x2xi8>
  return %0 : tensor<1x3x6x2xi8>
}
"""


def i8_inputs() -> list[np.ndarray]:
    x = np.random.default_rng(6).integers(-128, 128, (1, 5, 6, 2)).astype(np.int8)
    return [x, np.array([-7], np.int8), np.array([12], np.int8)]


def test_i8_avg_pool_rounds_by_the_reciprocal_scale() -> None:
    """TOSA 1.0 AVG_POOL2D for i8, element by element in Python integers."""
    x, izp, ozp = i8_inputs()
    module = parse_mlir(ts.make_context(), I8_AVG, "pool.mlir")
    got = ts.compile_model(module, pipeline="").create_infer_request().infer([x, izp, ozp])[0]
    want = np.zeros(got.shape, np.int64)
    for y in range(3):
        for x_ in range(6):
            rows = [r for r in range(2 * y - 1, 2 * y + 2) if 0 <= r < 5]
            cols = [c for c in range(x_ - 1, x_ + 1) if 0 <= c < 6]
            for ch in range(2):
                values = [int(x[0, r, c, ch]) - int(izp[0]) for r in rows for c in cols]
                count, total = len(values), sum(values)
                k = (count - 1).bit_length()
                multiplier, shift = (((1 << 30) + 1) << k) // count, 30 + k
                scaled = (total * multiplier + (1 << (shift - 1))) >> shift
                want[0, y, x_, ch] = min(max(scaled + int(ozp[0]), -128), 127)
    np.testing.assert_array_equal(got, want.astype(np.int8))


@pytest.mark.peers
def test_the_tosa_reference_model_agrees(tosa_reference_tools: None) -> None:
    from peers.tosa_reference import run_reference

    x = np.random.default_rng(2).standard_normal((1, 5, 6, 2)).astype(np.float32)
    for op, kernel, stride, pad in (("max", (2, 3), (1, 3), (1, 0, 0, 0)),
                                    ("avg", (3, 3), (2, 1), (1, 1, 1, 1))):
        shape = output_shape(x.shape, kernel, stride, pad)
        text = pool_module(op, x.shape, shape, kernel, stride, pad)
        (theirs,) = run_reference(text, [[x]]).outputs
        np.testing.assert_allclose(run(text, x), theirs[0], rtol=1e-6, atol=1e-6)
    inputs = i8_inputs()
    (theirs,) = run_reference(I8_AVG, [inputs]).outputs
    module = parse_mlir(ts.make_context(), I8_AVG, "pool.mlir")
    ours = ts.compile_model(module, pipeline="").create_infer_request().infer(inputs)[0]
    np.testing.assert_array_equal(ours, theirs[0])
