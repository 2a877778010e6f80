"""MatMul and the reductions (ReduceSum, ReduceMean, ReduceMax).

`matmul` is shared with the recurrent cells: numpy matmul semantics (1-D operands, broadcast
batch dims, transposes of the last two dims) on TOSA's rank-3 `tosa.matmul`.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, bf16, f16, f32, i32
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
    broadcast_shape,
    constant_ints,
    dims,
    element,
    integer_type,
    is_float,
    normalize_axis,
)

_MATMUL_ACCUMULATOR = {f32: f32, f16: f32, bf16: f32}
"""Float types `tosa.matmul` takes, and the type it accumulates and returns in."""


def _as_batched(e: Emitter, value: SSAValue, batch: Sequence[int | SSAValue],
                transposed: bool) -> SSAValue:
    """A [..., R, C] operand broadcast to `batch`, as [prod(batch), R, C] (C, R if transposed);
    sizes may be known only at run time."""
    rows, cols = e.sizes(value)[-2:]
    value = e.with_rank(value, len(batch) + 2)
    multiples = [b if d == 1 and b != 1 else 1 for d, b in zip(dims(value)[:-2], batch,
                                                                 strict=True)]
    if any(m != 1 for m in multiples):
        out = [DYN if isinstance(b, SSAValue) else b for b in batch]
        value = e.value(tt.TileOp(value, e.shape_operand([*multiples, 1, 1]),
                                  TensorType(element(value), [*out, *dims(value)[-2:]])))
    value = e.reshape_sizes(value, (e.product(batch), rows, cols))
    return e.transpose(value, (0, 2, 1)) if transposed else value


def _batch_sizes(e: Emitter, a: SSAValue, b: SSAValue) -> list[int | SSAValue]:
    """The broadcast batch dims of `a` and `b` (all but the last two), as sizes."""
    sa, sb = dims(a)[:-2], dims(b)[:-2]
    out = broadcast_shape([sa, sb])
    sizes: list[int | SSAValue] = []
    for axis, size in enumerate(out):
        if size != DYN:
            sizes.append(size)
            continue
        ia, ib = axis - len(out) + len(sa), axis - len(out) + len(sb)
        if ia >= 0 and sa[ia] == DYN:
            sizes.append(e.dim(a, ia))
        else:
            sizes.append(e.dim(b, ib))
    return sizes


def matmul(
    e: Emitter, a: SSAValue, b: SSAValue, transpose_a: bool = False, transpose_b: bool = False
) -> SSAValue:
    """numpy `matmul(a^T?, b^T?)`: rank-1 operands become [1, K] / [K, 1] (their transpose flag
    is ignored), batch dims broadcast, and the product is one `tosa.matmul` (floats) or a
    multiply and `tosa.reduce_sum` (other types). A 2-D `b` (weights) multiplies the rows of
    every batch at once: no copy of the weights per batch."""
    a_vector, b_vector = len(dims(a)) == 1, len(dims(b)) == 1
    if a_vector:
        a, transpose_a = e.reshape(a, (1, *dims(a))), False
    if b_vector:
        b, transpose_b = e.reshape(b, (*dims(b), 1)), False
    sa, sb = dims(a), dims(b)
    if len(sb) == 2 and not transpose_a:
        leading = e.sizes(a)[:-1]
        a3 = e.reshape_sizes(a, (1, e.product(leading), e.size(a, -1)))
        b2 = e.transpose(b, (1, 0)) if transpose_b else b
        product = _product3(e, a3, e.reshape(b2, (1, *dims(b2))))
        out = [*leading, e.size(b2, 1)]
    else:
        batch = _batch_sizes(e, a, b)
        rows = e.size(a, -1) if transpose_a else e.size(a, -2)
        cols = e.size(b, -2) if transpose_b else e.size(b, -1)
        a3 = _as_batched(e, a, batch, transpose_a)
        b3 = _as_batched(e, b, batch, transpose_b)
        if DYN not in (dims(a3)[2], dims(b3)[1]) and dims(a3)[2] != dims(b3)[1]:
            raise Unsupported(f"cannot multiply {ov.format_shape(sa)} by {ov.format_shape(sb)}")
        product = _product3(e, a3, b3)
        out = [*batch, rows, cols]
    if b_vector:
        out.pop(-1)
    if a_vector:
        out.pop(-2 if not b_vector else -1)
    return e.reshape_sizes(product, out)


def _product3(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    element_type = element(a)
    n, m, _ = dims(a)
    cols = dims(b)[2]
    accumulator = _MATMUL_ACCUMULATOR.get(element_type)
    if accumulator is not None:
        zero = e.const(np.zeros(1), element_type)
        result_type = TensorType(accumulator, [n, m, cols])
        return e.cast(e.value(tt.MatMulOp(a, b, zero, zero, result_type)), element_type)
    # [N, M, K, 1] * [N, 1, K, N'] summed over K.
    k = dims(a)[2]
    terms = e.mul(e.reshape(a, (n, m, k, 1)), e.reshape(b, (n, 1, k, cols)))
    return e.reshape(_reduce(e, tt.ReduceSumOp, terms, 2), (n, m, cols))


class MatMul(OpenVINOPattern):
    """MatMul-1 with `transpose_a` / `transpose_b`."""

    OPS = (ov.MatMulOp,)

    def convert(self, op: ov.MatMulOp, e: Emitter) -> Sequence[SSAValue]:
        ta, tb = bool(op.transpose_a.value.data), bool(op.transpose_b.value.data)
        return [matmul(e, op.a, op.b, ta, tb)]


def _reduce(e: Emitter, cls: type[Operation], value: SSAValue, axis: int) -> SSAValue:
    """One TOSA reduction along `axis` (kept with size 1); i8 / i16 sums go through i32."""
    element_type = element(value)
    narrow = integer_type(value)
    if cls is tt.ReduceSumOp and narrow is not None and narrow.width.data < 32:
        return e.cast(_reduce(e, cls, e.cast(value, i32), axis), element_type)
    out = list(dims(value))
    out[axis] = 1
    return e.value(cls(value, axis, TensorType(element_type, out)))


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
            value = _reduce(e, cls, value, axis)
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
    shifted = e.sub(value, _reduce(e, tt.ReduceMaxOp, value, axis))
    exponentials = e.unary(tew.ExpOp, shifted)
    total = _reduce(e, tt.ReduceSumOp, exponentials, axis)
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
                value = _reduce(e, tt.ReduceSumOp, value, axis)
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
