"""`tosa-integer-state`: a float variable that holds quantized values becomes an integer one.

TensorFlow's full-integer export keeps a Keras RNN's state in f32: QUANTIZE after each
READ_VARIABLE, DEQUANTIZE before each ASSIGN_VARIABLE (docs/tflite.md). Integer targets
(TOSA PRO-INT, Vela's Ethos-U) take no f32 variable and no float op. When every value written
to a variable is computed element-wise from one int8 (or int16) tensor `q` and constants (a
dequantize),
and every read feeds element-wise ops that end in integer results (quantizes), the variable
stores `q` itself: the same bits, and no float op on either side.

```mlir
tosa.variable @h = dense<0.0> : tensor<1x20xf32>
%r = tosa.variable.read @h ...    // float element-wise ops of %r and constants
%q = tosa.cast %clamped ...       //   ending in an integer: a QUANTIZE lowering
%f = ... %q2 ...                  // float element-wise ops of int8 %q2: a DEQUANTIZE
tosa.variable.write @h, %f
```
becomes
```mlir
tosa.variable @h {tosa_state.scale = ... : f32, tosa_state.zero_point = -128 : i32}
    = dense<-128> : tensor<1x20xi8>
%q = tosa.variable.read @h : tensor<1x20xi8>
tosa.variable.write @h, %q2 : tensor<1x20xi8>
```

The ops are not pattern-matched: both sides are evaluated (`folding.evaluate`, the runtime's
own kernels) for each value `q` can hold (256, or 65 536 for int16, all at once along a
leading axis), at every element. What a read's
integer result then is, per stored value, is a table: when it is the stored value the read is
used as it is (the read and the write share scale and zero point, as TensorFlow makes them);
otherwise a `tosa.rescale` when one reproduces the table, else a `tosa.table` of it; when the
elements differ (LiteRT's kernels treat the first `8 * floor(n / 8)` elements otherwise than
the rest), one of those per part of the flattened tensor. The initial value is converted
when each element is a value the write can produce. Otherwise — a float leaving the read
cone, a write not computed from one int8 / int16 tensor, writes that dequantize differently,
an initial value no stored value gives, an int16 state of more than 256 elements — the
variable is left as it is. The variable records the
scale and zero point of its integers (fitted to the dequantized values: exact for an
affine dequantize) in `tosa_state.scale` / `tosa_state.zero_point`; `query_state()` returns the
integers.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BoolAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    i8,
    i16,
    i32,
)
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import Attribute, Block, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state import folding
from tosa_state.dialects.tosa import data_layout as tdl
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa import type_conversion as ttc
from tosa_state.dialects.tosa.elementwise_base import TosaElementwiseOperation
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.transforms.tosa_builder.rescale import multiplier_shift
from tosa_state.transforms.tosa_builder.values import Unsupported

SCALE_ATTR, ZERO_POINT_ATTR = "tosa_state.scale", "tosa_state.zero_point"
"""Discardable attributes of a `tosa.variable` holding quantized integers (an f32 and an i32):
the real value is `scale * (q - zero_point)` (the state manifest reports them)."""

MAX_EVALUATED = 1 << 24
"""The most values (stored values x elements) a side is evaluated on: larger int16 states are
left as they are."""


def _element(value: SSAValue) -> Attribute:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.element_type


def _dims(value: SSAValue) -> tuple[int, ...]:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.get_shape()


def _is_float(value: SSAValue) -> bool:
    return not isinstance(_element(value), IntegerType)


def _is_stored_integer(value: SSAValue) -> bool:
    """An i8 / i16 value: what a quantize gives (i1 and i32 are intermediate values)."""
    element = _element(value)
    return isinstance(element, IntegerType) and element.width.data in (8, 16)


def _bounds(element: Attribute) -> tuple[int, int]:
    assert isinstance(element, IntegerType)
    width = element.width.data
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


def stored_values(element: Attribute) -> np.ndarray:
    """Every value an integer state of `element` holds, in the order of the tables here."""
    low, high = _bounds(element)
    return np.arange(low, high + 1, dtype=np.int64)


def constant_of(value: SSAValue) -> np.ndarray | None:
    """The value of a `tosa.const`, else None."""
    owner = value.owner
    return dense_to_numpy(owner.values) if isinstance(owner, tt.ConstOp) else None


def _in_block_order(ops: set[Operation], block: Block) -> list[Operation] | None:
    if any(op.parent is not block for op in ops):
        return None
    return [op for op in block.ops if op in ops]


@dataclass
class Cone:
    """Element-wise ops from `source` (and constants) in program order, and their results
    used beyond them (`outputs`)."""

    source: SSAValue
    ops: list[Operation]
    outputs: list[SSAValue]

    def evaluate(self, value: np.ndarray) -> list[np.ndarray]:
        """The outputs for `source = value`, with the runtime's kernels."""
        env: dict[SSAValue, np.ndarray] = {self.source: value}
        for op in self.ops:
            args = [env[o] if o in env else constant_of(o) for o in op.operands]
            env.update(zip(op.results, folding.evaluate(op, args), strict=True))
        return [np.asarray(env[o]) for o in self.outputs]


