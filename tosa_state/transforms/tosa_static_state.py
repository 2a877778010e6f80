"""`tosa-static-state`: variables that grow along one axis get a fixed capacity.

A decoder's KV cache grows by a concat of the step's new rows (OpenVINO's form):

    tosa.variable @k : tensor<?x2x?x16xf32>
    %past = ... tosa.variable.read @k ...             // reordered by beam_idx, ...
    %all = tosa.concat %past, %new {axis = 2 : i32}   // past + n rows: the attention's keys
    tosa.variable.write @k, %all

With `capacity=N` (or `max-prompt-len=P min-response-len=R`, N = P + R, as OpenVINO GenAI's
static pipeline names them) the variable holds N rows, and a variable of its own counts the
valid ones:

    tosa.variable @k : tensor<?x2xNx16xf32>
    tosa.variable @k__count {tosa_state.count_of = "k"} = dense<0.0> : tensor<1xf32>
    %count = tosa.cast (tosa.variable.read @k__count) : tensor<1xi32>
    tosa_state.check_capacity %count, %n {variable = "k", capacity = N}
    %kept = tosa.slice %past, 0, [.., N - n, ..]      // the past every reader sees
    %all = tosa.concat %kept, %new {axis = 2 : i32}   // N rows
    %stored = tosa.scatter %all, count + [0 .. n), %new   // the new rows moved to the count
    tosa.variable.write @k, %stored
    tosa.variable.write @k__count, tosa.cast(%count + n) : tensor<1xf32>

The layout is that of OpenVINO GenAI's static generate model (past `N - n` rows, attention
mask of `N`): rows `[0, count)` are the valid past, `[N - n, N)` the new rows, and a caller's
`attention_mask` of length N has ones there and zeros over the empty rows in between, so
their attention scores get the mask's minimum; positions stay `count + i` (`position_ids`),
and the causal mask the model derives from the past's length (`N - n`) admits every valid
past row and, among the new rows, the earlier ones. The stored value has the new rows at
the count (the rows past it are never read unmasked). The beam reorder of the past (a
gather on the whole buffer) and `reset_state` (the count back to 0; a cache that starts from
an init computed at run time, OpenVINO's ReadValue-with-init, starts from that init padded
to N) keep working. A call that would need more than N rows fails at the check, before any
state is written. Other dynamic dims stay as they are (`specialize-input-shapes` fixes
them).

With `rows-at-count` (the `decode` entry of `compile_model(..., static_state=...)`), a call
that adds one row reads it where it stores it: the concat's readers read
the scatter of the new row into the past at the count, and the caller's mask has the row's
column right after the valid past (`[0, count]`), not last. For one query row the causal
mask admits every key, so the attention sees the same rows; the cache is copied once per
call instead of three times (the slice, the concat, the scatter), and the stored value is
the one the attention read. Every growing variable takes this layout, or the pass fails:
new rows counted only at run time are taken as one (their reshape to one row checks it when
the module runs), a static count of more is refused (among several new rows the causal
mask needs them last, and an entry must not mix layouts).

Where the shapes give `n` where the past is computed (`new` is usually computed later, from
the positions: `n` is followed back through reshapes, transposes, elementwise ops and
matmuls to a dim known there), the check and the kept slice stand right after the past, and
every reader of the past sees the kept `N - n` rows. A model that takes no `position_ids`
computes its positions as a Range `[past, past + n)` from the past's length (a slice of
the conversion's table `[0, 1, ...)` starting at `tosa.dim` of the past): that Range
counts from the count (`- (N - n - count)`) at its uses, except where it is compared with
another computed value within a few ops (the causal mask, which stays in the layout's
indices); learned, sinusoidal and rotary positions then continue from the count.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    f32,
    i1,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import LAYER_ATTR, TosaStateError, error_at
from tosa_state.dialects.tosa.common import ConstOp, ConstShapeOp, ShapeType
from tosa_state.dialects.tosa.control_flow import IfOp
from tosa_state.dialects.tosa.data_layout import (
    ConcatOp,
    PadOp,
    ReshapeOp,
    SliceOp,
    TileOp,
    TransposeOp,
)
from tosa_state.dialects.tosa.elementwise import (
    AddOp,
    EqualOp,
    GreaterEqualOp,
    GreaterOp,
    SelectOp,
    SubOp,
)
from tosa_state.dialects.tosa.elementwise_base import TosaElementwiseOperation
from tosa_state.dialects.tosa.reduction import ReduceSumOp, ReductionOperation
from tosa_state.dialects.tosa.scatter_gather import GatherOp, ScatterOp
from tosa_state.dialects.tosa.shape import (
    AddShapeOp,
    ConcatShapeOp,
    DimOp,
    MulShapeOp,
    SubShapeOp,
)
from tosa_state.dialects.tosa.tensor import MatMulOp
from tosa_state.dialects.tosa.type_conversion import CastOp
from tosa_state.dialects.tosa.variables import (
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
    iter_declarations,
    lookup_variable,
)
from tosa_state.dialects.tosa_state import CheckCapacityOp

COUNT_ATTR = "tosa_state.count_of"
"""On a count variable: the name of the variable whose valid rows it counts."""

COUNT_TYPE = TensorType(f32, [1])
"""A count variable's type: f32, exact up to 2**24 rows, since TOSA 1.0 has variables of
f16, f32 (PRO-FP) and i8 (PRO-INT) only; the count is cast to i32 where it is used."""


class StaticStateError(TosaStateError):
    """Options that give no capacity, or a growing variable the pass cannot make static."""


@dataclass(frozen=True)
class TosaStaticStatePass(ModulePass):
    """Variables that grow by a concat along one axis get a fixed capacity plus a count of
    valid rows. `capacity=N`, or `max-prompt-len=P min-response-len=R` (N = P + R)."""

    name = "tosa-static-state"

    capacity: int | None = None
    max_prompt_len: int | None = None
    min_response_len: int | None = None
    rows_at_count: bool = False

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            capacity = static_capacity(self.capacity, self.max_prompt_len,
                                       self.min_response_len)
            make_state_static(op, capacity, self.rows_at_count)
        except TosaStateError as error:
            raise PassFailedException(str(error)) from None


def static_capacity(capacity: int | None, max_prompt_len: int | None = None,
                    min_response_len: int | None = None) -> int:
    """The capacity the options give: `capacity`, or `max_prompt_len + min_response_len`."""
    lengths = (max_prompt_len, min_response_len)
    if capacity is not None and any(n is not None for n in lengths):
        raise StaticStateError("error: tosa-static-state takes capacity=N or max-prompt-len=P "
                               "min-response-len=R, not both")
    if capacity is None:
        if any(n is None for n in lengths):
            raise StaticStateError("error: tosa-static-state needs capacity=N or "
                                   "max-prompt-len=P min-response-len=R")
        if min(lengths) < 0:  # type: ignore[type-var]
            raise StaticStateError("error: tosa-static-state's max-prompt-len and "
                                   "min-response-len must not be negative")
        capacity = max_prompt_len + min_response_len  # type: ignore[operator]
    if capacity < 1:
        raise StaticStateError(f"error: tosa-static-state's capacity must be at least 1, got "
                               f"{capacity}")
    return capacity


@dataclass
class _Growing:
    """A variable written with `concat(past, new)` along its dynamic `axis`."""

    var: VariableOp
    write: VariableWriteOp
    concat: ConcatOp
    axis: int


StaticState = int | Mapping[str, int]
"""`compile_model`'s `static_state`: a capacity, or `{"max_prompt_len": P,
"min_response_len": R}` (OpenVINO GenAI's names; or `{"capacity": N}`)."""

_OPTIONS = ("capacity", "max_prompt_len", "min_response_len")


def capacity_of(static_state: StaticState) -> int:
    """The capacity `static_state` asks for (`StaticStateError` when it asks for none)."""
    if isinstance(static_state, Mapping):
        unknown = sorted(set(static_state) - set(_OPTIONS))
        if unknown:
            raise StaticStateError(f"error: static_state has no option {unknown[0]!r} "
                                   f"(options: {', '.join(_OPTIONS)})")
        options = {name: static_state.get(name) for name in _OPTIONS}
    elif isinstance(static_state, int) and not isinstance(static_state, bool):
        options = {"capacity": static_state}
    else:
        raise StaticStateError(f"error: static_state must be a capacity (an int) or a dict of "
                               f"{', '.join(_OPTIONS)}, got {static_state!r}")
    return static_capacity(**options)


def make_state_static(module: ModuleOp, capacity: int, rows_at_count: bool = False
                      ) -> list[str]:
    """Gives every growing variable of `module` the fixed `capacity`; returns their names.
    `rows_at_count`: a call adding one row reads it at the count (see the module's
    docstring)."""
    found = list(_growing(module, capacity))
    names = {growing.var.var_name for growing in found}
    reads: dict[str, list[VariableReadOp]] = {name: [] for name in names}
    for op in module.walk():
        if isinstance(op, VariableReadOp) and op.var_name in names:
            reads[op.var_name].append(op)
    taken = {op.var_name for op in iter_declarations(module)}
    for growing in found:
        count_name = _fresh_name(taken, f"{growing.var.var_name}__count")
        _make_static(growing, capacity, reads[growing.var.var_name], count_name,
                     rows_at_count)
    return [growing.var.var_name for growing in found]


def _growing(module: ModuleOp, capacity: int) -> Iterator[_Growing]:
    writes: dict[str, list[VariableWriteOp]] = {}
    for op in module.walk():
        if isinstance(op, VariableWriteOp):
            writes.setdefault(op.var_name, []).append(op)
    for name, ops in writes.items():
        write = ops[-1]
        var = lookup_variable(write, name)
        concat = _written_concat(write)
        if var is None or concat is None:
            continue
        axis = concat.axis.value.data
        if var.shape[axis] != -1:
            continue  # a window of fixed length: nothing grows
        _check(name, ops, write, concat, axis, capacity)
        yield _Growing(var, write, concat, axis)


def _written_concat(write: VariableWriteOp) -> ConcatOp | None:
    """The concat `write` stores, directly or through the `tosa.reshape` to the variable's
    own run-time shape that a more static value gets (`1x2x?x4` into `?x2x?x4`)."""
    value = write.input1
    if isinstance(reshape := value.owner, ReshapeOp) and _rank(reshape.input1) == _rank(value):
        value = reshape.input1
    return value.owner if isinstance(value.owner, ConcatOp) else None


def _check(name: str, writes: list[VariableWriteOp], write: VariableWriteOp, concat: ConcatOp,
           axis: int, capacity: int) -> None:
    def refuse(op: Operation, why: str) -> StaticStateError:
        return StaticStateError(error_at(op, f"tosa-static-state cannot give '{name}' a "
                                         f"fixed capacity: {why}"))

    if len(writes) > 1:
        raise refuse(writes[0], "it is written more than once")
    if not isinstance(write.parent_op(), FuncOp) or concat.parent_block() is not \
            write.parent_block():
        raise refuse(write, "it is written inside a region, or by a concat in another block")
    if len(concat.input1) != 2:
        raise refuse(concat, f"it grows by a concat of {len(concat.input1)} values (past, "
                     f"new expected)")
    past, new = concat.input1
    if not _reaches_read(past, name):
        why = ("the new rows come first (it grows at the front)" if _reaches_read(new, name)
               else "the concat's first operand is not computed from its value")
        raise refuse(concat, why)
    rows = _dim(new, axis)
    if rows is not None and rows > capacity:
        raise refuse(concat, f"a call adds {rows} rows, more than the capacity {capacity}")


def _reaches_read(value: SSAValue, name: str) -> bool:
    """Whether `value` is computed from a read of variable `name` (through any ops)."""
    seen: set[SSAValue] = set()
    stack = [value]
    while stack:
        current = stack.pop()
        if current in seen:
            continue
        seen.add(current)
        owner = current.owner
        if isinstance(owner, VariableReadOp):
            if owner.var_name == name:
                return True
            continue
        if isinstance(owner, Operation):
            stack.extend(owner.operands)
            for region in owner.regions:
                for block in region.blocks:
                    if block.last_op is not None:
                        stack.extend(block.last_op.operands)
    return False


def _dim(value: SSAValue, axis: int) -> int | None:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    dim = value_type.get_shape()[axis]
    return None if dim == DYNAMIC_INDEX else dim


def _with_dim(value_type: Attribute, axis: int, size: int | None) -> TensorType:
    assert isinstance(value_type, TensorType)
    shape = list(value_type.get_shape())
    shape[axis] = DYNAMIC_INDEX if size is None else size
    return TensorType(value_type.element_type, shape)


def _make_static(growing: _Growing, capacity: int, reads: list[VariableReadOp],
                 count_name: str, rows_at_count: bool = False) -> None:
    var, axis, concat = growing.var, growing.axis, growing.concat
    name = var.var_name
    static_type = _with_dim(var.tensor_type, axis, capacity)
    _declare(var, static_type, count_name)
    flags: list[SSAValue] = []
    for op in reads:
        read = Rewriter.replace_value_with_new_type(op.results[0], static_type)
        flags += _pad_inits(read, axis, capacity)
    past, new = concat.input1
    early = _early_rows(past, new, axis)
    readers = list(past.uses)
    builder = _Builder(concat) if early is None else _Builder(early[0])
    held = builder.add(VariableReadOp(count_name, COUNT_TYPE)).results[0]
    count = builder.add(CastOp(held, TensorType(i32, [1]))).results[0]
    if len(flags) == 1:  # the init is used: nothing is held yet (after a reset of the variable)
        count = builder.counted(count, flags[0])
    rows: Size
    if (static_rows := _dim(new, axis)) is not None:  # its type says it anywhere
        rows = static_rows
    else:
        rows = builder.size(new, axis) if early is None else builder.materialize(early[1])
    if rows_at_count and not isinstance(rows, int):
        rows = 1  # what the caller feeds; the new rows' reshape to one row checks it at run time
    if rows_at_count and rows != 1:
        raise StaticStateError(error_at(concat, f"tosa-static-state cannot read the new rows of "
                                        f"'{name}' at the count (rows-at-count): a call adds "
                                        f"{rows} rows, not one"))
    check = builder.add(CheckCapacityOp(count, builder.shape([rows]), name, capacity))
    check.location = concat.location
    if LAYER_ATTR in concat.attributes:
        check.attributes[LAYER_ATTR] = concat.attributes[LAYER_ATTR]
    kept_rows: Size = capacity - rows if isinstance(rows, int) else builder.add(
        SubShapeOp(builder.shape([capacity]), rows)).results[0]
    sizes = [kept_rows if d == axis else builder.size(past, d) for d in range(_rank(past))]
    kept_type = _with_dim(past.type, axis, kept_rows if isinstance(kept_rows, int) else None)
    kept_op = builder.add(SliceOp(past, builder.shape([0] * _rank(past)), builder.shape(sizes),
                                  kept_type))
    kept = kept_op.results[0]
    if early is None:
        _replace_later_uses(past, kept, concat)
        concat.operands[0] = kept
    else:  # every reader of the past sees the kept rows, and positions continue from the count
        for use in readers:
            use.operation.operands[use.index] = kept
        _count_positions(kept, axis, count, kept_rows)
    after = _Builder(growing.write)
    if rows_at_count:  # the readers of the concat read the row at the count
        at = _Builder(concat)
        read = at.scatter(past, new, count, rows, axis, capacity, concat.output.type)
        concat.output.replace_all_uses_with(read)
        Rewriter.erase_op(concat)
        stored = read if read.type == static_type else after.add(ReshapeOp(
            read, after.shape([after.size(read, d) for d in range(_rank(read))]),
            static_type)).results[0]
        if not kept.uses:
            Rewriter.erase_op(kept_op)
    else:
        stored = after.scatter(concat.output, new, count, rows, axis, capacity, static_type)
    written = growing.write.input1.owner
    growing.write.operands[0] = stored
    if written is not concat and isinstance(written, Operation) and written.parent is not None \
            and not written.results[0].uses:
        Rewriter.erase_op(written)  # the reshape to the variable's run-time shape
    Rewriter.insert_op(VariableWriteOp(count_name, after.add_count(count, rows)),
                       InsertPoint.after(growing.write))


_Reified = int | SSAValue | tuple[SSAValue, int]
"""A size known earlier: its value, a `!tosa.shape<1>`, or dim `axis` of a tensor."""


def _early_rows(past: SSAValue, new: SSAValue, axis: int
                ) -> tuple[Operation, _Reified] | None:
    """Where the past is computed (the op after it) and the new rows' count as known there,
    when the shapes give it (`new` itself is usually computed later, from the positions)."""
    owner = past.owner
    if not isinstance(owner, Operation) or owner.next_op is None or \
            not isinstance(owner.parent_op(), FuncOp):
        return None
    block = owner.parent_block()
    assert block is not None
    order = {op: index for index, op in enumerate(block.ops)}
    limit = order[owner]

    def dominates(value: SSAValue) -> bool:
        if not isinstance(value.owner, Operation):
            return value.owner is block
        return value.owner in order and order[value.owner] <= limit

    rows = _Sizes(dominates).dim(new, axis)
    return None if rows is None else (owner.next_op, rows)


class _Sizes:
    """A tensor's dim expressed by values that `dominates` accepts, following the shapes
    from the ops that define it (reshapes, transposes, elementwise ops, matmuls...), at most
    `MAX_DEPTH` ops back (further, the check stays at the concat)."""

    MAX_DEPTH = 200

    def __init__(self, dominates):
        self.dominates = dominates
        self.failed: set[tuple[SSAValue, int]] = set()
        self.depth = 0

    def dim(self, value: SSAValue, axis: int) -> _Reified | None:
        static = _dim(value, axis)
        if static is not None:
            return static
        if self.dominates(value):
            return value, axis
        if (value, axis) in self.failed or self.depth >= self.MAX_DEPTH:
            return None
        self.depth += 1
        try:
            found = self._from_owner(value.owner, axis)
        finally:
            self.depth -= 1
        if found is None:
            self.failed.add((value, axis))
        return found

    def _from_owner(self, op: object, axis: int) -> _Reified | None:
        if isinstance(op, TransposeOp):
            return self.dim(op.input1, int(op.perms.get_values()[axis]))
        if isinstance(op, ReshapeOp):
            found = self.item(op.shape, axis)
            return self._inferred(op, axis) if found is None else found
        if isinstance(op, SliceOp):
            return self.item(op.size, axis)
        if isinstance(op, MatMulOp):
            return self.dim(op.b if axis == 2 else op.a, axis)
        if isinstance(op, GatherOp):  # [N, K, C] at [N, W]: [N, W, C]
            return self.dim(op.indices if axis == 1 else op.values, axis)
        if isinstance(op, ReductionOperation | ConcatOp) and op.axis.value.data != axis:
            return self.dim(op.operands[0], axis)
        if isinstance(op, TosaElementwiseOperation):
            rank = _rank(op.results[0])
            for operand in op.operands:
                if isinstance(operand.type, TensorType) and _rank(operand) == rank and \
                        _dim(operand, axis) != 1:
                    found = self.dim(operand, axis)
                    if found is not None:
                        return found
        return None

    def _inferred(self, reshape: ReshapeOp, axis: int) -> _Reified | None:
        """A reshape's `-1` entry at `axis`: the input's one dynamic dim, when the other
        entries multiply to the input's static dims (`[?] -> [1, -1]`)."""
        target = reshape.shape.owner
        if not isinstance(target, ConstShapeOp):
            return None
        entries = list(target.shape_values)
        dims = reshape.input1.type.get_shape()  # type: ignore[union-attr]
        dynamic = [d for d, size in enumerate(dims) if size < 0]
        others = entries[:axis] + entries[axis + 1:]
        if entries[axis] != -1 or len(dynamic) != 1 or any(e < 0 for e in others) or \
                prod(others) != prod(size for size in dims if size >= 0):
            return None
        return self.dim(reshape.input1, dynamic[0])

    def item(self, shape: SSAValue, index: int) -> _Reified | None:
        """Entry `index` of the `!tosa.shape` value `shape`."""
        op = shape.owner
        if isinstance(op, ConstShapeOp):
            value = op.shape_values[index]
            return value if value >= 0 else None
        if self.dominates(shape) and isinstance(shape.type, ShapeType) and \
                shape.type.rank == 1:
            return shape
        if isinstance(op, DimOp):
            return self.dim(op.input1, op.axis.value.data)
        if isinstance(op, ConcatShapeOp):
            for part in op.input1:
                assert isinstance(part.type, ShapeType)
                if index < part.type.rank:
                    return self.item(part, index)
                index -= part.type.rank
        if isinstance(op, SubShapeOp) and isinstance(total := op.input1.owner, AddShapeOp):
            # a Range's length, its end less its start: (start + n) - start is n
            for start, length in ((total.input1, total.input2), (total.input2, total.input1)):
                if start is op.input2:
                    return self.item(length, index)
        return None


def _count_positions(kept: SSAValue, axis: int, count: SSAValue, kept_rows: Size) -> None:
    """The Ranges of positions `[past, past + n)` that start at the kept past's length
    (`N - n` rows) count from `count` instead, except where they are compared with the keys'
    indices (the causal mask, which stays in the layout's indices)."""
    for dim_use in list(kept.uses):
        dim = dim_use.operation
        if not isinstance(dim, DimOp) or dim.axis.value.data != axis:
            continue
        for use in list(dim.results[0].uses):
            positions = use.operation
            if isinstance(positions, SliceOp) and use.index == 1 and \
                    _is_range(positions.input1):
                _shift(positions.results[0], count, kept_rows)
            elif (past := _as_tensor(positions, use.index)) is not None:
                _shift(past, count, kept_rows)


def _as_tensor(tile: Operation, index: int) -> SSAValue | None:
    """The length as a tensor where `tile` turns it into one: the sum of that many ones
    (`tosa.tile` of a constant 1, `tosa.reduce_sum`), as the conversion computes
    `cache_position = arange(n) + past`."""
    one = tile.operands[0].owner if isinstance(tile, TileOp) and index == 1 else None
    if not isinstance(one, ConstOp) or list(one.values.get_values()) != [1]:
        return None
    sums = [use.operation for use in tile.results[0].uses]
    if len(sums) != 1 or not isinstance(sums[0], ReduceSumOp):
        return None
    return sums[0].results[0]


def _is_range(value: SSAValue) -> bool:
    """Whether `value` is a constant `[0, 1, 2, ...]` (a Range's table)."""
    op = value.owner
    if not isinstance(op, ConstOp) or _rank(value) != 1:
        return False
    values = op.values.get_values()
    return all(int(v) == i for i, v in enumerate(values))


def _shift(positions: SSAValue, count: SSAValue, kept_rows: Size) -> None:
    """`positions` minus `kept_rows - count` at its uses other than the causal mask's."""
    uses = [use for use in positions.uses if not _masks(use.operation)]
    if not uses:
        return
    assert isinstance(positions.owner, Operation) and positions.owner.next_op is not None
    builder = _Builder(positions.owner.next_op)
    offset = builder.add(SubOp(builder.as_tensor(kept_rows), count)).results[0]
    element = positions.type.element_type  # type: ignore[union-attr]
    if element != i32:
        offset = builder.add(CastOp(offset, TensorType(element, [1]))).results[0]
    shifted = builder.add(SubOp(positions, offset, positions.type)).results[0]
    for use in uses:
        use.operation.operands[use.index] = shifted


def _masks(op: Operation, depth: int = 3) -> bool:
    """Whether `op`, or what it feeds within `depth` ops, compares two sets of indices (the
    causal mask's query and key indices, the keys' a constant when their count is static;
    a comparison with one value, a splat constant, is not one)."""
    if isinstance(op, EqualOp | GreaterOp | GreaterEqualOp) and \
            not any(_is_splat(v) for v in op.operands):
        return True
    return depth > 0 and any(_masks(use.operation, depth - 1)
                             for result in op.results for use in result.uses)


def _is_splat(value: SSAValue) -> bool:
    """Whether `value` is a constant of one value."""
    return isinstance(op := value.owner, ConstOp) and op.values.is_splat()


def _declare(var: VariableOp, static_type: TensorType, count_name: str) -> None:
    initial = None
    if static_type.has_static_shape():  # it started empty: zeros (a splat)
        initial = DenseIntOrFPElementsAttr.from_list(TensorType(static_type.element_type,
                                                                static_type.get_shape()), [0])
    static = VariableOp(var.var_name, static_type, initial)
    static.attributes.update(var.attributes)
    zero = DenseIntOrFPElementsAttr.from_list(COUNT_TYPE, [0.0])
    count = VariableOp(count_name, COUNT_TYPE, zero)
    count.attributes[COUNT_ATTR] = StringAttr(var.var_name)
    Rewriter.replace_op(var, [static, count])


def _fresh_name(taken: set[str], name: str) -> str:
    """`name`, or `name1`, `name2`... if taken; then taken."""
    candidate, index = name, 0
    while candidate in taken:
        index += 1
        candidate = f"{name}{index}"
    taken.add(candidate)
    return candidate


def _pad_inits(read: SSAValue, axis: int, capacity: int) -> list[SSAValue]:
    """The inits a `tosa.cond_if` chooses instead of the variable (OpenVINO's ReadValue with
    an init computed at run time) start empty along `axis`: padded to the capacity. Returns
    the conditions of those `tosa.cond_if`s (true: the variable's value is used)."""
    conditions: list[SSAValue] = []
    for use in list(read.uses):
        cond_if = use.operation
        if not isinstance(cond_if, IfOp) or use.index == 0:
            continue
        for index, init in enumerate(cond_if.input_list):
            if init is read:
                continue
            if _dim(init, axis) != 0:
                raise StaticStateError(error_at(cond_if, (
                    f"tosa-static-state cannot give '{read.owner.var_name}' a fixed "  # type: ignore[union-attr]
                    f"capacity: the init chosen instead of its value must be empty along "
                    f"axis {axis}, got {init.type}")))
            padded_type = _with_dim(init.type, axis, capacity)
            builder = _Builder(cond_if)
            padding = [0] * (2 * _rank(init))
            padding[2 * axis + 1] = capacity
            element = padded_type.element_type
            zero = DenseIntOrFPElementsAttr.from_list(TensorType(element, [1]), [0])
            pad = builder.add(PadOp(init, builder.shape(padding),
                                    builder.add(ConstOp(zero)).results[0], padded_type))
            cond_if.operands[1 + index] = pad.results[0]
            for region in cond_if.regions:
                Rewriter.replace_value_with_new_type(region.block.args[index], padded_type)
        conditions.append(cond_if.condition)
    return conditions


def _replace_later_uses(value: SSAValue, new: SSAValue, after: Operation) -> None:
    """`value`'s uses in the ops of `after`'s block that come after it (or in their
    regions) read `new` instead."""
    block = after.parent_block()
    assert block is not None
    later: set[Operation] = set()
    op = after.next_op
    while op is not None:
        later.add(op)
        op = op.next_op
    for use in list(value.uses):
        if _ancestor_in(use.operation, block) in later:
            use.operation.operands[use.index] = new


def _ancestor_in(op: Operation, block: Block) -> Operation | None:
    while op.parent_block() is not block:
        parent = op.parent_op()
        if parent is None:
            return None
        op = parent
    return op


def _rank(value: SSAValue) -> int:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.get_num_dims()


Size = int | SSAValue
"""A dimension: its value when static, else a `!tosa.shape<1>` computed at run time."""


class _Builder:
    """Inserts ops before `anchor`; static sizes are folded into constants."""

    def __init__(self, anchor: Operation):
        self.point = InsertPoint.before(anchor)

    def add(self, op: Operation) -> Operation:
        Rewriter.insert_op(op, self.point)
        return op

    def materialize(self, size: _Reified) -> Size:
        """`size` as a `Size`: dim `axis` of a tensor gets its `tosa.dim`."""
        if isinstance(size, tuple):
            return self.add(DimOp(*size)).results[0]
        return size

    def const(self, values: list[int], shape: list[int] | None = None) -> SSAValue:
        kind = TensorType(i32, shape or [len(values)])
        return self.add(ConstOp(DenseIntOrFPElementsAttr.from_list(kind, values))).results[0]

    def shape(self, sizes: list[Size]) -> SSAValue:
        """A `!tosa.shape` of `sizes`: one constant when all are static."""
        parts: list[SSAValue] = []
        run: list[int] = []
        for size in sizes:
            if isinstance(size, int):
                run.append(size)
                continue
            if run:
                parts.append(self.add(ConstShapeOp(run)).results[0])
                run = []
            parts.append(size)
        if run or not parts:
            parts.append(self.add(ConstShapeOp(run)).results[0])
        return parts[0] if len(parts) == 1 else self.add(ConcatShapeOp(parts)).results[0]

    def size(self, value: SSAValue, axis: int) -> Size:
        static = _dim(value, axis)
        return static if static is not None else self.add(DimOp(value, axis)).results[0]

    def product(self, value: SSAValue, axes: range) -> Size:
        """The product of `value`'s dims `axes`."""
        static, total = 1, None
        for axis in axes:
            size = self.size(value, axis)
            if isinstance(size, int):
                static *= size
            else:
                total = size if total is None else self.add(MulShapeOp(total, size)).results[0]
        if total is None:
            return static
        if static == 1:
            return total
        return self.add(MulShapeOp(total, self.shape([static]))).results[0]

    def counted(self, count: SSAValue, condition: SSAValue) -> SSAValue:
        """`count` where `condition` (one i1) holds, else 0."""
        flag = self.add(ReshapeOp(condition, self.shape([1]), TensorType(i1, [1]))).results[0]
        return self.add(SelectOp(flag, count, self.const([0]))).results[0]

    def as_tensor(self, rows: Size) -> SSAValue:
        """`rows` as a `tensor<1xi32>` (at run time: the sum of that many ones)."""
        if isinstance(rows, int):
            return self.const([rows])
        ones = self.add(TileOp(self.const([1]), rows, TensorType(i32, [DYNAMIC_INDEX])))
        return self.add(ReduceSumOp(ones.results[0], 0, TensorType(i32, [1]))).results[0]

    def add_count(self, count: SSAValue, rows: Size) -> SSAValue:
        """`count + rows`, as the count variable holds it."""
        total = self.add(AddOp(count, self.as_tensor(rows))).results[0]
        return self.add(CastOp(total, COUNT_TYPE)).results[0]

    def scatter(self, full: SSAValue, new: SSAValue, count: SSAValue, rows: Size,
                axis: int, capacity: int, result_type: TensorType) -> SSAValue:
        """`full` (`capacity` rows along `axis`) with rows `[count, count + rows)` set to
        `new`: a `tosa.scatter` on `[outer, capacity, inner]` views."""
        rank = _rank(full)
        outer = self.product(full, range(axis))
        inner = self.product(full, range(axis + 1, rank))
        element = result_type.element_type

        def static(size: Size) -> int:
            return size if isinstance(size, int) else DYNAMIC_INDEX

        def as3(value: SSAValue, size: Size) -> SSAValue:
            kind = TensorType(element, [static(outer), static(size), static(inner)])
            return self.add(ReshapeOp(value, self.shape([outer, size, inner]), kind)).results[0]

        values, updates = as3(full, capacity), as3(new, rows)
        if isinstance(rows, int):
            positions = self.const(list(range(rows)))
        else:
            positions = self.add(SliceOp(self.const(list(range(capacity))), self.shape([0]),
                                         rows, TensorType(i32, [DYNAMIC_INDEX]))).results[0]
        positions = self.add(AddOp(positions, count)).results[0]
        row = self.add(ReshapeOp(positions, self.shape([1, rows]),
                                 TensorType(i32, [1, static(rows)]))).results[0]
        indices = self.add(TileOp(row, self.shape([outer, 1]),
                                  TensorType(i32, [static(outer), static(rows)]))).results[0]
        stored = self.add(ScatterOp(values, indices, updates)).results[0]
        sizes = [capacity if d == axis else self.size(full, d) for d in range(rank)]
        return self.add(ReshapeOp(stored, self.shape(sizes), result_type)).results[0]


__all__ = ["COUNT_ATTR", "StaticState", "StaticStateError", "TosaStaticStatePass",
           "capacity_of", "make_state_static", "static_capacity"]

