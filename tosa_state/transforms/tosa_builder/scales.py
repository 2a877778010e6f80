"""Real scale factors as TOSA's `tosa.rescale` takes them: a 32-bit multiplier and a shift."""

from __future__ import annotations

import math

from tosa_state.transforms.tosa_builder.values import Unsupported


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
