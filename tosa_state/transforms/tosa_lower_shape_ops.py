"""`tosa-lower-shape-ops`: TOSA shape values computed at run time, as `index` scalars, and
the `tosa.reshape` / `tosa.slice` they feed as `tensor` ops.

Upstream MLIR (and so IREE) lowers `tosa.reshape` / `tosa.slice` only when their shape
operands are `tosa.const_shape`; a dynamic model's `tosa.dim`, `tosa.concat_shape`,
`tosa.add_shape`, ... are not lowered at all. Here every `!tosa.shape<N>` value used by
such an op is computed as N `index` scalars (`tensor.dim`, `arith.constant`, `arith.addi`,
`subi`, `muli`, `floordivsi`, `maxsi`, `minsi`), and

- `tosa.reshape %x, %shape` becomes `tensor.reshape %x(%s)`, `%s` the shape as a
  `tensor<Nxi64>` (`tensor.from_elements`; an `index` tensor may not cross IREE's dispatch
  boundary); a `-1` entry is computed from the element count;
- `tosa.slice %x, %start, %size` becomes `tensor.extract_slice` with those offsets and
  sizes (and a `tensor.cast` to the op's type where it is more static);
- `tosa.tile` with run-time multiples, or of a dynamic input (IREE fails on a tile of a
  dynamic input even with constant multiples), becomes a `linalg.generic`: one reading
  index 0 of the repeated dims when they all have size 1 (a broadcast, as OpenVINO's
  Broadcast becomes); else, as upstream's `tosa-to-linalg` does with static shapes, a
  broadcast into `[m0, d0, m1, d1, ...]` collapsed (`tensor.collapse_shape`) to
  `[m0 * d0, m1 * d1, ...]`;
- `tosa.pad %x, %padding, %pad_const` becomes `tensor.pad` with those low / high sizes,
  yielding the element of `%pad_const`.

Ops whose shape operands are all `tosa.const_shape` are left to upstream; shape ops left
without uses are erased. A run-time shape value used by any other op is an error naming
that op.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, tensor
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AffineMapAttr,
    ArrayAttr,
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
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.tensor import ReshapeOp as TensorReshapeOp
from tosa_state.dialects.tosa.shape import (
    AddShapeOp,
    ConcatShapeOp,
    DimOp,
    DivFloorShapeOp,
    MaxShapeOp,
    MinShapeOp,
    MulShapeOp,
    SubShapeOp,
)
from tosa_state.dialects.tosa.tensor import ConstShapeOp, PadOp, ReshapeOp, SliceOp, TileOp

_BINARY: dict[type[Operation], type[Operation]] = {
    AddShapeOp: arith.AddiOp,
    SubShapeOp: arith.SubiOp,
    MulShapeOp: arith.MuliOp,
    DivFloorShapeOp: arith.FloorDivSIOp,
    MaxShapeOp: arith.MaxSIOp,
    MinShapeOp: arith.MinSIOp,
}
SHAPE_OPS = (ConstShapeOp, DimOp, ConcatShapeOp, *_BINARY)


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
        elif isinstance(op, ConcatShapeOp):
            scalars = [s for part in op.input1 for s in self.of(part, op)]
        elif type(op) in _BINARY:
            lhs, rhs = self.of(op.operands[0], op), self.of(op.operands[1], op)
            new = [_BINARY[type(op)](a, b) for a, b in zip(lhs, rhs, strict=True)]
            scalars = [o.results[0] for o in new]
        else:  # the verifiers admit no other shape values
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
    """A broadcast when every repeated dim has size 1 (`_broadcast`); else each dim `a`
    becomes the pair `[m_a, d_a]` of a broadcast (`_repeat`)."""
    source, result_type = op.input1.type, op.output.type
    assert isinstance(source, TensorType) and isinstance(result_type, TensorType)
    in_shape, out_shape = source.get_shape(), result_type.get_shape()
    factors = scalars.of(op.multiples, op)
    known = [_known(f) for f in factors]
    # a dim repeats unless its multiple is the constant 1, or the result type keeps its
    # (static) extent
    repeated = [m != 1 and not (d != DYNAMIC_INDEX and r == d)
                for m, d, r in zip(known, in_shape, out_shape, strict=True)]
    if all(d == 1 for d, rep in zip(in_shape, repeated, strict=True) if rep):
        _broadcast(op, factors, source, result_type)
    else:
        _repeat(op, factors, known, source, result_type)


def _dim_sizes(value: SSAValue, shape: tuple[int, ...], ops: list[Operation]
               ) -> list[SSAValue | None]:
    """`tensor.dim` of each dynamic dim of `value` (appended to `ops`); None for static."""
    sizes: list[SSAValue | None] = []
    for axis, d in enumerate(shape):
        if d != DYNAMIC_INDEX:
            sizes.append(None)
            continue
        ops.append(index := arith.ConstantOp(IntegerAttr(axis, IndexType())))
        ops.append(dim := tensor.DimOp(value, index.result))
        sizes.append(dim.result)
    return sizes


def _generic(source: SSAValue, reads: AffineMap, empty: tensor.EmptyOp,
             result_type: TensorType) -> linalg_ops.GenericOp:
    """`result[i...] = source[reads(i...)]` into `empty`."""
    rank = result_type.get_num_dims()
    assert isinstance(source.type, TensorType)
    body = Block(arg_types=[source.type.element_type, result_type.element_type])
    body.add_op(linalg_ops.YieldOp(body.args[0]))
    return linalg_ops.GenericOp(
        [source], [empty.tensor], Region(body),
        [AffineMapAttr(reads), AffineMapAttr(AffineMap.identity(rank))],
        [linalg_attrs.IteratorTypeAttr.parallel()] * rank, [result_type])


def _broadcast(op: TileOp, factors: list[SSAValue], source: TensorType,
               result_type: TensorType) -> None:
    """A tile that only repeats size-1 dims (a broadcast, as OpenVINO's Broadcast
    becomes): `linalg.generic` reading index 0 of those dims into a `tensor.empty` of
    the result's sizes (each input dim times its multiple)."""
    in_shape = source.get_shape()
    ops: list[Operation] = []
    dims = _dim_sizes(op.input1, in_shape, ops)
    sizes: list[SSAValue] = []
    for axis, (d, r) in enumerate(zip(in_shape, result_type.get_shape(), strict=True)):
        if r == DYNAMIC_INDEX:
            size = factors[axis] if d == 1 else dims[axis]
            assert size is not None
            sizes.append(size)
    empty = tensor.EmptyOp(sizes, result_type)
    reads = AffineMap(len(in_shape), 0, tuple(
        AffineExpr.constant(0) if d == 1 else AffineExpr.dimension(i)
        for i, d in enumerate(in_shape)))
    generic = _generic(op.input1, reads, empty, result_type)
    _insert([*ops, empty, generic], op)
    Rewriter.replace_op(op, [], [generic.results[0]])


