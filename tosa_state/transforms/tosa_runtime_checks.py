"""`tosa-runtime-checks`: what the interpreter checks at run time, as assertions a compiled
module keeps (`cf.assert`, which IREE turns into a failed call, not an out-of-bounds read).

- `tosa.gather`: every index within `[0, K)` (the values' dimension 1): a `beam_idx` out of
  range, a token beyond the vocabulary, an attention mask shorter than the cache;
- an elementwise op of several operands: each dimension that is dynamic in one of them
  equal to the others' or 1 (a run-time broadcast);
- `tosa.concat`: each dimension but the axis, when dynamic in one operand, equal in all;
- a lowered `tosa.slice` (`tensor.extract_slice`) of run-time offsets, sizes or input dims:
  its window within the input;
- a decoder step (`runtime.decoder`: `input_ids`, `attention_mask` and KV caches): before
  the last store of its caches, the mask no longer than the longest stored value (the cached
  positions and the new ones; with the Gather that refuses a shorter one, the request can
  check the positions against the mask's length before the call).

The message of each is the op's location and layer (`file:line:col: error: layer ...:`)
and what failed; device `iree` replays a failed call on the interpreter for its exact
message (`devices/iree_checks.py`). Statically known dimensions need no check.

```mlir
%g = tosa.gather %v, %i : (tensor<1x?x16xf32>, tensor<1x?xi32>) -> tensor<1x?x16xf32>
```
becomes
```mlir
%0 = tosa.reduce_min %i {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
%1 = tosa.reduce_max %i {axis = 1 : i32} : (tensor<1x?xi32>) -> tensor<1x1xi32>
%2 = arith.constant 0 : index
%3 = tensor.extract %0[%2, %2] : tensor<1x1xi32>
%4 = tensor.extract %1[%2, %2] : tensor<1x1xi32>
%5 = arith.constant 1 : index
%6 = tensor.dim %v, %5 : tensor<1x?x16xf32>
%7 = arith.index_cast %6 : index to i32
%8 = arith.constant 0 : i32
%9 = arith.cmpi sge, %3, %8 : i32
%10 = arith.cmpi slt, %4, %7 : i32
%11 = arith.andi %9, %10 : i1
cf.assert %11, "model.xml:12:3: error: layer ...: 'tosa.gather' op index out of range"
%g = tosa.gather %v, %i : ...
```
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseIntOrFPElementsAttr,
    DictionaryAttr,
    FunctionType,
    IndexType,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    UnitAttr,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tosa_state.diagnostics import describe_layer, error_at
from tosa_state.dialects.ml_program import GlobalStoreOp
from tosa_state.dialects.tensor import ReshapeOp as TensorReshapeOp
from tosa_state.dialects.tosa.common import ConstOp
from tosa_state.dialects.tosa.data_layout import ConcatOp
from tosa_state.dialects.tosa.data_layout import ReshapeOp as TosaReshapeOp
from tosa_state.dialects.tosa.elementwise import AddOp, GreaterOp, MulOp, SelectOp
from tosa_state.dialects.tosa.elementwise_base import TosaElementwiseOperation, constant_values
from tosa_state.dialects.tosa.reduction import ReduceMaxOp, ReduceSumOp
from tosa_state.dialects.tosa.scatter_gather import GatherOp
from tosa_state.dialects.tosa.tensor import ConstShapeOp
from tosa_state.dialects.tosa_state import CheckCapacityOp
from tosa_state.runtime.decoder import MASK, TIME_AXIS, decoder_inputs
from tosa_state.runtime.ports import MAX_OF, MIN_OF, input_ports
from tosa_state.runtime.variables import collect_specs
from tosa_state.transforms.tosa_static_state import StaticStateError

CHECKED = "tosa_state.checked"
"""Unit attribute on an op whose checks were inserted (each op is checked once)."""


def message(op: Operation, what: str) -> str:
    """`file:line:col: error: layer ...: 'op' op what` (as the interpreter words it)."""
    layer = describe_layer(op)
    return error_at(op, f"{layer + ': ' if layer else ''}'{op.name}' op {what}")


class _Builder:
    """Ops inserted before `op`, each at its location."""

    def __init__(self, op: Operation, rewriter: PatternRewriter):
        self.op, self.rewriter = op, rewriter

    def add(self, new: Operation) -> SSAValue:
        new.location = self.op.location
        self.rewriter.insert(new, InsertPoint.before(self.op))
        return new.results[0] if new.results else None  # type: ignore[return-value]

    def index(self, value: int) -> SSAValue:
        return self.add(arith.ConstantOp(IntegerAttr(value, IndexType())))

    def dim(self, value: SSAValue, axis: int) -> SSAValue:
        return self.add(tensor.DimOp(value, self.index(axis)))

    def all_of(self, conditions: list[SSAValue]) -> SSAValue:
        result = conditions[0]
        for condition in conditions[1:]:
            result = self.add(arith.AndIOp(result, condition))
        return result

    def check(self, conditions: list[SSAValue], what: str) -> None:
        if conditions:
            self.add(cf.AssertOp(self.all_of(conditions), message(self.op, what)))
        self.op.attributes[CHECKED] = UnitAttr()


def _shape(value: SSAValue) -> tuple[int, ...] | None:
    value_type = value.type
    if not isinstance(value_type, TensorType):
        return None
    return tuple(value_type.get_shape())


def _through_reshapes(value: SSAValue) -> SSAValue:
    while isinstance(value.owner, TosaReshapeOp | TensorReshapeOp | tensor.CastOp):
        value = value.owner.operands[0]
    return value


def _input(value: SSAValue) -> BlockArgument | None:
    value = _through_reshapes(value)
    if isinstance(value, BlockArgument) and isinstance(value.block.parent_op(), FuncOp) \
            and isinstance(value.type, TensorType) \
            and isinstance(value.type.element_type, IntegerType):
        return value
    return None


def _count(value: SSAValue) -> SSAValue | int | None:
    """`value` (one element) as a size: a constant, or `reduce_sum` of ones broadcast over
    `tensor.empty(%d)` (how a converted model counts a dynamic dim): `%d`."""
    if (constant := constant_values(value)) is not None and len(set(constant)) == 1:
        return int(constant[0])
    total = _through_reshapes(value).owner
    if not isinstance(total, ReduceSumOp) or not isinstance(
            fill := total.input.owner, linalg_ops.GenericOp) or len(fill.outputs) != 1:
        return None
    empty = fill.outputs[0].owner
    if (len(fill.inputs) == 1 and constant_values(fill.inputs[0]) in ((1,), (1.0,))
            and isinstance(empty, tensor.EmptyOp) and len(empty.dynamic_sizes) == 1
            and len(empty.tensor.type.get_shape()) == 1):
        return empty.dynamic_sizes[0]
    return None


def _wrapping(indices: SSAValue) -> tuple[SSAValue, SSAValue | int] | None:
    """`select(0 > x, x + k, x)` (a converted Gather's negative indices counted from the
    end, through reshapes): `x` and `k`."""
    select = _through_reshapes(indices).owner
    if not isinstance(select, SelectOp):
        return None
    pred, wrapped, x = select.input1.owner, select.input2.owner, select.input3
    plain = _through_reshapes(x)
    if (not isinstance(pred, GreaterOp) or set(constant_values(pred.input1) or ()) != {0}
            or _through_reshapes(pred.input2) is not plain or not isinstance(wrapped, AddOp)):
        return None
    for mine, other in ((wrapped.input1, wrapped.input2), (wrapped.input2, wrapped.input1)):
        if _through_reshapes(mine) is plain and (k := _count(other)) is not None:
            return x, k
    return None


def _wrapped(indices: SSAValue) -> tuple[BlockArgument, SSAValue | int] | None:
    """`_wrapping` of an input `x`: `x` and `k`."""
    if (wrapping := _wrapping(indices)) is not None and (x := _input(wrapping[0])) is not None:
        return x, wrapping[1]
    return None


Term = int | SSAValue | tuple[type[Operation], "Term", "Term"]
"""An `index` computed at run time: a constant, a scalar, or an arith op of two terms."""


def _index_term(value: SSAValue) -> Term:
    """An `index` scalar as a term: its value when it is a constant."""
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return value


def _op(kind: type[Operation], lhs: Term, rhs: Term) -> Term:
    """`kind(lhs, rhs)`, folded where a side is a constant that makes it trivial."""
    if isinstance(lhs, int) and isinstance(rhs, int):
        return {arith.AddiOp: lhs + rhs, arith.SubiOp: lhs - rhs}.get(kind, lhs * rhs)
    if kind is arith.MuliOp and 1 in (lhs, rhs):
        return rhs if lhs == 1 else lhs
    if kind is arith.MuliOp and 0 in (lhs, rhs):
        return 0
    if kind in (arith.AddiOp, arith.SubiOp) and rhs == 0:
        return lhs
    if kind is arith.AddiOp and lhs == 0:
        return rhs
    return (kind, lhs, rhs)


def _apart(a: SSAValue, b: SSAValue) -> bool:
    """Whether every pair of `a`'s and `b`'s elements meets in their broadcast: no axis
    along which both vary (an outer sum, as `range(n)[None, :] + range(m)[:, None]`)."""
    shape_a, shape_b = _shape(a), _shape(b)
    if shape_a is None or shape_b is None or len(shape_a) != len(shape_b):
        return False
    return all(1 in (x, y) for x, y in zip(shape_a, shape_b, strict=True))


def _slice_span(op: tensor.ExtractSliceOp) -> tuple[Term, Term] | None:
    """A slice of a constant arithmetic progression (`c0 + step * i`, a converted Range's
    table): its first and last element."""
    values = constant_values(op.source)
    if values is None or len(values) < 2 or len(_shape(op.source) or ()) != 1 \
            or op.static_strides.get_values() != (1,):
        return None
    first, step = int(values[0]), int(values[1]) - int(values[0])
    if any(int(v) != first + step * i for i, v in enumerate(values)):
        return None
    offset = op.static_offsets.get_values()[0]
    size = op.static_sizes.get_values()[0]
    start, count = (_index_term(op.offsets[0]) if offset < 0 else offset,  # < 0: dynamic
                    _index_term(op.sizes[0]) if size < 0 else size)
    low = _op(arith.AddiOp, first, _op(arith.MuliOp, step, start))
    high = _op(arith.AddiOp, first, _op(arith.MuliOp, step, _op(
        arith.SubiOp, _op(arith.AddiOp, start, count), 1)))
    return (low, high) if step >= 0 else (high, low)


def _span(value: SSAValue) -> tuple[Term, Term] | None:
    """The smallest and largest element of integer tensor `value` as terms of its dims and
    constants, when they follow from how it is made (ranges, their broadcast sums and
    products by a count: the flat indices of a mask's gather); `None` otherwise. Both are
    exact (attained, the tensor not empty), so a check of them is the check of every index."""
    value = _through_reshapes(value)
    if (point := _count(value)) is not None:  # one value for every element
        return point, point
    owner = value.owner
    if isinstance(owner, tensor.ExtractSliceOp):
        return _slice_span(owner)
    if isinstance(owner, AddOp):
        one, two = _span(owner.input1), _span(owner.input2)
        if one is None or two is None or not (
                one[0] is one[1] or two[0] is two[1] or _apart(owner.input1, owner.input2)):
            return None
        return (_op(arith.AddiOp, one[0], two[0]), _op(arith.AddiOp, one[1], two[1]))
    if isinstance(owner, MulOp) and set(constant_values(owner.shift) or ()) == {0}:
        for mine, other in ((owner.input1, owner.input2), (owner.input2, owner.input1)):
            factor = _count(other)
            if factor is None or (isinstance(factor, int) and factor < 0):
                continue  # a count is never negative
            if (span := _span(mine)) is not None:
                return (_op(arith.MuliOp, span[0], factor), _op(arith.MuliOp, span[1], factor))
    return None


def _extent(func: FuncOp, x: BlockArgument, which: str) -> SSAValue:
    """The `i32` argument that carries the smallest (`which`: `MIN_OF`) or the largest
    element of input `x`, added at the end of `func`'s arguments once."""
    block = func.body.block
    attrs = list(func.arg_attrs.data) if func.arg_attrs is not None else [
        DictionaryAttr({}) for _ in block.args]
    for arg, attr in zip(block.args, attrs, strict=True):
        if attr.data.get(which) == IntegerAttr(x.index, 64):
            return arg
    element = x.type.element_type
    arg = block.insert_arg(element, len(block.args))
    attrs.append(DictionaryAttr({which: IntegerAttr(x.index, 64)}))
    func.arg_attrs = ArrayAttr(attrs)
    func.function_type = FunctionType.from_lists(
        [*func.function_type.inputs.data, element], func.function_type.outputs.data)
    return arg


def _term(b: _Builder, term: Term) -> SSAValue:
    """`term`'s ops, inserted before the builder's op."""
    if isinstance(term, int):
        return b.index(term)
    if isinstance(term, SSAValue):
        return term
    kind, lhs, rhs = term
    return b.add(kind(_term(b, lhs), _term(b, rhs)))


def _spanned(b: _Builder, op: GatherOp, size: SSAValue) -> list[SSAValue] | None:
    """The conditions that `op`'s indices lie in `[0, K)` (`K`: `size`), from their `_span`
    (of a `_wrapping`'s `x`: in `[-K, K)`, its `k` equal to `K`), when it has one: dims
    only, nothing read back. Empty indices need nothing."""
    wrapping = _wrapping(op.indices)
    x, k = wrapping if wrapping is not None else (op.indices, None)
    if (span := _span(x)) is None:
        return None
    shape = _shape(op.indices) or ()
    if 0 in shape:
        return []
    low, high = _term(b, span[0]), _term(b, span[1])
    floor = b.index(0) if k is None else b.add(arith.SubiOp(b.index(0), size))
    conditions = [b.add(arith.CmpiOp(low, floor, "sge")), b.add(arith.CmpiOp(high, size, "slt"))]
    if k is not None:
        conditions.append(b.add(arith.CmpiOp(size, _term(b, k), "eq")))
    checked = b.all_of(conditions)
    for axis in (axis for axis, extent in enumerate(shape) if extent < 0):
        # no index to check when the indices are empty
        empty = b.add(arith.CmpiOp(b.dim(op.indices, axis), b.index(0), "eq"))
        checked = b.add(arith.OrIOp(empty, checked))
    return [checked]


@dataclass
class CheckGatherIndices(RewritePattern):
    """Indices in `[0, K)`: with `extents`, from the smallest and largest element, which the
    caller passes when the indices are an input (or a converted Gather's wrapping of one:
    then in `[-K, K)`, its `k` equal to `K`); from their `_span` when they are made of
    ranges (dims only); else from a reduction read back."""

    extents: bool = False

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: GatherOp, rewriter: PatternRewriter) -> None:
        indices_type = op.indices.type
        if (CHECKED in op.attributes or not isinstance(indices_type, TensorType)
                or not isinstance(element := indices_type.element_type, IntegerType)
                or len(indices_type.get_shape()) != 2):
            return
        b = _Builder(op, rewriter)
        size = b.dim(op.values, 1)
        func = op.parent_op()
        passed = self.extents and isinstance(func, FuncOp)
        source = _input(op.indices) if passed else None
        wrapped = _wrapped(op.indices) if passed and source is None else None
        if source is None and wrapped is None:
            checked = _spanned(b, op, size)
            if checked is None:
                size_i = b.add(arith.IndexCastOp(size, element))
                high = self._reduced(b, op, element, indices_type.get_shape()[0])
                checked = [b.add(arith.CmpiOp(high, size_i, "slt"))]
            b.check(checked, "index out of range")
            return
        size_i = b.add(arith.IndexCastOp(size, element))
        x = source if source is not None else wrapped[0]  # type: ignore[index]
        low, high = _extent(func, x, MIN_OF), _extent(func, x, MAX_OF)  # type: ignore[arg-type]
        floor = b.add(arith.ConstantOp(IntegerAttr(0, element)))
        conditions = []
        if wrapped is not None:
            k = wrapped[1]
            floor = b.add(arith.SubiOp(floor, size_i))
            conditions.append(b.add(arith.CmpiOp(size, b.index(k) if isinstance(k, int) else k,
                                                 "eq")))
        b.check([b.add(arith.CmpiOp(low, floor, "sge")), b.add(arith.CmpiOp(high, size_i, "slt")),
                 *conditions], "index out of range")

    @staticmethod
    def _reduced(b: _Builder, op: GatherOp, element: IntegerType, batch: int) -> SSAValue:
        """The largest index read back, a negative one counted as the largest integer: one
        reduction (the select fuses into it), one read."""
        corner = TensorType(element, [1, 1])
        zero, largest = (b.add(ConstOp(DenseIntOrFPElementsAttr.from_list(corner, [v])))
                         for v in (0, (1 << (element.width.data - 1)) - 1))
        negative = b.add(GreaterOp(zero, op.indices))
        value = b.add(SelectOp(negative, largest, op.indices, op.indices.type))
        value = b.add(ReduceMaxOp(value, 1, TensorType(element, [batch, 1])))
        if batch != 1:
            value = b.add(ReduceMaxOp(value, 0, corner))
        index = b.index(0)
        return b.add(tensor.ExtractOp(value, [index, index], element))


