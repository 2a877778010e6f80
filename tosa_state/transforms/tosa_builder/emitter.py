"""The `Emitter`: builds the TOSA ops replacing one op of another dialect, folding ops on
constants (shape subgraphs become constants), verifying the rest once per signature, and
reusing equal pure ops that an earlier conversion of the block emitted (`reuse`); and the
`Lowering`, what the patterns of one conversion pass share.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field
from functools import cache
from typing import Any

import numpy as np
from xdsl.dialects.builtin import (
    IntegerAttr,
    IntegerType,
    TensorType,
    UnknownLoc,
    f32,
    i1,
    i8,
    i32,
)
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import VerifyException

from tosa_state import folding
from tosa_state.diagnostics import TosaStateError, format_shape
from tosa_state.dialects.tensor import BitcastOp
from tosa_state.dialects.tosa import control_flow as cf
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import shape as tts
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.dialects.tosa_state import NotFolded
from tosa_state.dtypes import (
    UnsupportedElementType,
    numpy_to_dense,
)
from tosa_state.resources import identity, mapped
from tosa_state.transforms.to_tosa import merge_key, pure_class
from tosa_state.transforms.tosa_builder.reuse import Key, PureOps, Values
from tosa_state.transforms.tosa_builder.values import (
    DYN,
    FOREIGN_CONSTANTS,
    Unsupported,
    broadcast_shape,
    constant,
    dense,
    dims,
    dims_of,
    dtype_of,
    element,
    integer_type,
    is_float,
    is_static,
    shape,
    tensor_type,
)
from tosa_state.verification import verification_signature

FOLD_LIMIT = 1 << 20
"""Ops whose operands are all constants are folded when their results have at most this many
elements (weights included: a transposed weight becomes one constant)."""

DATA_SIZES_LIMIT = 16
"""The longest integer tensor computed from data that `Emitter.size_values` reads as sizes
(one `tosa.shape_from_tensor` each: pads, bounds and repeats are one per axis)."""

_STATE_OPS = (VariableOp, VariableReadOp, VariableWriteOp)

_SHARED_CONST = 64
"""Constants of up to this many elements are emitted once per block (keyed by value)."""


@cache
def _shape_type(rank: int) -> tt.ShapeType:
    return tt.ShapeType(rank)


@cache
def axis_attr(axis: int) -> IntegerAttr:
    return IntegerAttr(axis, i32)



def _runtime_value(value: SSAValue) -> Any:
    owner = value.owner
    if isinstance(owner, tt.ConstShapeOp):
        return owner.shape_values
    return constant(value)


_CONSTANT_OPS = frozenset((tt.ConstOp, tt.ConstShapeOp))
"""The TOSA ops whose values `folding` takes, besides a source dialect's registered
constants (`values.FOREIGN_CONSTANTS`); exact classes: none of them is subclassed."""


def _is_constant(value: SSAValue) -> bool:
    owner_type = type(value.owner)
    return owner_type in _CONSTANT_OPS or owner_type in FOREIGN_CONSTANTS


_LAYOUT_OPS = (tt.TransposeOp, tt.ReshapeOp)
"""Ops that only move elements: not folded on a mapped weight (`resources.mapped`), which
would copy it into a new attribute; the plan folds them into views of the mapping."""


# ---------------------------------------------------------------------------------------------
# The conversion's shared state
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RuntimeShape:
    """A converted OpenVINO shape tensor (ShapeOf, and Gather / Concat / Convert /
    Squeeze / Unsqueeze of it) that holds sizes known only at run time.

    Its TOSA value is a `!tosa.shape<N>`; `elements` are the known sizes (ints) and the
    run-time ones (`!tosa.shape<1>` values, e.g. `tosa.dim`); `scalar` for a 0-D tensor."""

    elements: tuple[int | SSAValue, ...]
    scalar: bool
    element_type: Attribute


@dataclass
class Lowering:
    """What the patterns of one pass run share: failure reasons, the variables declared so
    far (by name), the run-time shapes, and constant folding."""

    failures: dict[Operation, Unsupported] = field(default_factory=dict)
    variables: dict[str, VariableOp] = field(default_factory=dict)
    created: list[Operation] = field(default_factory=list)
    """Every op the conversion inserted (candidates for the final clean-up)."""
    shapes: dict[SSAValue, RuntimeShape] = field(default_factory=dict)
    """The `!tosa.shape` values standing for OpenVINO shape tensors, by value."""
    verified: set[Hashable] = field(default_factory=set)
    """The signatures of the ops emitted and verified so far (`verification_signature`:
    an op of one of them verifies alike; the set keeps the constants they name alive)."""
    pure: PureOps = field(default_factory=PureOps)
    """The pure ops emitted so far, which later conversions in their block reuse."""

    def evaluate(self, op: Operation, args: Sequence[Any]) -> tuple[Any, ...]:
        """Run `op` on constant arguments (`tosa_state.folding`: the runtime's numpy impls)."""
        try:
            return folding.evaluate(op, args)
        except (TosaStateError, ValueError, IndexError) as error:
            raise Unsupported(f"folding '{op.name}' failed: {error}") from None


# ---------------------------------------------------------------------------------------------
# The emitter: builds the replacement of one op
# ---------------------------------------------------------------------------------------------


class Emitter:
    """Collects the TOSA ops replacing `anchor` (inserted only when the conversion succeeds),
    folding ops on constants and verifying the rest, plus ops for the end of the block (state
    writes) and module-level declarations.

    A pure op equal to one emitted before is not emitted again: its values are reused, from
    this emitter's ops or, when `shared` (the ops go right before `anchor`), from the
    earlier conversions of the block (`lowering.pure`, where they dominate `anchor`)."""

    def __init__(self, lowering: Lowering, anchor: Operation, shared: bool = True):
        self.lowering = lowering
        self.anchor = anchor
        self.shared = shared and anchor is not None  # (tests build ops without one)
        self.ops: list[Operation] = []
        self.at_end: list[Operation] = []
        self.declarations: list[Operation] = []
        self._emitted: dict[Key, Values] = {}
        """The values of this emitter's pure ops (and of the ops it folded), by key."""
        self.reused: set[SSAValue] = set()
        """Values this emitter got from an earlier pure op instead of a new one."""

    # -- bookkeeping ----------------------------------------------------------------------

    def _reuse(self, key: Key) -> Values | None:
        """The values of an equal pure op emitted before (see the class docstring)."""
        found = self._emitted.get(key)
        if found is None and self.shared:
            found = self.lowering.pure.find(self.anchor, key)
        if found is not None:
            self.reused.update(found)
        return found

    def _pure(self, parts: tuple[Hashable, ...], build: Callable[[], Operation],
              checked: bool = True) -> SSAValue:
        """The result of the single-result pure op `build()`, which `parts` describe: built
        only when no equal op was emitted before (a cheaper key than `merge_key`), then
        verified and folded as `emit` does, unless not `checked` (a constant built here)."""
        key = Key(parts)
        found = self._reuse(key)
        if found is None:
            if checked:
                values = tuple(self._add(build()))
            else:
                op = build()
                self.ops.append(op)
                values = tuple(op.results)
            found = self._emitted[key] = values
        (result,) = found
        return result

    def emit(self, op: Operation) -> list[SSAValue]:
        """Add `op` (or the constants it folds to, or the values of an equal pure op emitted
        before); returns its results."""
        if op.regions or not pure_class(type(op)):
            return self._add(op)
        key = Key(merge_key(op))
        found = self._reuse(key)
        if found is not None:
            op.drop_all_references()
            return list(found)
        values = self._add(op)
        self._emitted[key] = tuple(values)
        return values

    def _add(self, op: Operation) -> list[SSAValue]:
        if not isinstance(op, _STATE_OPS):
            signature = verification_signature(op)
            if signature is None or signature not in self.lowering.verified:
                try:
                    op.verify()
                except VerifyException as error:
                    op.drop_all_references()
                    raise Unsupported(f"'{op.name}' would be invalid: {error}") from None
                if signature is not None:
                    self.lowering.verified.add(signature)
        if self._foldable(op):
            values = self.lowering.evaluate(op, [_runtime_value(v) for v in op.operands])
            op.drop_all_references()
            return [
                self.const(np.asarray(v, dtype_of(r.type.element_type)).reshape(shape(r)))
                for v, r in zip(values, op.results, strict=True)
            ]
        self.ops.append(op)
        return list(op.results)

    def value(self, op: Operation) -> SSAValue:
        """`emit` for single-result ops."""
        (result,) = self.emit(op)
        return result

    @staticmethod
    def _foldable(op: Operation) -> bool:
        operands = op.operands
        if not operands or not all(_is_constant(v) for v in operands):
            return False  # first: most ops have a computed operand
        if isinstance(op, (*_STATE_OPS, tt.ConstOp, tt.ConstShapeOp)) or op.regions or (
                op.has_trait(NotFolded)):
            return False
        if isinstance(op, _LAYOUT_OPS) and mapped(dense(op.operands[0])):
            return False  # a weight used in place: the plan transposes it as a view
        sizes = [
            math.prod(r.type.get_shape())
            for r in op.results
            if isinstance(r.type, TensorType) and r.type.has_static_shape()
        ]
        return len(sizes) == len(op.results) and sum(sizes) <= FOLD_LIMIT

    def discard(self) -> None:
        for op in reversed(self.ops + self.at_end):
            op.drop_all_references()
        self.ops.clear()
        self.at_end.clear()
        self.declarations.clear()
        self._emitted.clear()
        self.reused.clear()

    def insert(self, rewriter: PatternRewriter) -> None:
        """Insert the ops before the anchor and offer the pure ones to later conversions."""
        if self.ops:
            rewriter.insert(self.ops, InsertPoint.before(self.anchor))
        self.lowering.created.extend(self.ops)
        if self.shared:
            self.lowering.pure.add(self.anchor, self._emitted)

    def commit(self, rewriter: PatternRewriter, results: Sequence[SSAValue]) -> None:
        anchor = self.anchor
        func = _enclosing_func(anchor)
        for declaration in self.declarations:
            rewriter.insert(declaration, InsertPoint.before(func))
            if isinstance(declaration, VariableOp):
                self.lowering.variables[declaration.var_name] = declaration
        location = anchor.location
        for op in (*self.declarations, *self.ops, *self.at_end):  # errors name the layer
            for inner in op.walk() if op.regions else (op,):
                if isinstance(inner.location, UnknownLoc):
                    inner.location = location
        block = anchor.parent_block()
        if self.at_end:
            assert block is not None and block.last_op is not None
            rewriter.insert(self.at_end, InsertPoint.before(block.last_op))
        self.insert(rewriter)
        # Not `rewriter.replace`: it would give every new op the anchor's name hint.
        for old, new in zip(anchor.results, results, strict=True):
            rewriter.replace_all_uses_with(old, new)
        rewriter.erase(anchor)

    # -- constants and shapes -------------------------------------------------------------

    def const_attr(self, values: Attribute) -> SSAValue:
        """A `tosa.const` holding `values` (a dense attribute)."""
        return self._pure(("const", identity(values)), lambda: tt.ConstOp(values))

    def const(self, array: np.ndarray | Any, element_type: Attribute | None = None) -> SSAValue:
        """A `tosa.const` holding `array` (converted to `element_type` when given)."""
        array = np.asarray(array)
        if element_type is not None:
            array = array.astype(dtype_of(element_type))
        if array.size <= _SHARED_CONST and array.dtype.isbuiltin == 1:
            key = ("const", array.dtype, array.shape, array.tobytes())
            return self._pure(key, lambda: self._const_op(array), checked=False)
        op = self._const_op(array)
        self.ops.append(op)
        return op.output

    @staticmethod
    def _const_op(array: np.ndarray) -> Operation:
        try:
            return tt.ConstOp(numpy_to_dense(array))
        except UnsupportedElementType as error:
            raise Unsupported(str(error)) from None

    def scalar(self, number: float | int | bool, element_type: Attribute, rank: int) -> SSAValue:
        """A constant of shape `[1] * rank` (broadcasts against any tensor of that rank)."""
        return self.const(np.full((1,) * rank, number), element_type)

    def const_shape(self, dims: Sequence[int]) -> SSAValue:
        values = tuple(int(d) for d in dims)
        return self._pure(("const_shape", values), lambda: tt.ConstShapeOp(values),
                          checked=False)

    def dim(self, value: SSAValue, axis: int) -> SSAValue:
        """`tosa.dim`: dimension `axis` of `value` at run time, a `!tosa.shape<1>`."""
        return self._pure(("dim", value, axis), lambda: tts.DimOp.create(
            operands=[value], properties={"axis": axis_attr(axis)}, result_types=[_shape_type(1)]))

    def shape_op(self, cls: type[Operation], *operands: SSAValue) -> SSAValue:
        """A shape op of `operands` (`tosa.mul_shape`, `tosa.concat_shape`, ...): the
        ranks of the operands add up (concat_shape) or are one (the others)."""
        ranks = [v.type.rank for v in operands]  # type: ignore[attr-defined]
        rank = sum(ranks) if cls is tts.ConcatShapeOp else ranks[0]
        return self._pure((cls, operands), lambda: cls.create(
            operands=list(operands), result_types=[_shape_type(rank)]))

    def shape_operand(self, elements: Sequence[int | SSAValue]) -> SSAValue:
        """A `!tosa.shape<N>` of known sizes (ints) and run-time ones (`!tosa.shape<1>`
        values): a `tosa.const_shape`, or a `tosa.concat_shape` of the pieces."""
        pieces: list[SSAValue] = []
        run: list[int] = []
        for item in elements:
            if isinstance(item, SSAValue):
                if run:
                    pieces.append(self.const_shape(run))
                    run = []
                pieces.append(item)
            else:
                run.append(int(item))
        if run or not pieces:
            pieces.append(self.const_shape(run))
        if len(pieces) == 1:
            return pieces[0]
        return self.shape_op(tts.ConcatShapeOp, *pieces)

    def shape_tensor(self, shape_: RuntimeShape, like: SSAValue | None = None) -> SSAValue:
        """The converted value of an OpenVINO shape tensor: a constant when every size is
        known (of the static shape of `like`, the OpenVINO value it replaces, when given:
        a shape reshaped to `[1, 2]` and split stays 2-D), else a `!tosa.shape<N>` value
        recorded in `lowering.shapes`."""
        if not any(isinstance(d, SSAValue) for d in shape_.elements):
            array = np.array([int(d) for d in shape_.elements])
            if like is not None and isinstance(like.type, TensorType) and (
                    like.type.has_static_shape()
                    and math.prod(like.type.get_shape()) == array.size):
                array = array.reshape(like.type.get_shape())
            elif shape_.scalar:
                array = array.reshape(())
            return self.const(array, shape_.element_type)
        shapes = self.lowering.shapes
        result = self.shape_operand(shape_.elements)
        known = shapes.get(result)
        if known is not None and known != shape_ and result not in self.reused:
            # The same sizes as another OpenVINO shape tensor of another rank (`[]` and its
            # Reshape to `[1]` are both one `tosa.dim`): a value of its own, keyed apart.
            zeros = self.const_shape([0] * len(shape_.elements))
            result = self.shape_op(tts.AddShapeOp, result, zeros)
            known = shapes.get(result)
        if known is not None and known != shape_:
            # an equal op's value, keyed already: an op of our own (`clean_up` merges them)
            copy = result.owner.clone()  # type: ignore[union-attr]
            self.ops.append(copy)
            result = copy.results[result.index]  # type: ignore[union-attr]
        shapes[result] = shape_
        return result

    def shape_elements(self, value: SSAValue) -> RuntimeShape | None:
        """`value` as a shape tensor: a run-time one, or a 0-D / 1-D integer constant."""
        if (found := self.lowering.shapes.get(value)) is not None:
            return found
        array = constant(value)
        if array is None or array.ndim > 1 or array.dtype.kind not in "iu":
            return None
        return RuntimeShape(tuple(int(v) for v in array.reshape(-1)), array.ndim == 0,
                            element(value))

    def size_values(self, value: SSAValue) -> RuntimeShape | None:
        """`value` as sizes for an operand that takes them (bounds, pads, repeats, a target
        shape, split lengths, `k`): a shape tensor (`shape_elements`), or else an integer
        tensor computed from data, of static length at most `DATA_SIZES_LIMIT`, whose values
        are read at run time (`tosa.shape_from_tensor` per element; the constant pieces of
        a `tosa.concat` stay known)."""
        found = self.shape_elements(value)
        if found is not None:
            return found
        value_type = value.type
        if not (isinstance(value_type, TensorType) and value_type.has_static_shape()
                and value_type.get_num_dims() <= 1
                and isinstance(value_type.element_type, IntegerType)
                and value_type.element_type != i1):
            return None
        count = math.prod(value_type.get_shape())
        if count > DATA_SIZES_LIMIT:
            return None
        joined = value.owner
        if isinstance(joined, tt.ConcatOp) and value_type.get_num_dims() == 1:
            parts = [self.size_values(part) for part in joined.input1]  # constants stay ints
            if all(part is not None for part in parts):
                return RuntimeShape(tuple(d for part in parts for d in part.elements),  # type: ignore[union-attr]
                                    False, value_type.element_type)
        flat = self.reshape(value, (count,))
        elements = tuple(
            self.value(tts.ShapeFromTensorOp(self.slice(flat, [i], [1]) if count > 1 else flat))
            for i in range(count))
        return RuntimeShape(elements, value_type.get_num_dims() == 0, value_type.element_type)

    def size_tensor(self, size: int | SSAValue, element_type: Attribute) -> SSAValue:
        """A size as a 1-element integer tensor of `element_type`, as OpenVINO's shape values
        are: a `tosa.reduce_sum` of `size` ones (built with a run-time `tosa.tile`)."""
        if isinstance(size, int):
            return self.const(np.array([size]), element_type)
        if isinstance(size.owner, tts.ShapeFromTensorOp):  # read from data: that data
            return self.cast(self.reshape(size.owner.input1, (1,)), element_type)
        if _non_negative(size):
            return self.cast(self._count_ones(size), element_type)
        zero = self.const_shape([0])  # a size of unknown sign: `max(s, 0) - max(-s, 0)`
        above = self._count_ones(self.shape_op(tts.MaxShapeOp, size, zero))
        minus = self.shape_op(tts.SubShapeOp, zero, size)
        below = self._count_ones(self.shape_op(tts.MaxShapeOp, minus, zero))
        return self.cast(self.sub(above, below), element_type)

    def _count_ones(self, count: SSAValue) -> SSAValue:
        """`count` (>= 0, a `!tosa.shape<1>`) as a `tensor<1xi32>`: the sum of that many ones
        (a run-time `tosa.tile`)."""
        ones = self.const(np.ones(1, np.int32), i32)
        tiled = self.value(tt.TileOp(ones, self.shape_operand([count]), tensor_type(i32, [DYN])))
        return self.value(tt.ReduceSumOp(tiled, 0, tensor_type(i32, [1])))

    def shape_as_tensor(self, value: SSAValue) -> SSAValue:
        """A shape known at run time (a converted ShapeOf, ...) as the integer tensor OpenVINO
        has there, for ops on computed tensors (`size_tensor` per run-time size)."""
        found = self.lowering.shapes[value]
        pieces = [self.size_tensor(size, found.element_type) for size in found.elements]
        joined = self.concat(pieces, 0) if len(pieces) > 1 else pieces[0]
        return self.reshape(joined, () if found.scalar else (len(found.elements),))

    # -- data layout ----------------------------------------------------------------------

    def reshape(self, value: SSAValue, new_shape: Sequence[int | SSAValue]) -> SSAValue:
        """`tosa.reshape` to `new_shape` (`DYN` for a dynamic dim, or a `!tosa.shape<1>`
        size known at run time). One dynamic dim is a `-1` (inferred); several must be the
        input's dynamic dims, in order (as when adding or dropping 1s), and their sizes
        are read with `tosa.dim`."""
        if any(isinstance(d, SSAValue) for d in new_shape):  # sizes known at run time
            if isinstance(value.owner, tt.ReshapeOp):
                value = value.owner.input1
            result_type = tensor_type(
                element(value), [DYN if isinstance(d, SSAValue) else int(d) for d in new_shape]
            )
            return self.reshape_op(value, self.shape_operand(new_shape), result_type)
        new_shape = tuple(int(d) for d in new_shape)
        old = dims(value)
        if old == new_shape:
            return value
        dynamic = [i for i, d in enumerate(new_shape) if d == DYN]
        source = value.owner.input1 if isinstance(value.owner, tt.ReshapeOp) else None
        if source is not None and (len(dynamic) <= 1 or
                                   dims(source).count(DYN) == len(dynamic)):
            return self.reshape(source, new_shape)  # reshape(reshape(x)) is reshape(x)
        result_type = tensor_type(element(value), new_shape)
        if len(dynamic) <= 1:
            target = self.const_shape([-1 if d == DYN else d for d in new_shape])
        else:
            sources = [i for i, d in enumerate(old) if d == DYN]
            if len(sources) != len(dynamic):
                raise Unsupported(f"cannot reshape {format_shape(old)} into "
                                  f"{format_shape(new_shape)} (dynamic dims would merge)")
            axes = iter(sources)
            target = self.shape_operand(
                [self.dim(value, next(axes)) if d == DYN else d for d in new_shape]
            )
        return self.reshape_op(value, target, result_type)

    def reshape_op(self, value: SSAValue, target: SSAValue, result_type: Attribute) -> SSAValue:
        """`tosa.reshape` of `value` by the shape `target` (an operand) to `result_type`."""
        return self._pure(("reshape", value, target, result_type), lambda: tt.ReshapeOp.create(
            operands=[value, target], result_types=[result_type]))

    def size(self, value: SSAValue, axis: int) -> int | SSAValue:
        """Dimension `axis` of `value`: its static size, or a `tosa.dim` (`!tosa.shape<1>`)."""
        found = dims(value)[axis]
        return self.dim(value, axis % len(dims(value))) if found == DYN else found

    def sizes(self, value: SSAValue) -> list[int | SSAValue]:
        return [self.size(value, axis) for axis in range(len(dims(value)))]

    def product(self, sizes: Sequence[int | SSAValue]) -> int | SSAValue:
        """The product of sizes: an int when all are known, else `tosa.mul_shape`s."""
        known = math.prod(s for s in sizes if isinstance(s, int))
        runtime = [s for s in sizes if not isinstance(s, int)]
        if not runtime:
            return known
        total = runtime[0]
        if known != 1:
            total = self.shape_op(tts.MulShapeOp, total, self.const_shape([known]))
        for size in runtime[1:]:
            total = self.shape_op(tts.MulShapeOp, total, size)
        return total

    def reshape_sizes(self, value: SSAValue, sizes: Sequence[int | SSAValue]) -> SSAValue:
        """`tosa.reshape` to sizes known at compile time (ints) or at run time (shape
        values), as merging or splitting dynamic dims needs."""
        if all(isinstance(s, int) for s in sizes):
            return self.reshape(value, [int(s) for s in sizes])
        out = [s if isinstance(s, int) else DYN for s in sizes]
        result_type = tensor_type(element(value), out)
        return self.reshape_op(value, self.shape_operand(list(sizes)), result_type)

    def generalize(self, value: SSAValue, target: TensorType) -> SSAValue:
        """`value` typed as the compatible `target` (TOSA has no cast of types: a
        `tosa.reshape` to its own run-time shape; a static size of `target` that the value
        does not have at run time fails there, naming the op)."""
        if value.type == target:
            return value
        sizes = [self.dim(value, i) if d == DYN else d for i, d in enumerate(target.get_shape())]
        return self.reshape_op(value, self.shape_operand(sizes), target)

    def choose(
        self, condition: SSAValue, then: SSAValue, other: SSAValue, result_type: TensorType
    ) -> SSAValue:
        """`condition ? then : other` for values that may differ in size: a
        `tosa.cond_if` whose branches yield one of its two inputs."""
        branches = []
        for pick in (0, 1):
            block = Block(arg_types=[then.type, other.type])
            block.add_op(cf.YieldOp(block.args[pick]))
            branches.append(block)
        return self.value(cf.IfOp(condition, [then, other], [result_type], *branches))

    def with_rank(self, value: SSAValue, rank: int) -> SSAValue:
        """`value` with leading 1s up to `rank` (numpy broadcasting's implicit dims)."""
        old = dims(value)
        return self.reshape(value, (1,) * (rank - len(old)) + old)

    def transpose(self, value: SSAValue, perms: Sequence[int]) -> SSAValue:
        perms = [int(p) for p in perms]
        if perms == sorted(perms):
            return value
        return self.value(tt.TransposeOp(value, perms))

    def slice(self, value: SSAValue, start: Sequence[int], size: Sequence[int]) -> SSAValue:
        """`tosa.slice`; a window with a zero extent is an empty constant. A `DYN` size (of a
        dynamic dim, from 0) takes the whole dim (`-1`)."""
        old = dims(value)
        if tuple(start) == (0,) * len(old) and tuple(size) == old:
            return value
        result_type = tensor_type(element(value), list(size))
        if 0 in size:
            if not is_static(size):
                raise Unsupported("an empty slice of a dynamic shape")
            return self.const(np.zeros(tuple(size), dtype_of(element(value))))
        if any(d == DYN and b != 0 for b, d in zip(start, size, strict=True)):
            raise Unsupported("a slice of a dynamic dim must start at 0")
        size_operand = self.const_shape([-1 if d == DYN else d for d in size])
        op = tt.SliceOp(value, self.const_shape(start), size_operand, result_type)
        return self.value(op)

    def concat(self, values: Sequence[SSAValue], axis: int) -> SSAValue:
        if len(values) == 1:
            return values[0]
        shapes = [dims(v) for v in values]
        out = [
            next((s[i] for s in shapes if s[i] != DYN), DYN) for i in range(len(shapes[0]))
        ]
        along = [s[axis] for s in shapes]
        out[axis] = DYN if DYN in along else sum(along)
        return self.value(tt.ConcatOp(list(values), axis, tensor_type(element(values[0]), out)))

    def tile(self, value: SSAValue, multiples: Sequence[int | SSAValue]) -> SSAValue:
        """`tosa.tile`; a multiple may be a run-time size (`!tosa.shape<1>`)."""
        if all(not isinstance(m, SSAValue) and m == 1 for m in multiples):
            return value
        out = [
            DYN if d == DYN or isinstance(m, SSAValue) else d * m
            for d, m in zip(dims(value), multiples, strict=True)
        ]
        result_type = tensor_type(element(value), out)
        return self.value(tt.TileOp(value, self.shape_operand(multiples), result_type))

    def pad(self, value: SSAValue, padding: Sequence[int], fill: float | int = 0) -> SSAValue:
        """`tosa.pad` by `padding` = [before0, after0, before1, ...] with `fill`."""
        if not any(padding):
            return value
        out = [DYN if d == DYN else d + padding[2 * i] + padding[2 * i + 1]
               for i, d in enumerate(dims(value))]
        pad_const = self.const(np.full(1, fill), element(value))
        result_type = tensor_type(element(value), out)
        return self.value(tt.PadOp(value, self.const_shape(padding), pad_const, result_type))

    def broadcast_to(self, value: SSAValue, out_shape: Sequence[int | SSAValue]) -> SSAValue:
        """`value` (rank <= len(out_shape), numpy-compatible) materialised at `out_shape`,
        whose sizes may be known only at run time (`!tosa.shape<1>` values)."""
        value = self.with_rank(value, len(out_shape))
        if not any(isinstance(o, SSAValue) for o in out_shape) and 0 in out_shape:
            return self.const(np.zeros(tuple(out_shape), dtype_of(element(value))))
        return self.tile(value, [
            o if d == 1 else 1 for d, o in zip(dims(value), out_shape, strict=True)
        ])

    def take(self, value: SSAValue, axis: int, indices: Sequence[int]) -> SSAValue:
        """`value[..., indices, ...]` along `axis` for constant, in-range indices."""
        dims = shape(value)
        indices = [int(i) for i in indices]
        size = len(indices)
        out = (*dims[:axis], size, *dims[axis + 1 :])
        if not indices:
            return self.const(np.zeros(out, dtype_of(element(value))))
        first = indices[0]
        if indices == list(range(first, first + size)):
            return self.slice(value, [first if d == axis else 0 for d in range(len(dims))], out)
        if indices == list(range(first, first - size, -1)):
            window = self.take(value, axis, indices[::-1])
            return self.value(tt.ReverseOp(window, axis))
        step = indices[1] - indices[0]
        if step > 1 and indices == list(range(first, first + step * size, step)) \
                and first + step * size <= dims[axis]:
            return self._take_strided(value, axis, first, step, size)
        outer = math.prod(dims[:axis])
        table = np.tile(np.asarray(indices, np.int32), (outer, 1))
        return self.reshape(self.gather3(value, axis, self.const(table)), out)

    def _take_strided(self, value: SSAValue, axis: int, first: int, step: int, size: int
                      ) -> SSAValue:
        """Every `step`-th element from `first`, `size` of them: a slice of `step * size`,
        split into `[size, step]`, the first column. No `tosa.gather` (which NPUs such as the
        Ethos-U55 do not run)."""
        dims = shape(value)
        before, after = dims[:axis], dims[axis + 1:]
        window = self.slice(value, [first if d == axis else 0 for d in range(len(dims))],
                            (*before, step * size, *after))
        split = self.reshape(window, (*before, size, step, *after))
        column = self.slice(split, [0] * (len(dims) + 1), (*before, size, 1, *after))
        return self.reshape(column, (*before, size, *after))

    def gather3(self, value: SSAValue, axis: int, table: SSAValue) -> SSAValue:
        """`tosa.gather` along `axis` of `value` with a [outer, W] i32/i64 index table; the
        result has shape [outer, W, inner]."""
        dims = shape(value)
        outer, inner = math.prod(dims[:axis]), math.prod(dims[axis + 1 :])
        values = self.reshape(value, (outer, dims[axis], inner))
        width = dims_of(table)[1]
        result_type = tensor_type(element(value), [outer, width, inner])
        return self.value(tt.GatherOp(values, table, result_type))

    # -- element-wise ---------------------------------------------------------------------

    def elementwise(
        self,
        cls: type[Operation],
        *values: SSAValue,
        result_element: Attribute | None = None,
        extra: Sequence[SSAValue] = (),
    ) -> SSAValue:
        """`cls(*values, *extra)` with numpy broadcasting of `values` (reshaped to one rank)."""
        out = broadcast_shape([dims(v) for v in values])
        operands = [self.with_rank(v, len(out)) for v in values]
        if result_element is None:
            result_element = element(values[-1])
        result_type = tensor_type(result_element, out)
        return self.value(cls.create(operands=[*operands, *extra], result_types=[result_type]))

    def add(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.elementwise(tew.AddOp, a, b)

    def sub(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.elementwise(tew.SubOp, a, b)

    def mul(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.elementwise(tew.MulOp, a, b, extra=[self.const(np.zeros(1), i8)])

    def greater(self, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.elementwise(tew.GreaterOp, a, b, result_element=i1)

    def select(self, cond: SSAValue, a: SSAValue, b: SSAValue) -> SSAValue:
        return self.elementwise(tew.SelectOp, cond, a, b)

    def unary(self, cls: type[Operation], value: SSAValue) -> SSAValue:
        return self.value(cls.create(operands=[value], result_types=[value.type]))

    def clamp(self, value: SSAValue, low: float, high: float) -> SSAValue:
        return self.value(tew.ClampOp(value, low, high))

    def cast(self, value: SSAValue, element_type: Attribute) -> SSAValue:
        """`tosa.cast`, through f32 where TOSA has no direct pair (f16 <-> bf16)."""
        source = element(value)
        if source == element_type:
            return value
        if (
            (source, element_type) not in tew.CAST_PAIRS
            and is_float(source)
            and is_float(element_type)
            and (source, f32) in tew.CAST_PAIRS
        ):
            value = self.cast(value, f32)
        return self.value(tew.CastOp(value, element_type))

    def bitcast(self, value: SSAValue, element_type: Attribute) -> SSAValue:
        """`tensor.bitcast` to `element_type` (same width): the same bits, another type."""
        if element(value) == element_type:
            return value
        return self.value(BitcastOp(value, tensor_type(element_type, dims(value))))

    def truncate(self, value: SSAValue) -> SSAValue:
        """Floats rounded toward zero: `x < 0 ? ceil(x) : floor(x)`."""
        negative = self.greater(self.scalar(0, element(value), len(dims(value))), value)
        return self.select(
            negative, self.unary(tew.CeilOp, value), self.unary(tew.FloorOp, value)
        )


def _non_negative(size: SSAValue) -> bool:
    """Whether a run-time size is known to be >= 0: a dim, or shape arithmetic that keeps
    dims non-negative (sums, products, quotients, maxima of such sizes and constants >= 0)."""
    owner = size.owner
    if isinstance(owner, tts.DimOp):
        return True
    if isinstance(owner, tt.ConstShapeOp):
        return all(v >= 0 for v in owner.shape_values)
    if isinstance(owner, tts.MaxShapeOp):
        return any(_non_negative(v) for v in owner.operands)
    if isinstance(owner, tts.AddShapeOp | tts.MulShapeOp | tts.DivFloorShapeOp
                  | tts.MinShapeOp | tts.ConcatShapeOp):
        return all(_non_negative(v) for v in owner.operands)
    return False


def _enclosing_func(op: Operation) -> Operation:
    parent = op.parent_op()
    while parent is not None and not isinstance(parent, FuncOp):
        parent = parent.parent_op()
    if parent is None:
        raise Unsupported("the op is not inside a func.func")
    return parent


def widened_for_division(e: Emitter, value: SSAValue) -> SSAValue:
    """i8 / i16 operands widened to i32 (`tosa.intdiv` takes i32 / i64)."""
    int_type = integer_type(value)
    if int_type is not None and int_type.width.data < 32:
        return e.cast(value, i32)
    return value


