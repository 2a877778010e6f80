"""Interpreter impls of the memref / bufferization ops our lowerings emit, on numpy.

A memref value is either a numpy array (`memref.alloc`, `bufferization.to_buffer`) or a
`GlobalRef`: the value of `memref.get_global @v`, a pointer to the global's storage. The
storage itself is the request's `VariableStore` slot of variable `v` (memref globals are
keyed by their symbol name, which is the variable's name), so `query_state()`,
`set_state` and `reset` work unchanged at this level.

Why a reference and not the state array itself: `memref.get_global` has no memory effect
(it only yields an address), so the plan folds it at compile time, once for all requests;
and `reset` / `set_state` replace a slot's array. A `GlobalRef` is resolved by every op
that dereferences it, in the request that runs it: it always reaches the current buffer.

- `memref.copy` into a `GlobalRef` writes the state in place (`VariableStore.write_in_place`):
  every alias of the buffer sees the new value, exactly as in compiled code; a copy into a
  view of a variable's buffer that overlaps its value journals the value first
  (`VariableStore.guard_view`; in a plan, a copy into a subview compares the subview's
  offsets with the value's lengths, `guard_window`: nothing for an append), so that a
  failed call is undone;
- `memref.copy` of a buffer onto itself (the same memory, shape and strides: the corner of a
  growing variable's buffer appended to in place) copies nothing;
- `memref.subview` and `tensor.extract_slice` are numpy views (no copy);
- `memref.copy` from a `GlobalRef`, and `bufferization.to_tensor` of one, read the state:
  for a never-written variable without an initial value this raises the same
  `InferenceError` as `tosa.variable.read` ("... is read before it is ever written ...").
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects import arith, memref, scf
from xdsl.dialects.bufferization import ToBufferOp, ToTensorOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IntegerAttr,
    MemRefType,
    StringAttr,
)
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.memref import AllocOp, CopyOp, DeallocOp, GetGlobalOp, GlobalOp
from xdsl.dialects.tensor import ExtractSliceOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects.tosa.variables import SIZES_ATTR
from tosa_state.dtypes import numpy_dtype
from tosa_state.interpreter.op_cache import per_op
from tosa_state.interpreter.state import VariableStore
from tosa_state.interpreter.tosa_variables import variable_store


@dataclass(frozen=True, slots=True)
class GlobalRef:
    """The memref `memref.get_global @name` yields: the storage of global `name`."""

    name: str


@per_op
def _global_ref(op: GetGlobalOp) -> GlobalRef:
    return GlobalRef(op.name_.root_reference.data)


@per_op
def _alloc_layout(op: AllocOp) -> tuple[tuple[int, ...], np.dtype]:
    """The shape (`-1` where a dynamic size operand goes) and dtype of an alloc."""
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    shape = tuple(-1 if d < 0 else d for d in memref_type.get_shape())
    return shape, numpy_dtype(memref_type.get_element_type())


@per_op
def _holds_pointer(op: memref.LoadOp | memref.StoreOp) -> bool:
    """Whether the memref accessed holds memrefs (a dynamic variable's buffer pointer)."""
    memref_type = op.memref.type
    return isinstance(memref_type, MemRefType) and isinstance(
        memref_type.get_element_type(), MemRefType
    )


@per_op
def _window_layout(op: memref.SubviewOp | ExtractSliceOp
                   ) -> tuple[list[int], list[int], list[int], list[tuple[int, int]]]:
    """The static offsets, sizes and strides (`-1` where an operand gives the value), and
    where the dynamic operands go, in their order: (column, dimension)."""
    columns = [[-1 if v == DYNAMIC_INDEX else v for v in attr.get_values()]
               for attr in (op.static_offsets, op.static_sizes, op.static_strides)]
    holes = [(c, d) for c, column in enumerate(columns) for d, v in enumerate(column) if v < 0]
    return columns[0], columns[1], columns[2], holes


def _same_memory(source: np.ndarray, target: np.ndarray) -> bool:
    """Whether `source` is `target`'s very elements (copying it there changes nothing)."""
    return (
        source.shape == target.shape
        and source.strides == target.strides
        and source.dtype == target.dtype
        and source.__array_interface__["data"][0] == target.__array_interface__["data"][0]
    )


def _filled(shape: tuple[int, ...], dynamic: PythonValues) -> tuple[int, ...]:
    it = iter(dynamic)
    return tuple(next(it) if d < 0 else d for d in shape)


@per_op
def _window_kernel(op: memref.SubviewOp | ExtractSliceOp) -> Callable[..., np.ndarray]:
    """The view of its source that a subview / extract_slice denotes, given its dynamic
    operands (the offsets, then the sizes, then the strides); the op's layout decoded once
    (a plan calls it directly)."""
    offsets, sizes, strides, holes = _window_layout(op)

    def window(source: np.ndarray, *dynamic: int) -> np.ndarray:
        columns = (offsets, sizes, strides)
        if holes:
            columns = ([*offsets], [*sizes], [*strides])
            for (c, d), value in zip(holes, dynamic, strict=True):
                columns[c][d] = value
        return source[tuple(slice(o, o + n * s, s) for o, n, s in zip(*columns, strict=True))]

    return window


def _to_tensor(store: VariableStore, buffer: GlobalRef | np.ndarray) -> np.ndarray:
    """The array a memref value denotes: a global's current buffer, or the array itself."""
    return store.read(buffer.name) if type(buffer) is GlobalRef else buffer


@per_op
def _load_kernel(op: memref.LoadOp) -> Callable[..., Any]:
    if _holds_pointer(op):
        return _to_tensor  # the buffer itself: a pointer, not a copy

    def load(store: VariableStore, ref: GlobalRef | np.ndarray, *indices: int) -> Any:
        return _to_tensor(store, ref)[indices].item()

    return load


@per_op
def _store_kernel(op: memref.StoreOp) -> Callable[..., None]:
    if _holds_pointer(op):

        def store_pointer(store: VariableStore, value: np.ndarray, ref: GlobalRef) -> None:
            store.point(ref.name, value)  # the global now points at `value`

        return store_pointer

    def store_value(store: VariableStore, value: Any, ref: GlobalRef | np.ndarray,
                    *indices: int) -> None:
        if type(ref) is GlobalRef:
            store.mutable(ref.name)[indices] = value
        else:
            store.guard_view(ref)
            ref[indices] = value

    return store_value


def _copy(store: VariableStore, source: GlobalRef | np.ndarray,
          target: GlobalRef | np.ndarray) -> None:
    source = _to_tensor(store, source)
    if type(target) is GlobalRef:
        store.write_in_place(target.name, source)
    elif not _same_memory(source, target):  # type: ignore[arg-type]
        store.guard_view(target)  # type: ignore[arg-type]
        np.copyto(target, source)


def _target_window(op: CopyOp) -> memref.SubviewOp | None:
    """The subview `op` copies into, if its target is one."""
    window = op.destination.owner
    return window if isinstance(window, memref.SubviewOp) else None


def _pointer_global(value: SSAValue) -> str | None:
    """The dynamic variable whose buffer `value` is, or a fresh one (`memref.alloc`, a buffer
    grown) that replaces it: the pointer global a `memref.load` reads, through `scf.if`
    results; `None` when it is none, or several."""
    owner = value.owner
    if isinstance(owner, memref.LoadOp) and _holds_pointer(owner) \
            and isinstance(pointer := owner.memref.owner, GetGlobalOp):
        return pointer.name_.root_reference.data
    if isinstance(owner, scf.IfOp):
        index = list(owner.results).index(value)
        names = set()
        for region in owner.regions:
            yielded = region.block.last_op
            if not isinstance(yielded, scf.YieldOp):
                return None
            source = yielded.operands[index]
            if not isinstance(source.owner, AllocOp):
                names.add(_pointer_global(source))
        return names.pop() if len(names) == 1 else None
    return None


def _access(op: Operation) -> tuple[str, int | None] | None:
    """A `memref.load` / `memref.store` of a global's element: the global and the element's
    constant index (`None`: not a constant); `None` for any other op."""
    if not isinstance(op, memref.LoadOp | memref.StoreOp) or not isinstance(
            found := op.memref.owner, GetGlobalOp):
        return None
    index = None
    if len(op.indices) == 1 and isinstance(c := op.indices[0].owner, arith.ConstantOp) \
            and isinstance(c.value, IntegerAttr):
        index = c.value.value.data
    return found.name_.root_reference.data, index


@dataclass(frozen=True)
class _Body:
    """What `_old_length` asks of a function's body, found in one pass over it: where each
    top-level op stands, the first that holds a call and the first that stores each global
    element (`(global, index)`; index `None`: not a constant), the loads of each global
    element in order, whether another function calls it, and its module's sizes globals
    (variable -> sizes global) and dynamic variables' buffer types."""

    position: dict[Operation, int]
    first_call: int
    first_store: dict[tuple[str, int | None], int]
    loads: dict[tuple[str, int | None], list[tuple[int, SSAValue]]]
    called: bool
    sizes: dict[str, str]
    buffers: dict[str, MemRefType]


@per_op
def _body(func: FuncOp) -> _Body:
    module = func.parent_op()
    assert module is not None
    position: dict[Operation, int] = {}
    first_call = len(func.body.block.ops)
    first_store: dict[tuple[str, int | None], int] = {}
    loads: dict[tuple[str, int | None], list[tuple[int, SSAValue]]] = {}
    for i, top in enumerate(func.body.block.ops):
        position[top] = i
        if isinstance(top, memref.LoadOp) and (access := _access(top)) is not None:
            loads.setdefault(access, []).append((i, top.res))
        for inner in top.walk():
            if isinstance(inner, CallOp):
                first_call = min(first_call, i)
            elif isinstance(inner, memref.StoreOp) and (access := _access(inner)) is not None:
                first_store.setdefault(access, i)
    name = func.sym_name.data
    called = any(isinstance(o, CallOp) and o.callee.root_reference.data == name
                 for o in module.walk())
    globals_ = [g for g in module.regions[0].block.ops if isinstance(g, GlobalOp)]
    sizes = {a.data: g.sym_name.data for g in globals_
             if isinstance(a := g.attributes.get(SIZES_ATTR), StringAttr)}
    buffers = {g.sym_name.data: t for g in globals_
               if isinstance(t := g.type.get_element_type(), MemRefType)}
    return _Body(position, first_call, first_store, loads, called, sizes, buffers)


@per_op
def _old_length(op: CopyOp) -> tuple[int, SSAValue] | None:
    """For a copy into a window of a dynamic variable's buffer (or of the buffer that
    replaces it) in a function's body: a dynamic offset of the window (its position among
    the window's offset operands) and the variable's length along that axis as the call
    started: a `memref.load` of its sizes global before the copy, no store to that length
    (nor any call) preceding the copy, in a function no other calls (each call of it is a
    whole call of the model; defensive: `convert-tosa-variables-to-memref` appends in
    place in no callee today). The copy is an append, and journals nothing, when the offset
    is at least that length."""
    window = _target_window(op)
    block = op.parent_block()
    func = block.parent_op() if block is not None else None
    if window is None or not isinstance(func, FuncOp) or func.parent_op() is None \
            or window.parent_block() is not block \
            or (name := _pointer_global(window.source)) is None:
        return None
    body = _body(func)
    at = body.position[op]
    sizes, buffer = body.sizes.get(name), body.buffers.get(name)
    if body.called or body.first_call < at or sizes is None or buffer is None \
            or body.first_store.get((sizes, None), at) < at:
        return None
    axes = [d for d, extent in enumerate(buffer.get_shape()) if extent < 0]
    dynamic = [d for c, d in _window_layout(window)[3] if c == 0]
    for column, axis in enumerate(dynamic):
        if axis not in axes or body.first_store.get((sizes, axes.index(axis)), at) < at:
            continue
        earlier = [res for i, res in body.loads.get((sizes, axes.index(axis)), ()) if i < at]
        if earlier:
            return column, earlier[-1]
    return None


@per_op
def _copy_into_window_kernel(op: CopyOp) -> Callable[..., None]:
    """`_copy` into a subview, told the subview's source and its dynamic offsets
    (`_plan_store_operands`): a copy into a dynamic variable's buffer asks the journal with
    the offsets (`VariableStore.guard_window`: a few comparisons) instead of comparing
    memory; with the variable's length as the call started (`_old_length`, last), an offset
    at or past it is an append and asks nothing."""
    window = _target_window(op)
    assert window is not None
    offsets, _, _, holes = _window_layout(window)
    columns = [d for c, d in holes if c == 0]  # where the dynamic offsets go
    appends = _old_length(op)

    def guard(store: VariableStore, target: np.ndarray, buffer: np.ndarray,
              dynamic: tuple[int, ...]) -> None:
        at = [*offsets]
        for axis, value in zip(columns, dynamic, strict=True):
            at[axis] = value
        store.guard_window(buffer, at, target)

    if appends is not None:
        column = appends[0]

        def copy_at_the_end(store: VariableStore, source: GlobalRef | np.ndarray,
                            target: np.ndarray, buffer: np.ndarray, *dynamic: int) -> None:
            source = _to_tensor(store, source)
            if _same_memory(source, target):
                return
            if dynamic[column] < dynamic[-1] and store.journaling:  # inside the old value
                guard(store, target, buffer, dynamic[:-1])
            np.copyto(target, source)

        return copy_at_the_end

    def copy_into_window(store: VariableStore, source: GlobalRef | np.ndarray,
                         target: np.ndarray, buffer: np.ndarray, *dynamic: int) -> None:
        source = _to_tensor(store, source)
        if _same_memory(source, target):
            return
        if store.journaling:
            guard(store, target, buffer, dynamic)
        np.copyto(target, source)

    return copy_into_window


def _plan_store_operands(op: Operation) -> tuple[Any, ...]:
    """A copy into a subview also takes the subview's source and dynamic offsets."""
    if isinstance(op, CopyOp) and (window := _target_window(op)) is not None:
        old = _old_length(op)
        return (*op.operands, window.source, *window.offsets, *(() if old is None else old[1:]))
    return tuple(op.operands)


def _plan_store_kernel(op: Operation) -> Callable[..., Any] | None:
    """The kernels of the ops that reach the request's variables: `kernel(store, *args)`,
    returning the one result (or None), called directly by a plan."""
    if isinstance(op, memref.LoadOp):
        return _load_kernel(op)
    if isinstance(op, memref.StoreOp):
        return _store_kernel(op)
    if isinstance(op, CopyOp):
        return _copy if _target_window(op) is None else _copy_into_window_kernel(op)
    if isinstance(op, ToTensorOp):
        return _to_tensor
    return None


def _plan_kernel(op: Operation) -> Callable[..., Any] | None:
    if isinstance(op, ExtractSliceOp | memref.SubviewOp):
        return _window_kernel(op)
    return None


def _plan_expression(op: Operation) -> str | None:
    """`memref.dim` and `bufferization.to_buffer` (a tensor is its buffer), inline in a
    plan."""
    if isinstance(op, memref.DimOp):
        return "{0}.shape[{1}]"
    if isinstance(op, ToBufferOp):
        return "{0}"
    return None


@register_impls
class MemRefFunctions(InterpreterFunctions):
    """`memref.get_global/alloc/copy/dealloc` and the tensor boundary of bufferization."""

    plan_expression = staticmethod(_plan_expression)
    plan_kernel = staticmethod(_plan_kernel)
    plan_store_kernel = staticmethod(_plan_store_kernel)
    plan_store_operands = staticmethod(_plan_store_operands)

    @impl(GlobalOp)
    def run_global(self, interpreter: Interpreter, op: GlobalOp, args: PythonValues):
        return ()

    @impl(GetGlobalOp)
    def run_get_global(
        self, interpreter: Interpreter, op: GetGlobalOp, args: PythonValues
    ) -> PythonValues:
        return (_global_ref(op),)

    @impl(AllocOp)
    def run_alloc(self, interpreter: Interpreter, op: AllocOp, args: PythonValues):
        shape, dtype = _alloc_layout(op)
        return (np.empty(_filled(shape, args), dtype),)

    @impl(memref.LoadOp)
    def run_load(self, interpreter: Interpreter, op: memref.LoadOp, args: PythonValues):
        return (_load_kernel(op)(variable_store(interpreter), *args),)

    @impl(memref.StoreOp)
    def run_store(self, interpreter: Interpreter, op: memref.StoreOp, args: PythonValues):
        _store_kernel(op)(variable_store(interpreter), *args)
        return ()

    @impl(memref.DimOp)
    def run_dim(self, interpreter: Interpreter, op: memref.DimOp, args: PythonValues):
        source, axis = args
        return (source.shape[axis],)

    @impl(memref.SubviewOp)
    def run_subview(self, interpreter: Interpreter, op: memref.SubviewOp, args: PythonValues):
        return (_window_kernel(op)(*args),)

    @impl(ExtractSliceOp)
    def run_extract_slice(
        self, interpreter: Interpreter, op: ExtractSliceOp, args: PythonValues
    ) -> PythonValues:
        return (_window_kernel(op)(*args),)

    @impl(DeallocOp)
    def run_dealloc(self, interpreter: Interpreter, op: DeallocOp, args: PythonValues):
        return ()

    @impl(CopyOp)
    def run_copy(self, interpreter: Interpreter, op: CopyOp, args: PythonValues):
        _copy(variable_store(interpreter), *args)
        return ()

    @impl(ToTensorOp)
    def run_to_tensor(
        self, interpreter: Interpreter, op: ToTensorOp, args: PythonValues
    ) -> PythonValues:
        return (_to_tensor(variable_store(interpreter), args[0]),)

    @impl(ToBufferOp)
    def run_to_buffer(
        self, interpreter: Interpreter, op: ToBufferOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)


