"""`tosa-grouped-matmul`: a `tosa.matmul` whose right operand is a smaller tensor tiled
along a group axis (grouped-query attention: each K/V head repeated for the query heads
that share it) multiplies the untiled tensor, the group folded into the rows.

```mlir
%r = tosa.reshape %kv, ... : (tensor<1x3x160x64xf32>, ...) -> tensor<1x3x1x160x64xf32>
%t = tosa.tile %r, [1, 1, 3, 1, 1] : ... -> tensor<1x3x3x160x64xf32>
%b = tosa.reshape %t, ... -> tensor<9x160x64xf32>
%y = tosa.matmul %a, %b, ... : (tensor<9x1x160xf32>, tensor<9x160x64xf32>, ...) -> ...
```
becomes
```mlir
%b = tosa.reshape %r, ... -> tensor<3x160x64xf32>
%a3 = tosa.reshape %a, ... -> tensor<3x3x160xf32>      // batch b*G + g, rows m -> b, g*M + m
%y3 = tosa.matmul %a3, %b, %zp, %zp -> tensor<3x3x64xf32>
%y = tosa.reshape %y3, ... -> tensor<9x1x64xf32>
```
(also through a `tosa.transpose` of the last two axes between the reshape and the matmul,
the K side of attention). Every output element is the same sum of the same products; the
repeated operand is no longer written G times over (a decode step of the
SmolLM-135M-shaped decoder wrote each KV cache three times over, per layer). Static shapes
only.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)

from tosa_state.dialects.tosa.common import ConstShapeOp
from tosa_state.dialects.tosa.data_layout import ReshapeOp, TileOp, TransposeOp
from tosa_state.dialects.tosa.tensor import MatMulOp


@dataclass(frozen=True)
class _Grouped:
    """A right operand `[B*G, R, S]` (transposed: `[B*G, S, R]`) that is `source` tiled
    G times along a unit axis after its first (batch) axes."""

    source: SSAValue
    batch: int
    groups: int
    rows: int
    columns: int
    transposed: bool
    ops: tuple[Operation, ...]
    """The reshape, tile and transpose the rewrite leaves unused (when nothing else uses
    them)."""


def _static(value: SSAValue) -> tuple[int, ...] | None:
    kind = value.type
    if not isinstance(kind, TensorType):
        return None
    shape = tuple(kind.get_shape())
    return shape if all(d >= 0 for d in shape) else None


def _grouped(value: SSAValue) -> _Grouped | None:
    ops: list[Operation] = []
    transposed = isinstance(value.owner, TransposeOp)
    if transposed:
        transpose = value.owner
        assert isinstance(transpose, TransposeOp)
        if tuple(transpose.perms.get_values()) != (0, 2, 1):
            return None
        ops.append(transpose)
        value = transpose.input1
    reshape, tile = value.owner, None
    if isinstance(reshape, ReshapeOp):
        tile = reshape.input1.owner
    if not isinstance(reshape, ReshapeOp) or not isinstance(tile, TileOp):
        return None
    multiples = tile.multiples.owner
    shape, flat = _static(tile.input1), _static(reshape.output)
    if not isinstance(multiples, ConstShapeOp) or shape is None or flat is None:
        return None
    tiled = [i for i, m in enumerate(multiples.shape_values) if m != 1]
    if len(tiled) != 1 or shape[tiled[0]] != 1 or tiled[0] == len(shape) - 1:
        return None
    axis = tiled[0]
    groups, batch = multiples.shape_values[axis], math.prod(shape[:axis])
    rows, columns = math.prod(shape[axis + 1:-1]), shape[-1]
    if flat != (batch * groups, rows, columns):
        return None
    return _Grouped(tile.input1, batch, groups, rows, columns, transposed,
                    (*ops, reshape, tile))


def _reshape(value: SSAValue, dims: Sequence[int]) -> list[Operation]:
    kind = value.type
    assert isinstance(kind, TensorType)
    shape = ConstShapeOp(list(dims))
    return [shape, ReshapeOp(value, shape, TensorType(kind.element_type, list(dims)))]


class UntileGroupedOperand(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: MatMulOp, rewriter: PatternRewriter) -> None:
        grouped = _grouped(op.b)
        a, out = _static(op.a), _static(op.output)
        if grouped is None or a is None or out is None:
            return
        batch, groups = grouped.batch, grouped.groups
        new: list[Operation] = _reshape(grouped.source,
                                        [batch, grouped.rows, grouped.columns])
        b = new[-1].results[0]
        if grouped.transposed:
            new.append(TransposeOp(b, [0, 2, 1]))
            b = new[-1].results[0]
        new += _reshape(op.a, [batch, groups * a[1], a[2]])
        product = MatMulOp(new[-1], b, op.a_zp, op.b_zp,
                           TensorType(op.output.type.element_type,
                                      [batch, groups * out[1], out[2]]))
        new += [product, *_reshape(product.output, out)]
        rewriter.replace_op(op, new, [new[-1].results[0]])
        for dead in grouped.ops:
            if all(not result.uses for result in dead.results):
                rewriter.erase_op(dead)


@dataclass(frozen=True)
class TosaGroupedMatmulPass(ModulePass):
    name = "tosa-grouped-matmul"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(UntileGroupedOperand(), apply_recursively=False).rewrite_module(op)


__all__ = ["TosaGroupedMatmulPass", "UntileGroupedOperand"]
