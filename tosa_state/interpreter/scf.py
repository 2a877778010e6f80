"""Interpreter impls of the `scf` ops: `scf.if`, `scf.for`, `scf.while`, `scf.index_switch`
and their terminators (https://mlir.llvm.org/docs/Dialects/SCFDialect/).

Our lowerings emit `scf.if` only (the growth checks of dynamic variables at the memref
level, which a plan writes as a Python `if`); these impls run the others a hand-written
module may hold, region by region, as xDSL's own `ScfFunctions` does. They live here
because importing that class imports the whole `xdsl.interpreters` package (every RISC-V
interpreter with it): 0.14 s of every process that runs a model.
"""

from __future__ import annotations

from xdsl.dialects import scf
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


@register_impls
class ScfFunctions(InterpreterFunctions):
    @impl(scf.IfOp)
    def run_if(self, interpreter: Interpreter, op: scf.IfOp, args: PythonValues
               ) -> PythonValues:
        (condition,) = args
        return interpreter.run_ssacfg_region(
            op.true_region if condition else op.false_region, ())

    @impl(scf.ForOp)
    def run_for(self, interpreter: Interpreter, op: scf.ForOp, args: PythonValues
                ) -> PythonValues:
        lower, upper, step, *carried = args
        values = tuple(carried)
        for index in range(lower, upper, step):
            values = interpreter.run_ssacfg_region(op.body, (index, *values), "for_loop")
        return values

    @impl(scf.WhileOp)
    def run_while(self, interpreter: Interpreter, op: scf.WhileOp, args: PythonValues
                  ) -> PythonValues:
        values = tuple(args)
        while True:
            # `scf.condition(%c) %forwarded`: the after region's arguments, or the results
            condition, *forwarded = interpreter.run_ssacfg_region(
                op.before_region, values, "while.before_region")
            if not condition:
                return tuple(forwarded)
            values = interpreter.run_ssacfg_region(
                op.after_region, tuple(forwarded), "while.after_region")

    @impl(scf.IndexSwitchOp)
    def run_index_switch(self, interpreter: Interpreter, op: scf.IndexSwitchOp,
                         args: PythonValues) -> PythonValues:
        cases = tuple(op.cases.get_values())
        region = op.case_regions[cases.index(args[0])] if args[0] in cases \
            else op.default_region
        return interpreter.run_ssacfg_region(region, ())

    @impl_terminator(scf.YieldOp)
    def run_yield(self, interpreter: Interpreter, op: scf.YieldOp, args: PythonValues
                  ) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()

    @impl_terminator(scf.ConditionOp)
    def run_condition(self, interpreter: Interpreter, op: scf.ConditionOp,
                      args: PythonValues) -> tuple[TerminatorValue, PythonValues]:
        return ReturnedValues(args), ()


__all__ = ["ScfFunctions"]
