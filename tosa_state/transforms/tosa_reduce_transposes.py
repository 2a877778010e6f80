"""`tosa-reduce-transposes`: move transposes down past the ops they commute with, so that
the transposes around convolutions meet and cancel.

OpenVINO and ONNX models are NCHW and TOSA convolutions NHWC, so a converted model
transposes into and out of every convolution, and what runs between two convolutions (the
bias `add`, the activation, the reshapes of a 1-D convolution) runs on the NCHW side. Moved
down past those ops, the transpose after one convolution meets the one before the next and
the pair becomes nothing, or a reshape. The patterns (static shapes only):

- `MergeTransposes`: `transpose(transpose(x, p), q)` is `transpose(x, [p[i] for i in q])`;
  an identity transpose is `x`.
- `TransposeAsReshape`: a transpose that only moves size-1 dims is a `tosa.reshape`.
- `MergeReshapes`: `reshape(reshape(x))` is one reshape; a reshape to `x`'s shape is `x`.
- `SinkTransposeThroughElementwise`: `f(transpose(a, p), transpose(b, p), c)` is
  `transpose(f(a, b, c'), p)` for an elementwise `f`, when the transposes have no other
  use and every other operand is a constant (`c'`: `c` transposed back, at compile time)
  or has only size-1 dims.
- `SinkTransposeThroughReshape`: a reshape that only adds or drops size-1 dims, of a
  transpose, is a transpose of a reshape.
- `SinkTransposeThroughSlice`: `slice(transpose(x, p))` is `transpose(slice(x), p)`, also
  when the transpose feeds several slices (the real and imaginary halves of an STFT).
- `SinkReshapeThroughElementwise`: an elementwise op of a reshape that only adds or drops
  size-1 dims is that reshape of the op (constant operands reshaped at compile time), so
  that the reshapes into and out of a 1-D convolution meet and merge too.

Each pattern moves a transpose towards the uses of its result and never adds one where
nothing could cancel it except in front of slices, so the rewriting ends. This is in the
spirit of upstream MLIR's `--tosa-reduce-transposes`, which proves cancellations over a
transpose's whole dependency graph; its output is what upstream's canonicalization of the
same input would reach from ours. `compile_model` runs it before lowering.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.transforms.targeted_walker import TargetedRewriteWalker, dead_or
from tosa_state.transforms.tosa_builder.values import static_shape

_CONSTANT_LIMIT = 1 << 16
"""Largest constant operand (elements) transposed at compile time."""


def _perms(op: tt.TransposeOp) -> tuple[int, ...]:
    return tuple(int(p) for p in op.perms.get_values())


def _inverse(perms: Sequence[int]) -> tuple[int, ...]:
    inverse = [0] * len(perms)
    for i, p in enumerate(perms):
        inverse[p] = i
    return tuple(inverse)


def _permuted(dims: Sequence[int], perms: Sequence[int]) -> tuple[int, ...]:
    return tuple(dims[p] for p in perms)


def _with_shape(value: SSAValue, dims: Sequence[int]) -> TensorType:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return TensorType(value_type.element_type, list(dims))


def _only_used_by(value: SSAValue, user: Operation) -> bool:
    return all(use.operation is user for use in value.uses)


def _transpose_for(value: SSAValue, user: Operation) -> tt.TransposeOp | None:
    """The transpose defining `value` when nothing but `user` uses `value`."""
    owner = value.owner
    if isinstance(owner, tt.TransposeOp) and _only_used_by(value, user):
        return owner
    return None


def _replace(rewriter: PatternRewriter, op: Operation, new_ops: Sequence[Operation]) -> None:
    """`op` replaced by `new_ops` (its result by the last one's), the moved op named as
    `op`'s result was and the layout ops after it unnamed."""
    for new in new_ops:
        rewriter.insert(new, InsertPoint.before(op))
    rewriter.replace_all_uses_with(op.results[0], new_ops[-1].results[0])
    rewriter.erase(op)


def _reshape(value: SSAValue, dims: Sequence[int]) -> list[Operation]:
    """The `tosa.const_shape` and `tosa.reshape` of `value` to static `dims`."""
    shape = tt.ConstShapeOp(list(dims))
    return [shape, tt.ReshapeOp(value, shape, _with_shape(value, dims))]


def _non_unit(dims: Sequence[int]) -> list[int]:
    return [i for i, d in enumerate(dims) if d != 1]


class MergeTransposes(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.TransposeOp, rewriter: PatternRewriter) -> None:
        perms = _perms(op)
        if perms == tuple(range(len(perms))):
            rewriter.replace(op, [], [op.input1])
            return
        inner = op.input1.owner
        if isinstance(inner, tt.TransposeOp):
            merged = _permuted(_perms(inner), perms)
            rewriter.replace(op, tt.TransposeOp(inner.input1, merged, op.output.type))


class TransposeAsReshape(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.TransposeOp, rewriter: PatternRewriter) -> None:
        dims = static_shape(op.input1)
        if dims is None:
            return
        perms = _perms(op)
        moved = [p for p in perms if dims[p] != 1]
        if moved != sorted(moved):
            return
        rewriter.replace(op, _reshape(op.input1, _permuted(dims, perms)))


class MergeReshapes(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        out = static_shape(op.output)
        if out is None:
            return
        if static_shape(op.input1) == out:
            rewriter.replace(op, [], [op.input1])
            return
        inner = op.input1.owner
        if isinstance(inner, tt.ReshapeOp):
            rewriter.replace(op, _reshape(inner.input1, out))


def _elementwise_operands(op: Operation) -> tuple[int, ...] | None:
    """The positions of `op`'s operands that broadcast elementwise against its result."""
    if isinstance(op, tew.MulOp):
        return (0, 1)
    if isinstance(op, tew._UnaryOp | tew._BinaryOp | tew.ClampOp | tew.SelectOp | tew.CastOp):
        return tuple(range(len(op.operands)))
    return None


class SinkTransposeThroughElementwise(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        positions = _elementwise_operands(op)
        if positions is None or len(op.results) != 1:
            return
        out = static_shape(op.results[0])
        if out is None:
            return
        perms: tuple[int, ...] | None = None
        for i in positions:
            transpose = _transpose_for(op.operands[i], op)
            if transpose is not None:
                perms = _perms(transpose)
                break
        if perms is None:
            return
        inverse = _inverse(perms)
        operands = list(op.operands)
        for i in positions:
            operand = op.operands[i]
            dims = static_shape(operand)
            if dims is None or len(dims) != len(perms):
                return
            transpose = _transpose_for(operand, op)
            if transpose is not None and _perms(transpose) == perms:
                operands[i] = transpose.input1
            elif all(d == 1 for d in dims):
                operands[i] = operand
            elif (array := _constant(operand)) is not None:
                operands[i] = rewriter.insert(
                    tt.ConstOp(numpy_to_dense(np.ascontiguousarray(array.transpose(inverse)))),
                    InsertPoint.before(op),
                ).output
            else:
                return
        moved = _moved(op, operands, _permuted(out, inverse))
        _replace(rewriter, op, [moved, tt.TransposeOp(moved.results[0], perms, op.results[0].type)])


def _moved(op: Operation, operands: Sequence[SSAValue], dims: Sequence[int]) -> Operation:
    """`op` on `operands`, with a result of shape `dims` (and `op`'s result name)."""
    moved = type(op).create(operands=operands, result_types=[_with_shape(op.results[0], dims)],
                            properties=dict(op.properties), attributes=dict(op.attributes))
    moved.results[0].name_hint = op.results[0].name_hint
    return moved


def _constant(value: SSAValue) -> np.ndarray | None:
    owner = value.owner
    if isinstance(owner, tt.ConstOp):
        dims = static_shape(value)
        if dims is not None and math.prod(dims) <= _CONSTANT_LIMIT:
            return dense_to_numpy(owner.values)
    return None


def _unit_reshape(op: tt.ReshapeOp) -> tuple[tuple[int, ...], tuple[int, ...]] | None:
    """The static input and output shapes of a reshape that only adds or drops 1s."""
    source, out = static_shape(op.input1), static_shape(op.output)
    if source is None or out is None:
        return None
    if [source[i] for i in _non_unit(source)] != [out[i] for i in _non_unit(out)]:
        return None
    return source, out


class SinkReshapeThroughElementwise(RewritePattern):
    """`f(reshape(x), c)` as `reshape(f(x, c'))` for a reshape adding or dropping 1s with
    no other use, `c` a constant broadcasting along the reshape's non-unit dims (`c'`:
    `c` with `x`'s rank, at compile time)."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        positions = _elementwise_operands(op)
        if positions is None or len(op.results) != 1:
            return
        reshapes = [op.operands[i].owner for i in positions
                    if isinstance(op.operands[i].owner, tt.ReshapeOp)
                    and _only_used_by(op.operands[i], op)]
        if not reshapes or (shapes := _unit_reshape(reshapes[0])) is None:
            return
        source, out = shapes
        if static_shape(op.results[0]) != out:
            return
        places = dict(zip(_non_unit(out), _non_unit(source), strict=True))
        operands = list(op.operands)
        for i in positions:
            operand = op.operands[i]
            owner = operand.owner
            if isinstance(owner, tt.ReshapeOp) and _only_used_by(operand, op) and \
                    _unit_reshape(owner) == shapes:
                operands[i] = owner.input1
                continue
            dims = static_shape(operand)
            array = _constant(operand)
            if dims is None or array is None or len(dims) != len(out) or \
                    any(d != 1 and j not in places for j, d in enumerate(dims)):
                return
            moved = [1] * len(source)
            for j, d in enumerate(dims):
                if d != 1:
                    moved[places[j]] = d
            operands[i] = rewriter.insert(
                tt.ConstOp(numpy_to_dense(array.reshape(moved))), InsertPoint.before(op)
            ).output
        moved = _moved(op, operands, source)
        _replace(rewriter, op, [moved, *_reshape(moved.results[0], out)])


class SinkTransposeThroughReshape(RewritePattern):
    """`reshape(transpose(x, p))`, the reshape only adding or dropping size-1 dims: `x`
    reshaped to its non-unit dims (in order) followed by the 1s the result needs, then
    transposed to put them where the result has them."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.ReshapeOp, rewriter: PatternRewriter) -> None:
        transpose = _transpose_for(op.input1, op)
        out = static_shape(op.output)
        if transpose is None or out is None:
            return
        source = static_shape(transpose.input1)
        if source is None or _unit_reshape(op) is None:
            return  # a reshape regrouping elements: no transpose of it is the same
        kept = _non_unit(source)
        order = {axis: rank for rank, axis in enumerate(kept)}
        walk = [p for p in _perms(transpose) if source[p] != 1]  # source axes, result order
        units = iter(range(len(kept), len(out)))
        perms, non_units = [], iter(walk)
        for d in out:
            perms.append(order[next(non_units)] if d != 1 else next(units))
        reshape = _reshape(transpose.input1,
                           [source[a] for a in kept] + [1] * (len(out) - len(kept)))
        _replace(rewriter, op, [*reshape, tt.TransposeOp(reshape[-1].results[0], perms,
                                                         op.output.type)])


class SinkTransposeThroughSlice(RewritePattern):
    """`slice(transpose(x, p))` as `transpose(slice(x), p)`, for every slice of the
    transpose at once (when only slices use it)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.TransposeOp, rewriter: PatternRewriter) -> None:
        if static_shape(op.input1) is None or not op.output.uses:
            return
        slices = [use.operation for use in op.output.uses]
        if not all(isinstance(s, tt.SliceOp) and use.index == 0
                   for s, use in zip(slices, op.output.uses, strict=True)):
            return
        perms = _perms(op)
        inverse = _inverse(perms)
        windows = []
        for s in slices:
            assert isinstance(s, tt.SliceOp)
            start, size = _shape_values(s.start), _shape_values(s.size)
            if start is None or size is None or -1 in size or static_shape(s.output) is None:
                return
            windows.append((s, _permuted(start, inverse), _permuted(size, inverse)))
        for s, start, size in windows:
            begin = rewriter.insert(tt.ConstShapeOp(list(start)), InsertPoint.before(s))
            extent = rewriter.insert(tt.ConstShapeOp(list(size)), InsertPoint.before(s))
            window = tt.SliceOp(op.input1, begin, extent, _with_shape(op.input1, size))
            window.output.name_hint = s.output.name_hint
            _replace(rewriter, s, [window, tt.TransposeOp(window.output, perms, s.output.type)])
        rewriter.erase(op)


_TRANSPOSE, _RESHAPE, _ELEMENTWISE, _OTHER = range(4)
_KINDS: dict[type, int] = {}
"""Per class of op (or of value owner), which of the kinds above it is: asked once per
class (an `isinstance` of an IRDL op class costs more than the rest of the question)."""


def _kind(owner: object) -> int:
    kind = _KINDS.get(type(owner))
    if kind is None:
        if isinstance(owner, tt.TransposeOp):
            kind = _TRANSPOSE
        elif isinstance(owner, tt.ReshapeOp):
            kind = _RESHAPE
        elif isinstance(owner, Operation) and _elementwise_operands(owner) is not None:
            kind = _ELEMENTWISE
        else:
            kind = _OTHER
        _KINDS[type(owner)] = kind
    return kind


def _candidate(op: Operation) -> bool:
    """Whether a pattern may rewrite `op`: a transpose, a reshape of a reshape or a
    transpose or to its input's type, or an elementwise op of a transpose or reshape."""
    kind = _kind(op)
    if kind == _TRANSPOSE:
        return True
    if kind == _RESHAPE:
        source = op.operands[0]
        return _kind(source.owner) <= _RESHAPE or source.type == op.results[0].type
    return kind == _ELEMENTWISE and any(
        _kind(operand.owner) <= _RESHAPE for operand in op.operands)


def _shape_values(value: SSAValue) -> tuple[int, ...] | None:
    owner = value.owner
    return owner.shape_values if isinstance(owner, tt.ConstShapeOp) else None


REDUCE_TRANSPOSES_PATTERNS: tuple[type[RewritePattern], ...] = (
    MergeTransposes,
    TransposeAsReshape,
    MergeReshapes,
    SinkTransposeThroughElementwise,
    SinkTransposeThroughReshape,
    SinkTransposeThroughSlice,
    SinkReshapeThroughElementwise,
)


@dataclass(frozen=True)
class TosaReduceTransposesPass(ModulePass):
    """Moves transposes past reshapes, slices and elementwise ops until pairs cancel."""

    name = "tosa-reduce-transposes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TargetedRewriteWalker(
            GreedyRewritePatternApplier([p() for p in REDUCE_TRANSPOSES_PATTERNS]),
            candidate=dead_or(_candidate),
        ).rewrite_module(op)


__all__ = ["REDUCE_TRANSPOSES_PATTERNS", "TosaReduceTransposesPass"]
