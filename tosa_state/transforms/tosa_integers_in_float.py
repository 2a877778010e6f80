"""`tosa-integers-in-float`: the integer ops a PRO-FP target lacks, computed in `f32`.

TOSA 1.0's PRO-FP profile adds, subtracts and multiplies `i32` and gathers and scatters
with `i32` indices, but compares, selects, moves (`reshape`, `slice`, `tile`, `concat`,
`pad`, `transpose`, `reverse`), reduces and gathers `i32` values only under PRO-INT, and
casts between `i32` and `bool` there too; no profile gathers `bool` values. A decoder
computes its positions, its causal mask and its token / beam indices with such ops. For a
target with PRO-FP (`profiles=pro_fp`, or `pro_int,pro_fp`) this pass computes in `f32`
the ops none of its profiles admits:

- an `i32` comparison compares the operands cast to `f32`;
- an `i32` data movement, `select`, reduction, `maximum` / `minimum` / `abs`, or a
  `gather` of `i32` values, runs on the operands cast to `f32` (a constant becomes an
  `f32` constant) and casts its result back to `i32` for the ops that need `i32` (a
  `gather`'s indices, an `add`); the next such op takes the `f32` value directly;
- `cast` from `i32` to `bool` is `x != 0` (`logical_not(equal(x, 0.0))`), from `bool` to
  an integer `select(b, 1.0, 0.0)` cast to it; a `gather` of `bool` values gathers those
  ones and zeros and compares them with `0.5`.

Exact for integers of magnitude up to 2^24 (`f32`'s 24-bit significand): positions,
lengths, masks and indices of any model TOSA's level 8k admits. An `i32` constant beyond
that is left as it is (the target check then names the op); a run-time value beyond that
would be rounded, so with PRO-INT in the target only what no profile admits is rewritten.

```mlir
%g = tosa.greater %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
// becomes
%fa = tosa.cast %a : (tensor<4xi32>) -> tensor<4xf32>
%fb = tosa.cast %b : (tensor<4xi32>) -> tensor<4xf32>
%g = tosa.greater %fa, %fb : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xi1>
```
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, IntegerType, ModuleOp, TensorType, f32
from xdsl.ir import Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tosa.common import ConstOp
from tosa_state.dialects.tosa.data_layout import (
    ConcatOp,
    PadOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TileOp,
    TransposeOp,
)
from tosa_state.dialects.tosa.elementwise import (
    AbsOp,
    EqualOp,
    GreaterEqualOp,
    GreaterOp,
    LogicalNotOp,
    MaximumOp,
    MinimumOp,
    SelectOp,
)
from tosa_state.dialects.tosa.reduction import ReduceMaxOp, ReduceMinOp, ReduceSumOp
from tosa_state.dialects.tosa.scatter_gather import GatherOp
from tosa_state.dialects.tosa.type_conversion import CastOp
from tosa_state.transforms.tosa_validation.type_support import (
    FP,
    SPELLINGS,
    SUPPORT,
    requirements,
    signature,
)

EXACT = 2**24
"""Integers of magnitude up to this are exact in `f32`."""

_COMPARISONS = (EqualOp, GreaterOp, GreaterEqualOp)
_IN_FLOAT = (ReshapeOp, SliceOp, TileOp, TransposeOp, ConcatOp, PadOp, ReverseOp, SelectOp,
             ReduceSumOp, ReduceMaxOp, ReduceMinOp, MaximumOp, MinimumOp, AbsOp, GatherOp)
"""Ops whose `i32` values may be carried in `f32`: they only move, choose or add them."""


@dataclass(frozen=True)
class TosaIntegersInFloatPass(ModulePass):
    """Computes in `f32` (exact up to 2^24) the `i32` / `bool` ops that none of `profiles`
    (`pro_fp`, or `pro_int,pro_fp`) admits."""

    name = "tosa-integers-in-float"

    profiles: str = FP

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        integers_in_float(op, tuple(p.strip() for p in self.profiles.split(",") if p.strip()))


def integers_in_float(module: ModuleOp, profiles: tuple[str, ...] = (FP,)) -> None:
    """Rewrite the ops of `module` that none of `profiles` admits (see the module doc)."""
    rewriter = _Rewrite()
    for op in list(module.walk()):
        if op.parent is not None and not _legal(op, profiles):
            rewriter.op(op)
    for op in reversed(rewriter.inserted):  # what nothing came to use, and what it replaced
        if op.parent is not None and not op.results[0].uses:
            Rewriter.erase_op(op)


def _legal(op: Operation, profiles: tuple[str, ...]) -> bool:
    name = SPELLINGS.get(op.name, op.name)
    if name not in SUPPORT:
        return True  # not a typed TOSA operator: not this pass's to judge
    ways = requirements(name, signature(name, op))
    return any(set(ways_profiles) & set(profiles) and extension is None
               for ways_profiles, extension in ways)


def _element(value: SSAValue):
    value_type = value.type
    return value_type.element_type if isinstance(value_type, TensorType) else None


def _is_int(value: SSAValue, width: int | None = None) -> bool:
    element = _element(value)
    return (isinstance(element, IntegerType) and element.width.data > 1
            and (width is None or element.width.data == width))


def _is_bool(value: SSAValue) -> bool:
    element = _element(value)
    return isinstance(element, IntegerType) and element.width.data == 1


def _with_element(value_type, element) -> TensorType:
    return TensorType(element, value_type.get_shape())


@dataclass
class _Rewrite:
    twins: dict[tuple[SSAValue, Block | None], SSAValue] = field(default_factory=dict)
    """An `i32` value's `f32` form, in the block of the ops that use it."""
    inserted: list[Operation] = field(default_factory=list)
    """The casts and constants made, and the constants replaced: erased when unused."""

    def op(self, op: Operation) -> None:
        if isinstance(op, _COMPARISONS) and all(_is_int(v, 32) for v in op.operands):
            self._compare(op)
        elif isinstance(op, CastOp):
            self._cast(op)
        elif isinstance(op, GatherOp) and _is_bool(op.values):
            self._gather_bool(op)
        elif isinstance(op, _IN_FLOAT) and all(_is_int(r, 32) for r in op.results):
            self._in_float(op)

    # -- values ---------------------------------------------------------------------------

    def floated(self, value: SSAValue, before: Operation) -> SSAValue | None:
        """`value` (i32) as f32, made before `before` (None: a constant beyond 2^24)."""
        key = (value, before.parent_block())
        if key in self.twins:
            return self.twins[key]
        owner = value.owner
        if isinstance(owner, ConstOp):
            ints = np.asarray(owner.values.get_values(), dtype=np.int64)
            if ints.size and np.abs(ints).max() > EXACT:
                return None
            kind = _with_element(value.type, f32)
            attr = DenseIntOrFPElementsAttr.from_list(kind, [float(v) for v in ints])
            self.inserted.append(owner)
            twin = self.made(ConstOp(attr), before)
        else:
            twin = self.made(CastOp(value, _with_element(value.type, f32)), before)
        self.twins[key] = twin
        return twin

    def made(self, op: Operation, before: Operation) -> SSAValue:
        self.inserted.append(_insert(op, before))
        return op.results[0]

    def ones_and_zeros(self, flags: SSAValue, before: Operation) -> SSAValue:
        """`bool` `flags` as 1.0 / 0.0."""
        rank = flags.type.get_num_dims()  # type: ignore[union-attr]
        one, zero = (self.constant(v, rank, before) for v in (1.0, 0.0))
        return _insert(SelectOp(flags, one, zero, _with_element(flags.type, f32)),
                       before).results[0]

    @staticmethod
    def constant(value: float, rank: int, before: Operation) -> SSAValue:
        attr = DenseIntOrFPElementsAttr.from_list(TensorType(f32, [1] * rank), [value])
        return _insert(ConstOp(attr), before).results[0]

    def back_to_int(self, op: Operation, result: SSAValue, floated: SSAValue) -> None:
        """`op`'s `i32` `result` replaced by `floated` cast back (its `f32` twin kept)."""
        cast = CastOp(floated, result.type)
        Rewriter.insert_op(cast, InsertPoint.after(floated.owner))  # type: ignore[arg-type]
        self.inserted.append(cast)
        result.replace_all_uses_with(cast.results[0])
        self.twins[(cast.results[0], op.parent_block())] = floated

    # -- the rewrites ---------------------------------------------------------------------

    def _compare(self, op: Operation) -> None:
        operands = [self.floated(v, op) for v in op.operands]
        if any(v is None for v in operands):
            return
        new = type(op)(*operands, op.results[0].type)
        new.attributes.update(op.attributes)
        Rewriter.replace_op(op, new)

    def _cast(self, op: CastOp) -> None:
        source, result = op.input, op.output
        if _is_int(source, 32) and _is_bool(result):  # x != 0
            floated = self.floated(source, op)
            if floated is None:
                return
            zero = self.constant(0.0, source.type.get_num_dims(), op)  # type: ignore[union-attr]
            equal = _insert(EqualOp(floated, zero, result.type), op).results[0]
            Rewriter.replace_op(op, LogicalNotOp(equal, result.type))
        elif _is_bool(source) and _is_int(result):
            floated = self.ones_and_zeros(source, op)
            Rewriter.replace_op(op, CastOp(floated, result.type))

    def _gather_bool(self, op: GatherOp) -> None:
        values = self.ones_and_zeros(op.values, op)
        gathered = _insert(GatherOp(values, op.indices, _with_element(op.output.type, f32)),
                           op).results[0]
        half = self.constant(0.5, 3, op)
        Rewriter.replace_op(op, GreaterOp(gathered, half, op.output.type))

    def _in_float(self, op: Operation) -> None:
        operands: list[SSAValue] = []
        for index, value in enumerate(op.operands):
            keep = (not _is_int(value, 32)
                    or (isinstance(op, GatherOp) and index == 1))  # the indices stay i32
            floated = value if keep else self.floated(value, op)
            if floated is None:
                return
            operands.append(floated)
        result_types = [_with_element(r.type, f32) for r in op.results]
        new = type(op).create(operands=operands, result_types=result_types,
                              properties=dict(op.properties), attributes=dict(op.attributes))
        Rewriter.insert_op(new, InsertPoint.before(op))
        for result, floated in zip(op.results, new.results, strict=True):
            self.back_to_int(op, result, floated)
        Rewriter.erase_op(op)


def _insert(op: Operation, before: Operation) -> Operation:
    Rewriter.insert_op(op, InsertPoint.before(before))
    return op


__all__ = ["EXACT", "TosaIntegersInFloatPass", "integers_in_float"]
