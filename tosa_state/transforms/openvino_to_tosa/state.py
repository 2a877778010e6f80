"""ReadValue / Assign (opset 3 and 6) to `tosa.variable` + `tosa.variable.read` / `.write`.

OpenVINO's semantics, exactly:

- A ReadValue whose init is a constant (or folds to one, e.g. `Broadcast(0, ShapeOf(h0))`)
  declares the variable with that `initial_value`; one without init with zeros of
  `variable_shape` / `variable_type` (a `?` dim is 0, as OpenVINO's empty start value).
- An init computed from the model's inputs is used on the first call and after a reset only:
  a boolean flag variable `<variable_id>__initialized` (initial value false, discardable
  attribute `tosa_state.init_flag_of = "<variable_id>"`) is read next to the variable, the read
  value is `select(flag, state, init)`, and the flag is written true. The variable itself
  starts as zeros (its value before the first call is never observed by the model).
- Every read of a call sees the state from before the call's writes: reads stay where the
  ReadValues were, and all writes (Assigns and flags) go to the end of the function, just
  before `func.return`, in program order.

Variable shapes must be static: a dynamic `variable_shape` takes the init's static shape, and
an Assign must write exactly the variable's type (OpenVINO would let a dynamic variable change
shape between calls; tosa-state cannot).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, UnrankedTensorType, i1
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa.variables import (
    INIT_FLAG_ATTR,
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)
from tosa_state.dtypes import numpy_to_dense
from tosa_state.transforms.openvino_to_tosa.common import (
    Deferred,
    Emitter,
    Lowering,
    OpenVINOPattern,
    Unsupported,
    constant,
    dtype_of,
    element,
    shape,
)

INIT_FLAG_SUFFIX = "__initialized"
_FLAG_TYPE = TensorType(i1, [])


def init_flag_name(variable_id: str) -> str:
    return variable_id + INIT_FLAG_SUFFIX


def _variable_type(op: ov.ReadValueOp) -> TensorType:
    """The static type of the variable `op` declares."""
    name = op.variable_id.data
    element_type: Attribute | None = op.variable_type
    if element_type is None:
        if op.init is None:
            raise Unsupported(f"variable '{name}' has a dynamic type and no init")
        element_type = element(op.init)
    if op.version.value.data == 3 or op.init is not None:
        assert op.init is not None
        return TensorType(element_type, shape(op.init))
    declared = op.variable_shape
    assert declared is not None
    intervals = declared.intervals
    if intervals is None or any(lo != hi and lo != 0 for lo, hi in intervals):
        raise Unsupported(
            f"variable '{name}' has shape {declared.to_openvino()} and no init: OpenVINO starts "
            "it as zeros of that shape, which has no static size (tosa-state needs static "
            "variable shapes; give the ReadValue an init or a static variable_shape)"
        )
    return TensorType(element_type, [lo if lo == hi else 0 for lo, hi in intervals])


def _declare(
    lowering: Lowering,
    e: Emitter,
    name: str,
    variable_type: TensorType,
    initial: np.ndarray,
    flag_of: str | None = None,
) -> None:
    """Declare `@name` in the module (once; an existing declaration must agree)."""
    dense = numpy_to_dense(np.asarray(initial, dtype_of(variable_type.element_type)))
    pending = {d.var_name: d for d in e.declarations if isinstance(d, VariableOp)}
    existing = lowering.variables.get(name, pending.get(name))
    if existing is not None:
        if existing.tensor_type != variable_type or existing.initial_value != dense:
            raise Unsupported(
                f"variable '{name}' is already declared as {existing.tensor_type} with another "
                "initial value"
            )
        return
    declaration = VariableOp(name, variable_type, dense)
    if flag_of is not None:
        declaration.attributes[INIT_FLAG_ATTR] = StringAttr(flag_of)
    e.declarations.append(declaration)


class ReadValue(OpenVINOPattern):
    """ReadValue-3 / ReadValue-6."""

    OPS = (ov.ReadValueOp,)

    def convert(self, op: ov.ReadValueOp, e: Emitter) -> Sequence[SSAValue]:
        if not isinstance(op.parent_op(), FuncOp):
            raise Unsupported("a ReadValue must be at the top level of the model")
        name = op.variable_id.data
        variable_type = _variable_type(op)
        zeros = np.zeros(variable_type.get_shape(), dtype_of(variable_type.element_type))
        init = constant(op.init) if op.init is not None else zeros
        if op.init is not None and init is None:
            return [self._computed_init(op, e, variable_type, zeros)]
        _declare(self.lowering, e, name, variable_type, init)
        return [e.value(VariableReadOp(name, variable_type))]

    def _computed_init(
        self, op: ov.ReadValueOp, e: Emitter, variable_type: TensorType, zeros: np.ndarray
    ) -> SSAValue:
        assert op.init is not None
        name, flag = op.variable_id.data, init_flag_name(op.variable_id.data)
        taken = self.lowering.variables.get(flag)
        if taken is not None and taken.attributes.get(INIT_FLAG_ATTR) != StringAttr(name):
            raise Unsupported(f"the flag variable name '{flag}' is already taken")
        _declare(self.lowering, e, name, variable_type, zeros)
        _declare(self.lowering, e, flag, _FLAG_TYPE, np.array(False), flag_of=name)
        state = e.value(VariableReadOp(name, variable_type))
        initialized = e.reshape(e.value(VariableReadOp(flag, _FLAG_TYPE)),
                                (1,) * len(variable_type.get_shape()))
        e.at_end.append(VariableWriteOp(flag, e.const(np.array(True))))
        return e.select(initialized, state, op.init)


class Assign(OpenVINOPattern):
    """Assign-3 / Assign-6: a `tosa.variable.write` at the end of the function."""

    OPS = (ov.AssignOp,)

    def convert(self, op: ov.AssignOp, e: Emitter) -> Sequence[SSAValue]:
        name = op.variable_id.data
        declaration = self.lowering.variables.get(name)
        if declaration is None:
            raise Deferred(f"the ReadValue of variable '{name}' was not converted")
        if not isinstance(op.parent_op(), FuncOp):
            raise Unsupported("an Assign must be at the top level of the model")
        value_type = op.value.type
        expected = declaration.tensor_type
        if isinstance(value_type, UnrankedTensorType) or value_type != expected:
            raise Unsupported(
                f"it writes {value_type} to variable '{name}' of type {expected}: a variable "
                "keeps one static shape and type across calls"
            )
        e.at_end.append(VariableWriteOp(name, op.value))
        return []


def existing_variables(module: ModuleOp) -> dict[str, VariableOp]:
    """The module-level `tosa.variable` declarations a module already has."""
    return {op.var_name: op for op in module.body.block.ops if isinstance(op, VariableOp)}


STATE_PATTERNS = (ReadValue, Assign)
