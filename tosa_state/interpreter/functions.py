"""The interpreter of a module: every `InterpreterFunctions` we provide, registered."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from xdsl.dialects.builtin import ModuleOp
from xdsl.interpreter import Interpreter, InterpreterFunctions
from xdsl.ir import Operation

from tosa_state import folding


def all_functions() -> list[InterpreterFunctions]:
    """One instance of each impl class (numpy impls for every op we can execute)."""
    from tosa_state.interpreter.builtin import BuiltinFunctions
    from tosa_state.interpreter.capacity import CapacityFunctions
    from tosa_state.interpreter.compression import CompressionFunctions
    from tosa_state.interpreter.memref import MemRefFunctions
    from tosa_state.interpreter.ml_program import MLProgramFunctions
    from tosa_state.interpreter.scf import ScfFunctions
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
        CompressionFunctions(),
        CapacityFunctions(),
    ]


def make_interpreter(module: ModuleOp, functions: list[InterpreterFunctions]) -> Interpreter:
    interpreter = Interpreter(module)
    for ft in functions:
        interpreter.register_implementations(ft)
    return interpreter


_folder: Interpreter | None = None


def _evaluate(op: Operation, args: Sequence[Any]) -> Sequence[Any]:
    """`op` run on constant arguments with the runtime's numpy impls (`folding.register`)."""
    global _folder
    if _folder is None:
        _folder = make_interpreter(ModuleOp([]), all_functions())
    return _folder.run_op(op, tuple(args))


folding.register(_evaluate)
