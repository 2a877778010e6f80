"""`convert-tosa-variables-to-memref`: TOSA variables to mutable `memref.global`s.

```mlir
tosa.variable @v = dense<0.0> : tensor<2xf32>
tosa.variable @w : tensor<2xf32>
%0 = tosa.variable.read @v : tensor<2xf32>
tosa.variable.write @v, %x : tensor<2xf32>
```
becomes (xDSL prints `memref.global` and `memref.copy` in generic form)
```mlir
memref.global "private" @v : memref<2xf32> = dense<0.0>
memref.global "private" @w : memref<2xf32> = uninitialized
%g = memref.get_global @v : memref<2xf32>                 // a read: copy the state into
%b = memref.alloc() : memref<2xf32>                       // a fresh buffer, so that a
memref.copy %g, %b : memref<2xf32> to memref<2xf32>       // later write does not change
%0 = bufferization.to_tensor %b restrict : memref<2xf32> to tensor<2xf32>   // the value
%m = bufferization.to_buffer %x read_only : tensor<2xf32> to memref<2xf32>  // a write:
%h = memref.get_global @v : memref<2xf32>                 // copy the value into the
memref.copy %m, %h : memref<2xf32> to memref<2xf32>       // global's storage
```

A read's copy is left out (`%0 = bufferization.to_tensor %g restrict`) when that is
provably safe; `CopyElision` states the rule. `elide-copies=false` keeps every copy.

A variable of a dynamic shape (a `memref.global` must be static) becomes a pointer global
to a buffer with room to spare plus an index global with the lengths and capacities of
its dynamic dimensions, grown by doubling along the dimensions that outgrow it; a write of
a concat of its value with new rows appends them in place (`memref_dynamic_variables`;
docs/passes.md shows the IR).

Legacy in-function declarations are hoisted first (`tosa-hoist-variables`). Afterwards no
`tosa.variable*` op is left (the pass fails with a diagnostic at the first op left).
Every other op is left untouched.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.bufferization import ToBufferOp, ToTensorOp
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    MemRefType,
    ModuleOp,
    StringAttr,
    SymbolRefAttr,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.func import CallOp, FuncOp, ReturnOp
from xdsl.dialects.memref import AllocOp, CopyOp, GetGlobalOp, GlobalOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.traits import SymbolTable

from tosa_state.dialects.tosa.control_flow import WhileOp
from tosa_state.dialects.tosa.elementwise import ELEMENTWISE_OPS
from tosa_state.dialects.tosa.variables import (
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_state.transforms.memref_dynamic_variables import (
    CALL,
    WRITE,
    AppendInPlace,
    DynamicRead,
    DynamicVariableToMemRefGlobals,
    DynamicWrite,
    FunctionValues,
    dynamic_layout,
    hoist_appends,
    sizes_global_name,
    sizes_name_taken,
    touches,
)
from tosa_state.transforms.targeted_walker import rewrite_each
from tosa_state.transforms.tosa_hoist_variables import hoist_variables
from tosa_state.transforms.tosa_to_mlprogram import (
    AnyVariableOp,
    Declarations,
    default_reason,
    fail_on_leftover_variables,
    located,
)

# -- which reads need no copy --------------------------------------------------------

FRESH_RESULT_OPS: frozenset[str] = frozenset(
    [op.name for op in ELEMENTWISE_OPS]
    + [
        "tosa.matmul",
        "tosa.argmax",
        "tosa.reduce_all",
        "tosa.reduce_any",
        "tosa.reduce_max",
        "tosa.reduce_min",
        "tosa.reduce_product",
        "tosa.reduce_sum",
        "tosa.tile",
        "tosa.pad",
        "tosa.concat",
    ]
)
"""Ops whose results never alias their operands: they compute new tensors (once
bufferized, and in the interpreter). Any other op (`tosa.reshape`, `tosa.slice`,
`tosa.identity`, `tosa.cond_if`, `func.call`, `tosa.gather` — the interpreter's gather of
one row, or by identity indices, is a view —, ...) may return a view of an operand. A
result that is not a tensor (a `!tosa.shape`) is never a view."""


SHAPE_READERS: frozenset[str] = frozenset(["tosa.dim"])
"""Ops that read only the shape of their operand (which a later write of the variable does
not change: a view keeps its shape), not its elements."""


class CopyElision:
    """Decides which `tosa.variable.read`s may alias the global instead of copying it.

    The lowered read `to_tensor`s the global's storage itself, which later writes change
    in place; so a read `R` of `@v` is lowered without a copy only when all of these hold:

    1. `R` stands directly in a block of a `func.func` body (not inside another op's
       region);
    2. the *derived values* of `R` are its result and, transitively, the results of
       every op of that block that uses a derived value (directly or inside its
       regions) and may return a view of it — every op not in `FRESH_RESULT_OPS`, e.g.
       a reshape, or a call that returns its argument; of a `tosa.while_loop` taking a
       derived value as an initial value, the results its body may carry a view of it
       into (`_loop_views`). Every use of a derived value is
       in `R`'s block; let `L` be the last op using one. No op after `R` up to
       `L` may write `@v` — `L` itself excepted if it is a `tosa.variable.write` (it
       reads its operand before writing). An op may write `@v` if it is
       `tosa.variable.write @v`, a `func.call` of a function that may write `@v`
       (transitively; a callee that is unknown or only declared may write anything),
       or an op with regions containing one of these;
    3. if a derived value is returned by `func.return`, no symbol reference in the module
       names the function (it has no caller in the module that could write `@v` while
       the value is alive; the runtime copies the results of the function it calls);
    4. `R` is the first read of `@v` in its function that satisfies 1-3, so that each
       `to_tensor ... restrict` of a global is the only tensor view of it there; for a
       variable of a dynamic type (`dynamic`), whose copy-free reads are each a slice of
       the buffer, the first in its block whose derived values are all used after those
       of the copy-free reads before it.
    """

    def __init__(self, root: ModuleOp, dynamic: frozenset[str] = frozenset(),
                 referenced: set[str] | frozenset[str] | None = None):
        self._dynamic = dynamic
        self._callees: dict[CallOp, FuncOp | None] = {}
        self._writes = self._summarise(root)
        self._referenced = _referenced_symbols(root) if referenced is None else referenced
        self.copy_free: frozenset[VariableReadOp] = frozenset(self._find(root))

    # Which variables each function may write, transitively (`None`: any variable).
    def _summarise(self, root: ModuleOp) -> dict[FuncOp, set[str] | None]:
        funcs = [op for op in root.walk() if isinstance(op, FuncOp)]
        writes: dict[FuncOp, set[str] | None] = {}
        calls: dict[FuncOp, list[FuncOp]] = {}
        for func in funcs:
            # A function without a body is defined elsewhere: it may write anything.
            names: set[str] | None = None if func.is_declaration else set()
            calls[func] = []
            for op in func.walk():
                kind = touches(type(op))
                if kind == WRITE and names is not None:
                    names.add(op.var_name)  # type: ignore[attr-defined]
                elif kind == CALL:
                    callee = self._callee(op)  # type: ignore[arg-type]
                    if callee is None:
                        names = None
                    else:
                        calls[func].append(callee)
            writes[func] = names
        changed = True
        while changed:
            changed = False
            for func in funcs:
                mine = writes[func]
                if mine is None:
                    continue
                for callee in calls[func]:
                    theirs = writes.get(callee)
                    if theirs is None:
                        writes[func] = None
                        changed = True
                        break
                    if not theirs <= mine:
                        mine |= theirs
                        changed = True
        return writes

    def _callee(self, call: CallOp) -> FuncOp | None:
        if call not in self._callees:
            try:
                found = SymbolTable.lookup_symbol(call, call.callee)
            except ValueError:
                found = None
            self._callees[call] = found if isinstance(found, FuncOp) else None
        return self._callees[call]

    def may_write(self, op: Operation, name: str) -> bool:
        """Whether running `op` (with its regions) may write variable `name`."""
        for inner in op.walk():
            if isinstance(inner, VariableWriteOp) and inner.var_name == name:
                return True
            if isinstance(inner, CallOp):
                callee = self._callee(inner)
                written = None if callee is None else self._writes.get(callee)
                if written is None or name in written:
                    return True
        return False

    def _find(self, root: ModuleOp) -> Iterator[VariableReadOp]:
        for func in root.walk():
            if not isinstance(func, FuncOp):
                continue
            done: set[str] = set()
            for block in func.body.blocks:
                ops = list(block.ops)
                index = {op: i for i, op in enumerate(ops)}
                writers = [i for i, op in enumerate(ops) if _may_write_some_variable(op)]
                live_until: dict[str, int] = {}  # dynamic: the last use of a view so far
                for read in ops:
                    if not isinstance(read, VariableReadOp) or read.var_name in done:
                        continue
                    name = read.var_name
                    if name in live_until and index[read] <= live_until[name]:
                        continue
                    last = self._safe(read, func, block, ops, index, writers)
                    if last is None:
                        continue
                    if name in self._dynamic:
                        live_until[name] = last
                    else:
                        done.add(name)
                    yield read

    def _safe(
        self,
        read: VariableReadOp,
        func: FuncOp,
        block: Block,
        ops: list[Operation],
        index: dict[Operation, int],
        writers: list[int],
    ) -> int | None:
        """The index of the last op using a value derived from `read` if `read` may alias
        the global (rules 1-3), else `None`."""
        start = last = index[read]
        returned = False
        derived: set[SSAValue] = {read.output1}
        pending: list[SSAValue] = [read.output1]
        while pending:
            for use in pending.pop().uses:
                user = _ancestor_in(block, use.operation)
                if user is None:
                    return None  # used in another block
                returned |= isinstance(user, ReturnOp)
                if use.operation.name in SHAPE_READERS:
                    continue  # a view's shape stays what it was read as
                last = max(last, index[user])
                if user.name in FRESH_RESULT_OPS:
                    continue
                views = (_loop_views(user, use.index)
                         if isinstance(user, WhileOp) and use.operation is user
                         else user.results)
                for view in _tensors(views):
                    if view not in derived:
                        derived.add(view)
                        pending.append(view)
        if returned and func.sym_name.data in self._referenced:
            return None
        name = read.var_name
        for i in writers[bisect_right(writers, start) : bisect_right(writers, last)]:
            op = ops[i]
            if i == last and isinstance(op, VariableWriteOp):
                continue
            if self.may_write(op, name):
                return None
        return last


def _tensors(values: list[SSAValue] | tuple[SSAValue, ...]) -> list[SSAValue]:
    """The values that may be views: those of a tensor type."""
    return [value for value in values if isinstance(value.type, TensorType)]


def _loop_views(loop: WhileOp, position: int) -> list[SSAValue]:
    """The results of `loop` that may be a view of its initial value at `position`: the
    result at `position` (zero iterations return the initial values), and transitively
    those where the body yields a view of a carried value that may be one."""
    body = loop.body_graph.block
    carried, pending = {position}, [position]
    while pending:
        for target in _yielded_views(body, body.args[pending.pop()]):
            if target not in carried:
                carried.add(target)
                pending.append(target)
    return [loop.results[i] for i in sorted(carried)]


def _yielded_views(body: Block, value: SSAValue) -> set[int]:
    """The positions of `body`'s terminator that may be `value` or a view of it."""
    terminator = body.last_op
    found: set[int] = set()
    seen, pending = {value}, [value]
    while pending:
        for use in pending.pop().uses:
            user = _ancestor_in(body, use.operation)
            if user is None or user.name in FRESH_RESULT_OPS:
                continue
            if user is terminator and use.operation is user:
                found.add(use.index)
                continue
            for result in _tensors(user.results):
                if result not in seen:
                    seen.add(result)
                    pending.append(result)
    return found


