"""Compressed weights at run time: `tosa_state.dequantize`.

The weight stays packed in the plan (its `tosa.const` of stored bytes, as are the zero
point and the scale); each call decodes it into a fresh f32 buffer, subtracts the zero point
and multiplies by the scale (numpy widens f16 / bf16 scales element by element, in the
loop), and hands the floats to the op that uses them. The plan never folds the op (it has no
memory-effect trait), so no float copy of a weight, zero point or scale outlives a call.
"""

from __future__ import annotations

import numpy as np
from xdsl.interpreter import InterpreterFunctions

from tosa_state.dialects.tosa_state import DequantizeOp
from tosa_state.dtypes import numpy_dtype
from tosa_state.interpreter.op_cache import Kernel, Kernels
from tosa_state.packing import unpack

_KERNELS = Kernels("compression")


@_KERNELS.builds(DequantizeOp)
def _dequantize(op: DequantizeOp) -> Kernel:
    weight_type, weight_shape = op.weight_type.data, op.shape_of_weights
    result_type = op.result.type
    out_shape = tuple(result_type.get_shape())
    out_dtype = numpy_dtype(result_type.element_type)
    zp_type = op.zero_point_type.data if op.zero_point_type is not None else None
    zp_shape = op.shape_of_zero_point if zp_type is not None else ()

    def run(weights: np.ndarray, scale: np.ndarray, zero_point: np.ndarray | None = None
            ) -> np.ndarray:
        codes = unpack(weights, weight_type, weight_shape)
        if zp_type is not None and zero_point is not None:
            out = np.subtract(codes, unpack(zero_point, zp_type, zp_shape), dtype=np.float32)
        else:
            out = codes.astype(np.float32)
        if scale.dtype not in (np.float16, np.float32):  # bf16: numpy has no mixed loop
            scale = scale.astype(np.float32)
        np.multiply(out, scale, out=out)
        return out.reshape(out_shape).astype(out_dtype, copy=False)

    return run


@_KERNELS.impls
class CompressionFunctions(InterpreterFunctions):
    """The numpy impl of `tosa_state.dequantize` (its kernel)."""
