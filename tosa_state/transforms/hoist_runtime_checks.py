"""`hoist-runtime-checks`: a function body's assertions (`tosa-runtime-checks`) merged into
as few as their inputs allow, each as early as they allow.

IREE closes an execution region at each `cf.assert`, so 59 checks spread over the tiny
Llama's decode step cost it about 8% of its time (docs/runtime.md); the same conditions
asserted in a few places cost nothing measurable.

A check's condition is a scalar computation over dims (`tensor.dim`) of tensors. Each dim is
followed back to a *root* that is defined early: a function argument, a loaded global or
any op the tracing does not see through, such as a `tosa.cond_if`. It goes

- through an elementwise op: the largest of its operands' dims there (what the broadcast
  gives when its own check holds);
- through `tosa.transpose`, `tosa.matmul`, `tosa.gather`, a reduction away from its axis,
  `tosa.concat` (the sum along its axis, the first input's dim elsewhere), `tosa.tile`,
  `tensor.cast`;
- to the sizes that make a `tensor.reshape`, `tensor.empty`, `tensor.extract_slice` or a
  `linalg.generic`'s init.

A check may then move up to just after its latest root, and must stay before the op it
guards. The fewest groups that cover every check are taken, earliest guarded op first. Each
group becomes one `cf.assert` of its members' conjunction, just before the first op any
member guards; its message lists the members' messages. A check that stands alone stays as
it is.

This is sound. If every check holds, every traced dim equals the real one, so each group
asserts exactly its members' conditions. If some check fails, take the first one in program
order that fails. Its dims are traced through ops before it, whose checks hold, so it is
computed exactly and its group fails no later than it would have. A later check traced
through a failed op may fail sooner, but the call fails either way, before any op reads out
of bounds. Device iree replays a failed call on the interpreter for the exact message
(`devices/iree_checks.py`).

```mlir
%0 = tensor.dim %a, %c0 : tensor<?x4xf32>
%1 = tensor.dim %b, %c0 : tensor<?x4xf32>
cf.assert %eq01, "...: 'tosa.add' op operands do not broadcast to one shape"
%s = tosa.add %a, %b : (tensor<?x4xf32>, tensor<?x4xf32>) -> tensor<?x4xf32>
%2 = tensor.dim %s, %c0 : tensor<?x4xf32>
%3 = tensor.dim %c, %c0 : tensor<?x4xf32>
cf.assert %eq23, "...: 'tosa.mul' op operands do not broadcast to one shape"
%m = tosa.mul %s, %c, %shift : ...
```
becomes one assertion before the `tosa.add`, of the first condition and of the second with
`dim(%s, 0)` as `max(dim(%a, 0), dim(%b, 0))`.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from xdsl.context import Context
from xdsl.dialects import arith, cf, tensor
from xdsl.dialects.builtin import IndexType, IntegerAttr, ModuleOp, TensorType
from xdsl.dialects.func import CallOp, FuncOp
from xdsl.dialects.linalg import ops as linalg_ops
from xdsl.ir import Attribute, Block, BlockArgument, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.ml_program import GlobalStoreOp
from tosa_state.dialects.tensor import ReshapeOp as TensorReshapeOp
from tosa_state.dialects.tosa.data_layout import ConcatOp, ReshapeOp, TileOp, TransposeOp
from tosa_state.dialects.tosa.elementwise_base import TosaElementwiseOperation
from tosa_state.dialects.tosa.reduction import ReductionOperation
from tosa_state.dialects.tosa.scatter_gather import GatherOp
from tosa_state.dialects.tosa.tensor import ConstShapeOp, MatMulOp


@dataclass(eq=False)
class Recipe:
    """How to compute a scalar again: `kind` "const" (`payload` its value), "dim" (`payload`
    a root tensor, `axis`), "leaf" (`payload` an existing scalar) or an arith op's class with
    its operands' recipes; `ready`: the position of the latest op it reads (-1: none, or
    only arguments). Recipes are shared, never copied: a traced dim is one object."""

    kind: object
    payload: object
    type: Attribute
    operands: tuple[Recipe, ...] = ()
    axis: int = 0
    ready: int = -1


_BINARY = (arith.AndIOp, arith.OrIOp, arith.AddiOp, arith.MuliOp, arith.MaxUIOp,
           arith.MinUIOp, arith.SubiOp, arith.DivUIOp, arith.DivSIOp, arith.FloorDivSIOp)
_INDEX = IndexType()


def _static(value: SSAValue, axis: int) -> int | None:
    shape = value.type.get_shape() if isinstance(value.type, TensorType) else ()
    return shape[axis] if axis < len(shape) and shape[axis] >= 0 else None


def _const_index(value: SSAValue) -> int | None:
    owner = value.owner
    if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
        return owner.value.value.data
    return None


@dataclass
class _Tracer:
    """Recipes of a function body's scalars, their dims followed back to roots."""

    block: Block
    position: dict[Operation, int] = field(init=False)
    _scalars: dict[SSAValue, Recipe] = field(default_factory=dict)
    _dims: dict[tuple[SSAValue, int], Recipe] = field(default_factory=dict)

    def __post_init__(self):
        self.position = {op: i for i, op in enumerate(self.block.ops)}

    def _at(self, value: SSAValue) -> int:
        if isinstance(value, BlockArgument):
            return -1 if value.block is self.block else len(self.position)
        return self.position.get(value.owner, len(self.position))  # type: ignore[arg-type]

    @staticmethod
    def const(value: int, value_type: Attribute = _INDEX) -> Recipe:
        return Recipe("const", value, value_type)

    @staticmethod
    def op(op_type: type[Operation], value_type: Attribute, *operands: Recipe,
           predicate: int | None = None) -> Recipe:
        return Recipe(op_type, predicate, value_type, operands,
                      ready=max(r.ready for r in operands))

    def scalar(self, value: SSAValue) -> Recipe:
        if value not in self._scalars:
            self._scalars[value] = self._scalar(value)
        return self._scalars[value]

    def _scalar(self, value: SSAValue) -> Recipe:
        owner = value.owner
        if isinstance(owner, arith.ConstantOp) and isinstance(owner.value, IntegerAttr):
            return self.const(owner.value.value.data, value.type)
        if isinstance(owner, tensor.DimOp) and (axis := _const_index(owner.index)) is not None:
            return self.dim(owner.source, axis)
        if isinstance(owner, arith.CmpiOp):
            return self.op(arith.CmpiOp, value.type, self.scalar(owner.lhs),
                           self.scalar(owner.rhs), predicate=owner.predicate.value.data)
        if isinstance(owner, _BINARY):
            return self.op(type(owner), value.type, self.scalar(owner.lhs),
                           self.scalar(owner.rhs))
        if isinstance(owner, arith.IndexCastOp):
            return self.op(arith.IndexCastOp, value.type, self.scalar(owner.input))
        return Recipe("leaf", value, value.type, ready=self._at(value))

    def _index(self, value: SSAValue) -> Recipe:
        recipe = self.scalar(value)
        if isinstance(value.type, IndexType):
            return recipe
        return self.op(arith.IndexCastOp, _INDEX, recipe)

    def _fold(self, recipes: list[Recipe], op: type[Operation] = arith.AddiOp) -> Recipe:
        total = recipes[0]
        for recipe in recipes[1:]:
            total = self.op(op, _INDEX, total, recipe)
        return total

    def dim(self, value: SSAValue, axis: int) -> Recipe:
        key = (value, axis)
        if key not in self._dims:
            if (size := _static(value, axis)) is not None:
                self._dims[key] = self.const(size)
            else:
                owner = value.owner
                through = self._through(owner, value, axis) if isinstance(owner, Operation) \
                    else None
                self._dims[key] = through if through is not None else Recipe(
                    "dim", value, _INDEX, axis=axis, ready=self._at(value))
        return self._dims[key]

    def _through(self, op: Operation, value: SSAValue, axis: int) -> Recipe | None:
        if op.parent_block() is not self.block:
            return None
        if isinstance(op, TosaElementwiseOperation) and len(op.results) == 1:
            rank = len(value.type.get_shape())
            along = [v for v in op.operands if isinstance(v.type, TensorType)
                     and len(v.type.get_shape()) == rank and v.type.get_shape()[axis] != 1]
            return self._fold([self.dim(v, axis) for v in along], arith.MaxUIOp) if along \
                else None
        if isinstance(op, TransposeOp):
            return self.dim(op.input1, op.perms.get_values()[axis])
        if isinstance(op, MatMulOp):
            return self.dim(op.b if axis == 2 else op.a, axis)
        if isinstance(op, GatherOp):
            return self.dim(op.indices if axis == 1 else op.values, axis)
        if isinstance(op, ReductionOperation):
            return None if axis == op.axis.value.data else self.dim(op.input, axis)
        if isinstance(op, ConcatOp):
            if axis == op.axis.value.data:
                return self._fold([self.dim(v, axis) for v in op.input1])
            return self.dim(op.input1[0], axis)
        if isinstance(op, TileOp) and isinstance(shape := op.multiples.owner, ConstShapeOp):
            return self.op(arith.MuliOp, _INDEX, self.dim(op.input1, axis),
                           self.const(shape.shape_values[axis]))
        if isinstance(op, tensor.CastOp):
            return self.dim(op.source, axis)
        return self._sizes(op, value, axis)

    def _sizes(self, op: Operation, value: SSAValue, axis: int) -> Recipe | None:
        """A dim set by an op's size operands."""
        if isinstance(op, ReshapeOp) and isinstance(shape := op.shape.owner, ConstShapeOp):
            return self._inferred(op.input1, shape.shape_values, axis)
        if isinstance(op, TensorReshapeOp) and isinstance(
                shape := op.shape.owner, tensor.FromElementsOp):
            return self._index(shape.elements[axis])
        if isinstance(op, tensor.EmptyOp):
            shape = value.type.get_shape()
            return self._index(op.dynamic_sizes[sum(1 for d in shape[:axis] if d < 0)])
        if isinstance(op, tensor.ExtractSliceOp) and len(value.type.get_shape()) == len(
                op.source.type.get_shape()):
            static = op.static_sizes.get_values()
            return self._index(op.sizes[sum(1 for d in static[:axis] if d < 0)])
        if isinstance(op, linalg_ops.GenericOp) and len(op.results) == len(op.outputs):
            return self.dim(op.outputs[list(op.results).index(value)], axis)
        return None

    def _inferred(self, source: SSAValue, sizes: list[int], axis: int) -> Recipe | None:
        """A reshape's `-1` at `axis`: the source's elements over the other sizes."""
        if sizes[axis] >= 0:
            return self.const(sizes[axis])
        rank = len(source.type.get_shape())
        elements = self._fold([self.dim(source, d) for d in range(rank)], arith.MuliOp) \
            if rank else self.const(1)
        others = 1
        for d, size in enumerate(sizes):
            if d != axis:
                others *= size
        return self.op(arith.DivUIOp, _INDEX, elements, self.const(others)) if others != 1 \
            else elements