def _agree(b: _Builder, values: list[SSAValue], axis: int, ones: bool) -> list[SSAValue]:
    """Conditions that `values` have equal sizes along `axis` (or 1, when `ones`) where one
    of them is dynamic there."""
    shapes = [_shape(v) for v in values]
    if any(s is None or len(s) <= axis for s in shapes):
        return []
    if all(s[axis] >= 0 for s in shapes):  # type: ignore[index]
        return []  # static: the verifier checked them
    dims = [b.dim(v, axis) for v in values]
    one = b.index(1) if ones else None
    conditions = []
    for i in range(1, len(dims)):
        same = b.add(arith.CmpiOp(dims[0], dims[i], "eq"))
        if one is not None:
            either = b.add(arith.OrIOp(b.add(arith.CmpiOp(dims[0], one, "eq")),
                                       b.add(arith.CmpiOp(dims[i], one, "eq"))))
            same = b.add(arith.OrIOp(same, either))
        conditions.append(same)
    return conditions


class CheckBroadcast(RewritePattern):
    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, TosaElementwiseOperation) or CHECKED in op.attributes:
            return
        result = _shape(op.results[0]) if len(op.results) == 1 else None
        if result is None:
            return
        rank = len(result)  # operands of another rank: a `tosa.mul`'s shift
        operands = [v for v in op.operands if (s := _shape(v)) is not None and len(s) == rank]
        if len(operands) < 2 or all(d >= 0 for v in operands for d in _shape(v)):  # type: ignore[union-attr]
            return
        b = _Builder(op, rewriter)
        conditions = []
        for axis in range(rank):
            # operands of static size 1 there broadcast: only the others must agree
            along = [v for v in operands if _shape(v)[axis] != 1]  # type: ignore[index]
            if len(along) > 1:
                conditions += _agree(b, along, axis, ones=True)
        b.check(conditions, "operands do not broadcast to one shape")


