"""Impls of TOSA control flow (`tosa_state.dialects.tosa.control_flow`) for xDSL's interpreter.

These run the regions op by op; the planned runtime (`interpreter/plan.py`) does not use
them: it compiles `tosa.cond_if` and `tosa.while_loop` into Python `if` / `while`
statements around the planned ops of their regions.
"""

from __future__ import annotations

from xdsl.interpreter import (
    Interpreter,
    InterpreterFunctions,
    PythonValues,
    ReturnedValues,
    TerminatorValue,
    impl,
    impl_terminator,
    register_impls,
)

from tosa_state.dialects.tosa.control_flow import IfOp, WhileOp, YieldOp


@register_impls
class TosaControlFlowFunctions(InterpreterFunctions):
    @impl(IfOp)
    def run_cond_if(self, interpreter: Interpreter, op: IfOp, args: PythonValues):
        region = op.then_graph if args[0].any() else op.else_graph
        return interpreter.run_ssacfg_region(region, args[1:], "tosa.cond_if")

    @impl(WhileOp)
    def run_while_loop(self, interpreter: Interpreter, op: WhileOp, args: PythonValues):
        values = tuple(args)
        while True:
            (condition,) = interpreter.run_ssacfg_region(op.cond_graph, values, op.name)
            if not condition.any():
                return values
            values = tuple(interpreter.run_ssacfg_region(op.body_graph, values, op.name))

    @impl_terminator(YieldOp)
    def run_yield(
        self, interpreter: Interpreter, op: YieldOp, args: PythonValues
    ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()
