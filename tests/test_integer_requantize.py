"""`tosa-integer-requantize` against the float ops it replaces, run by the interpreter: the
lit snippet's convolution with its f32 scale, bias, ReLU and quantize, before and after the
pass, on every input that reaches the accumulator's extremes and on random ones; and the
fit itself on a table whose thresholds f32 rounding moved off a straight line."""

from __future__ import annotations

from pathlib import Path

import numpy as np

import tosa_state as ts
from tosa_state.printing import print_module
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.transforms.tosa_integer_requantize import apply_fit, fit_channel, natural_shift
from tosa_state.transforms.tosa_integer_state import rescale_reference

SNIPPET = Path(__file__).resolve().parent.parent / "lit_tests" / "integer_state" / \
    "integer-requantize.mlir"


def _module() -> object:
    from xdsl.parser import Parser

    text = SNIPPET.read_text().split("// -----")[0]
    return Parser(ts.make_context(), text).parse_module()


def test_the_integer_ops_give_the_float_ops_int8() -> None:
    before = _module()
    after = _module()
    apply_pipeline(ts.make_context(), after, "tosa-integer-requantize,dce")
    assert "f32" not in print_module(after)
    float_model = ts.compile_model(before).create_infer_request()
    integer_model = ts.compile_model(after).create_infer_request()
    rng = np.random.default_rng(0)
    extremes = np.array(np.meshgrid([-128, -1, 0, 1, 127], [-128, -1, 0, 1, 127])).reshape(2, -1)
    inputs = [np.stack([extremes[:, k:k + 3].T if k + 3 <= extremes.shape[1]
                        else extremes[:, :3].T])[None].astype(np.int8)
              for k in range(0, extremes.shape[1], 3)]
    inputs += [rng.integers(-128, 128, (1, 1, 3, 2)).astype(np.int8) for _ in range(80)]
    changed = 0
    for x in inputs:
        want = float_model.infer([x])[0]
        np.testing.assert_array_equal(integer_model.infer([x])[0], want)
        changed += len(np.unique(want))
    assert changed > 100  # the results spread over the levels, not one saturated value


def test_the_fit_passes_through_thresholds_rounding_moved() -> None:
    """A ReLU'd f32 scale-and-bias then an f32 quantize, per accumulator: the naive integer
    lowering (one rescale by the product of the scales, the bias rounded into the
    accumulator) misses some levels, the fit (12 fractional bits of offset) gives every
    one of the 80 001 exactly."""
    acc = np.arange(-40000, 40001)
    scale, bias, inverse = np.float32(3.559108e-4), np.float32(0.09009274), np.float32(77.620514)
    value = np.maximum((acc.astype(np.float32) * scale).astype(np.float32) + bias, 0)
    table = np.clip(np.rint((value * inverse).astype(np.float32)), 0, 255).astype(np.int64) - 128
    fit = fit_channel(table, acc, 12, natural_shift(table, acc, 12))
    assert fit is not None
    np.testing.assert_array_equal(apply_fit(acc, fit, 12, -128, (-128, 127)), table)
    shift = 40
    multiplier = round(float(scale) * float(inverse) * 2 ** shift)
    naive = rescale_reference(acc + round(float(bias) / float(scale)), multiplier, shift, 0,
                              -128, False, (-128, 127))
    assert np.count_nonzero(naive != table) > 0
