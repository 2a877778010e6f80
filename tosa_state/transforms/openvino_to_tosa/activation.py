"""Activations added for the optimum-intel architectures: SoftPlus-4."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    element,
    is_float,
)


class SoftPlus(OpenVINOPattern):
    """SoftPlus-4 in the overflow-free form `max(x, 0) + log(1 + exp(-|x|))`: equal to
    `log(exp(x) + 1)` below OpenVINO's threshold and to `x` (within half an ulp) above it."""

    OPS = (ov.SoftPlusOp,)

    def convert(self, op: ov.SoftPlusOp, e: Emitter) -> Sequence[SSAValue]:
        x, element_type = op.input, element(op.input)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        rank = len(dims(x))
        positive = e.clamp(x, 0.0, float("inf"))
        minus_abs = e.sub(e.scalar(0.0, element_type, rank), e.unary(tew.AbsOp, x))
        one_plus = e.add(e.unary(tew.ExpOp, minus_abs), e.scalar(1.0, element_type, rank))
        return [e.add(positive, e.unary(tew.LogOp, one_plus))]


ACTIVATION_PATTERNS = (SoftPlus,)
