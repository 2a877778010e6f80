"""FULLY_CONNECTED: rows of the input times the transposed filter (`tosa.matmul`), plus bias,
then the fused activation."""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.matrix import FullyConnectedOp
from tosa_state.transforms.openvino_to_tosa.common import Emitter, Unsupported, shape
from tosa_state.transforms.openvino_to_tosa.matrix import matmul
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate


class FullyConnected(TflPattern):
    """FULLY_CONNECTED (DEFAULT weights; `keep_num_dims`)."""

    OPS = (FullyConnectedOp,)

    def convert(self, op: FullyConnectedOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        x, w = operands[0], operands[1]
        dims = shape(x)
        units, depth = shape(w)
        if math.prod(dims) % depth:
            raise Unsupported(f"input {list(dims)} is not made of rows of {depth}")
        rows = e.reshape(x, (math.prod(dims) // depth, depth))
        product = matmul(e, rows, w, transpose_b=True)
        if len(operands) > 2:
            product = e.add(product, operands[2])
        product = activate(e, product, op.fused_activation_function)
        if op.keep_num_dims.value.data:
            product = e.reshape(product, (*dims[:-1], units))
        return [product]


MATRIX_PATTERNS = (FullyConnected,)