def _build(recipe: Recipe, before: Operation, built: dict[object, SSAValue]) -> SSAValue:
    """The recipe's value, its ops inserted before `before` (each recipe built once)."""
    if recipe.kind == "leaf":
        return recipe.payload  # type: ignore[return-value]
    key: object = ("const", recipe.payload, recipe.type) if recipe.kind == "const" else recipe
    if key in built:
        return built[key]
    op: Operation
    if recipe.kind == "const":
        op = arith.ConstantOp(IntegerAttr(recipe.payload, recipe.type))
    elif recipe.kind == "dim":
        index = _build(_Tracer.const(recipe.axis), before, built)
        op = tensor.DimOp(recipe.payload, index)  # type: ignore[arg-type]
    else:
        operands = [_build(r, before, built) for r in recipe.operands]
        if recipe.kind is arith.CmpiOp:
            op = arith.CmpiOp(*operands, recipe.payload)  # type: ignore[arg-type]
        elif recipe.kind is arith.IndexCastOp:
            op = arith.IndexCastOp(operands[0], recipe.type)
        else:
            op = recipe.kind(*operands)  # type: ignore[operator]
    op.location = before.location
    Rewriter.insert_op(op, InsertPoint.before(before))
    built[key] = op.results[0]
    return op.results[0]