def _may_write_some_variable(op: Operation) -> bool:
    """Whether `op` (with its regions) writes a variable or calls anything."""
    if not op.regions:
        return touches(type(op)) in (WRITE, CALL)
    return any(touches(type(inner)) in (WRITE, CALL) for inner in op.walk())


def _ancestor_in(block: Block, op: Operation) -> Operation | None:
    """`op` or its ancestor that stands in `block`; `None` if there is none."""
    current: Operation | None = op
    while current is not None and current.parent_block() is not block:
        current = current.parent_op()
    return current


def _referenced_symbols(root: ModuleOp) -> set[str]:
    """The root names of every symbol reference in the module's properties/attributes."""
    names: set[str] = set()

    def visit(attr: Attribute) -> None:
        if isinstance(attr, SymbolRefAttr):
            names.add(attr.root_reference.data)
        elif isinstance(attr, ArrayAttr):
            for item in attr.data:
                visit(item)
        elif isinstance(attr, DictionaryAttr):
            for item in attr.data.values():
                visit(item)

    for op in root.walk():
        for attr in (*op.properties.values(), *op.attributes.values()):
            visit(attr)
    return names


# -- patterns ------------------------------------------------------------------------


def _static_memref(tensor_type: TensorType | None) -> MemRefType | None:
    """The memref type of a variable of a static `tensor_type` (else `None`)."""
    if tensor_type is None or not tensor_type.has_static_shape():
        return None
    return MemRefType(tensor_type.get_element_type(), tensor_type.get_shape())


