"""Products and reductions every conversion to TOSA builds: numpy `matmul` semantics (1-D
operands, broadcast batch dims, transposes of the last two dims) on TOSA's rank-3
`tosa.matmul`, and one TOSA reduction along an axis.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, bf16, f16, f32, i32
from xdsl.ir import Operation, SSAValue

from tosa_state.diagnostics import format_shape
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import (
    DYN,
    Unsupported,
    broadcast_shape,
    dims,
    element,
    integer_type,
)

MATMUL_ACCUMULATOR = {f32: f32, f16: f32, bf16: f32}
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
        product = product3(e, a3, e.reshape(b2, (1, *dims(b2))))
        out = [*leading, e.size(b2, 1)]
    else:
        batch = _batch_sizes(e, a, b)
        rows = e.size(a, -1) if transpose_a else e.size(a, -2)
        cols = e.size(b, -2) if transpose_b else e.size(b, -1)
        a3 = _as_batched(e, a, batch, transpose_a)
        b3 = _as_batched(e, b, batch, transpose_b)
        if DYN not in (dims(a3)[2], dims(b3)[1]) and dims(a3)[2] != dims(b3)[1]:
            raise Unsupported(f"cannot multiply {format_shape(sa)} by {format_shape(sb)}")
        product = product3(e, a3, b3)
        out = [*batch, rows, cols]
    if b_vector:
        out.pop(-1)
    if a_vector:
        out.pop(-2 if not b_vector else -1)
    return e.reshape_sizes(product, out)


def product3(e: Emitter, a: SSAValue, b: SSAValue) -> SSAValue:
    """The batched product of [N, M, K] and [N, K, N'] operands: a `tosa.matmul` for the
    floats it takes (`MATMUL_ACCUMULATOR`), else a multiply and a sum over K."""
    element_type = element(a)
    n, m, _ = dims(a)
    cols = dims(b)[2]
    accumulator = MATMUL_ACCUMULATOR.get(element_type)
    if accumulator is not None:
        zero = e.const(np.zeros(1), element_type)
        result_type = TensorType(accumulator, [n, m, cols])
        return e.cast(e.value(tt.MatMulOp(a, b, zero, zero, result_type)), element_type)
    # [N, M, K, 1] * [N, 1, K, N'] summed over K.
    k = dims(a)[2]
    terms = e.mul(e.reshape(a, (n, m, k, 1)), e.reshape(b, (n, 1, k, cols)))
    return e.reshape(reduce_axis(e, tt.ReduceSumOp, terms, 2), (n, m, cols))


def reduce_axis(e: Emitter, cls: type[Operation], value: SSAValue, axis: int) -> SSAValue:
    """One TOSA reduction along `axis` (kept with size 1); i8 / i16 sums go through i32."""
    element_type = element(value)
    narrow = integer_type(value)
    if cls is tt.ReduceSumOp and narrow is not None and narrow.width.data < 32:
        return e.cast(reduce_axis(e, cls, e.cast(value, i32), axis), element_type)
    out = list(dims(value))
    out[axis] = 1
    return e.value(cls(value, axis, TensorType(element_type, out)))


__all__ = ["MATMUL_ACCUMULATOR", "matmul", "product3", "reduce_axis"]