def _repeat(op: TileOp, factors: list[SSAValue], known: list[int | None],
            source: TensorType, result_type: TensorType) -> None:
    """Any tile: the input broadcast into `[m0, d0, m1, d1, ...]` (a `linalg.generic`
    reading `(d0, d1, ...)`), collapsed to `[m0 * d0, m1 * d1, ...]`, cast to the op's
    type where that is more static."""
    in_shape = source.get_shape()
    rank = len(in_shape)
    ops: list[Operation] = []
    dims = _dim_sizes(op.input1, in_shape, ops)
    wide_shape: list[int] = []
    sizes: list[SSAValue] = []
    for axis, d in enumerate(in_shape):
        m = known[axis]
        wide_shape += [DYNAMIC_INDEX if m is None else m, d]
        if m is None:
            sizes.append(factors[axis])
        if (dim := dims[axis]) is not None:
            sizes.append(dim)
    wide_type = TensorType(result_type.element_type, wide_shape)
    empty = tensor.EmptyOp(sizes, wide_type)
    reads = AffineMap(2 * rank, 0, tuple(AffineExpr.dimension(2 * i + 1)
                                         for i in range(rank)))
    generic = _generic(op.input1, reads, empty, wide_type)
    collapsed_type = TensorType(result_type.element_type, [
        DYNAMIC_INDEX if DYNAMIC_INDEX in (m, d) else m * d
        for m, d in zip(wide_shape[::2], wide_shape[1::2], strict=True)])
    collapse = tensor.CollapseShapeOp(
        operands=[generic.results[0]], result_types=[collapsed_type],
        properties={"reassociation": ArrayAttr([
            ArrayAttr([IntegerAttr(2 * i, i64), IntegerAttr(2 * i + 1, i64)])
            for i in range(rank)])})
    ops += [empty, generic, collapse]
    result = collapse.results[0]
    if collapsed_type != result_type:
        ops.append(cast := tensor.CastOp(result, result_type))
        result = cast.results[0]
    _insert(ops, op)
    Rewriter.replace_op(op, [], [result])


