"""Interpreter impls of the `ml_program` global ops, on the request's `VariableStore`.

A mutable `ml_program.global @v` is variable `v` (same store, same key as `tosa.variable
@v`), so `query_state()`, `set_state` and `reset` work unchanged at this level.
`global_load` / `global_store` behave exactly like `tosa.variable.read` / `.write`: a
load is a snapshot, a store replaces the value by a private copy, and loading a global
that was never stored and has no initial value raises the same `InferenceError`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls
from xdsl.ir import Operation, SSAValue

from tosa_state.diagnostics import error_at
from tosa_state.dialects.ml_program import (
    GlobalLoadConstOp,
    GlobalLoadOp,
    GlobalOp,
    GlobalStoreOp,
    lookup_global,
)
from tosa_state.dtypes import dense_to_numpy
from tosa_state.interpreter.op_cache import per_op
from tosa_state.interpreter.plan import PlanError
from tosa_state.interpreter.tosa_variables import (
    read_kernel,
    store_kernel,
    store_operands,
    variable_store,
)


@per_op
@per_op
def _constant_value(op: GlobalLoadConstOp) -> np.ndarray:
    found = lookup_global(op, op.global_)
    value = None if found is None else found.value
    if not isinstance(value, DenseIntOrFPElementsAttr):
        raise PlanError(error_at(op, f"'{op.name}' op: global {op.global_} has no dense "
                                 "initial value"))
    return dense_to_numpy(value)


def _plan_store_kernel(op: Operation) -> Callable[..., Any] | None:
    if isinstance(op, GlobalStoreOp):
        return store_kernel(op.global_name, op.value)
    if isinstance(op, GlobalLoadOp):
        return read_kernel(op.global_name)
    return None


def _plan_store_operands(op: Operation) -> tuple[SSAValue, ...]:
    return store_operands(op.value) if isinstance(op, GlobalStoreOp) else tuple(op.operands)


@register_impls
class MLProgramFunctions(InterpreterFunctions):
    """Globals live in the request's store; declarations do nothing at run time."""

    plan_store_kernel = staticmethod(_plan_store_kernel)
    plan_store_operands = staticmethod(_plan_store_operands)

    @impl(GlobalOp)
    def run_global(self, interpreter: Interpreter, op: GlobalOp, args: PythonValues):
        return ()

    @impl(GlobalLoadOp)
    def run_global_load(
        self, interpreter: Interpreter, op: GlobalLoadOp, args: PythonValues
    ) -> PythonValues:
        return (variable_store(interpreter).read(op.global_name),)

    @impl(GlobalStoreOp)
    def run_global_store(
        self, interpreter: Interpreter, op: GlobalStoreOp, args: PythonValues
    ) -> PythonValues:
        variable_store(interpreter).write(op.global_name, args[0])
        return ()

    @impl(GlobalLoadConstOp)
    def run_global_load_const(
        self, interpreter: Interpreter, op: GlobalLoadConstOp, args: PythonValues
    ) -> PythonValues:
        return (_constant_value(op),)


__all__ = ["MLProgramFunctions"]
