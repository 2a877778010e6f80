"""Interpreter impls of the TOSA shape operators: a shape is a `tuple[int, ...]`.

Each impl is a kernel call (`Kernels.impls`), so a plan calls the kernel itself: an LLM step runs
thousands of these (`tosa.dim`, `tosa.concat_shape`, `tosa.mul_shape`, ...), where the
impl's call and its reading of the op's properties cost more than the work."""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any

from xdsl.interpreter import InterpreterFunctions

from tosa_state.dialects.tosa import shape as ts
from tosa_state.interpreter.op_cache import Kernel, Kernels

_KERNELS = Kernels("tosa_shape")

_ELEMENTWISE: dict[type, tuple[Callable[[int, int], int], str]] = {
    ts.AddShapeOp: (operator.add, "{} + {}"),
    ts.SubShapeOp: (operator.sub, "{} - {}"),
    ts.MulShapeOp: (operator.mul, "{} * {}"),
    ts.DivFloorShapeOp: (operator.floordiv, "{} // {}"),
    ts.MaxShapeOp: (max, "max({}, {})"),
    ts.MinShapeOp: (min, "min({}, {})"),
}
"""The elementwise shape operators: their function of two sizes, and it as an expression."""


def _one_size(op: Any) -> bool:
    return getattr(op.results[0].type, "rank", None) == 1


@_KERNELS.builds(ts.DimOp)
def _dim_kernel(op: ts.DimOp) -> Kernel:
    axis = op.axis.value.data

    def dim(x: Any) -> tuple[int]:
        return (x.shape[axis],)

    return dim


@_KERNELS.builds(ts.ShapeFromTensorOp)
def _shape_from_tensor_kernel(op: ts.ShapeFromTensorOp) -> Kernel:
    def shape_from_tensor(x: Any) -> tuple[int, ...]:
        return tuple(int(v) for v in x.reshape(-1))

    return shape_from_tensor


@_KERNELS.builds(ts.ConcatShapeOp)
def _concat_shape_kernel(op: ts.ConcatShapeOp) -> Kernel:
    def concat_shape(*shapes: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(d for shape in shapes for d in shape)

    return concat_shape


@_KERNELS.builds(*_ELEMENTWISE)
def _elementwise_kernel(op: Any) -> Kernel:
    f = _ELEMENTWISE[type(op)][0]
    if _one_size(op):  # most of them

        def size_elementwise(a: tuple[int], b: tuple[int]) -> tuple[int]:
            return (f(a[0], b[0]),)

        return size_elementwise

    def shape_elementwise(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(f(x, y) for x, y in zip(a, b, strict=True))

    return shape_elementwise


def _plan_expression(op: Any) -> str | None:
    """What a plan writes inline for the commonest shape operators (their kernels' work is
    less than a call): a dim, a concatenation of shapes, arithmetic on one size."""
    if isinstance(op, ts.DimOp):
        return f"({{0}}.shape[{op.axis.value.data}],)"
    if isinstance(op, ts.ConcatShapeOp):
        return " + ".join(f"{{{i}}}" for i in range(len(op.operands))) or "()"
    if type(op) in _ELEMENTWISE and _one_size(op):
        return f"({_ELEMENTWISE[type(op)][1].format('{0}[0]', '{1}[0]')},)"
    return None


@_KERNELS.impls
class TosaShapeFunctions(InterpreterFunctions):
    """Every shape operator, by its kernel (`Kernels.impls`), the commonest also as an
    expression for plans (`plan_expression`)."""

    plan_expression = staticmethod(_plan_expression)


__all__ = ["TosaShapeFunctions"]
