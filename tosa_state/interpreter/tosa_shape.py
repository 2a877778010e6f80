"""Interpreter impls of the TOSA shape operators: a shape is a `tuple[int, ...]`."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.interpreter import Interpreter, InterpreterFunctions, PythonValues, impl, register_impls

from tosa_state.dialects.tosa import shape as ts


def _elementwise(f: Callable[[int, int], int]):
    def run(self: object, interpreter: Interpreter, op: object, args: PythonValues):
        a, b = args
        return (tuple(f(x, y) for x, y in zip(a, b, strict=True)),)

    return run


@register_impls
class TosaShapeFunctions(InterpreterFunctions):
    @impl(ts.DimOp)
    def run_dim(self, interpreter: Interpreter, op: ts.DimOp, args: PythonValues):
        return ((args[0].shape[op.axis.value.data],),)

    @impl(ts.ShapeFromTensorOp)
    def run_shape_from_tensor(self, interpreter: Interpreter, op: ts.ShapeFromTensorOp,
                              args: PythonValues):
        return (tuple(int(v) for v in args[0].reshape(-1)),)

    @impl(ts.ConcatShapeOp)
    def run_concat_shape(self, interpreter: Interpreter, op: ts.ConcatShapeOp,
                         args: PythonValues):
        return (tuple(d for shape in args for d in shape),)

    run_add_shape = impl(ts.AddShapeOp)(_elementwise(lambda a, b: a + b))
    run_sub_shape = impl(ts.SubShapeOp)(_elementwise(lambda a, b: a - b))
    run_mul_shape = impl(ts.MulShapeOp)(_elementwise(lambda a, b: a * b))
    run_div_floor_shape = impl(ts.DivFloorShapeOp)(_elementwise(lambda a, b: a // b))
    run_max_shape = impl(ts.MaxShapeOp)(_elementwise(max))
    run_min_shape = impl(ts.MinShapeOp)(_elementwise(min))


__all__ = ["TosaShapeFunctions"]
