"""`tosa-demote-i64`: every `i64` tensor computed as `i32`.

TOSA 1.0's profiles have no 64-bit integers: OpenVINO's and ONNX's `i64` index math
(`ShapeOf`, `Gather` indices, position ids) converts to TOSA ops on `i64` tensors, which
upstream validation (run by IREE) refuses (`tosa.cast` i64 → f32 "did not align with any
profile or extension"; IREE's own `--iree-input-demote-i64-to-i32` does not reach it). The
pass retypes every `tensor<...xi64>` — op results, block arguments, function signatures,
`ml_program` globals — as `i32`, and converts `i64` constants (`tosa.const`, global
initial values) to `i32`, failing on a value outside `i32`'s range. A `tosa.cast` between
`i64` and `i32`, now from `i32` to `i32`, is removed.

The function signature changes too: a host passing `i64` inputs converts them at the
boundary (the `iree` device does, checking the range, and converts results back).
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    ModuleOp,
    TensorType,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.ml_program import GlobalOp
from tosa_state.dialects.tosa.elementwise import CastOp
from tosa_state.dialects.tosa.tensor import ConstOp
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.transforms.retype import retype

_I32 = np.iinfo(np.int32)


def demoted(attribute: Attribute) -> Attribute:
    """`tensor<...xi64>` as `tensor<...xi32>`; any other type as it is."""
    if isinstance(attribute, TensorType) and attribute.element_type == i64:
        return TensorType(i32, attribute.get_shape())
    return attribute


def _demoted_dense(op: Operation, dense: Attribute) -> Attribute:
    if not (isinstance(dense, DenseIntOrFPElementsAttr) and dense.get_element_type() == i64):
        return dense
    values = dense_to_numpy(dense)
    if values.size and (values.min() < _I32.min or values.max() > _I32.max):
        raise PassFailedException(error_at(
            op, f"'{op.name}' op has an i64 value beyond i32's range; 'tosa-demote-i64' "
            "cannot compute it in i32"))
    return numpy_to_dense(values.astype(np.int32))


def _demote_op(op: Operation) -> None:
    if isinstance(op, GlobalOp):
        op.type = demoted(op.type)
        if op.value is not None:
            op.value = _demoted_dense(op, op.value)
    elif isinstance(op, ConstOp):
        op.values = _demoted_dense(op, op.values)  # type: ignore[assignment]
    retype(op, demoted)


@dataclass(frozen=True)
class TosaDemoteI64Pass(ModulePass):
    """Retypes every `i64` tensor as `i32` (constants converted, checked in range)."""

    name = "tosa-demote-i64"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            _demote_op(inner)
        for inner in list(op.walk()):  # i64 <-> i32 casts are now i32 -> i32: gone
            if isinstance(inner, CastOp) and inner.input.type == inner.output.type:
                Rewriter.replace_op(inner, [], [inner.input])


__all__ = ["TosaDemoteI64Pass", "demoted"]