_PURE = (arith.ConstantOp, arith.CmpiOp, arith.IndexCastOp, *_BINARY, tensor.DimOp)


def _erase_dead(block: Block) -> None:
    for op in reversed(list(block.ops)):
        if isinstance(op, _PURE) and not any(r.uses for r in op.results):
            Rewriter.erase_op(op)


@dataclass(frozen=True)
class _Check:
    assertion: cf.AssertOp
    recipe: Recipe
    deadline: int


def _groups(checks: list[_Check]) -> list[list[_Check]]:
    """The fewest points that each check has one of after its ready position and not after
    its own (the earliest deadline first: interval stabbing); each check joins the earliest
    point it can, the check that set it first."""
    ordered = sorted(checks, key=lambda c: c.deadline)
    points: list[int] = []
    for check in ordered:
        if not points or check.recipe.ready >= points[-1]:
            points.append(check.deadline)
    groups: dict[int, list[_Check]] = {point: [] for point in points}
    for check in ordered:
        groups[next(p for p in points if check.recipe.ready < p <= check.deadline)].append(check)
    return list(groups.values())


_WRITES = (GlobalStoreOp, CallOp)
_EFFECTS = (*_WRITES, cf.AssertOp)


def _roots(recipe: Recipe, found: set[Operation], seen: set[int]) -> None:
    """The ops whose results the recipe's dims are taken of."""
    if id(recipe) in seen:
        return
    seen.add(id(recipe))
    if recipe.kind == "dim" and isinstance(owner := recipe.payload.owner, Operation):  # type: ignore[union-attr]
        found.add(owner)
    for operand in recipe.operands:
        _roots(operand, found, seen)


