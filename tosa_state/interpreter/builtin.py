"""Interpreter impls for the non-TOSA ops our modules hold: `arith.constant` of tensors,
`tensor.bitcast`, and the index arithmetic of dynamic-shape state at the memref level (its
`scf.if`: `interpreter/scf.py`)."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from xdsl.dialects import arith
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IndexType, IntegerAttr
from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.dialects.tensor import BitcastOp
from tosa_state.dtypes import dense_to_numpy, numpy_dtype

_CMPI: dict[str, tuple[Callable[[int, int], bool], str]] = {
    "eq": (operator.eq, "=="),
    "ne": (operator.ne, "!="),
    "ult": (operator.lt, "<"),
    "ule": (operator.le, "<="),
    "ugt": (operator.gt, ">"),
    "uge": (operator.ge, ">="),
}
"""`arith.cmpi` predicates on (non-negative) index values: the comparison, and its operator
(a plan writes it inline)."""


_BINARY: dict[type, tuple[Callable[[Any, Any], Any], str]] = {
    arith.AddiOp: (operator.add, "{0} + {1}"),
    arith.MuliOp: (operator.mul, "{0} * {1}"),
    arith.MaxUIOp: (max, "max({0}, {1})"),
    arith.MinUIOp: (min, "min({0}, {1})"),
    arith.AndIOp: (lambda a, b: a and b, "({0} and {1})"),
    arith.OrIOp: (lambda a, b: a or b, "({0} or {1})"),
}
"""The index arithmetic of dynamic-shape state (Python ints): its function of two values, and
it as an expression (a plan writes it inline)."""


def _binary(kernel: Callable[[Any, Any], Any]):
    def run(self: Any, interpreter: Interpreter, op: Any, args: PythonValues) -> PythonValues:
        return (kernel(*args),)

    return run


def _plan_expression(op: Any) -> str | None:
    """The index arithmetic of dynamic-shape state (Python ints), inline in a plan."""
    if isinstance(op, arith.CmpiOp):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        return f"{{0}} {_CMPI[predicate][1]} {{1}}" if predicate in _CMPI else None
    if isinstance(op, arith.SelectOp):
        return "({1} if {0} else {2})"
    found = _BINARY.get(type(op))
    return None if found is None else found[1]


class BuiltinFunctions(InterpreterFunctions):
    plan_expression = staticmethod(_plan_expression)

    @impl(ConstantOp)
    def run_constant(
        self, interpreter: Interpreter, op: ConstantOp, args: PythonValues
    ) -> PythonValues:
        value = op.value
        if isinstance(value, DenseIntOrFPElementsAttr):
            return (dense_to_numpy(value),)
        if isinstance(value, IntegerAttr) and isinstance(value.type, IndexType):
            return (value.value.data,)
        raise NotImplementedError(
            f"only dense tensor constants are supported (and index scalars), not {value}"
        )

    @impl(arith.CmpiOp)
    def run_cmpi(self, interpreter: Interpreter, op: arith.CmpiOp, args: PythonValues):
        predicate = arith.CMPI_COMPARISON_OPERATIONS[op.predicate.value.data]
        if predicate not in _CMPI:
            raise NotImplementedError(f"arith.cmpi {predicate} is not supported")
        return (_CMPI[predicate][0](*args),)

    @impl(BitcastOp)
    def run_bitcast(
        self, interpreter: Interpreter, op: BitcastOp, args: PythonValues
    ) -> PythonValues:
        """The same bytes viewed as the result's element type (a view: no copy)."""
        return (args[0].view(numpy_dtype(op.dest.type.element_type)),)

    @impl(arith.SelectOp)
    def run_select(self, interpreter: Interpreter, op: arith.SelectOp, args: PythonValues):
        condition, if_true, if_false = args
        return (if_true if condition else if_false,)


for _op_type, (_function, _) in _BINARY.items():  # one impl per entry of the table
    setattr(BuiltinFunctions, f"run_{_op_type.__name__}", impl(_op_type)(_binary(_function)))
register_impls(BuiltinFunctions)


__all__ = ["BuiltinFunctions"]
