"""The interpreter of a module: every `InterpreterFunctions` we provide, registered."""

from __future__ import annotations

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions


def all_functions() -> list[InterpreterFunctions]:
    """One instance of each impl class (numpy impls for every op we can execute)."""
    from tosa_state.interpreter.builtin import BuiltinFunctions, ScfFunctions
    from tosa_state.interpreter.memref import MemRefFunctions
    from tosa_state.interpreter.ml_program import MLProgramFunctions
    from tosa_state.interpreter.tosa_control_flow import TosaControlFlowFunctions
    from tosa_state.interpreter.tosa_elementwise import TosaElementwiseFunctions
    from tosa_state.interpreter.tosa_shape import TosaShapeFunctions
    from tosa_state.interpreter.tosa_tensor import TosaTensorFunctions
    from tosa_state.interpreter.tosa_variables import StateFunctions

    return [
        BuiltinFunctions(),
        TosaElementwiseFunctions(),
        TosaTensorFunctions(),
        TosaShapeFunctions(),
        TosaControlFlowFunctions(),
        StateFunctions(),
        MemRefFunctions(),
        MLProgramFunctions(),
        ScfFunctions(),
    ]


def make_interpreter(module: ModuleOp, functions: list[InterpreterFunctions]) -> Interpreter:
    interpreter = Interpreter(module)
    for ft in functions:
        interpreter.register_implementations(ft)
    return interpreter