class CheckConcat(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: ConcatOp, rewriter: PatternRewriter) -> None:
        values = list(op.input1)
        if CHECKED in op.attributes or len(values) < 2:
            return
        shape = _shape(values[0])
        if shape is None:
            return
        b = _Builder(op, rewriter)
        axis = op.axis.value.data
        conditions = []
        for d in range(len(shape)):
            if d != axis:
                conditions += _agree(b, values, d, ones=False)
        b.check(conditions, "inputs differ in a dimension other than the axis")


class CheckSlice(RewritePattern):
    """A lowered `tosa.slice` (`tensor.extract_slice`) within its input where its offsets,
    sizes or the input's dims are known only at run time: `0 <= offset`, `0 <= size` and
    `offset + size <= dim` (a Range's positions past `RANGE_CAPACITY`, say)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tensor.ExtractSliceOp, rewriter: PatternRewriter) -> None:
        shape = _shape(op.source)
        strides = op.static_strides.get_values()
        if CHECKED in op.attributes or shape is None or any(s != 1 for s in strides):
            return
        offsets, sizes = op.static_offsets.get_values(), op.static_sizes.get_values()
        b = _Builder(op, rewriter)
        dynamic_offsets, dynamic_sizes = iter(op.offsets), iter(op.sizes)
        conditions = []
        for axis, (offset, size, extent) in enumerate(zip(offsets, sizes, shape, strict=True)):
            start = next(dynamic_offsets) if offset < 0 else None  # < 0: dynamic
            count = next(dynamic_sizes) if size < 0 else None
            if start is None and count is None and extent >= 0:
                continue  # static: the verifier checked it
            conditions += [b.add(arith.CmpiOp(v, b.index(0), "sge"))
                           for v in (start, count) if v is not None]
            start = b.index(offset) if start is None else start
            count = b.index(size) if count is None else count
            end = b.index(extent) if extent >= 0 else b.dim(op.source, axis)
            conditions.append(b.add(arith.CmpiOp(b.add(arith.AddiOp(start, count)), end, "sle")))
        b.check(conditions, "window out of bounds of its input")


class CheckCapacity(RewritePattern):
    """`tosa_state.check_capacity` (tosa-static-state's guard, which upstream cannot read)
    as an assertion: `0 <= count` and `count + rows <= capacity`; the rows a
    `tosa.const_shape` (a static call: run-time rows are refused)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: CheckCapacityOp, rewriter: PatternRewriter) -> None:
        rows = op.rows.owner
        if not isinstance(rows, ConstShapeOp):
            raise StaticStateError(message(op, "adds a number of rows known only at run time; "
                                           "give the calls static shapes (input_shapes)"))
        b = _Builder(op, rewriter)
        zero = b.index(0)
        count = b.add(tensor.ExtractOp(op.count, [zero], i32))
        total = b.add(arith.AddiOp(count, b.add(arith.ConstantOp(
            IntegerAttr(rows.shape_values[0], i32)))))
        capacity = b.add(arith.ConstantOp(IntegerAttr(op.capacity.value.data, i32)))
        floor = b.add(arith.ConstantOp(IntegerAttr(0, i32)))
        b.check([b.add(arith.CmpiOp(count, floor, "sge")),
                 b.add(arith.CmpiOp(total, capacity, "sle"))],
                f"variable '{op.variable.data}' would pass its static capacity of "
                f"{op.capacity.value.data} rows")
        rewriter.erase(op)


