"""Run time of `tosa_state.check_capacity`: a call that would outgrow a variable of fixed
capacity (`tosa-static-state`) fails here, before any state write runs (a plan moves no
write above an op with effects: `interpreter/write_order.py`); the check and its message
are the runtime's (`runtime/capacity.py`)."""

from __future__ import annotations

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.dialects.tosa_state import CheckCapacityOp
from tosa_state.runtime.capacity import check_capacity


@register_impls
class CapacityFunctions(InterpreterFunctions):
    """The impl of `tosa_state.check_capacity`."""

    @impl(CheckCapacityOp)
    def run_check_capacity(self, interpreter: Interpreter, op: CheckCapacityOp,
                           args: PythonValues) -> PythonValues:
        check_capacity(op.variable.data, op.capacity.value.data, *args)
        return ()