class VariableToMemRefGlobal(RewritePattern):
    """`tosa.variable` -> mutable private `memref.global` (`uninitialized` without an
    initial value)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableOp, rewriter: PatternRewriter) -> None:
        memref_type = _static_memref(op.tensor_type)
        if memref_type is None or not isinstance(op.parent_op(), ModuleOp):
            return
        initial: Attribute = UnitAttr() if op.initial_value is None else op.initial_value
        new = GlobalOp.build(
            properties={  # alphabetical, as upstream MLIR prints them
                "initial_value": initial,
                "sym_name": StringAttr(op.var_name),
                "sym_visibility": StringAttr("private"),
                "type": memref_type,
            },
            attributes=dict(op.attributes),  # e.g. tosa_state.init_flag_of
        )
        rewriter.replace(op, located(op, new))


@dataclass(frozen=True)
class ReadWithCopy(RewritePattern):
    """`tosa.variable.read` -> `get_global` + `alloc` + `copy` + `to_tensor restrict`."""

    declarations: Declarations
    copy_free: frozenset[VariableReadOp]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableReadOp, rewriter: PatternRewriter) -> None:
        memref_type = _static_memref(self.declarations.type_of(op, op.var_name))
        if memref_type is None or op in self.copy_free:
            return
        state = GetGlobalOp(op.var_name, memref_type)
        buffer = AllocOp([], [], memref_type)
        copy = CopyOp(state, buffer)
        value = ToTensorOp(buffer, restrict=True)
        rewriter.replace(op, located(op, state, buffer, copy, value), [value.tensor])


@dataclass(frozen=True)
class ReadWithoutCopy(RewritePattern):
    """A read `CopyElision` proved safe -> `get_global` + `to_tensor restrict`."""

    declarations: Declarations
    copy_free: frozenset[VariableReadOp]

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableReadOp, rewriter: PatternRewriter) -> None:
        memref_type = _static_memref(self.declarations.type_of(op, op.var_name))
        if memref_type is None or op not in self.copy_free:
            return
        state = GetGlobalOp(op.var_name, memref_type)
        value = ToTensorOp(state, restrict=True)
        rewriter.replace(op, located(op, state, value), [value.tensor])


@dataclass(frozen=True)
class WriteToCopyIntoGlobal(RewritePattern):
    """`tosa.variable.write` -> `to_buffer read_only` + `get_global` + `copy` into it."""

    declarations: Declarations

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableWriteOp, rewriter: PatternRewriter) -> None:
        memref_type = _static_memref(self.declarations.type_of(op, op.var_name))
        if memref_type is None:
            return
        source = ToBufferOp.build(
            operands=[op.input1],
            result_types=[memref_type],
            properties={"read_only": UnitAttr()},
        )
        state = GetGlobalOp(op.var_name, memref_type)
        copy = CopyOp(source, state)
        rewriter.replace(op, located(op, source, state, copy), [])


# -- the pass ------------------------------------------------------------------------


@dataclass(frozen=True)
class ConvertTosaVariablesToMemRefPass(ModulePass):
    """Lowers TOSA variables to mutable private `memref.global`s.

    Afterwards: no `tosa.variable`, `tosa.variable.read` or `tosa.variable.write` is left.
    """

    name = "convert-tosa-variables-to-memref"

    elide_copies: bool = True
    """Leave out a read's copy where `CopyElision` proves it safe."""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_variables(ctx, op)
        declarations = Declarations(op)
        copy_free: frozenset[VariableReadOp] = frozenset()
        shared = FunctionValues()
        in_place: list[RewritePattern] = []
        if self.elide_copies:
            hoist_appends(op, declarations)
        # found once: the patterns rewrite these ops only, the leftover check looks at them
        variable_ops = [inner for inner in op.walk() if isinstance(inner, AnyVariableOp)]
        if self.elide_copies:
            dynamic = frozenset(v.var_name for v in variable_ops if isinstance(v, VariableOp)
                                and dynamic_layout(v.tensor_type) is not None)
            referenced = frozenset(_referenced_symbols(op))
            copy_free = CopyElision(op, dynamic, referenced).copy_free
            in_place = [AppendInPlace(declarations, FRESH_RESULT_OPS, referenced, shared)]
        patterns: list[RewritePattern] = [
            VariableToMemRefGlobal(),
            DynamicVariableToMemRefGlobals({}),
            DynamicRead(declarations, copy_free, shared),
            *in_place,
            DynamicWrite(declarations, shared),
            ReadWithoutCopy(declarations, copy_free),
            ReadWithCopy(declarations, copy_free),
            WriteToCopyIntoGlobal(declarations),
        ]
        rewrite_each(variable_ops, GreedyRewritePatternApplier(patterns, dce_enabled=False))
        fail_on_leftover_variables(op, self.name, lambda left: _reason(declarations, left),
                                   [left for left in variable_ops if left.parent is not None])


def _reason(declarations: Declarations, op: Operation) -> str:
    if (
        isinstance(op, VariableOp)
        and isinstance(module := op.parent_op(), ModuleOp)
        and not op.tensor_type.has_static_shape()
        and sizes_name_taken(module, op.var_name)
    ):
        return (
            f"variable '{op.var_name}' has a dynamic type and needs a global named "
            f"'{sizes_global_name(op.var_name)}' for its sizes, but that name is taken"
        )
    return default_reason(declarations, op)


__all__ = [
    "ConvertTosaVariablesToMemRefPass",
    "CopyElision",
    "ReadWithCopy",
    "ReadWithoutCopy",
    "VariableToMemRefGlobal",
    "WriteToCopyIntoGlobal",
]