def _layer_message(reader: Operation | None, what: str) -> str:
    layer = describe_layer(reader) if reader is not None else None
    return error_at(reader, f"{layer}: {what}" if layer else what)


def check_decoder_inputs(module: ModuleOp) -> None:
    """Before the last store of a decoder's KV caches: its mask no longer than the longest
    stored value along time (device `iree` checks the positions against the mask before the
    call: no read-back)."""
    specs = collect_specs(module)
    for func in module.body.block.ops:
        if not isinstance(func, FuncOp) or not func.body.blocks:
            continue
        decoder = decoder_inputs(func, input_ports(func), specs)
        stores = [op for op in func.body.block.ops if isinstance(op, GlobalStoreOp)
                  and decoder is not None and op.global_name in decoder.caches]
        if decoder is None or not stores:
            continue
        b = _Builder(stores[-1], PatternRewriter(stores[-1]))
        args = func.body.block.args
        end = b.dim(stores[0].value, TIME_AXIS)
        for store in stores[1:]:  # the longest (a sliding window may keep fewer)
            end = b.add(arith.MaxUIOp(end, b.dim(store.value, TIME_AXIS)))
        mask = b.dim(args[decoder.mask], 1)
        b.add(cf.AssertOp(b.add(arith.CmpiOp(mask, end, "ule")), _layer_message(
            decoder.mask_reader, f"input '{MASK}' is longer than the state holds with the "
            "new tokens")))


@dataclass(frozen=True)
class TosaRuntimeChecksPass(ModulePass):
    """Asserts, before each gather, broadcast and concat, what the interpreter checks when it
    runs them; a static state's capacity check becomes an assertion too. `extents`: a
    gather of an input checks the input's smallest and largest element, which the caller
    passes (the entry's signature changes); otherwise it reads them back."""

    name = "tosa-runtime-checks"

    extents: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(
            GreedyRewritePatternApplier([CheckGatherIndices(self.extents), CheckBroadcast(),
                                         CheckConcat(), CheckSlice(), CheckCapacity()]),
            apply_recursively=False,
        ).rewrite_module(op)
        for inner in op.walk():
            inner.attributes.pop(CHECKED, None)
        check_decoder_inputs(op)


__all__ = ["CHECKED", "TosaRuntimeChecksPass", "message"]