def evaluate_all(cone: Cone, batch: np.ndarray) -> list[np.ndarray] | None:
    """The cone's outputs for each `batch[k]`, `[K, *shape]` each: at once (the kernels are
    element-wise numpy), checked against one at a time at the first, middle and last k;
    one at a time if that fails (up to 256 values), else None."""
    count = len(batch)
    try:
        outputs = [np.asarray(o) for o in cone.evaluate(batch)]
        for k in sorted({0, count // 2, count - 1}):
            single = cone.evaluate(batch[k])
            if any(o.shape[0] != count or not _same_bits(o[k], x)
                   for o, x in zip(outputs, single, strict=True)):
                raise ValueError("a kernel does not broadcast over a leading axis")
        return outputs
    except Exception:  # any kernel that is not a plain element-wise numpy function
        if count > 256:
            return None
    singles = [cone.evaluate(b) for b in batch]
    return [np.stack([s[i] for s in singles]) for i in range(len(cone.outputs))]


def _same_bits(a: np.ndarray, b: np.ndarray) -> bool:
    return a.shape == b.shape and a.tobytes() == b.tobytes()


def _elementwise(op: Operation, shape: tuple[int, ...]) -> bool:
    return isinstance(op, TosaElementwiseOperation) and len(op.results) == 1 and \
        _dims(op.results[0]) == shape


def write_cone(value: SSAValue) -> Cone | None:
    """The element-wise ops computing float `value` from one int8 / int16 tensor and
    constants."""
    shape = _dims(value)
    ops: set[Operation] = set()
    sources: set[SSAValue] = set()
    stack = [value]
    while stack:
        v = stack.pop()
        if constant_of(v) is not None:
            continue
        if not _is_float(v):
            sources.add(v)
            continue
        owner = v.owner
        if not isinstance(owner, Operation) or not _elementwise(owner, shape):
            return None
        if owner not in ops:
            ops.add(owner)
            stack.extend(owner.operands)
    if len(sources) != 1 or not ops:
        return None
    (source,) = sources
    if _element(source) not in (i8, i16) or _dims(source) != shape:
        return None
    block = value.owner.parent if isinstance(value.owner, Operation) else None
    ordered = None if block is None else _in_block_order(ops, block)
    return None if ordered is None else Cone(source, ordered, [value])


def integer_cone(source: SSAValue, ignore: set[Operation] | None = None,
                 ends: Callable[[SSAValue], bool] | None = None) -> Cone | None:
    """The element-wise ops that all uses of `source` (but `ignore`) feed, up to their i8 /
    i16 results (or those `ends` accepts); None if a float (or another value computed from
    `source`) is used elsewhere."""
    ends = ends or _is_stored_integer
    shape = _dims(source)
    inside: set[SSAValue] = {source}
    ops: set[Operation] = set()
    outputs: list[SSAValue] = []
    stack = [source]
    while stack:
        value = stack.pop()
        for use in value.uses:
            op = use.operation
            if op in ops or (value is source and ignore and op in ignore):
                continue
            if not _elementwise(op, shape):
                return None
            ops.add(op)
            result = op.results[0]
            if ends(result):
                outputs.append(result)
            else:
                inside.add(result)
                stack.append(result)
    for op in ops:
        if any(o not in inside and constant_of(o) is None for o in op.operands):
            return None
    owner = source.owner
    block = owner.parent if isinstance(owner, Operation) else owner
    ordered = None if not isinstance(block, Block) else _in_block_order(ops, block)
    if ordered is None or not outputs:
        return None
    return Cone(source, ordered, outputs)


def read_cone(read: VariableReadOp) -> Cone | None:
    """`integer_cone` of the read's value."""
    return integer_cone(read.results[0])


@dataclass(frozen=True)
class Requantization:
    """How a read's integer result is computed from the stored int8 value: nothing (it is
    the stored value), a rescale `(multiplier, shift, input_zp, output_zp, double_round)`, a
    256-entry int8 table, or one of those for the first `split` elements of the flattened
    tensor and another for the rest."""

    rescale: tuple[int, int, int, int, bool] | None = None
    table: np.ndarray | None = None
    split: tuple[int, Requantization, Requantization] | None = None


def rescale_reference(x: np.ndarray, multiplier: int, shift: int, input_zp: int,
                      output_zp: int, double_round: bool, bounds: tuple[int, int]) -> np.ndarray:
    """TOSA 1.0's `apply_scale_32` of `tosa.rescale` (scale32), on int64 arrays."""
    value = x.astype(np.int64) - input_zp
    round_ = np.int64(1) << (shift - 1)
    if double_round and shift > 31:
        round_ = round_ + np.where(value >= 0, np.int64(1) << 30, -(np.int64(1) << 30))
    return np.clip(((value * multiplier + round_) >> shift) + output_zp, *bounds)


def _multiplier_shift(scale: float) -> tuple[int, int] | None:
    try:
        return multiplier_shift(scale)
    except Unsupported:
        return None


def _fitted_rescale(table: np.ndarray, stored: np.ndarray, input_zp: int, out: Attribute
                    ) -> Requantization | None:
    """A rescale reproducing `table` (the read's integer per stored value), if one does:
    its factor fitted to the entries not clamped, both roundings tried."""
    low, high = _bounds(out)
    free = (table > low) & (table < high)
    centred = stored[free] - input_zp
    if centred.size < 2 or not np.any(centred):
        return None
    output_zp = int(table[stored == input_zp][0])
    ratio = float(np.dot(table[free] - output_zp, centred) / np.dot(centred, centred))
    pair = _multiplier_shift(ratio)
    if pair is None:
        return None
    for double_round in (False, True):
        if np.array_equal(table, rescale_reference(stored, *pair, input_zp, output_zp,
                                                   double_round, (low, high))):
            return Requantization(rescale=(*pair, input_zp, output_zp, double_round))
    return None


def _single(table: np.ndarray, stored: np.ndarray, input_zp: int, out: Attribute
            ) -> Requantization | None:
    if len(stored) == 1 << out.width.data and np.array_equal(table, stored):  # type: ignore
        return Requantization()
    found = _fitted_rescale(table, stored, input_zp, out)
    if found is None and out == i8 and len(stored) == 256:
        found = Requantization(table=table.astype(np.int8))
    return found


def requantization(tables: np.ndarray, stored: np.ndarray, input_zp: int, out: Attribute
                   ) -> Requantization | None:
    """`tables[k, i]`: the read's integer at flat element i when the state holds
    `stored[k]`. None if the elements differ other than as a prefix and the rest."""
    distinct = [0] + [i for i in range(1, tables.shape[1])
                      if not np.array_equal(tables[:, i], tables[:, i - 1])]
    if len(distinct) == 1:
        return _single(tables[:, 0], stored, input_zp, out)
    if len(distinct) != 2:
        return None
    count = distinct[1]
    first = _single(tables[:, 0], stored, input_zp, out)
    rest = _single(tables[:, -1], stored, input_zp, out)
    if first is None or rest is None:
        return None
    return Requantization(split=(count, first, rest))


@dataclass
class _Plan:
    """How one variable becomes an integer one."""

    variable: VariableOp
    element: Attribute
    writes: list[tuple[VariableWriteOp, Cone]]
    reads: list[tuple[VariableReadOp, Cone, list[Requantization]]]
    initial: np.ndarray
    scale: float
    zero_point: int


def _dequantized(cone: Cone, shape: tuple[int, ...], stored: np.ndarray) -> np.ndarray | None:
    """`[K, *shape]`: the float written for each stored value, at each element."""
    if len(stored) * math.prod(shape) > MAX_EVALUATED:
        return None
    dtype = np.int8 if len(stored) == 256 else np.int16
    batch = np.broadcast_to(stored.astype(dtype).reshape((-1,) + (1,) * len(shape)),
                            (len(stored), *shape)).copy()
    found = evaluate_all(cone, batch)
    return None if found is None else found[0]


def _initial(variable: VariableOp, floats: np.ndarray, stored: np.ndarray
             ) -> np.ndarray | None:
    """The stored values whose dequantized values are the initial value (zeros without)."""
    shape = variable.shape
    if variable.initial_value is None:
        initial = np.zeros(shape, np.float32)
    else:
        initial = np.broadcast_to(dense_to_numpy(variable.initial_value), shape)
    hits = floats == initial[None]
    if not hits.any(axis=0).all():
        return None
    return stored[hits.argmax(axis=0)]


def _fit(floats: np.ndarray, stored: np.ndarray) -> tuple[float, int]:
    """Scale and zero point of the dequantization at element 0: the f32 scale (of those
    within 8 ulps of the end points' slope) that reproduces it best."""
    column = floats.reshape(len(stored), -1)[:, 0].astype(np.float64)
    slope = np.float32((column[-1] - column[0]) / (stored[-1] - stored[0]))
    if not slope or not np.isfinite(slope):
        return float(slope), 0
    zero_point = int(np.clip(np.rint(-column[0] / float(slope)) + stored[0], stored[0],
                             stored[-1]))
    near = [slope]
    for direction in (np.float32(np.inf), np.float32(-np.inf)):
        step = slope
        for _ in range(8):
            step = np.nextafter(step, direction)
            near.append(step)
    error = [np.abs(column - (stored - zero_point) * np.float64(s)).max() for s in near]
    return float(near[int(np.argmin(error))]), zero_point


def _accesses(module: ModuleOp, name: str
              ) -> tuple[list[VariableReadOp], list[VariableWriteOp]]:
    reads, writes = [], []
    for op in module.walk():
        if isinstance(op, VariableReadOp) and op.var_name == name:
            reads.append(op)
        elif isinstance(op, VariableWriteOp) and op.var_name == name:
            writes.append(op)
    return reads, writes


def _plan(module: ModuleOp, variable: VariableOp) -> _Plan | None:
    shape = variable.shape
    if variable.element_type != f32 or any(s < 0 for s in shape):
        return None
    reads, writes = _accesses(module, variable.var_name)
    if not reads or not writes:
        return None
    write_cones = [write_cone(w.operands[0]) for w in writes]
    if any(c is None for c in write_cones):
        return None
    cones = [c for c in write_cones if c is not None]
    element = _element(cones[0].source)
    stored = stored_values(element)
    floats = _dequantized(cones[0], shape, stored)
    if floats is None or any(_element(c.source) != element for c in cones):
        return None
    for cone in cones[1:]:
        other = _dequantized(cone, shape, stored)
        if other is None or not _same_bits(other, floats):
            return None
    initial = _initial(variable, floats, stored)
    if initial is None:
        return None
    scale, zero_point = _fit(floats, stored)
    planned = []
    for read in reads:
        cone = read_cone(read)
        results = None if cone is None else evaluate_all(cone, floats)
        if cone is None or results is None:
            return None
        how = []
        for output, result in zip(cone.outputs, results, strict=True):
            tables = result.reshape(len(stored), -1).astype(np.int64)
            found = requantization(tables, stored, zero_point, _element(output))
            if found is None:
                return None
            how.append(found)
        planned.append((read, cone, how))
    return _Plan(variable, element, list(zip(writes, cones, strict=True)), planned, initial,
                 scale, zero_point)


class _Emitter:
    """Integer ops inserted before one op."""

    def __init__(self, rewriter: Rewriter, before: Operation):
        self.rewriter, self.before = rewriter, before

    def add(self, op: Operation) -> SSAValue:
        self.rewriter.insert_op(op, InsertPoint.before(self.before))
        return op.results[0]

    def const(self, array: np.ndarray, element: Attribute) -> SSAValue:
        return self.add(tt.ConstOp(numpy_to_dense(array, element)))

    def shape(self, dims: Sequence[int]) -> SSAValue:
        return self.add(tt.ConstShapeOp(list(dims)))

    def requantize(self, value: SSAValue, how: Requantization, out: Attribute) -> SSAValue:
        """`value` (the stored int8) as the read's integer result of type `out`."""
        dims = _dims(value)
        if how.split is not None:
            return self._split(value, how.split, out)
        if how.rescale is not None:
            multiplier, shift, input_zp, output_zp, double_round = how.rescale
            mode = RoundingMode.DOUBLE_ROUND if double_round else RoundingMode.SINGLE_ROUND
            return self.add(ttc.RescaleOp.create(
                operands=[value, self.const(np.array([multiplier]), i32),
                          self.const(np.array([shift]), i8),
                          self.const(np.array([input_zp]), _element(value)),
                          self.const(np.array([output_zp]), out)],
                result_types=[TensorType(out, dims)],
                properties={"scale32": BoolAttr.from_bool(True),
                            "rounding_mode": RoundingModeAttr(mode),
                            "per_channel": BoolAttr.from_bool(False),
                            "input_unsigned": BoolAttr.from_bool(False),
                            "output_unsigned": BoolAttr.from_bool(False)}))
        if how.table is not None:
            return self.add(ttc.TableOp.create(operands=[value, self.const(how.table, i8)],
                                               result_types=[TensorType(i8, dims)]))
        return value

    def _split(self, value: SSAValue, split: tuple[int, Requantization, Requantization],
               out: Attribute) -> SSAValue:
        count, first, rest = split
        dims = _dims(value)
        size = math.prod(dims)
        element = _element(value)
        flat = self.add(tdl.ReshapeOp(value, self.shape([size]), TensorType(element, [size])))
        parts = []
        for start, length, how in ((0, count, first), (count, size - count, rest)):
            part = self.add(tdl.SliceOp(flat, self.shape([start]), self.shape([length]),
                                        TensorType(element, [length])))
            parts.append(self.requantize(part, how, out))
        joined = self.add(tdl.ConcatOp(parts, 0, TensorType(out, [size])))
        return self.add(tdl.ReshapeOp(joined, self.shape(dims), TensorType(out, dims)))


def _erase_dead(ops: list[Operation]) -> None:
    """Erase `ops` once nothing uses them, and the constants they alone used."""
    constants = [o.owner for op in ops for o in op.operands if isinstance(o.owner, tt.ConstOp)]
    pending = list(dict.fromkeys([*ops, *constants]))
    while pending:
        progress = [op for op in pending if all(not r.uses for r in op.results)]
        if not progress:
            return
        for op in progress:
            Rewriter.erase_op(op)
            pending.remove(op)


def _rewrite(plan: _Plan) -> None:
    rewriter = Rewriter()
    variable = plan.variable
    var_type = TensorType(plan.element, variable.shape)
    new_var = VariableOp(variable.var_name, var_type, numpy_to_dense(plan.initial, plan.element))
    new_var.attributes.update(variable.attributes)
    new_var.attributes[SCALE_ATTR] = FloatAttr(plan.scale, f32)
    new_var.attributes[ZERO_POINT_ATTR] = IntegerAttr(plan.zero_point, i32)
    rewriter.replace_op(variable, new_var)
    dead: list[Operation] = []
    for read, cone, how in plan.reads:
        new_read = VariableReadOp(read.var_name, var_type)
        rewriter.insert_op(new_read, InsertPoint.before(read))
        for output, requantized in zip(cone.outputs, how, strict=True):
            owner = output.owner
            assert isinstance(owner, Operation)
            emitter = _Emitter(rewriter, owner)
            output.replace_all_uses_with(
                emitter.requantize(new_read.results[0], requantized, _element(output)))
        dead.extend([*cone.ops, read])
    for write, cone in plan.writes:
        rewriter.replace_op(write, VariableWriteOp(write.var_name, cone.source))
        dead.extend(cone.ops)
    _erase_dead(dead)


@dataclass(frozen=True)
class TosaIntegerStatePass(ModulePass):
    """Float variables only dequantized into and quantized out of become int8 / int16
    variables holding the same bits."""

    name = "tosa-integer-state"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for variable in [v for v in op.walk() if isinstance(v, VariableOp)]:
            plan = _plan(op, variable)
            if plan is not None:
                _rewrite(plan)
