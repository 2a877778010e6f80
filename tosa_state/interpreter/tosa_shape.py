"""Interpreter impls of the TOSA shape operators: a shape is a `tuple[int, ...]`.

Each impl is a kernel call (`Kernels.impls`), so a plan calls the kernel itself: an LLM step runs
thousands of these (`tosa.dim`, `tosa.concat_shape`, `tosa.mul_shape`, ...), where the
impl's call and its reading of the op's properties cost more than the work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from xdsl.interpreter import InterpreterFunctions

from tosa_state.dialects.tosa import shape as ts
from tosa_state.interpreter.op_cache import Kernel, Kernels

_KERNELS = Kernels("tosa_shape")

_ELEMENTWISE: dict[type, Callable[[int, int], int]] = {
    ts.AddShapeOp: lambda a, b: a + b,
    ts.SubShapeOp: lambda a, b: a - b,
    ts.MulShapeOp: lambda a, b: a * b,
    ts.DivFloorShapeOp: lambda a, b: a // b,
    ts.MaxShapeOp: max,
    ts.MinShapeOp: min,
}


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
    f = _ELEMENTWISE[type(op)]
    if getattr(op.results[0].type, "rank", None) == 1:  # one size: most of them

        def size_elementwise(a: tuple[int], b: tuple[int]) -> tuple[int]:
            return (f(a[0], b[0]),)

        return size_elementwise

    def shape_elementwise(a: tuple[int, ...], b: tuple[int, ...]) -> tuple[int, ...]:
        return tuple(f(x, y) for x, y in zip(a, b, strict=True))

    return shape_elementwise


_EXPRESSIONS: dict[type, str] = {
    ts.AddShapeOp: "({0}[0] + {1}[0],)",
    ts.SubShapeOp: "({0}[0] - {1}[0],)",
    ts.MulShapeOp: "({0}[0] * {1}[0],)",
    ts.DivFloorShapeOp: "({0}[0] // {1}[0],)",
    ts.MaxShapeOp: "(max({0}[0], {1}[0]),)",
    ts.MinShapeOp: "(min({0}[0], {1}[0]),)",
}
"""The one-size forms of the elementwise shape operators, as expressions."""


def _plan_expression(op: Any) -> str | None:
    """What a plan writes inline for the commonest shape operators (their kernels' work is
    less than a call): a dim, a concatenation of shapes, arithmetic on one size."""
    if isinstance(op, ts.DimOp):
        return f"({{0}}.shape[{op.axis.value.data}],)"
    if isinstance(op, ts.ConcatShapeOp):
        return " + ".join(f"{{{i}}}" for i in range(len(op.operands))) or "()"
    if type(op) in _EXPRESSIONS and getattr(op.results[0].type, "rank", None) == 1:
        return _EXPRESSIONS[type(op)]
    return None


@_KERNELS.impls
class TosaShapeFunctions(InterpreterFunctions):
    """Every shape operator, by its kernel (`Kernels.impls`), the commonest also as an
    expression for plans (`plan_expression`)."""

    plan_expression = staticmethod(_plan_expression)


__all__ = ["TosaShapeFunctions"]
