"""`tosa-lower-shape-ops`: TOSA shape values computed at run time, as `index` scalars, and
the `tosa.reshape` / `tosa.slice` they feed as `tensor` ops.

Upstream MLIR (and so IREE) lowers `tosa.reshape` / `tosa.slice` only when their shape
operands are `tosa.const_shape`; a dynamic model's `tosa.dim`, `tosa.concat_shape`,
`tosa.add_shape`, ... are not lowered at all. Here every `!tosa.shape<N>` value used by
such an op is computed as N `index` scalars (`tensor.dim`, `arith.constant`,
`tensor.extract` + `arith.index_cast` for `tosa.shape_from_tensor`, `arith.addi`,
`subi`, `muli`, `floordivsi`, `maxsi`, `minsi`), and

- `tosa.reshape %x, %shape` becomes `tensor.reshape %x(%s)`, `%s` the shape as a
  `tensor<Nxi64>` (`tensor.from_elements`; an `index` tensor may not cross IREE's dispatch
  boundary); a `-1` entry is computed from the element count;
- `tosa.slice %x, %start, %size` becomes `tensor.extract_slice` with those offsets and
  sizes (and a `tensor.cast` to the op's type where it is more static);
- `tosa.tile` that repeats only size-1 dims (a broadcast) with run-time multiples, or of
  a dynamic input, becomes a `linalg.generic` reading index 0 of those dims (IREE fails on
  a tile of a dynamic input even with constant multiples).

Ops whose shape operands are all `tosa.const_shape` are left to upstream; shape ops left
without uses are erased.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    i64,
)
from xdsl.dialects.linalg import attrs as linalg_attrs
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Block, Operation, Region, SSAValue
from xdsl.ir.affine import AffineExpr, AffineMap
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tensor import ReshapeOp as TensorReshapeOp
from tosa_state.dialects.tosa.shape import (
    AddShapeOp,
    ConcatShapeOp,
    DimOp,
    DivFloorShapeOp,
    MaxShapeOp,
    MinShapeOp,
    MulShapeOp,
    ShapeFromTensorOp,
    SubShapeOp,
)
from tosa_state.dialects.tosa.tensor import ConstShapeOp, ReshapeOp, SliceOp, TileOp

_BINARY: dict[type[Operation], type[Operation]] = {
    AddShapeOp: arith.AddiOp,
    SubShapeOp: arith.SubiOp,
    MulShapeOp: arith.MuliOp,
    DivFloorShapeOp: arith.FloorDivSIOp,
    MaxShapeOp: arith.MaxSIOp,
    MinShapeOp: arith.MinSIOp,
}
SHAPE_OPS = (ConstShapeOp, DimOp, ShapeFromTensorOp, ConcatShapeOp, *_BINARY)


@dataclass
class _Scalars:
    """The `index` scalars of each shape value, built once, before the op that needs them
    (all shape values of a function are computed from values defined before their use)."""

    cache: dict[SSAValue, list[SSAValue]] = field(default_factory=dict)

    def of(self, value: SSAValue, before: Operation) -> list[SSAValue]:
        if value in self.cache:
            return self.cache[value]
        op = value.owner
        new: list[Operation] = []
        if isinstance(op, ConstShapeOp):
            new = [arith.ConstantOp(IntegerAttr(v, IndexType())) for v in op.shape_values]
            scalars = [o.results[0] for o in new]
        elif isinstance(op, DimOp):
            axis = arith.ConstantOp(IntegerAttr(op.axis.value.data, IndexType()))
            dim = tensor.DimOp(op.input1, axis.result)
            new, scalars = [axis, dim], [dim.result]
        elif isinstance(op, ShapeFromTensorOp):
            length = op.input1.type.get_shape()[0]  # type: ignore[attr-defined]
            for i in range(length):
                index = arith.ConstantOp(IntegerAttr(i, IndexType()))
                extract = tensor.ExtractOp(op.input1, [index.result],
                                           op.input1.type.element_type)  # type: ignore[attr-defined]
                new += [index, extract, arith.IndexCastOp(extract.result, IndexType())]
            scalars = [o.results[0] for o in new[2::3]]
        elif isinstance(op, ConcatShapeOp):
            scalars = [s for part in op.input1 for s in self.of(part, op)]
        elif type(op) in _BINARY:
            lhs, rhs = self.of(op.operands[0], op), self.of(op.operands[1], op)
            new = [_BINARY[type(op)](a, b) for a, b in zip(lhs, rhs, strict=True)]
            scalars = [o.results[0] for o in new]
        else:
            raise NotImplementedError(f"no lowering of shape values made by '{op}'")
        anchor = op if isinstance(op, Operation) else before
        if new:
            Rewriter.insert_op(new, InsertPoint.after(anchor))
            for created in new:
                created.location = anchor.location
        self.cache[value] = scalars
        return scalars


def _constant(value: SSAValue) -> bool:
    return isinstance(value.owner, ConstShapeOp)


def _insert(ops: list[Operation], before: Operation) -> None:
    for op in ops:
        op.location = before.location
    Rewriter.insert_op(ops, InsertPoint.before(before))


def _lower_reshape(op: ReshapeOp, scalars: _Scalars) -> None:
    sizes = list(scalars.of(op.shape, op))
    values = [_known(size) for size in sizes]
    if -1 in values:
        sizes = _infer_minus_one(op, sizes, values)
    casts = [arith.IndexCastOp(s, i64) for s in sizes]
    elements = tensor.FromElementsOp(*[c.result for c in casts],
                                     result_type=TensorType(i64, [len(sizes)]))
    reshape = TensorReshapeOp(op.input1, elements.result, op.output.type)
    _insert([*casts, elements, reshape], op)
    Rewriter.replace_op(op, [], [reshape.result])


def _known(scalar: SSAValue) -> int | None:
    """The value of an `arith.constant` index scalar, else None."""
    owner = scalar.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


def _infer_minus_one(op: ReshapeOp, sizes: list[SSAValue], values: list[int | None]
                     ) -> list[SSAValue]:
    """The `-1` entry as the element count over the product of the others."""
    source = op.input1.type
    assert isinstance(source, TensorType)
    ops: list[Operation] = []
    count: SSAValue | None = None
    for axis in range(source.get_num_dims()):
        index = arith.ConstantOp(IntegerAttr(axis, IndexType()))
        dim = tensor.DimOp(op.input1, index.result)
        ops += [index, dim]
        if count is None:
            count = dim.result
        else:
            ops.append(product := arith.MuliOp(count, dim.result))
            count = product.result
    if count is None:
        ops.append(one := arith.ConstantOp(IntegerAttr(1, IndexType())))
        count = one.result
    known = count
    for size, value in zip(sizes, values, strict=True):
        if value != -1:
            ops.append(quotient := arith.DivUIOp(known, size))
            known = quotient.result
    _insert(ops, op)
    return [known if value == -1 else size for size, value in zip(sizes, values, strict=True)]


def _lower_slice(op: SliceOp, scalars: _Scalars) -> None:
    offsets, sizes = scalars.of(op.start, op), scalars.of(op.size, op)
    rank = len(offsets)
    element = op.output.type.element_type  # type: ignore[attr-defined]
    loose = TensorType(element, [DYNAMIC_INDEX] * rank)
    extract = tensor.ExtractSliceOp(op.input1, offsets, sizes, [1] * rank, loose)
    ops: list[Operation] = [extract]
    result = extract.result
    if op.output.type != loose:
        ops.append(cast := tensor.CastOp(result, op.output.type))  # type: ignore[arg-type]
        result = cast.results[0]
    _insert(ops, op)
    Rewriter.replace_op(op, [], [result])


def _lower_tile(op: TileOp, scalars: _Scalars) -> None:
    """A tile that only repeats size-1 dims (a broadcast, as OpenVINO's Broadcast becomes):
    `linalg.generic` reading index 0 of those dims into a `tensor.empty` of the result's
    sizes (each input dim times its multiple). Other tiles are left as they are."""
    source, result_type = op.input1.type, op.output.type
    assert isinstance(source, TensorType) and isinstance(result_type, TensorType)
    multiples = op.multiples.owner
    known = multiples.shape_values if isinstance(multiples, ConstShapeOp) else None
    in_shape = source.get_shape()
    if known is None and any(d != 1 for d in in_shape):
        # which dims a run-time multiple repeats is unknown unless their size is 1; dims
        # of another size must then keep their extent: the result type says so
        if any(d != 1 and d != r for d, r in zip(in_shape, result_type.get_shape(),
                                                  strict=True)):
            return
    elif known is not None and any(m != 1 and d != 1 for m, d in zip(known, in_shape,
                                                                       strict=True)):
        return
    rank = len(in_shape)
    ops: list[Operation] = []
    sizes: list[SSAValue] = []
    factors = scalars.of(op.multiples, op)
    for axis, (d, r) in enumerate(zip(in_shape, result_type.get_shape(), strict=True)):
        if r != DYNAMIC_INDEX:
            continue
        if d == 1:
            sizes.append(factors[axis])
            continue
        ops.append(index := arith.ConstantOp(IntegerAttr(axis, IndexType())))
        ops.append(dim := tensor.DimOp(op.input1, index.result))
        sizes.append(dim.result)
    empty = tensor.EmptyOp(sizes, result_type)
    body = Block(arg_types=[source.element_type, result_type.element_type])
    body.add_op(linalg_ops.YieldOp(body.args[0]))
    reads = AffineMap(rank, 0, tuple(
        AffineExpr.constant(0) if d == 1 else AffineExpr.dimension(i)
        for i, d in enumerate(in_shape)))
    generic = linalg_ops.GenericOp(
        [op.input1], [empty.tensor], Region(body),
        [AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(rank))],
        [linalg_attrs.IteratorTypeAttr.parallel()] * rank, [result_type])
    _insert([*ops, empty, generic], op)
    Rewriter.replace_op(op, [], [generic.results[0]])


def _erase_dead_shape_ops(module: ModuleOp) -> None:
    changed = True
    while changed:
        changed = False
        for op in list(module.walk()):
            if isinstance(op, SHAPE_OPS) and not op.results[0].uses:
                Rewriter.erase_op(op)
                changed = True


@dataclass(frozen=True)
class TosaLowerShapeOpsPass(ModulePass):
    """Lowers run-time shape values and the reshapes and slices they feed to `tensor` /
    `arith` ops."""

    name = "tosa-lower-shape-ops"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        scalars = _Scalars()
        for inner in list(op.walk()):
            if isinstance(inner, ReshapeOp) and not _constant(inner.shape):
                _lower_reshape(inner, scalars)
            elif isinstance(inner, SliceOp) and not (_constant(inner.start)
                                                    and _constant(inner.size)):
                _lower_slice(inner, scalars)
            elif isinstance(inner, TileOp) and not (
                    _constant(inner.multiples)
                    and inner.input1.type.has_static_shape()):  # type: ignore[attr-defined]
                _lower_tile(inner, scalars)
        _erase_dead_shape_ops(op)


__all__ = ["TosaLowerShapeOpsPass"]