def _lower_pad(op: PadOp, scalars: _Scalars) -> None:
    """`tensor.pad` with the run-time low / high sizes (constants stay static), yielding
    `pad_const`'s element; cast to the op's type where that is more static."""
    source, result_type = op.input1.type, op.output.type
    assert isinstance(source, TensorType) and isinstance(result_type, TensorType)
    padding = scalars.of(op.padding, op)
    low: list[SSAValue] = []
    high: list[SSAValue] = []
    static: tuple[list[int], list[int]] = ([], [])
    for i, scalar in enumerate(padding):
        value = _known(scalar)
        static[i % 2].append(_DYNAMIC_OFFSET if value is None else value)
        if value is None:
            (low, high)[i % 2].append(scalar)
    ops: list[Operation] = [zero := arith.ConstantOp(IntegerAttr(0, IndexType()))]
    ops.append(element := tensor.ExtractOp(op.pad_const, [zero.result],
                                          result_type.element_type))
    rank = source.get_num_dims()
    body = Block(arg_types=[IndexType()] * rank)
    body.add_op(tensor.YieldOp(element.result))
    loose = TensorType(result_type.element_type, [
        DYNAMIC_INDEX if DYNAMIC_INDEX in (d, lo, hi) or _DYNAMIC_OFFSET in (lo, hi)
        else lo + d + hi
        for d, lo, hi in zip(source.get_shape(), *static, strict=True)])
    ops.append(pad := tensor.PadOp(op.input1, low, high, Region(body), static[0], static[1],
                                   loose))
    result = pad.result
    if loose != result_type:
        ops.append(cast := tensor.CastOp(result, result_type))
        result = cast.results[0]
    _insert(ops, op)
    Rewriter.replace_op(op, [], [result])


_DYNAMIC_OFFSET = -(2**63)
"""MLIR's `ShapedType::kDynamic` in the static offset lists of `tensor.pad`."""


def _check_no_shape_uses(module: ModuleOp) -> None:
    """A run-time shape value still used (by an op this pass does not lower) is an error."""
    for op in module.walk():
        if isinstance(op, SHAPE_OPS) and not isinstance(op, ConstShapeOp):
            for use in op.results[0].uses:
                if not isinstance(use.operation, SHAPE_OPS):
                    raise PassFailedException(error_at(use.operation, (
                        f"'tosa-lower-shape-ops' cannot lower '{use.operation.name}' with a "
                        "shape operand computed at run time (reshape, slice, tile and pad "
                        "only)")))


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
    """Lowers run-time shape values and the reshapes, slices, tiles and pads they feed to
    `tensor` / `arith` / `linalg` ops."""

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
            elif isinstance(inner, PadOp) and not _constant(inner.padding):
                _lower_pad(inner, scalars)
        _erase_dead_shape_ops(op)
        _check_no_shape_uses(op)


__all__ = ["TosaLowerShapeOpsPass"]
