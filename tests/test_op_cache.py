"""`interpreter/op_cache.py`: kernels built once per op, and `Kernels.impls`, which gives an
`InterpreterFunctions` class an impl per kernel op type while the class's own impls win."""

from __future__ import annotations

import pytest
from xdsl.dialects import arith
from xdsl.dialects.builtin import i32
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl
from xdsl.ir import Block

from tosa_state.interpreter.op_cache import Kernels


def test_kernels_run_their_ops_and_the_class_own_impls_win() -> None:
    kernels = Kernels("test")
    built: list[str] = []

    @kernels.builds(arith.AddiOp, arith.SubiOp)
    def build(op: arith.AddiOp | arith.SubiOp):  # -> a kernel of the op's operands
        built.append(op.name)
        return (lambda a, b: a + b) if isinstance(op, arith.AddiOp) else (lambda a, b: a - b)

    @kernels.impls
    class Functions(InterpreterFunctions):
        """Subtracts its own way."""

        @impl(arith.SubiOp)
        def run_subi(self, interpreter: Interpreter, op: arith.SubiOp,
                     args: PythonValues) -> PythonValues:
            return (1000 + args[0] - args[1],)

    block = Block(arg_types=[i32, i32])
    add = arith.AddiOp(block.args[0], block.args[1])
    sub = arith.SubiOp(block.args[0], block.args[1])
    interpreter = Interpreter(block)  # type: ignore[arg-type]
    interpreter.register_implementations(Functions())
    assert interpreter.run_op(add, (5, 3)) == (8,)
    assert interpreter.run_op(add, (7, 3)) == (10,)
    assert interpreter.run_op(sub, (5, 3)) == (1002,)
    assert built == ["arith.addi"]  # once per op, and never for the op the class runs
    assert Functions.__name__ == "Functions" and Functions.__doc__ == "Subtracts its own way."
    assert Functions.plan_kernel(add)(2, 2) == 4  # type: ignore[attr-defined]
    assert Functions.plan_kernel(arith.MuliOp(add, sub)) is None  # type: ignore[attr-defined]
    with pytest.raises(TypeError, match="before `impls`"):
        kernels.builds(arith.MuliOp)
