"""Constants of packed element types (u1, u4, i4, nf4, f8e4m3, f8e5m2): their bytes as the
`.bin` holds them, in an `openvino.packed_constant` (`dialects/openvino/compression.py`).

The decompression subgraphs around them (Convert, Subtract, Multiply, Reshape) are imported
as the ops they are; `convert-openvino-to-tosa` fuses them (`transforms/openvino_to_tosa/
compression.py`).
"""

from __future__ import annotations

import math

import numpy as np
from xdsl.dialects.builtin import TensorType

from tosa_state.dialects import openvino as ov
from tosa_state.dtypes import numpy_to_dense
from tosa_state.frontends.openvino.element_types import ElementType
from tosa_state.packing import packed_size


def const_size(element: ElementType, shape: list[int]) -> int:
    """The bytes a Const of `shape` x `element` takes in the `.bin`."""
    count = math.prod(shape)
    if element.packed:
        return packed_size(element.name, count)
    return count * element.dtype.itemsize


def packed_constant(
    element: ElementType, weights: bytes, offset: int, shape: list[int]
) -> ov.PackedConstantOp:
    """The Const of `shape` x `element` (a packed type) at `offset` of `weights`."""
    raw = np.frombuffer(weights, np.uint8, const_size(element, shape), offset)
    return ov.PackedConstantOp(numpy_to_dense(raw), TensorType(element.mlir, shape))
