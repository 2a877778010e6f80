"""Interpreter impls for the non-TOSA ops our modules hold (`arith.constant` of tensors)."""

from __future__ import annotations

from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.dtypes import dense_to_numpy


@register_impls
class BuiltinFunctions(InterpreterFunctions):
    @impl(ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: ConstantOp, args: PythonValues
    ) -> PythonValues:
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            return (dense_to_numpy(value),)
        raise NotImplementedError(f"only dense tensor constants are supported, not {value}")
