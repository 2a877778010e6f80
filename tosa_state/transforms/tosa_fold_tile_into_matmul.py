"""`tosa-fold-tile-into-matmul`: a matmul reads the operand a tile repeated, once per group.

Grouped-query attention (Llama, Qwen2, Mistral, Gemma, ... exported by optimum-intel) keeps
`kv` heads in its cache and repeats each one `g` times for the `kv * g` query heads
(transformers' `repeat_kv`), which converts to a `tosa.tile` of the whole cache, every step:

    %t = tosa.tile %kv, [1, 1, g, 1, 1]  : tensor<1xKVx1xNx16> -> tensor<1xKVxgxNx16>
    %b = tosa.reshape %t                 : -> tensor<(KV*g)xNx16>
    %s = tosa.matmul %q, %b              : tensor<(KV*g)xMxN>, tensor<(KV*g)xNx16> -> ...

Batch `kv * g + j` of `%b` is batch `kv` of the cache, whatever `j`, so the `g` query heads
of a group multiply the same matrix: the product is one matmul per group with `g * M` rows,

    %b = tosa.reshape %kv                : -> tensor<KVxNx16>
    %a = tosa.reshape %q                 : -> tensor<KVx(g*M)xN>
    %s = tosa.reshape (tosa.matmul %a, %b) : -> tensor<(KV*g)xMx16>

which reads the cache once and copies nothing (and gives IREE a matrix it packs cheaply:
the tiled one cost a pathological pack dispatch per call with data tiling). `%b` may also be
the transpose `[0, 2, 1]` of the reshape (`q k^T`). The tile repeats one axis of size 1, the
reshape's batch is the product of the dims up to that axis (a batch index is `outer * g +
j`); shapes static. Each output element is the same dot product as before.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

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

from tosa_state.dialects.tosa import common as tc
from tosa_state.dialects.tosa import data_layout as tdl
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.targeted_walker import TargetedRewriteWalker, dead_or
from tosa_state.transforms.tosa_builder.values import static_shape


def _multiples(tile: tdl.TileOp) -> tuple[int, ...] | None:
    owner = tile.multiples.owner
    return owner.shape_values if isinstance(owner, tc.ConstShapeOp) else None


@dataclass(frozen=True)
class _Repeated:
    """`b` of a matmul: `reshape(tile(source))` (then transposed if `transposed`), whose
    batch `outer * groups + j` is batch `outer` of `reshape(source)`."""

    source: SSAValue
    groups: int
    transposed: bool


def _repeated(b: SSAValue) -> _Repeated | None:
    transposed = False
    if isinstance(transpose := b.owner, tdl.TransposeOp):
        if tuple(transpose.perms.get_values()) != (0, 2, 1):
            return None
        b, transposed = transpose.input1, True
    reshape, tile = b.owner, None
    if isinstance(reshape, tdl.ReshapeOp):
        tile = reshape.input1.owner
    if not isinstance(tile, tdl.TileOp):
        return None
    multiples, tiled, source = _multiples(tile), static_shape(tile.output), \
        static_shape(tile.input1)
    batch = static_shape(b)
    if multiples is None or tiled is None or source is None or batch is None:
        return None
    repeated = [axis for axis, times in enumerate(multiples) if times != 1]
    if len(repeated) != 1 or source[repeated[0]] != 1:
        return None
    axis = repeated[0]
    if math.prod(tiled[: axis + 1]) != batch[0]:
        return None  # the batch is not `outer * groups + j`
    return _Repeated(tile.input1, multiples[axis], transposed)


def _reshape(value: SSAValue, shape: tuple[int, ...], rewriter: PatternRewriter,
             before: Operation) -> SSAValue:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    new_shape = tc.ConstShapeOp(shape)
    reshape = tdl.ReshapeOp(value, new_shape, TensorType(value_type.element_type, shape))
    rewriter.insert([new_shape, reshape], InsertPoint.before(before))
    return reshape.output


class FoldTileIntoMatmul(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tt.MatMulOp, rewriter: PatternRewriter) -> None:
        a_shape, b_shape, out_shape = (static_shape(op.a), static_shape(op.b),
                                       static_shape(op.output))
        if a_shape is None or b_shape is None or out_shape is None:
            return
        repeated = _repeated(op.b)
        if repeated is None:
            return
        groups = repeated.groups
        batch, rows, depth = a_shape
        outer = batch // groups
        inner = b_shape[1:] if not repeated.transposed else (b_shape[2], b_shape[1])
        b = _reshape(repeated.source, (outer, *inner), rewriter, op)
        if repeated.transposed:
            transpose = tdl.TransposeOp(b, (0, 2, 1))
            rewriter.insert(transpose, InsertPoint.before(op))
            b = transpose.output
        a = _reshape(op.a, (outer, groups * rows, depth), rewriter, op)
        output_type = op.output.type
        assert isinstance(output_type, TensorType)
        product = tt.MatMulOp(a, b, op.a_zp, op.b_zp,
                              TensorType(output_type.element_type,
                                         (outer, groups * rows, out_shape[2])))
        rewriter.insert(product, InsertPoint.before(op))
        result = _reshape(product.output, out_shape, rewriter, op)
        rewriter.replace(op, [], [result])


@dataclass(frozen=True)
class TosaFoldTileIntoMatmulPass(ModulePass):
    """Multiplies the operand a tile repeats once per group of batches, not once per
    batch."""

    name = "tosa-fold-tile-into-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TargetedRewriteWalker(
            GreedyRewritePatternApplier([FoldTileIntoMatmul()]),
            candidate=dead_or(lambda candidate: isinstance(candidate, tt.MatMulOp)),
        ).rewrite_module(op)


__all__ = ["FoldTileIntoMatmul", "TosaFoldTileIntoMatmulPass"]
