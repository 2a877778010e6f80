"""Dynamic-shape variables in `convert-tosa-variables-to-memref`.

A `memref.global` has a static type, so a variable of a dynamic type (a KV cache
`tensor<?x2x?x16xf32>`) is a pointer global to a buffer with room to spare plus an index
global with the lengths and capacities of its dynamic dimensions (`DynamicLayout`;
docs/passes.md shows the IR). A buffer grows only along the dimensions whose length
outgrows their capacity, by doubling there.

An *append* — `tosa.variable.write @v, %all` of `%all = tosa.concat %past, %new, ...` along a
dynamic dimension — is lowered in place (`AppendInPlace`): each operand is copied into its
slot of the buffer, `%past` into the leading corner (nothing to copy when `%past` is that
corner: a copy-free read of `@v`), `%new` into the spare capacity after it. Before that,
`hoist_appends` moves such a write up to its concat (when nothing in between touches `@v`)
and gives the concat's other users a read of `@v` after the write, a view of the buffer
where copy elision allows it.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable
from dataclasses import dataclass
from functools import cache, cached_property
from typing import TypeVar

from xdsl.dialects import arith, memref, scf
from xdsl.dialects.arith import IntegerOverflowAttr
from xdsl.dialects.bufferization import ToBufferOp, ToTensorOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntegerAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    TensorType,
    UnitAttr,
    i1,
    i64,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp, SubviewOp
from xdsl.dialects.tensor import ExtractSliceOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern, op_type_rewrite_pattern
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.traits import SymbolOpInterface, SymbolTable

from tosa_state.dialects.tosa.tensor import ConcatOp
from tosa_state.dialects.tosa.variables import (
    SIZES_ATTR,
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_state.transforms.tosa_to_mlprogram import Declarations, located

SIZES_SUFFIX = "__sizes"
_Binary = TypeVar("_Binary", bound=Operation)


def sizes_global_name(name: str) -> str:
    """The global holding the lengths and capacities of `name`'s dynamic dimensions."""
    return name + SIZES_SUFFIX


@dataclass(frozen=True)
class DynamicLayout:
    """How a variable of a dynamic `tensor_type` is stored: a pointer global to a buffer
    of the variable's rank, allocated with room to spare (the *capacity*), and an index
    global `[length_0, ..., length_k-1, capacity_0, ..., capacity_k-1]` for its k dynamic
    dimensions. The value is the buffer's leading `lengths` corner."""

    tensor_type: TensorType

    # Built once per layout (`dynamic_layout` gives one per type): a type's
    # construction verifies it, a cost paid per op otherwise.
    @cached_property
    def axes(self) -> list[int]:
        return [i for i, d in enumerate(self.tensor_type.get_shape()) if d < 0]

    @cached_property
    def buffer(self) -> MemRefType:
        shape = [DYNAMIC_INDEX if d < 0 else d for d in self.tensor_type.get_shape()]
        return MemRefType(self.tensor_type.get_element_type(), shape)

    @cached_property
    def pointer(self) -> MemRefType:
        return MemRefType(self.buffer, [])

    @cached_property
    def sizes(self) -> MemRefType:
        return MemRefType(IndexType(), [2 * len(self.axes)])

    def full_sizes(self, lengths: list[SSAValue]) -> list[SSAValue | int]:
        """The sizes of every dimension: the dynamic `lengths`, the static sizes."""
        it = iter(lengths)
        return [next(it) if d < 0 else d for d in self.tensor_type.get_shape()]

    def corner(self, buffer: SSAValue, lengths: list[SSAValue]) -> SubviewOp:
        """`memref.subview` of `buffer`'s leading corner of the given dynamic `lengths`."""
        return _window(buffer, self.buffer, [0] * len(self.tensor_type.get_shape()),
                       self.full_sizes(lengths))


def _window(buffer: SSAValue, buffer_type: MemRefType, offsets: list[SSAValue | int],
            sizes: list[SSAValue | int]) -> SubviewOp:
    """`memref.subview` of `buffer` at `offsets` of `sizes`, unit strides (what
    `SubviewOp.get` builds, with `infer_result_type`'s type; both made once per pattern of
    static values)."""
    static_offsets, dynamic_offsets = _split(offsets)
    static_sizes, dynamic_sizes = _split(sizes)
    view_type = _view_type(buffer_type, static_offsets, static_sizes)
    return SubviewOp(buffer, dynamic_offsets, dynamic_sizes, [], _i64_array(static_offsets),
                     _i64_array(static_sizes), _i64_array((1,) * len(sizes)), view_type)


