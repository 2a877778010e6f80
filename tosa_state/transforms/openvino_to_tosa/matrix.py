"""MatMul and the reductions (ReduceSum, ReduceMean, ReduceMax), Softmax and MVN.

The products and one-axis reductions themselves are the builder's (`tosa_builder.products`:
numpy matmul semantics on TOSA's rank-3 `tosa.matmul`), shared with the recurrent cells,
Einsum, attention and the TFLite conversion.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import i32
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import shape as tts
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    RuntimeShape,
    Unsupported,
    constant_ints,
    dims,
    element,
    integer_type,
    is_float,
    normalize_axis,
)
from tosa_state.transforms.tosa_builder.products import matmul, reduce_axis


class MatMul(OpenVINOPattern):
    """MatMul-1 with `transpose_a` / `transpose_b`."""

    OPS = (ov.MatMulOp,)

    def convert(self, op: ov.MatMulOp, e: Emitter) -> Sequence[SSAValue]:
        ta, tb = bool(op.transpose_a.value.data), bool(op.transpose_b.value.data)
        return [matmul(e, op.a, op.b, ta, tb)]


class Reduce(OpenVINOPattern):
    """ReduceSum-1, ReduceMean-1, ReduceMax-1, ReduceMin-1, ReduceProd-1: one TOSA reduction
    per axis (a mean divides the sum by the count), then a reshape unless `keep_dims`."""

    OPS = (ov.ReduceSumOp, ov.ReduceMeanOp, ov.ReduceMaxOp, ov.ReduceMinOp, ov.ReduceProdOp)
    TOSA: dict[type[Operation], type[Operation]] = {
        ov.ReduceSumOp: tt.ReduceSumOp,
        ov.ReduceMeanOp: tt.ReduceSumOp,
        ov.ReduceMaxOp: tt.ReduceMaxOp,
        ov.ReduceMinOp: tt.ReduceMinOp,
        ov.ReduceProdOp: tt.ReduceProductOp,
    }

    def convert(self, op: ov.ReduceOp, e: Emitter) -> Sequence[SSAValue]:
        if op.input in e.lowering.shapes:
            return [_reduce_shape(e, op)]
        sizes = dims(op.input)
        axes = sorted({normalize_axis(a, len(sizes)) for a in constant_ints(op.axes, "axes")})
        cls = self.TOSA[type(op)]
        value = op.input
        for axis in axes:
            value = reduce_axis(e, cls, value, axis)
        if isinstance(op, ov.ReduceMeanOp) and axes:
            if any(sizes[a] == DYN for a in axes):
                raise Unsupported("a mean over a dynamic dimension")
            value = _mean(e, value, math.prod(sizes[a] for a in axes))
        if not bool(op.keep_dims.value.data):
            value = e.reshape(value, [d for i, d in enumerate(sizes) if i not in axes])
        return [value]


_SHAPE_REDUCTIONS = {
    ov.ReduceProdOp: tts.MulShapeOp, ov.ReduceSumOp: tts.AddShapeOp,
    ov.ReduceMaxOp: tts.MaxShapeOp, ov.ReduceMinOp: tts.MinShapeOp,
}


def _reduce_shape(e: Emitter, op: ov.ReduceOp) -> SSAValue:
    """A reduction of a shape known at run time (the element count of a tensor is
    `ReduceProd(ShapeOf(x))`): shape arithmetic over its sizes."""
    found = e.lowering.shapes[op.input]
    if type(op) not in _SHAPE_REDUCTIONS or found.scalar:
        raise Unsupported(f"'{op.name}' of a shape known only at run time")
    if constant_ints(op.axes, "axes") not in ([0], [-1]):
        raise Unsupported("a reduction of a shape is along its only axis")
    total: int | SSAValue | None = None
    fold = {ov.ReduceProdOp: math.prod, ov.ReduceSumOp: sum, ov.ReduceMaxOp: max,
            ov.ReduceMinOp: min}[type(op)]
    known = [s for s in found.elements if isinstance(s, int)]
    runtime = [s for s in found.elements if isinstance(s, SSAValue)]
    total = fold(known) if known else None
    for size in runtime:
        if total is None:
            total = size
            continue
        left = total if isinstance(total, SSAValue) else e.const_shape([total])
        total = e.value(_SHAPE_REDUCTIONS[type(op)](left, size))
    keep = bool(op.keep_dims.value.data)
    return e.shape_tensor(RuntimeShape((total,), not keep, found.element_type))


def _mean(e: Emitter, total: SSAValue, count: int) -> SSAValue:
    element_type = element(total)
    rank = len(dims(total))
    if is_float(element_type):
        return e.mul(total, e.scalar(1.0 / count, element_type, rank))
    if integer_type(total) is None:
        raise Unsupported(f"mean of {element_type} values")
    widened = e.cast(total, i32) if integer_type(total).width.data < 32 else total
    quotient = e.elementwise(tew.IntDivOp, widened, e.scalar(count, element(widened), rank))
    return e.cast(quotient, element_type)


class Softmax(OpenVINOPattern):
    """Softmax-1 / -8 on floats: `exp(x - max) / sum(exp(x - max))` along the axis (the
    maximum subtracted first, so that `exp` cannot overflow); LogSoftmax-5:
    `(x - max) - log(sum(exp(x - max)))`."""

    OPS = (ov.SoftmaxOp, ov.LogSoftmaxOp)

    def convert(self, op: ov.SoftmaxOp, e: Emitter) -> Sequence[SSAValue]:
        if not is_float(element(op.input)):
            raise Unsupported(f"{op.name} of {element(op.input)} values (floats only)")
        axis = normalize_axis(op.axis.value.data, len(dims(op.input)))
        return [softmax(e, op.input, axis, log=isinstance(op, ov.LogSoftmaxOp))]


def softmax(e: Emitter, value: SSAValue, axis: int, log: bool = False) -> SSAValue:
    """`exp(x - max) / sum(exp(x - max))` along `axis` (floats); with `log`, its logarithm
    `(x - max) - log(sum(exp(x - max)))`."""
    shifted = e.sub(value, reduce_axis(e, tt.ReduceMaxOp, value, axis))
    exponentials = e.unary(tew.ExpOp, shifted)
    total = reduce_axis(e, tt.ReduceSumOp, exponentials, axis)
    if log:
        return e.sub(shifted, e.unary(tew.LogOp, total))
    return e.mul(exponentials, e.unary(tew.ReciprocalOp, total))


class MVN(OpenVINOPattern):
    """MVN-6 (and MVN-1: `reduction_axes`) on floats: `d = x - mean(x)` over `axes`; with
    `normalize_variance`, `d * rsqrt(mean(d * d) + eps)` (`inside_sqrt`) or
    `d / (sqrt(mean(d * d)) + eps)`."""

    OPS = (ov.MVNOp,)

    def convert(self, op: ov.MVNOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.input)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        dims_ = dims(op.input)
        given = (constant_ints(op.axes, "axes") if op.axes is not None else
                 op.reduction_axes.get_values() if op.reduction_axes is not None else [])
        axes = sorted({normalize_axis(a, len(dims_)) for a in given})
        if any(dims_[a] == DYN for a in axes):
            raise Unsupported("a mean over a dynamic dimension")
        count = math.prod(dims_[a] for a in axes)

        def mean(value: SSAValue) -> SSAValue:
            for axis in axes:
                value = reduce_axis(e, tt.ReduceSumOp, value, axis)
            return _mean(e, value, count)

        centred = e.sub(op.input, mean(op.input))
        if not op.normalize_variance.value.data:
            return [centred]
        variance = mean(e.mul(centred, centred))
        eps = e.scalar(op.eps.value.data, element_type, len(dims_))
        if op.eps_mode.data == "inside_sqrt":
            scale = e.unary(tew.RsqrtOp, e.add(variance, eps))
        else:
            root = e.elementwise(tew.PowOp, variance, e.scalar(0.5, element_type, len(dims_)))
            scale = e.unary(tew.ReciprocalOp, e.add(root, eps))
        return [e.mul(centred, scale)]


MATRIX_PATTERNS = (MatMul, Reduce, Softmax, MVN)
