"""Large constants as `dense_resource` blobs: exact round trips, and the interpreter runs
modules that hold their weights that way."""

from __future__ import annotations

import ml_dtypes
import numpy as np
import pytest

import tosa_state as ts
from tosa_state.context import make_context
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import LargeConstants, print_module

MODEL = """\
tosa.variable @acc = dense<{init}> : tensor<{n}x{t}>
func.func @main(%x: tensor<{n}x{t}>) -> tensor<{n}x{t}> {{
  %a = tosa.variable.read @acc : tensor<{n}x{t}>
  %w = "tosa.const"() <{{values = dense<{weights}> : tensor<{n}x{t}>}}> : () -> tensor<{n}x{t}>
  %s = tosa.add %a, %w : (tensor<{n}x{t}>, tensor<{n}x{t}>) -> tensor<{n}x{t}>
  %y = tosa.add %s, %x : (tensor<{n}x{t}>, tensor<{n}x{t}>) -> tensor<{n}x{t}>
  tosa.variable.write @acc, %y : tensor<{n}x{t}>
  return %y : tensor<{n}x{t}>
}}
"""


def _hex(array: np.ndarray) -> str:
    return f'"0x{array.tobytes().hex().upper()}"'


@pytest.mark.parametrize(
    ("mlir_type", "dtype"),
    [("f32", np.float32), ("f16", np.float16), ("bf16", ml_dtypes.bfloat16),
     ("i8", np.int8), ("i32", np.int32), ("i64", np.int64)],
)
def test_blobs_round_trip_bit_exact_and_run(mlir_type: str, dtype: type) -> None:
    rng = np.random.default_rng(3)
    n = 300
    init = (rng.standard_normal(n) * 10).astype(dtype)
    weights = (rng.standard_normal(n) * 10).astype(dtype)
    if np.dtype(dtype).kind == "f":
        init[:3] = np.array([np.nan, -0.0, np.inf]).astype(dtype)  # bits kept as they are
    text = MODEL.format(n=n, t=mlir_type, init=_hex(init), weights=_hex(weights))
    ctx = make_context()
    plain = parse_mlir(ctx, text, "m.mlir")
    blobbed = print_module(plain, large=LargeConstants(resources_over=100))
    assert blobbed.count("dense_resource<") == 2 and "dialect_resources" in blobbed
    assert _hex(init)[3:-1] not in blobbed.split("{-#")[0]  # no weights in the module text
    back = parse_mlir(ctx, blobbed, "b.mlir")
    assert print_module(back) == print_module(plain)
    assert print_module(back, large=LargeConstants(resources_over=100)) == blobbed

    x = (rng.standard_normal(n) * 10).astype(dtype)
    ours = ts.compile_model(back).create_infer_request()
    reference = ts.compile_model(parse_mlir(ctx, text, "m.mlir")).create_infer_request()
    for step in range(3):
        got, want = ours.infer([x])[0], reference.infer([x])[0]
        np.testing.assert_array_equal(got, want, err_msg=f"step {step}")
    ours.reset_state()
    np.testing.assert_array_equal(ours.query_state()[0].state, init)


def test_elided_constants_carry_no_data() -> None:
    values = np.arange(300, dtype=np.float32)
    module = parse_mlir(make_context(), MODEL.format(
        n=300, t="f32", init=_hex(values), weights=_hex(values)), "m.mlir")
    text = print_module(module, large=LargeConstants(elide_over=299))
    assert text.count("dense_resource<__elided__> : tensor<300xf32>") == 2
    assert "dialect_resources" not in text