def _slice(value: SSAValue, offsets: list[SSAValue | int], sizes: list[SSAValue | int],
           result_type: TensorType) -> ExtractSliceOp:
    """`tensor.extract_slice` of `value`, unit strides (what `ExtractSliceOp(...)` builds,
    its static lists made once per list)."""
    static_offsets, dynamic_offsets = _split(offsets)
    static_sizes, dynamic_sizes = _split(sizes)
    return ExtractSliceOp.build(
        operands=[value, dynamic_offsets, dynamic_sizes, []], result_types=[result_type],
        properties={"static_offsets": _i64_array(static_offsets),
                    "static_sizes": _i64_array(static_sizes),
                    "static_strides": _i64_array((1,) * len(sizes))})


def _split(values: list[SSAValue | int]) -> tuple[tuple[int, ...], list[SSAValue]]:
    """The static list (`DYNAMIC_INDEX` for a value) and the dynamic values."""
    static = tuple(v if isinstance(v, int) else DYNAMIC_INDEX for v in values)
    return static, [v for v in values if not isinstance(v, int)]


@cache
def _i64_array(values: tuple[int, ...]) -> DenseArrayBase:
    return DenseArrayBase.from_list(i64, values)


@cache
def _view_type(buffer_type: MemRefType, offsets: tuple[int, ...], sizes: tuple[int, ...]
               ) -> MemRefType:
    def given(static: tuple[int, ...]) -> list[int | None]:
        return [None if v == DYNAMIC_INDEX else v for v in static]

    return SubviewOp.infer_result_type(buffer_type, given(offsets),  # type: ignore[arg-type]
                                       given(sizes), [1] * len(sizes))  # type: ignore[arg-type]


def dynamic_layout(tensor_type: TensorType | None) -> DynamicLayout | None:
    if tensor_type is None or tensor_type.has_static_shape():
        return None
    return _layout(tensor_type)


@cache
def _layout(tensor_type: TensorType) -> DynamicLayout:
    return DynamicLayout(tensor_type)


def sizes_name_taken(module: ModuleOp, name: str) -> bool:
    return SymbolTable.lookup_symbol(module, sizes_global_name(name)) is not None


def symbol_names(module: ModuleOp) -> frozenset[str]:
    """The names of the symbols `module` defines (its symbol table's keys)."""
    names = set()
    for op in module.ops:
        trait = op.get_trait(SymbolOpInterface)
        if trait is not None and (name := trait.get_sym_attr_name(op)) is not None:
            names.add(name.data)
    return frozenset(names)


@cache
def _index_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, IndexType())


def _index(value: int) -> arith.ConstantOp:
    return arith.ConstantOp(_index_attr(value))


# What the ops' builders make (operands, result types, properties), made with `create`:
# IRDL's argument processing is most of an op's construction, and the dynamic variables'
# reads and writes make thousands of these small ops in an LLM (the module is verified
# after the pipeline).
Value = SSAValue | Operation
_UGT = IntegerAttr(8, i64)
"""`arith.cmpi`'s predicate `ugt`."""
_NO_OVERFLOW = IntegerOverflowAttr(frozenset())


def _load(ref: Value, indices: list[Value]) -> memref.LoadOp:
    ref = SSAValue.get(ref)
    return memref.LoadOp.create(operands=[ref, *map(SSAValue.get, indices)],
                                result_types=[ref.type.element_type])  # type: ignore[attr-defined]


def _store(value: Value, ref: Value, indices: list[Value]) -> memref.StoreOp:
    return memref.StoreOp.create(operands=[SSAValue.get(value), SSAValue.get(ref),
                                           *map(SSAValue.get, indices)])


def _ugt(lhs: Value, rhs: Value) -> arith.CmpiOp:
    return arith.CmpiOp.create(operands=[SSAValue.get(lhs), SSAValue.get(rhs)],
                               result_types=[i1], properties={"predicate": _UGT})