def _slice(op: Operation, block: Block) -> set[Operation] | None:
    """`op` and the ops of `block` it reads (from its regions too), if none of them does
    more than read (a global, after `mlprogram-stores-last`)."""
    needed: set[Operation] = set()
    stack = [op]
    while stack:
        current = stack.pop()
        if current in needed:
            continue
        needed.add(current)
        for inner in current.walk():
            if isinstance(inner, _EFFECTS):
                return None
            for operand in inner.operands:
                if isinstance(owner := operand.owner, Operation) and \
                        owner.parent_block() is block:
                    stack.append(owner)
    return needed


def _checks(block: Block) -> list[_Check]:
    tracer = _Tracer(block)
    checks = []
    for op in block.ops:
        if isinstance(op, cf.AssertOp):
            recipe = tracer.scalar(op.arg)
            checks.append(_Check(op, recipe, tracer.position[op]))
    return checks


def _raise_roots(block: Block, checks: list[_Check]) -> bool:
    """Moves the roots of the checks' dims (a state's `tosa.cond_if` of its first call, say)
    with what they read to the top of `block`, where that reads nothing written in the call;
    whether any moved."""
    roots: set[Operation] = set()
    seen: set[int] = set()
    for check in checks:
        _roots(check.recipe, roots, seen)
    ops = list(block.ops)
    # only from before the first op that may write (mlprogram-stores-last puts the stores
    # at the end): a load moved above a store would read the old value
    barrier = next((i for i, op in enumerate(ops)
                    if any(isinstance(inner, _WRITES) for inner in op.walk())), len(ops))
    before = set(ops[:barrier])
    moving: set[Operation] = set()
    for root in roots:
        if root in before and (needed := _slice(root, block)) is not None:
            moving |= needed
    top = next((op for op in ops if op not in moving), None)
    if top is None or all(op in moving for op in ops[:len(moving)]):
        return False
    for op in ops:
        if op in moving:
            op.detach()
            block.insert_op_before(op, top)
    return True


def hoist_checks(func: FuncOp) -> None:
    block = func.body.block
    checks = _checks(block)
    if _raise_roots(block, checks):
        checks = _checks(block)
    built: dict[object, SSAValue] = {}
    for group in _groups(checks):
        if len(group) == 1:
            continue
        first = group[0].assertion
        condition = _build(group[0].recipe, first, built)
        for check in group[1:]:
            condition = _build(_Tracer.op(arith.AndIOp, condition.type, Recipe(
                "leaf", condition, condition.type), check.recipe), first, built)
        messages = [check.assertion.msg.data for check in group]
        merged = cf.AssertOp(condition, "one of these run-time checks failed:\n"
                             + "\n".join(messages))
        merged.location = first.location
        Rewriter.insert_op(merged, InsertPoint.before(first))
        for check in group:
            Rewriter.erase_op(check.assertion)
    _erase_dead(block)


@dataclass(frozen=True)
class HoistRuntimeChecksPass(ModulePass):
    """Merges each function body's assertions into as few as their dims allow, each as early
    as they allow (IREE closes an execution region at each)."""

    name = "hoist-runtime-checks"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.body.block.ops:
            if isinstance(func, FuncOp) and func.body.blocks:
                hoist_checks(func)


__all__ = ["HoistRuntimeChecksPass"]
