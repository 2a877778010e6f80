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
  every alias of the buffer sees the new value, exactly as in compiled code;
- `memref.copy` from a `GlobalRef`, and `bufferization.to_tensor` of one, read the state:
  for a never-written variable without an initial value this raises the same
  `InferenceError` as `tosa.variable.read` ("... is read before it is ever written ...").
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.bufferization import ToBufferOp, ToTensorOp
from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    MemRefType,
    TensorType,
    UnitAttr,
)
from xdsl.dialects.memref import AllocOp, CopyOp, DeallocOp, GetGlobalOp, GlobalOp
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.diagnostics import error_at
from tosa_state.dtypes import numpy_dtype
from tosa_state.interpreter.op_cache import per_op
from tosa_state.interpreter.plan import PlanError
from tosa_state.interpreter.state import VariableSpec, declares_state
from tosa_state.interpreter.tosa_variables import static_spec, variable_store


@dataclass(frozen=True, slots=True)
class GlobalRef:
    """The memref `memref.get_global @name` yields: the storage of global `name`."""

    name: str


@per_op
def _global_ref(op: GetGlobalOp) -> GlobalRef:
    return GlobalRef(op.name_.root_reference.data)


@per_op
def _alloc_layout(op: AllocOp) -> tuple[tuple[int, ...], np.dtype]:
    memref_type = op.memref.type
    assert isinstance(memref_type, MemRefType)
    shape = tuple(memref_type.get_shape())
    if op.dynamic_sizes or any(d < 0 for d in shape):
        raise PlanError(error_at(op, f"'memref.alloc' of a dynamic shape '{memref_type}' "
                                 "is not supported"))
    return shape, numpy_dtype(memref_type.get_element_type())


@register_impls
class MemRefFunctions(InterpreterFunctions):
    """`memref.get_global/alloc/copy/dealloc` and the tensor boundary of bufferization."""

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
        return (np.empty(shape, dtype),)

    @impl(DeallocOp)
    def run_dealloc(self, interpreter: Interpreter, op: DeallocOp, args: PythonValues):
        return ()

    @impl(CopyOp)
    def run_copy(self, interpreter: Interpreter, op: CopyOp, args: PythonValues):
        source, target = args
        if type(source) is GlobalRef:
            source = variable_store(interpreter).read(source.name)
        if type(target) is GlobalRef:
            variable_store(interpreter).write_in_place(target.name, source)
        else:
            np.copyto(target, source)
        return ()

    @impl(ToTensorOp)
    def run_to_tensor(
        self, interpreter: Interpreter, op: ToTensorOp, args: PythonValues
    ) -> PythonValues:
        buffer = args[0]
        if type(buffer) is GlobalRef:
            return (variable_store(interpreter).read(buffer.name),)
        return (buffer,)

    @impl(ToBufferOp)
    def run_to_buffer(
        self, interpreter: Interpreter, op: ToBufferOp, args: PythonValues
    ) -> PythonValues:
        return (args[0],)


@declares_state(GlobalOp)
def memref_global_spec(op: GlobalOp) -> VariableSpec | None:
    """A mutable `memref.global` is a variable: its shape, dtype and initial value
    (`uninitialized`: none). A `constant` global is not state."""
    if op.constant is not None:
        return None
    memref_type = op.type
    name = op.sym_name.data
    tensor_type = TensorType(memref_type.get_element_type(), memref_type.get_shape())
    uninitialised = static_spec(op, name, tensor_type, None)  # rejects dynamic shapes
    initial = op.initial_value
    if isinstance(initial, UnitAttr):
        return uninitialised
    if not isinstance(initial, DenseIntOrFPElementsAttr) or initial.type != tensor_type:
        raise PlanError(error_at(op, f"global '{name}' of type '{memref_type}' has an "
                                 f"unsupported initial value '{initial}'"))
    return static_spec(op, name, tensor_type, initial)


__all__ = ["GlobalRef", "MemRefFunctions", "memref_global_spec"]