def _arith(cls: type[_Binary], lhs: Value, rhs: Value) -> _Binary:
    lhs = SSAValue.get(lhs)
    overflow = {"overflowFlags": _NO_OVERFLOW} if cls in (arith.AddiOp, arith.MuliOp) else {}
    return cls.create(operands=[lhs, SSAValue.get(rhs)], result_types=[lhs.type],
                      properties=overflow)


def _select(condition: Value, yes: Value, no: Value) -> arith.SelectOp:
    yes = SSAValue.get(yes)
    return arith.SelectOp.create(
        operands=[SSAValue.get(condition), yes, SSAValue.get(no)], result_types=[yes.type])


def _dim(source: Value, index: Value) -> memref.DimOp:
    return memref.DimOp.create(operands=[SSAValue.get(source), SSAValue.get(index)],
                               result_types=[IndexType()])


def _yield(*values: Value) -> scf.YieldOp:
    return scf.YieldOp.create(operands=[SSAValue.get(v) for v in values])


def _copy(source: Value, target: Value) -> CopyOp:
    return CopyOp.create(operands=[SSAValue.get(source), SSAValue.get(target)])


class FunctionValues:
    """The index constants and the `memref.get_global`s of the dynamic variables'
    globals, made once per function, at the top of its body, for every read and write in
    it (nested regions included: the ops are pure). Made per access, they were a sixth of
    what the lowering adds to a 30-layer LLM (60 appends and 60 reads of its caches).
    Outside a function each access makes its own."""

    def __init__(self) -> None:
        self._values: dict[tuple[Block, str, object], SSAValue] = {}
        self._last: dict[Block, Operation] = {}

    def index(self, near: Operation, value: int, local: list[Operation]) -> SSAValue:
        """`arith.constant value : index` for an access `near` (or appended to `local`)."""
        return self._value(near, ("index", value), lambda: _index(value), local)

    def global_(self, near: Operation, name: str, memref_type: MemRefType,
                local: list[Operation]) -> SSAValue:
        """`memref.get_global @name` for an access `near` (or appended to `local`)."""
        return self._value(near, ("global", name), lambda: GetGlobalOp(name, memref_type),
                           local)

    def _value(self, near: Operation, key: tuple[str, object],
               build: Callable[[], Operation], local: list[Operation]) -> SSAValue:
        func = near.parent_op()
        while func is not None and not isinstance(func, FuncOp):
            func = func.parent_op()
        if func is None or not func.body.blocks:
            new = build()
            local.append(new)
            return new.results[0]
        block = func.body.blocks[0]
        found = self._values.get((block, *key))
        if found is None:
            new = located(near, build())[0]
            last = self._last.get(block)
            Rewriter.insert_op(new, InsertPoint.after(last) if last is not None
                               else InsertPoint.at_start(block))
            self._last[block] = new
            found = self._values[(block, *key)] = new.results[0]
        return found


def _any(flags: list[SSAValue], ops: list[Operation]) -> SSAValue:
    """The `arith.ori` of `flags` (ops appended to `ops`)."""
    result = flags[0]
    for flag in flags[1:]:
        either = _arith(arith.OrIOp, result, flag)
        ops.append(either)
        result = either.result
    return result


