"""FULLY_CONNECTED."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from tflite.FullyConnectedOptionsWeightsFormat import FullyConnectedOptionsWeightsFormat
from xdsl.ir import Operation

from tosa_state.dialects.tfl.matrix import FullyConnectedOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _fully_connected(op: OperatorInput) -> Operation:
    options = op.options(tflite.FullyConnectedOptions, O.FullyConnectedOptions)
    keep = False
    if options is not None:
        if op.read("weights_format", options.WeightsFormat) != (
            FullyConnectedOptionsWeightsFormat.DEFAULT
        ):
            raise op.where.error("only the DEFAULT weights_format is supported")
        keep = bool(op.read("keep_num_dims", options.KeepNumDims))
    weight = op.quantization[1] if len(op.quantization) > 1 else None
    hybrid = None
    if weight is not None and op.quantization[0] is None:  # LiteRT's hybrid kernel
        asymmetric = options is not None and bool(
            op.read("asymmetric_quantize_inputs", options.AsymmetricQuantizeInputs))
        if weight.dimension != 0 and len(weight.scales) > 1:
            raise op.where.error(f"per-channel weight scales along dimension {weight.dimension}"
                                 " (expected 0, the output channels)")
        hybrid = (weight.scales, asymmetric)
    return FullyConnectedOp(op.operand(0, "input"), op.operand(1, "filter"), op.optional(2),
                            op.result(), op.activation(options), keep, hybrid)


BUILDERS: dict[int, Builder] = {B.FULLY_CONNECTED: Builder(_fully_connected, (2, 3))}
HYBRID_WEIGHTS: dict[int, tuple[int, ...]] = {B.FULLY_CONNECTED: (1,)}
"""FULLY_CONNECTED takes an int8 filter with float input and output (hybrid)."""
