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
    return FullyConnectedOp(op.operand(0, "input"), op.operand(1, "filter"), op.optional(2),
                            op.result(), op.activation(options), keep)


BUILDERS: dict[int, Builder] = {B.FULLY_CONNECTED: Builder(_fully_connected, (2, 3))}
