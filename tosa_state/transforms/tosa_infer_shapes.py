"""`tosa-infer-shapes`: static shapes propagated through TOSA functions, as upstream MLIR's
pass of that name does, with the run-time shape values folded on the way.

Once the inputs' shapes are fixed (`specialize-input-shapes`) and the state has a capacity
(`tosa-static-state`), a converted decoder still computes its shapes at run time: the
conversion wrote `tosa.dim` / `tosa.concat_shape` / `tosa.mul_shape` ... for every shape it
could not know, and the result types it gave stay `?`. In program order (regions before
the op that holds them), this pass

- folds each shape op whose operands are known into a `tosa.const_shape`: `tosa.dim` of a
  static dimension, and the shape arithmetic (`add_shape`, `concat_shape`, ...) of
  constant shapes (evaluated with the runtime's kernels, `tosa_state.folding`);
- gives each op's results the shape its operands imply when that is more static than the
  one it has: broadcasting for elementwise ops, the constant shape operand of
  `reshape` / `slice` / `tile` / `pad`, the sum along a `concat`'s axis, `transpose`'s
  permutation, `gather` / `matmul` / `scatter` / reductions by their definitions, a
  `cond_if`'s results from what both branches yield;
- gives a reshape to a static shape written with an inferred (`-1`) size the shape itself
  (TOSA 1.0 has no inferred size);
- updates the function types to the refined results.

A type is only made more static, never changed, and only where every user still verifies
(a variable's write wants the variable's type): a shape that contradicts a static dimension
is left for the verifier to report. Shape ops left without uses are erased.

```mlir
%d = tosa.dim %x {axis = 1 : i32} : (tensor<1x8xf32>) -> !tosa.shape<1>
%s = tosa.concat_shape %one, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
%r = tosa.reshape %x, %s : (tensor<1x8xf32>, !tosa.shape<2>) -> tensor<1x?xf32>
// becomes
%s = tosa.const_shape {values = dense<[1, 8]> : tensor<2xindex>} : () -> !tosa.shape<2>
%r = tosa.reshape %x, %s : (tensor<1x8xf32>, !tosa.shape<2>) -> tensor<1x8xf32>
```
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from math import prod

from xdsl.context import Context
from xdsl.dialects.builtin import DYNAMIC_INDEX, FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import VerifyException

from tosa_state import folding
from tosa_state.dialects.tosa.common import ConstShapeOp, constant_shape
from tosa_state.dialects.tosa.control_flow import IfOp, YieldOp
from tosa_state.dialects.tosa.data_layout import (
    ConcatOp,
    PadOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TileOp,
    TransposeOp,
)
from tosa_state.dialects.tosa.elementwise_base import TosaElementwiseOperation
from tosa_state.dialects.tosa.reduction import ReductionOperation
from tosa_state.dialects.tosa.scatter_gather import GatherOp, ScatterOp
from tosa_state.dialects.tosa.shape import (
    ConcatShapeOp,
    DimOp,
    ShapeBinaryOperation,
    ShapeFromTensorOp,
)
from tosa_state.dialects.tosa.tensor import MatMulOp
from tosa_state.dialects.tosa.type_conversion import CastOp, RescaleOp, TableOp

Shape = tuple[int, ...]
"""A tensor's dimensions, `DYNAMIC_INDEX` (-1) where unknown."""

UNKNOWN = DYNAMIC_INDEX


@dataclass(frozen=True)
class TosaInferShapesPass(ModulePass):
    """Folds run-time shape values that are known and refines result types to the static
    shapes their operands imply (upstream's `tosa-infer-shapes`)."""

    name = "tosa-infer-shapes"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        infer_shapes(op)


def infer_shapes(module: ModuleOp) -> None:
    """Fold and refine every function of `module` in place."""
    for op in module.body.block.ops:
        if isinstance(op, FuncOp) and op.body.blocks:
            _block(op.body.block)
            _refresh_function_type(op)


def _block(block: Block) -> None:
    for op in list(block.ops):
        if isinstance(op, IfOp):  # a branch's arguments are the inputs it is given
            for region in op.regions:
                for arg, value in zip(region.block.args, op.input_list, strict=True):
                    _refine_value(arg, _shape(value))
        for region in op.regions:
            for inner in region.blocks:
                _block(inner)
        if not _fold_shape(op):
            _refine(op)
        if isinstance(op, ReshapeOp):
            _resolve_inferred_size(op)
    for op in reversed(list(block.ops)):
        if _is_shape_op(op) and not op.results[0].uses:
            Rewriter.erase_op(op)