@dataclass(frozen=True)
class DynamicVariableToMemRefGlobals(RewritePattern):
    """A dynamic `tosa.variable` -> a pointer global (`memref<memref<...>>`, a buffer
    allocated by the first write) and its sizes global (all lengths and capacities 0: the
    variable starts empty)."""

    taken: dict[ModuleOp, frozenset[str]]
    """The symbol names of each module before the pass (`symbol_names`): the globals it
    adds are named after variables whose sizes name was free, so these stay the answer."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableOp, rewriter: PatternRewriter) -> None:
        layout = dynamic_layout(op.tensor_type)
        if layout is None or not isinstance(module := op.parent_op(), ModuleOp):
            return
        if module not in self.taken:
            self.taken[module] = symbol_names(module)
        if sizes_global_name(op.var_name) in self.taken[module]:
            return
        pointer = GlobalOp.build(
            properties={
                "initial_value": UnitAttr(),
                "sym_name": StringAttr(op.var_name),
                "sym_visibility": StringAttr("private"),
                "type": layout.pointer,
            },
            attributes=dict(op.attributes),
        )
        zeros = [0] * (2 * len(layout.axes))
        sizes = GlobalOp.build(
            properties={
                "initial_value": DenseIntOrFPElementsAttr.from_list(
                    TensorType(IndexType(), [len(zeros)]), zeros
                ),
                "sym_name": StringAttr(sizes_global_name(op.var_name)),
                "sym_visibility": StringAttr("private"),
                "type": layout.sizes,
            },
            attributes={SIZES_ATTR: StringAttr(op.var_name)},
        )
        rewriter.replace(op, located(op, pointer, sizes))


@dataclass(frozen=True)
class DynamicRead(RewritePattern):
    """A read of a dynamic variable -> its buffer's leading corner of the current lengths:
    copied into a fresh buffer (`subview` + `alloc` + `copy`), or, for a read that copy
    elision proved safe, the corner itself (`to_tensor` of the buffer + `extract_slice`:
    a view, no copy)."""

    declarations: Declarations
    copy_free: frozenset[VariableReadOp]
    shared: FunctionValues

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableReadOp, rewriter: PatternRewriter) -> None:
        layout = dynamic_layout(self.declarations.type_of(op, op.var_name))
        if layout is None:
            return
        ops: list[Operation] = []
        sizes = self.shared.global_(op, sizes_global_name(op.var_name), layout.sizes, ops)
        lengths = []
        for k in range(len(layout.axes)):
            lengths.append(_load(sizes, [self.shared.index(op, k, ops)]))
            ops.append(lengths[-1])
        pointer = self.shared.global_(op, op.var_name, layout.pointer, ops)
        buffer = _load(pointer, [])
        ops.append(buffer)
        if op in self.copy_free:
            whole = ToTensorOp(buffer, restrict=True)
            full = layout.full_sizes([n.res for n in lengths])
            rank = len(full)
            value = _slice(whole.results[0], [0] * rank, full, layout.tensor_type)
            rewriter.replace(op, located(op, *ops, whole, value), [value.result])
            return
        view = layout.corner(buffer.res, [n.res for n in lengths])
        fresh = AllocOp([n.res for n in lengths], [], layout.buffer)
        value = ToTensorOp(fresh, restrict=True)
        ops += [view, fresh, _copy(view, fresh)]
        rewriter.replace(op, located(op, *ops, value), [value.tensor])


@dataclass
class _Sizes:
    """The sizes global, the pointer global and the current buffer of a variable written
    by `near`, with the index constants and the sizes of operands (`dims`) the write uses;
    `ops`: the ops made for the write."""

    layout: DynamicLayout
    name: str
    ops: list[Operation]
    near: Operation
    shared: FunctionValues

    def __post_init__(self) -> None:
        self.dims: dict[tuple[SSAValue, int], SSAValue] = {}
        self.sizes = self.shared.global_(self.near, sizes_global_name(self.name),
                                         self.layout.sizes, self.ops)
        self.pointer = self.shared.global_(self.near, self.name, self.layout.pointer,
                                           self.ops)
        self.old = _load(self.pointer, [])
        self.ops.append(self.old)

    def constant(self, value: int) -> SSAValue:
        return self.shared.index(self.near, value, self.ops)

    def dim(self, source: SSAValue, axis: int) -> SSAValue:
        """`memref.dim` of `source` along `axis`, made once per write."""
        if (source, axis) not in self.dims:
            dim = _dim(source, self.constant(axis))
            self.ops.append(dim)
            self.dims[(source, axis)] = dim.result
        return self.dims[(source, axis)]

    def target(self, lengths: list[SSAValue], appended: int | None = None) -> SSAValue:
        """The buffer to write values of `lengths` into: the current one, or one grown
        along the dimensions that outgrow their capacity, to `max(length, 2 * capacity)`
        there (amortised doubling: O(log n) reallocations for a cache growing step by
        step), the others keeping their capacity. Along the dimension an append grows
        (`appended`, an index into `lengths`) to `2 * length`: the same doubling step by
        step, and room after a prefill, whose next step would otherwise regrow at once
        (copying the whole cache: a step of 2-2.5x the median after a 2048-token prefill
        of the 135M decoder); the spare room costs no memory until it is written.
        Appends ops that record the new lengths, and free the old buffer when a new one
        replaced it; they go after the copies (`finish`)."""
        k = len(self.layout.axes)
        ops = self.ops
        capacities, exceeds, had, new_caps = [], [], [], []
        grow: list[Operation] = []
        for j, length in enumerate(lengths):
            capacity = _load(self.sizes, [self.constant(k + j)])
            over = _ugt(length, capacity)
            nonzero = _ugt(capacity, self.constant(0))
            ops += [capacity, over, nonzero]
            capacities.append(capacity.res)
            exceeds.append(over.result)
            had.append(nonzero.result)
            if j == appended:  # length > capacity: twice the length is over twice it
                twice = _arith(arith.MuliOp, length, self.constant(2))
                new_cap = _select(over, twice, capacity)
                grow += [twice, new_cap]
            else:
                twice = _arith(arith.MuliOp, capacity, self.constant(2))
                doubled = _arith(arith.MaxUIOp, length, twice)
                new_cap = _select(over, doubled, capacity)
                grow += [twice, doubled, new_cap]
            new_caps.append(new_cap.result)
        self.grown = _any(exceeds, ops)
        self.had = had
        fresh = AllocOp(new_caps, [], self.layout.buffer)
        grow += [fresh]
        grow += [_store(c, self.sizes, [self.constant(k + j)])
                 for j, c in enumerate(new_caps)]
        grow += [_store(fresh, self.pointer, []), _yield(fresh)]
        target = scf.IfOp(self.grown, [self.layout.buffer], grow, [_yield(self.old)])
        ops.append(target)
        return target.results[0]

    def finish(self, lengths: list[SSAValue]) -> None:
        """Record `lengths`; free the old buffer if a new one replaced it (and it was ever
        allocated): after the copies, since the values copied may be views of it."""
        ops = self.ops
        ops += [_store(n, self.sizes, [self.constant(j)])
                for j, n in enumerate(lengths)]
        free = _arith(arith.AndIOp, self.grown, _any(self.had, ops))
        ops += [free, scf.IfOp(free, [], [memref.DeallocOp.get(self.old), _yield()])]


def _to_buffer(value: SSAValue) -> ToBufferOp:
    tensor_type = value.type
    assert isinstance(tensor_type, TensorType)
    memref_type = MemRefType(tensor_type.get_element_type(), tensor_type.get_shape())
    return ToBufferOp.build(operands=[value], result_types=[memref_type],
                            properties={"read_only": UnitAttr()})


def _dims(source: SSAValue, axes: list[int], state: _Sizes) -> list[SSAValue | int]:
    """The sizes of `source` (a memref) along `axes`: static ones as ints."""
    shape = source.type.get_shape()  # type: ignore[attr-defined]
    return [shape[axis] if shape[axis] >= 0 else state.dim(source, axis) for axis in axes]


def _as_value(size: SSAValue | int, state: _Sizes) -> SSAValue:
    return state.constant(size) if isinstance(size, int) else size


@dataclass(frozen=True)
class DynamicWrite(RewritePattern):
    """A write of a dynamic variable -> copy the value into the buffer's leading corner,
    first growing the buffer when the value does not fit (`_Sizes.target`)."""

    declarations: Declarations
    shared: FunctionValues

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableWriteOp, rewriter: PatternRewriter) -> None:
        layout = dynamic_layout(self.declarations.type_of(op, op.var_name))
        if layout is None:
            return
        source = ToBufferOp.build(
            operands=[op.input1], result_types=[layout.buffer],
            properties={"read_only": UnitAttr()},
        )
        state = _Sizes(layout, op.var_name, [source], op, self.shared)
        lengths = [state.dim(source.results[0], axis) for axis in layout.axes]
        target = state.target(lengths)
        view = layout.corner(target, lengths)
        state.ops += [view, _copy(source, view)]
        state.finish(lengths)
        rewriter.replace(op, located(op, *state.ops), [])


@dataclass(frozen=True)
class AppendInPlace(RewritePattern):
    """`tosa.variable.write @v, %all` of `%all = tosa.concat %past, %new, ...` (used only
    there) along a dynamic dimension of `@v` -> each operand copied into its slot of the
    buffer (grown first if needed): `%past` into the leading corner, which copies nothing
    when `%past` is that corner (a copy-free read), the others after it, into the spare
    capacity. Where the concat's shape rule compares a dynamic dimension the concat stays,
    on at most one row of each operand: it checks the rule and fails with its own error.
    Not applied when an operand after the first may be a view of `@v` (copying the first
    could overwrite it)."""

    declarations: Declarations
    fresh: frozenset[str]
    """The ops whose results never alias their operands (`FRESH_RESULT_OPS`)."""
    called: frozenset[str]
    """The functions some symbol reference names (their arguments may be views)."""
    shared: FunctionValues

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableWriteOp, rewriter: PatternRewriter) -> None:
        layout = dynamic_layout(self.declarations.type_of(op, op.var_name))
        concat = op.input1.owner
        if (
            layout is None
            or not isinstance(concat, ConcatOp)
            or concat.parent_block() is not op.parent_block()
            or concat.output.uses.get_length() != 1
            or concat.axis.value.data not in layout.axes
            or any(_may_view(value, op.var_name, self.fresh, self.called)
                   for value in concat.input1[1:])
        ):
            return
        axis = concat.axis.value.data
        rank = len(layout.tensor_type.get_shape())
        buffers = [_to_buffer(value) for value in concat.input1]
        sources = [b.results[0] for b in buffers]
        state = _Sizes(layout, op.var_name, list(buffers), op, self.shared)
        # The concat's shape rule, checked by the concat itself on at most one row of each
        # operand (when a dimension it compares is dynamic; else the verifier checked it).
        others = [d for d in range(rank) if d != axis]
        dims = [dict(zip(others, _dims(source, others, state), strict=True))
                for source in sources]
        check = any(not isinstance(n, int) for sizes in dims for n in sizes.values())
        if check:
            for i, (value, sizes) in enumerate(zip(concat.input1, dims, strict=True)):
                (extent,) = _dims(sources[i], [axis], state)
                row: SSAValue | int = min(extent, 1) if isinstance(extent, int) else 0
                if not isinstance(extent, int):
                    least = _arith(arith.MinUIOp, _as_value(extent, state), state.constant(1))
                    state.ops.append(least)
                    row = least.result
                shape = [(row if isinstance(row, int) else DYNAMIC_INDEX) if d == axis else n
                         for d, n in enumerate(value.type.get_shape())]
                head = _slice(value, [0] * rank,
                              [row if d == axis else sizes[d] for d in range(rank)],
                              TensorType(value.type.get_element_type(), shape))
                state.ops.append(head)
                concat.operands[i] = head.result
            for new in located(op, *state.ops):
                rewriter.insert(new, InsertPoint.before(concat))
            state.ops = []
        # The slots: along `axis` one after another, the other dimensions the first's.
        extents = [_dims(source, [axis], state)[0] for source in sources]
        total = _as_value(extents[0], state)
        offsets: list[SSAValue | int] = [0]
        for extent in extents[1:]:
            offsets.append(total)
            add = _arith(arith.AddiOp, total, _as_value(extent, state))
            state.ops.append(add)
            total = add.result
        by_axis = {**dims[0], axis: total}
        lengths = [_as_value(by_axis[a], state) for a in layout.axes]
        target = state.target(lengths, layout.axes.index(axis))
        for source, offset, extent in zip(sources, offsets, extents, strict=True):
            at: list[SSAValue | int] = [0] * rank
            at[axis] = offset
            # The slot's type matches the operand's exactly (`memref.copy` compares them):
            # its static sizes where it has them, run-time ones where it has `?` (GPT-2's
            # new keys are `[?, ?, ?, 8]` next to a `[?, 4, ?, 8]` cache).
            own = source.type.get_shape()
            sizes = [extent if d == axis else
                     own[d] if own[d] >= 0 else _as_value(by_axis[d], state)
                     for d in range(rank)]
            slot = _window(target, layout.buffer, at, sizes)
            state.ops += [slot, _copy(source, slot)]
        state.finish(lengths)
        rewriter.replace(op, located(op, *state.ops), [])
        if not check:
            rewriter.erase(concat)


def _may_view(value: SSAValue, name: str, fresh: frozenset[str], called: frozenset[str]
              ) -> bool:
    """Whether `value` may be (a view of) a read of variable `name`: conservatively, unless
    every path back ends at an op of `fresh` (it computes a new tensor), at a non-tensor
    value, at a read of another variable or at an argument of a function never called in
    the module (an input)."""
    seen: set[SSAValue] = set()
    pending = [value]
    while pending:
        current = pending.pop()
        if current in seen:
            continue
        seen.add(current)
        if isinstance(current, BlockArgument):
            func = current.owner.parent_op()
            if not isinstance(func, FuncOp) or func.sym_name.data in called:
                return True
            continue
        owner = current.owner
        assert isinstance(owner, Operation)
        if isinstance(owner, VariableReadOp):
            if owner.var_name == name:
                return True
            continue
        if owner.name in fresh or not isinstance(current.type, TensorType):
            continue
        if owner.regions:
            return True
        pending.extend(owner.operands)
    return False


def hoist_appends(module: ModuleOp, declarations: Declarations) -> None:
    """Moves each write of a dynamic variable `@v` whose value is a `tosa.concat` in the
    same block up to right after the concat, when no op in between may read or write
    `@v`; the concat's other users then take a read of `@v` placed after the write. The
    write can then append in place (`AppendInPlace`), and that read be a view."""
    touching: dict[Block, _Touching] = {}
    for write in [op for op in module.walk() if touches(type(op)) == WRITE]:
        if dynamic_layout(declarations.type_of(write, write.var_name)) is None:
            continue
        concat = write.input1.owner
        block = write.parent_block()
        if not isinstance(concat, ConcatOp) or concat.parent_block() is not block:
            continue
        assert block is not None
        if block not in touching:
            touching[block] = _Touching(block)
        if touching[block].between(concat, write, write.var_name):
            continue
        touching[block].moved.add(write.var_name)
        write.detach()
        Rewriter.insert_op(write, InsertPoint.after(concat))
        users = [use for use in concat.output.uses if use.operation is not write]
        if not users:
            continue
        read = located(write, VariableReadOp(write.var_name, concat.output.type))[0]
        Rewriter.insert_op(read, InsertPoint.after(write))
        for use in users:
            use.operation.operands[use.index] = read.results[0]


READ, WRITE, CALL, FUNCTION, OTHER = range(5)


@cache
def touches(cls: type[Operation]) -> int:
    """Which of the kinds above ops of `cls` are, for the analyses that look at every op
    of a module (asked once per class: an `isinstance` of an IRDL op class costs more
    than the rest of their question)."""
    for kind, classes in ((READ, VariableReadOp), (WRITE, VariableWriteOp), (CALL, CallOp),
                          (FUNCTION, FuncOp)):
        if issubclass(cls, classes):
            return kind
    return OTHER


class _Touching:
    """Where in a block the ops are that may read or write each variable (with their
    regions; any call may touch every variable), indexed once: asking whether one lies
    between two ops is then a binary search, not a scan of the block per write (a
    30-layer LLM has 60 writes at the end of a block of 8 000 ops). Moving a write of `@v`
    and adding a read of `@v` after it keep every other variable's answers right; a second
    write of `@v` in the block is not moved (`moved`: the index no longer says where `@v`
    is touched)."""

    def __init__(self, block: Block):
        self.moved: set[str] = set()
        self.position: dict[Operation, int] = {}
        self.at: dict[str | None, list[int]] = {}
        for index, op in enumerate(block.ops):
            self.position[op] = index
            for inner in op.walk() if op.regions else (op,):
                kind = touches(type(inner))
                if kind in (READ, WRITE):
                    self.at.setdefault(inner.var_name, []).append(index)  # type: ignore[attr-defined]
                elif kind in (CALL, FUNCTION):
                    self.at.setdefault(None, []).append(index)

    def between(self, first: Operation, last: Operation, name: str) -> bool:
        """Whether an op strictly between `first` and `last` may touch variable `name`."""
        if name in self.moved:
            return True
        low, high = self.position[first], self.position[last]
        for key in (name, None):
            found = self.at.get(key, [])
            i = bisect.bisect_right(found, low)
            if i < len(found) and found[i] < high:
                return True
        return False


__all__ = [
    "AppendInPlace",
    "DynamicLayout",
    "DynamicRead",
    "DynamicVariableToMemRefGlobals",
    "DynamicWrite",
    "FunctionValues",
    "hoist_appends",
    "sizes_global_name",
    "sizes_name_taken",
    "touches",
]
