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

Dynamic shapes: a `variable_shape` with dynamic dims gives a dynamic variable
(`tosa.variable @kv : tensor<?x2x?x4xf32>`, no initial value: it starts empty, as OpenVINO's
ReadValue without init) when the init is computed at run time or is that empty start; its
computed init is chosen with a `tosa.cond_if` (state and init differ in size). A static init
otherwise fixes the variable's shape (a dim the init makes empty stays dynamic), and an
Assign must then write that shape. An Assign of a more static type than its dynamic variable
is generalised (a `tosa.reshape` to its own run-time shape).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import StringAttr, TensorType, UnrankedTensorType, i1
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.openvino import shapes_compatible
from tosa_state.dialects.tosa.variables import (
    INIT_FLAG_ATTR,
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
    init_flag_name,
)
from tosa_state.dtypes import numpy_to_dense
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Deferred,
    Emitter,
    Lowering,
    OpenVINOPattern,
    Unsupported,
    constant,
    dims,
    dtype_of,
    element,
    is_static,
)

_FLAG_TYPE = TensorType(i1, [])


def _variable_type(op: ov.ReadValueOp) -> TensorType:
    """The type of the variable `op` declares: the init's when it is static (the state
    keeps that shape) except that a dim `variable_shape` leaves open and the init makes
    empty (0: a cache that grows) stays dynamic; else `variable_shape` with its
    non-static dims dynamic (`?`)."""
    name = op.variable_id.data
    element_type: Attribute | None = op.variable_type
    if element_type is None:
        if op.init is None:
            raise Unsupported(f"variable '{name}' has a dynamic type and no init")
        element_type = element(op.init)
    init_dims = dims(op.init) if op.init is not None else None
    declared = op.variable_shape
    intervals = declared.intervals if declared is not None else None
    if init_dims is not None and (op.version.value.data == 3 or is_static(init_dims)):
        if intervals is not None and len(intervals) == len(init_dims):
            init_dims = tuple(DYN if d == 0 and lo != hi else d
                              for d, (lo, hi) in zip(init_dims, intervals, strict=True))
        return TensorType(element_type, init_dims)
    if intervals is None:
        if init_dims is None:
            raise Unsupported(f"variable '{name}' has a dynamic rank and no init")
        return TensorType(element_type, init_dims)
    return TensorType(element_type, [lo if lo == hi else DYN for lo, hi in intervals])


def _starts_empty(init: np.ndarray | None, variable_type: TensorType) -> bool:
    """Whether `init` is the value a dynamic variable starts with anyway (empty)."""
    start = tuple(0 if d == DYN else d for d in variable_type.get_shape())
    return init is not None and init.shape == start


def _declare(
    lowering: Lowering,
    e: Emitter,
    name: str,
    variable_type: TensorType,
    initial: np.ndarray | None,
    flag_of: str | None = None,
) -> None:
    """Declare `@name` in the module (once; an existing declaration must agree). A dynamic
    variable has no initial value: it starts empty (0 in its dynamic dims)."""
    dense = None if initial is None else numpy_to_dense(
        np.asarray(initial, dtype_of(variable_type.element_type))
    )
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
        dynamic = not variable_type.has_static_shape()
        zeros = None if dynamic else np.zeros(variable_type.get_shape(),
                                              dtype_of(variable_type.element_type))
        init = constant(op.init) if op.init is not None else zeros
        if dynamic and (op.init is None or _starts_empty(init, variable_type)):
            init = None  # a dynamic variable starts empty: no initial value needed
        elif op.init is not None and (init is None or dynamic):
            return [self._computed_init(op, e, variable_type, zeros)]
        _declare(self.lowering, e, name, variable_type, init)
        return [e.value(VariableReadOp(name, variable_type))]

    def _computed_init(
        self, op: ov.ReadValueOp, e: Emitter, variable_type: TensorType,
        zeros: np.ndarray | None,
    ) -> SSAValue:
        """`flag ? state : init`: a `tosa.select` for a static variable, a `tosa.cond_if`
        for a dynamic one (the state and the init may differ in size)."""
        assert op.init is not None
        name, flag = op.variable_id.data, init_flag_name(op.variable_id.data)
        taken = self.lowering.variables.get(flag)
        if taken is not None and taken.attributes.get(INIT_FLAG_ATTR) != StringAttr(name):
            raise Unsupported(f"the flag variable name '{flag}' is already taken")
        _declare(self.lowering, e, name, variable_type, zeros)
        _declare(self.lowering, e, flag, _FLAG_TYPE, np.array(False), flag_of=name)
        state = e.value(VariableReadOp(name, variable_type))
        initialized = e.value(VariableReadOp(flag, _FLAG_TYPE))
        e.at_end.append(VariableWriteOp(flag, e.const(np.array(True))))
        if zeros is not None:
            rank = len(variable_type.get_shape())
            return e.select(e.reshape(initialized, (1,) * rank), state, op.init)
        if not shapes_compatible(dims(op.init), variable_type.get_shape()):
            raise Unsupported(f"its init of type {op.init.type} does not fit variable "
                              f"'{name}' of type {variable_type}")
        return e.choose(initialized, state, op.init, variable_type)


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
        if isinstance(value_type, UnrankedTensorType) or not (
            value_type.element_type == expected.element_type
            and shapes_compatible(value_type.get_shape(), expected.get_shape())
        ):
            raise Unsupported(
                f"it writes {value_type} to variable '{name}' of type {expected}"
                + (": a variable with a static init keeps its shape across calls"
                   if expected.has_static_shape() else "")
            )
        value = op.value
        if value_type != expected:  # e.g. a `1x2x?x4` value for a `?x2x?x4` variable
            value = e.generalize(value, expected)
        e.at_end.append(VariableWriteOp(name, value))
        return []


STATE_PATTERNS = (ReadValue, Assign)