def _is_shape_op(op: Operation) -> bool:
    return isinstance(op, DimOp | ConcatShapeOp | ShapeBinaryOperation | ShapeFromTensorOp
                      | ConstShapeOp)


def _fold_shape(op: Operation) -> bool:
    """Replace a shape op whose value is known by a `tosa.const_shape`; whether it did."""
    if isinstance(op, DimOp):
        dim = _shape(op.input1)[op.axis.value.data]
        values = None if dim == UNKNOWN else (dim,)
    elif isinstance(op, ConcatShapeOp | ShapeBinaryOperation):
        args = [constant_shape(operand) for operand in op.operands]
        if any(arg is None for arg in args):
            return False
        values = tuple(int(v) for v in folding.evaluate(op, args)[0])
    else:
        return False
    if values is None:
        return False
    Rewriter.replace_op(op, ConstShapeOp(values))
    return True


def _refine(op: Operation) -> None:
    rule = _rule(op)
    if rule is None:
        return
    shapes = rule(op)
    for result, shape in zip(op.results, shapes, strict=True):
        if shape is not None:
            _refine_value(result, shape)


def _refine_value(value: SSAValue, shape: Shape) -> None:
    value_type = value.type
    if not isinstance(value_type, TensorType):
        return
    current = tuple(value_type.get_shape())
    if len(shape) != len(current):
        return
    if any(c != UNKNOWN and c != s for c, s in zip(current, shape, strict=True)):
        return  # a contradiction: the verifier says so
    refined = tuple(c if c != UNKNOWN else s for c, s in zip(current, shape, strict=True))
    if refined == current:
        return
    new = Rewriter.replace_value_with_new_type(value,
                                               TensorType(value_type.element_type, refined))
    if not _users_verify(new):  # a user that wants the type as it was (a variable's write)
        Rewriter.replace_value_with_new_type(new, value_type)


def _users_verify(value: SSAValue) -> bool:
    for use in value.uses:
        user = use.operation
        if isinstance(user, ReturnOp):
            continue  # the function type follows
        try:
            user.verify_()
        except VerifyException:
            return False
    return True


def _resolve_inferred_size(op: ReshapeOp) -> None:
    """A reshape to a static shape given with a `-1` (inferred) size gets the shape
    itself: TOSA 1.0 has no inferred size (`tosa-opt`'s strict check refuses it)."""
    shape = constant_shape(op.shape)
    result = _shape(op.output)
    if shape is not None and -1 in shape and UNKNOWN not in result:
        new = ConstShapeOp(result)
        Rewriter.insert_op(new, InsertPoint.before(op))
        old = op.shape.owner
        op.operands[1] = new.results[0]
        if isinstance(old, ConstShapeOp) and not old.results[0].uses:
            Rewriter.erase_op(old)


def _refresh_function_type(func: FuncOp) -> None:
    last = func.body.block.last_op
    if not isinstance(last, ReturnOp):
        return
    outputs = [value.type for value in last.operands]
    if list(func.function_type.outputs.data) != outputs:
        func.function_type = FunctionType.from_lists(func.function_type.inputs.data, outputs)


# ---------------------------------------------------------------------------------------
# The rules: an op's result shapes from its operands (None where nothing is known)
# ---------------------------------------------------------------------------------------

Rule = Callable[[Operation], Sequence[Shape | None]]


def _shape(value: SSAValue) -> Shape:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return tuple(value_type.get_shape())


def _broadcast(shapes: Sequence[Shape]) -> Shape:
    """TOSA broadcasting with unknown dims: a static size other than 1 wins."""
    out = []
    for dims in zip(*shapes, strict=True):
        sizes = {d for d in dims if d not in (UNKNOWN, 1)}
        if len(sizes) == 1:
            out.append(sizes.pop())
        elif sizes or UNKNOWN in dims:
            out.append(UNKNOWN)
        else:
            out.append(1)
    return tuple(out)


