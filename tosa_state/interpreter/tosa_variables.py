"""Interpreter impls of the TOSA variable ops, on the request's `VariableStore`."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects.ml_program import GlobalStoreOp
from tosa_state.dialects.tosa.data_layout import ConcatOp
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.interpreter.state import VariableStore

STORE_KEY = "variables"


def variable_store(interpreter: Interpreter) -> VariableStore:
    """The store of the request `interpreter` runs for (attached when it was created)."""
    return interpreter.get_data(StateFunctions, STORE_KEY, _no_store)


def attached_store(interpreter: Interpreter) -> VariableStore | None:
    """The store of `interpreter`'s request, or None (an interpreter that runs no request:
    a plan's tests, compile-time folding)."""
    return interpreter.get_data(StateFunctions, STORE_KEY, lambda: None)


def attach_store(interpreter: Interpreter, store: VariableStore) -> None:
    interpreter.set_data(StateFunctions, STORE_KEY, store)


def _no_store() -> VariableStore:
    raise RuntimeError("no variable store is attached to this interpreter")


def owned_by_write(value: SSAValue) -> bool:
    """Whether the state may take `value`'s array itself when it is written: a `tosa.concat`
    computes a fresh array on every call (the growing state of a KV cache), no other op of
    a plan changes an array it did not make, results are copied out to the user, and only
    this one write stores it (two variables must not share an array)."""
    writes = [u for u in value.uses if isinstance(u.operation, VariableWriteOp | GlobalStoreOp)]
    return isinstance(value.owner, ConcatOp) and len(writes) == 1


def store_kernel(name: str, value: SSAValue) -> Callable[..., None]:
    """The plan's kernel of a write of `value` into variable `name`, on `store_operands`."""
    if owned_by_write(value):
        assert isinstance(value.owner, ConcatOp)
        axis = value.owner.axis.value.data
        return lambda store, array, first: store.adopt_append(name, array, first, axis)
    return lambda store, array: store.write(name, array)


def store_operands(value: SSAValue) -> tuple[SSAValue, ...]:
    """The operands of a write's kernel: `value`, and the first operand of the concat it
    adopts (the old value, when the call appends to it: the journal keeps no copy)."""
    if owned_by_write(value):
        assert isinstance(value.owner, ConcatOp)
        return (value, value.owner.input1[0])
    return (value,)


def read_kernel(name: str) -> Callable[[VariableStore], np.ndarray]:
    """The plan's kernel of a read of variable `name`."""
    return lambda store: store.read(name)


def _plan_store_kernel(op: Operation) -> Callable[..., Any] | None:
    if isinstance(op, VariableWriteOp):
        return store_kernel(op.var_name_attr.data, op.input1)
    if isinstance(op, VariableReadOp):
        return read_kernel(op.var_name_attr.data)
    return None


def _plan_store_operands(op: Operation) -> tuple[SSAValue, ...]:
    return store_operands(op.input1) if isinstance(op, VariableWriteOp) else tuple(op.operands)


@register_impls
class StateFunctions(InterpreterFunctions):
    """Variables live in the request's store; declarations do nothing at run time."""

    plan_store_kernel = staticmethod(_plan_store_kernel)
    plan_store_operands = staticmethod(_plan_store_operands)

    @impl(VariableOp)
    def run_variable(self, interpreter: Interpreter, op: VariableOp, args: PythonValues):
        return ()

    @impl(VariableReadOp)
    def run_variable_read(
        self, interpreter: Interpreter, op: VariableReadOp, args: PythonValues
    ) -> PythonValues:
        return (variable_store(interpreter).read(op.var_name_attr.data),)

    @impl(VariableWriteOp)
    def run_variable_write(
        self, interpreter: Interpreter, op: VariableWriteOp, args: PythonValues
    ) -> PythonValues:
        variable_store(interpreter).write(op.var_name_attr.data, args[0])
        return ()


