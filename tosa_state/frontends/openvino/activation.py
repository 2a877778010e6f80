"""Importing the activation layers added for the optimum-intel architectures: SoftPlus, ErfInv."""

from __future__ import annotations

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpSpec

ACTIVATION_LAYERS: dict[str, OpSpec] = {
    "SoftPlus": OpSpec(("opset4",), (1, 1), lambda b: ov.SoftPlusOp(b.operands[0],
                                                                    b.result_types[0])),
    "ErfInv": OpSpec(("opset17",), (1, 1), lambda b: ov.ErfInvOp(b.operands[0],
                                                                 b.result_types[0])),
}
