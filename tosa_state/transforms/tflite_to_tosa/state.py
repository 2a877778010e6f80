"""READ_VARIABLE / ASSIGN_VARIABLE to `tosa.variable.read` / `.write` of the variable named by
the VAR_HANDLE's `shared_name`, in program order (TFLite's semantics: a read sees the writes
before it). A variable is declared by its CALL_ONCE init, else by its first use, with zeros
(the value Keras's `reset_states()` restores)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects.tfl.state import (
    AssignVariableOp,
    ReadVariableOp,
    VariableTensorOp,
    variable_name,
)
from tosa_state.dialects.tosa.variables import (
    INIT_FLAG_ATTR,
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_state.dtypes import numpy_to_dense
from tosa_state.transforms.tflite_to_tosa.common import TflLowering, TflPattern
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import Unsupported, dtype_of, shape


def _name(handle: SSAValue) -> str:
    name = variable_name(handle)
    if name is None:
        raise Unsupported("the resource handle does not come from a VAR_HANDLE of this subgraph")
    return name


def declare(lowering: TflLowering, e: Emitter, name: str, type_: Attribute,
            initial: np.ndarray, flag_of: str | None = None) -> VariableOp:
    """`tosa.variable @name` (once); a second declaration must agree with the first."""
    if not isinstance(type_, TensorType) or not type_.has_static_shape():
        raise Unsupported(f"variable '{name}' would have type {type_} (static shapes only)")
    dense = numpy_to_dense(np.asarray(initial, dtype_of(type_.element_type)).reshape(
        type_.get_shape()))
    pending = {d.var_name: d for d in e.declarations if isinstance(d, VariableOp)}
    existing = lowering.variables.get(name, pending.get(name))
    if existing is not None:
        if existing.tensor_type != type_:
            raise Unsupported(f"variable '{name}' is used as {existing.tensor_type} and {type_}")
        if existing.initial_value != dense and flag_of is None:
            raise Unsupported(f"variable '{name}' gets two different initial values")
        return existing
    declaration = VariableOp(name, type_, dense)
    if flag_of is not None:
        declaration.attributes[INIT_FLAG_ATTR] = StringAttr(flag_of)
    e.declarations.append(declaration)
    return declaration


def _declared_type(lowering: TflLowering, e: Emitter, name: str) -> TensorType | None:
    pending = {d.var_name: d for d in e.declarations if isinstance(d, VariableOp)}
    existing = lowering.variables.get(name, pending.get(name))
    return existing.tensor_type if existing is not None else None


class ReadVariable(TflPattern):
    """READ_VARIABLE."""

    OPS = (ReadVariableOp,)

    def convert(self, op: ReadVariableOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        name = _name(operands[0])
        type_ = _declared_type(self.lowering, e, name)
        if type_ is None:
            type_ = op.result.type
            if not isinstance(type_, TensorType) or not type_.has_static_shape():
                raise Unsupported(f"variable '{name}' is read as {type_} before any static "
                                  "write")
            declare(self.lowering, e, name, type_, np.zeros(type_.get_shape()))
        if self.lowering.init_assignments is not None:
            for assigned, value in reversed(self.lowering.init_assignments):
                if assigned == name:
                    return [value]
        return [e.value(VariableReadOp(name, type_))]


class AssignVariable(TflPattern):
    """ASSIGN_VARIABLE (collected instead while a CALL_ONCE init function is translated)."""

    OPS = (AssignVariableOp,)

    def convert(self, op: AssignVariableOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        name, value = _name(operands[0]), operands[1]
        shape(value)
        if self.lowering.init_assignments is not None:
            self.lowering.init_assignments.append((name, value))
            return []
        declared = _declared_type(self.lowering, e, name)
        if declared is None:
            declare(self.lowering, e, name, value.type, np.zeros(shape(value)))
        elif declared != value.type:
            raise Unsupported(f"it writes {value.type} to variable '{name}' of type {declared}")
        e.emit(VariableWriteOp(name, value))
        return []


class VariableTensor(TflPattern):
    """A variable tensor: a `tosa.variable` named after the tensor (zeros at first), read
    here; the fused op that owns it writes its final state back."""

    OPS = (VariableTensorOp,)

    def convert(self, op: VariableTensorOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        name, type_ = op.tensor_name.data, op.output.type
        if _declared_type(self.lowering, e, name) is None:
            declare(self.lowering, e, name, type_, np.zeros(shape(op.output)))
        return [e.value(VariableReadOp(name, type_))]


STATE_PATTERNS = (ReadVariable, AssignVariable, VariableTensor)
