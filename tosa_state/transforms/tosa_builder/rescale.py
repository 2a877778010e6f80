"""`tosa.rescale` as TFLite's kernels scale integers (and the int8 FakeQuantize of OpenVINO
models): a real factor as TFLite's `QuantizeMultiplier` makes it a 32-bit multiplier and a
shift (`frexp`, the mantissa rounded to 31 bits), applied with TOSA's rounding modes.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import BoolAttr, TensorType, i8, i32
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import SSAValue

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import Unsupported, dims, element


def multiplier_shift(scale: float) -> tuple[int, int]:
    """TOSA's (multiplier, shift) for a real `scale` (`scale ~ multiplier * 2**-shift`), as
    TFLite's `QuantizeMultiplier`: `frexp`, the mantissa rounded to 31 bits."""
    if scale <= 0.0:
        if scale == 0.0:
            return 0, 31
        raise Unsupported(f"a negative rescale factor {scale}")
    mantissa, exponent = math.frexp(scale)
    multiplier = math.floor(mantissa * (1 << 31) + 0.5)
    if multiplier == 1 << 31:
        multiplier //= 2
        exponent += 1
    shift = 31 - exponent
    if shift > 62:  # below 2**-31 TFLite gives 0; TOSA's shift stops at 62
        multiplier >>= min(31, shift - 62)
        shift = 62
    if shift < 2:
        raise Unsupported(f"a rescale factor {scale} too large for a 32-bit multiplier")
    return multiplier, shift


def rescale(e: Emitter, value: SSAValue, scales: Sequence[float] | float, out_element: object,
            input_zp: int = 0, output_zp: int = 0, double_round: bool = True) -> SSAValue:
    """`tosa.rescale` of `value` by `scales` (one, or one per channel of the last dim)."""
    factors = [scales] if isinstance(scales, float | int) else list(scales)
    pairs = [multiplier_shift(float(s)) for s in factors]
    in_element = element(value)
    zp_dtype = {i8: np.int8, i32: np.int32}
    op = tew.RescaleOp.create(
        operands=[value, e.const(np.array([m for m, _ in pairs], np.int32), i32),
                  e.const(np.array([s for _, s in pairs], np.int8), i8),
                  e.const(np.array([input_zp], zp_dtype[in_element]), in_element),
                  e.const(np.array([output_zp], zp_dtype[out_element]), out_element)],
        result_types=[TensorType(out_element, dims(value))],
        properties={
            "scale32": BoolAttr.from_bool(True),
            "rounding_mode": RoundingModeAttr(
                RoundingMode.DOUBLE_ROUND if double_round else RoundingMode.SINGLE_ROUND),
            "per_channel": BoolAttr.from_bool(len(pairs) > 1),
            "input_unsigned": BoolAttr.from_bool(False),
            "output_unsigned": BoolAttr.from_bool(False)})
    return e.value(op)


def to_i32(e: Emitter, value: SSAValue, zero_point: int, scale: float = 1.0) -> SSAValue:
    """An int8 tensor minus its zero point (times `scale`) in i32."""
    return rescale(e, value, scale, i32, input_zp=zero_point)
