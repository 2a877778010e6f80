"""How each level's declaration op describes its variable: `tosa.variable`, a mutable
`ml_program.global`, a mutable `memref.global` (registered with `declares_state`, read by
`collect_specs`). Every device reads a module's variables through these."""

from __future__ import annotations

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, MemRefType, TensorType, UnitAttr
from xdsl.dialects.memref import GlobalOp as MemRefGlobalOp

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.dialects.ml_program import GlobalOp as MLProgramGlobalOp
from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.dtypes import dense_to_numpy, numpy_dtype
from tosa_state.runtime.variables import VariableSpec, declares_state


@declares_state(VariableOp)
def variable_spec(op: VariableOp) -> VariableSpec:
    """A `tosa.variable`'s shape, dtype and decoded initial value."""
    return spec_of(op.var_name, op.tensor_type, op.initial_value)


def spec_of(
    name: str, tensor_type: TensorType, initial: DenseIntOrFPElementsAttr | None
) -> VariableSpec:
    """The spec of a variable of `tensor_type` (`?` dims allowed).

    A dynamic variable without an initial value starts *empty*: 0 in every dynamic
    dimension (OpenVINO's start value for a ReadValue without init). Having no elements,
    that value is fully defined, so reading it before any write is not an error."""
    shape = tuple(tensor_type.get_shape())
    dtype = numpy_dtype(tensor_type.get_element_type())
    if initial is not None:
        return VariableSpec(name, shape, dtype, dense_to_numpy(initial))
    if any(d < 0 for d in shape):
        empty = np.zeros(tuple(max(d, 0) for d in shape), dtype)
        empty.flags.writeable = False
        return VariableSpec(name, shape, dtype, empty)
    return VariableSpec(name, shape, dtype, None)


@declares_state(MLProgramGlobalOp)
def ml_program_global_spec(op: MLProgramGlobalOp) -> VariableSpec | None:
    """A mutable `ml_program.global` is a variable (`?` dims allowed, as for
    `tosa.variable`); an immutable one is a constant, not state."""
    if not op.mutable:
        return None
    name = op.global_name
    global_type = op.type
    if not isinstance(global_type, TensorType):
        raise TosaStateError(error_at(op, f"global '{name}' has type '{global_type}'; only "
                                 "ranked tensor globals are supported"))
    value = op.value
    if value is not None and (
        not isinstance(value, DenseIntOrFPElementsAttr) or value.type != global_type
    ):
        raise TosaStateError(error_at(op, f"global '{name}' of type '{global_type}' has an "
                                 f"unsupported initial value '{value}'"))
    return spec_of(name, global_type, value)




@declares_state(MemRefGlobalOp)
def memref_global_spec(op: MemRefGlobalOp) -> VariableSpec | None:
    """A mutable `memref.global` is a variable: its shape, dtype and initial value
    (`uninitialized`: none). A `constant` global is not state. A global of a memref type
    holds a dynamic variable's buffer (`convert-tosa-variables-to-memref`): the variable
    has the buffer's shape, and starts empty."""
    if op.constant is not None:
        return None
    memref_type = op.type
    name = op.sym_name.data
    inner = memref_type.get_element_type()
    if isinstance(inner, MemRefType) and not memref_type.get_shape():
        tensor_type = TensorType(inner.get_element_type(), inner.get_shape())
        if tensor_type.has_static_shape() or not isinstance(op.initial_value, UnitAttr):
            raise TosaStateError(error_at(op, f"global '{name}' of type '{memref_type}' is not "
                                     "the buffer of a dynamic-shape variable"))
        return spec_of(name, tensor_type, None)
    tensor_type = TensorType(inner, memref_type.get_shape())
    initial = op.initial_value
    if isinstance(initial, UnitAttr):
        initial = None
    elif not isinstance(initial, DenseIntOrFPElementsAttr) or initial.type != tensor_type:
        raise TosaStateError(error_at(op, f"global '{name}' of type '{memref_type}' has an "
                                 f"unsupported initial value '{initial}'"))
    if not tensor_type.has_static_shape():
        raise TosaStateError(error_at(op, f"global '{name}' has a dynamic type '{memref_type}'"))
    return spec_of(name, tensor_type, initial)


__all__ = ["memref_global_spec", "ml_program_global_spec", "spec_of", "variable_spec"]
