"""`tosa.rescale`: the interpreter against the specification's pseudo-code (in Python
integers) and against the TOSA reference model, over the scale / rounding / signedness /
per-channel variants."""

from __future__ import annotations

import numpy as np
import pytest

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir

ELEMENT = {np.dtype(np.int8): "i8", np.dtype(np.int16): "i16", np.dtype(np.int32): "i32"}

# (in dtype, out dtype, scale32, rounding, per_channel, in_unsigned, out_unsigned,
#  multipliers, shifts, in_zp, out_zp)
CASES = [
    (np.int8, np.int32, True, "SINGLE_ROUND", False, False, False, [1 << 30], [30], 3, 0),
    (np.int32, np.int8, True, "DOUBLE_ROUND", False, False, False, [1518500250], [38], 0, -5),
    (np.int32, np.int8, True, "SINGLE_ROUND", True, False, False,
     [1 << 30, 1518500250, 2000000000], [31, 35, 33], 0, 4),
    (np.int8, np.int8, True, "SINGLE_ROUND", False, True, False, [1 << 30], [30], -128, 0),
    (np.int8, np.int8, True, "SINGLE_ROUND", False, False, True, [1 << 30], [30], 0, -128),
    (np.int16, np.int16, False, "SINGLE_ROUND", False, False, False, [24000], [14], 0, 0),
    (np.int32, np.int16, True, "DOUBLE_ROUND", True, False, False, [1 << 30, 3 << 28, 5 << 27],
     [32, 33, 34], 0, 0),
    (np.int16, np.int16, False, "SINGLE_ROUND", False, False, True, [16384], [15], 0, -32768),
]


def rescale_module(case) -> str:
    in_t, out_t, scale32, rounding, per_channel, in_u, out_u, mult, shift, _, _ = case
    i, o = ELEMENT[np.dtype(in_t)], ELEMENT[np.dtype(out_t)]
    scale_t = "i32" if scale32 else "i16"
    n = len(mult)

    def b(v: bool) -> str:
        return "true" if v else "false"

    return f"""
func.func @main(%x: tensor<4x3x{i}>, %izp: tensor<1x{i}>, %ozp: tensor<1x{o}>) -> tensor<4x3x{o}> {{
  %m = "tosa.const"() <{{values = dense<{mult}> : tensor<{n}x{scale_t}>}}> : () -> tensor<{n}x{scale_t}>
  %s = "tosa.const"() <{{values = dense<{shift}> : tensor<{n}xi8>}}> : () -> tensor<{n}xi8>
  %0 = tosa.rescale %x, %m, %s, %izp, %ozp {{input_unsigned = {b(in_u)}, output_unsigned = {b(out_u)}, per_channel = {b(per_channel)}, rounding_mode = {rounding}, scale32 = {b(scale32)}}} : (tensor<4x3x{i}>, tensor<{n}x{scale_t}>, tensor<{n}xi8>, tensor<1x{i}>, tensor<1x{o}>) -> tensor<4x3x{o}>
  return %0 : tensor<4x3x{o}>
}}
"""


def spec(case, x: np.ndarray) -> np.ndarray:
    """The pseudo-code of TOSA 1.0 RESCALE, one element at a time, in Python integers."""
    in_t, out_t, scale32, rounding, per_channel, in_u, out_u, mult, shift, izp, ozp = case
    bits_in, bits_out = np.dtype(in_t).itemsize * 8, np.dtype(out_t).itemsize * 8

    def unsigned(v: int, bits: int) -> int:
        return v & ((1 << bits) - 1)

    out = np.zeros(x.shape, np.int64)
    for index in np.ndindex(*x.shape):
        value = int(x[index])
        zp = izp
        if in_u:
            value, zp = unsigned(value, bits_in), unsigned(izp, bits_in)
        value -= zp
        c = index[-1] if per_channel else 0
        m, s = mult[c], shift[c]
        round_ = 1 << (s - 1)
        if scale32 and rounding == "DOUBLE_ROUND" and s > 31:
            round_ += (1 << 30) if value >= 0 else -(1 << 30)
        result = (value * m + round_) >> s
        out_zp = unsigned(ozp, bits_out) if out_u else ozp
        result += out_zp
        low, high = (0, (1 << bits_out) - 1) if out_u else (-(1 << (bits_out - 1)),
                                                            (1 << (bits_out - 1)) - 1)
        out[index] = min(max(result, low), high)
    if out_u:
        return out.astype(np.dtype(f"u{np.dtype(out_t).itemsize}")).view(out_t)
    return out.astype(out_t)


def inputs(case, seed: int = 0) -> list[np.ndarray]:
    in_t, out_t = case[0], case[1]
    info = np.iinfo(in_t)
    rng = np.random.default_rng(seed)
    low, high = (info.min, info.max) if in_t != np.int32 else (-(1 << 20), 1 << 20)
    x = rng.integers(low, high, (4, 3), endpoint=True).astype(in_t)
    x.reshape(-1)[:2] = [low, high]
    return [x, np.array([case[9]], in_t), np.array([case[10]], out_t)]


def run(case, arrays: list[np.ndarray]) -> np.ndarray:
    module = parse_mlir(ts.make_context(), rescale_module(case), "rescale.mlir")
    return ts.compile_model(module, pipeline="").create_infer_request().infer(arrays)[0]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].__name__}-{c[1].__name__}-{c[3]}")
def test_rescale_matches_the_pseudo_code(case) -> None:
    arrays = inputs(case)
    np.testing.assert_array_equal(run(case, arrays), spec(case, arrays[0]))


def test_a_shift_out_of_range_is_an_error() -> None:
    case = (np.int8, np.int32, True, "SINGLE_ROUND", False, False, False, [1], [1], 0, 0)
    with pytest.raises(ts.TosaStateError, match=r"'tosa\.rescale' op shift must be in \[2, 62\]"):
        run(case, inputs(case))


@pytest.mark.peers
def test_the_tosa_reference_model_agrees(tosa_reference_tools: None) -> None:
    from peers.tosa_reference import run_reference

    for case in CASES:
        arrays = inputs(case, seed=1)
        (theirs,) = run_reference(rescale_module(case), [arrays]).outputs
        np.testing.assert_array_equal(run(case, arrays), theirs[0], err_msg=str(case))