def _elementwise(op: Operation) -> Sequence[Shape | None]:
    if isinstance(op, CastOp | TableOp | RescaleOp):
        return [_shape(op.operands[0])]
    rank = len(_shape(op.results[0]))
    shapes = [_shape(v) for v in op.operands
              if isinstance(v.type, TensorType) and v.type.get_num_dims() == rank]
    return [_broadcast(shapes)]


def _reshape(op: ReshapeOp) -> Sequence[Shape | None]:
    new = constant_shape(op.shape)
    if new is None:
        return [None]
    source = _shape(op.input1)
    if -1 in new:  # the one size inferred from the element count
        known = prod(d for d in new if d != -1)
        size = prod(source) // known if UNKNOWN not in source and known else UNKNOWN
        new = tuple(size if d == -1 else d for d in new)
    return [new]


def _slice(op: SliceOp) -> Sequence[Shape | None]:
    return [constant_shape(op.size)]


def _tile(op: TileOp) -> Sequence[Shape | None]:
    multiples = constant_shape(op.multiples)
    if multiples is None:
        return [None]
    return [tuple(UNKNOWN if d == UNKNOWN else d * m
                  for d, m in zip(_shape(op.input1), multiples, strict=True))]


def _pad(op: PadOp) -> Sequence[Shape | None]:
    padding = constant_shape(op.padding)
    if padding is None:
        return [None]
    return [tuple(UNKNOWN if d == UNKNOWN else d + padding[2 * i] + padding[2 * i + 1]
                  for i, d in enumerate(_shape(op.input1)))]


def _concat(op: ConcatOp) -> Sequence[Shape | None]:
    axis = op.axis.value.data
    shapes = [_shape(v) for v in op.input1]
    out = []
    for i, dims in enumerate(zip(*shapes, strict=True)):
        if i == axis:
            out.append(UNKNOWN if UNKNOWN in dims else sum(dims))
        else:
            known = {d for d in dims if d != UNKNOWN}
            out.append(known.pop() if len(known) == 1 else UNKNOWN)
    return [tuple(out)]


def _transpose(op: TransposeOp) -> Sequence[Shape | None]:
    source = _shape(op.input1)
    return [tuple(source[p] for p in op.perms.get_values())]


def _gather(op: GatherOp) -> Sequence[Shape | None]:
    n, _, c = _shape(op.values)
    n2, w = _shape(op.indices)
    return [(n if n != UNKNOWN else n2, w, c)]


def _matmul(op: MatMulOp) -> Sequence[Shape | None]:
    n, h, _ = _shape(op.operands[0])
    n2, _, w = _shape(op.operands[1])
    return [(n if n != UNKNOWN else n2, h, w)]


def _reduction(op: ReductionOperation) -> Sequence[Shape | None]:
    source = list(_shape(op.input))
    source[op.axis.value.data] = 1
    return [tuple(source)]


def _cond_if(op: IfOp) -> Sequence[Shape | None]:
    yields = [region.block.last_op for region in op.regions]
    if not all(isinstance(y, YieldOp) for y in yields):
        return [None] * len(op.results)
    shapes: list[Shape | None] = []
    for values in zip(*(y.operands for y in yields), strict=True):  # type: ignore[union-attr]
        first, *rest = (_shape(v) for v in values)
        shapes.append(first if all(s == first for s in rest) else None)
    return shapes


def _rule(op: Operation) -> Rule | None:
    if isinstance(op, TosaElementwiseOperation):
        return _elementwise
    if isinstance(op, ReductionOperation):
        return _reduction  # type: ignore[return-value]
    for kind, rule in _RULES:
        if isinstance(op, kind):
            return rule
    return None


_RULES: tuple[tuple[type[Operation], Rule], ...] = (
    (ReshapeOp, _reshape), (SliceOp, _slice), (TileOp, _tile), (PadOp, _pad),  # type: ignore[list-item]
    (ConcatOp, _concat), (TransposeOp, _transpose), (GatherOp, _gather),  # type: ignore[list-item]
    (MatMulOp, _matmul), (IfOp, _cond_if),  # type: ignore[list-item]
    (ReverseOp, lambda op: [_shape(op.operands[0])]),
    (ScatterOp, lambda op: [_shape(op.operands[0])]),
)


__all__ = ["TosaInferShapesPass", "infer_shapes"]
