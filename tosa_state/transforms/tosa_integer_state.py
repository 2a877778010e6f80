"""`tosa-integer-state`: a float variable that holds quantized values becomes an integer one.

TensorFlow's full-integer export keeps a Keras RNN's state in f32: QUANTIZE after each
READ_VARIABLE, DEQUANTIZE before each ASSIGN_VARIABLE (docs/tflite.md). Integer targets
(TOSA PRO-INT, Vela's Ethos-U) take no f32 variable and no float op. When every write of a
variable is a dequantize `(cast(q) - zp) * scale` of an integer `q` and every read feeds only
quantizes `cast(clamp(round(x * inverse) + zp'))`, the variable stores `q` itself: the same
bits, no float op on either side.

```mlir
tosa.variable @h = dense<0.0> : tensor<1x20xf32>
%r = tosa.variable.read @h ...    // mul, round half away (greater, sub/ceil, add/floor,
%q = tosa.cast %clamped ...       //   select), add, clamp: the QUANTIZE lowering
%f = (tosa.cast %q2 - zp) * scale // the DEQUANTIZE lowering
tosa.variable.write @h, %f
```
becomes
```mlir
tosa.variable @h {tosa_state.quantization = {scale = ..., zero_point = -128 : i32}}
    = dense<-128> : tensor<1x20xi8>
%q = tosa.variable.read @h : tensor<1x20xi8>
tosa.variable.write @h, %q2 : tensor<1x20xi8>
```

What a read's quantize gave is computed here for each of the 256 values the variable can
hold, with the float lowering's own f32 arithmetic: when it is the stored value itself (the
read and the write share scale and zero point, as TensorFlow makes them) the read is used as
it is; otherwise a `tosa.rescale` (from the write's scale and zero point to the read's) when
it reproduces all 256, else a `tosa.table` of them. The initial value is converted when every
element is exactly a dequantized value (zeros are when the zero point is in range);
otherwise, or when any access does not match, the variable is left as it is. The variable
records the write's scale and zero point (`tosa_state.quantization`), for what reads its
state: `query_state()` then returns the integer state (docs/passes.md).
"""

from __future__ import annotations

import math
from collections.abc import Iterator
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    BoolAttr,
    DictionaryAttr,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    f32,
    i8,
    i32,
)
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tosa import activation as tact
from tosa_state.dialects.tosa import data_layout as tdl
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa import type_conversion as ttc
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense

QUANTIZATION_ATTR = "tosa_state.quantization"
"""`{scale = <f32>, zero_point = <i32>}` on an integer variable made by this pass."""


def _scalar(value: SSAValue) -> float | None:
    """The one value of a constant whose dims are all 1."""
    owner = value.owner
    if not isinstance(owner, tt.ConstOp):
        return None
    array = dense_to_numpy(owner.values)
    if array.size != 1:
        return None
    return float(array.reshape(()))


def _owner(value: SSAValue, cls: type[Operation]) -> Operation | None:
    owner = value.owner
    return owner if isinstance(owner, cls) else None


def _element(value: SSAValue) -> Attribute:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.element_type


def _dims(value: SSAValue) -> tuple[int, ...]:
    value_type = value.type
    assert isinstance(value_type, TensorType)
    return value_type.get_shape()


def _bounds(element: IntegerType) -> tuple[int, int]:
    width = element.width.data
    return -(1 << (width - 1)), (1 << (width - 1)) - 1


@dataclass(frozen=True)
class Dequantize:
    """`(cast(q) - zero_point) * scale` (`product`), `cast(q) * scale + offset` (`fused`),
    or a constant `select` of the two per element (`lanes`: True where fused), in f32."""

    value: SSAValue
    scale: np.float32
    zero_point: int
    offset: np.float32 | None
    lanes: np.ndarray | None
    ops: tuple[Operation, ...]

    @property
    def forms(self) -> tuple[bool, ...]:
        """Which formulas some element uses: True for fused, False for the product."""
        if self.offset is None:
            return (False,)
        return (True,) if self.lanes is None else tuple(sorted(set(self.lanes.flat)))


@dataclass(frozen=True)
class Quantize:
    """`cast(clamp(round_half_away(x * inverse) + zero_point))` to an integer type."""

    cast: ttc.CastOp
    inverse: np.float32
    zero_point: int
    ops: tuple[Operation, ...]


def _match_product(value: SSAValue) -> tuple[SSAValue, float, int, tuple[Operation, ...]] | None:
    """`(cast(q) - zero_point) * scale`: q, scale, zero point, the ops."""
    mul = _owner(value, tew.MulOp)
    if mul is None or _element(value) != f32 or _scalar(mul.shift) not in (0.0, None):
        return None
    for centred, scale_value in ((mul.input1, mul.input2), (mul.input2, mul.input1)):
        scale = _scalar(scale_value)
        sub = _owner(centred, tew.SubOp)
        if scale is None or sub is None:
            continue
        zero_point = _scalar(sub.input2)
        cast = _owner(sub.input1, ttc.CastOp)
        if zero_point is None or cast is None or not isinstance(
                _element(cast.input), IntegerType) or zero_point != int(zero_point):
            continue
        return cast.input, scale, int(zero_point), (mul, sub, cast)
    return None


def _match_fused(value: SSAValue) -> tuple[SSAValue, float, float, tuple[Operation, ...]] | None:
    """`cast(q) * scale + offset`: q, scale, offset, the ops."""
    add = _owner(value, tew.AddOp)
    mul = None if add is None else _owner(add.input1, tew.MulOp)
    if add is None or mul is None or _element(value) != f32 or \
            _scalar(mul.shift) not in (0.0, None):
        return None
    cast = _owner(mul.input1, ttc.CastOp)
    scale, offset = _scalar(mul.input2), _scalar(add.input2)
    if cast is None or scale is None or offset is None or \
            not isinstance(_element(cast.input), IntegerType):
        return None
    return cast.input, scale, offset, (add, mul, cast)


def match_dequantize(value: SSAValue) -> Dequantize | None:
    """The DEQUANTIZE lowering (`tflite_to_tosa/quantized.py`) that computes `value`."""
    product = _match_product(value)
    if product is not None:
        q, scale, zero_point, ops = product
        return Dequantize(q, np.float32(scale), zero_point, None, None, ops)
    fused = _match_fused(value)
    select = _owner(value, tew.SelectOp)
    lanes = None
    if fused is None and select is not None and isinstance(select.input1.owner, tt.ConstOp):
        fused, product = _match_fused(select.input2), _match_product(select.input3)
        if fused is None or product is None or fused[0] != product[0] or \
                fused[1] != product[1]:
            return None
        lanes = dense_to_numpy(select.input1.owner.values)
    if fused is None:
        return None
    q, scale, offset, ops = fused
    zero_point = -round(float(offset) / scale) if product is None else product[2]
    extra = () if lanes is None or select is None or product is None else (select, *product[3])
    return Dequantize(q, np.float32(scale), zero_point, np.float32(offset), lanes,
                      (*ops, *extra))


def _round_half_away_input(value: SSAValue) -> tuple[SSAValue, tuple[Operation, ...]] | None:
    """`x` of `select(0 > x, ceil(x - 0.5), floor(x + 0.5))`, and those ops."""
    select = _owner(value, tew.SelectOp)
    if select is None:
        return None
    greater = _owner(select.input1, tew.GreaterOp)
    ceil = _owner(select.input2, tew.CeilOp)
    floor = _owner(select.input3, tew.FloorOp)
    if greater is None or ceil is None or floor is None or _scalar(greater.input1) != 0.0:
        return None
    x = greater.input2
    sub = _owner(ceil.input1, tew.SubOp)
    add = _owner(floor.input1, tew.AddOp)
    if sub is None or add is None or sub.input1 != x or add.input1 != x or \
            _scalar(sub.input2) != 0.5 or _scalar(add.input2) != 0.5:
        return None
    return x, (select, greater, ceil, floor, sub, add)


def match_quantize(cast: ttc.CastOp, read: SSAValue) -> Quantize | None:
    """The QUANTIZE lowering of `read` that `cast` ends."""
    element = _element(cast.output)
    if not isinstance(element, IntegerType) or element.width.data not in (8, 16):
        return None
    clamp = _owner(cast.input, tact.ClampOp)
    if clamp is None or (clamp.min_val.value.data, clamp.max_val.value.data) != \
            tuple(float(b) for b in _bounds(element)):
        return None
    shifted = _owner(clamp.input, tew.AddOp)
    zero_point = None if shifted is None else _scalar(shifted.input2)
    if shifted is None or zero_point is None or zero_point != int(zero_point):
        return None
    rounded = _round_half_away_input(shifted.input1)
    if rounded is None:
        return None
    scaled, round_ops = rounded
    mul = _owner(scaled, tew.MulOp)
    inverse = None if mul is None else _scalar(mul.input2)
    if mul is None or mul.input1 != read or inverse is None or \
            _scalar(mul.shift) not in (0.0, None):
        return None
    return Quantize(cast, np.float32(inverse), int(zero_point),
                    (cast, clamp, shifted, *round_ops, mul))


def dequantized(q: np.ndarray, d: Dequantize, fused: bool) -> np.ndarray:
    """What one formula of the DEQUANTIZE lowering computes, in f32."""
    if fused:
        assert d.offset is not None
        return (q.astype(np.float32) * d.scale).astype(np.float32) + d.offset
    return (q.astype(np.float32) - np.float32(d.zero_point)) * d.scale


def quantized(x: np.ndarray, q: Quantize) -> np.ndarray:
    """What the QUANTIZE lowering computes (f32 ops, as the interpreter runs them)."""
    scaled = (x.astype(np.float32) * q.inverse).astype(np.float32)
    rounded = np.where(np.float32(0) > scaled, np.ceil(scaled - np.float32(0.5)),
                       np.floor(scaled + np.float32(0.5)))
    low, high = _bounds(_element(q.cast.output))  # type: ignore[arg-type]
    return np.clip(rounded + np.float32(q.zero_point), low, high).astype(np.int64)


def rescale_reference(x: np.ndarray, multiplier: int, shift: int, input_zp: int,
                      output_zp: int, double_round: bool, bounds: tuple[int, int]) -> np.ndarray:
    """TOSA 1.0's `apply_scale_32` of `tosa.rescale` (scale32), on int64 arrays."""
    value = x.astype(np.int64) - input_zp
    round_ = np.int64(1) << (shift - 1)
    if double_round and shift > 31:
        round_ = round_ + np.where(value >= 0, np.int64(1) << 30, -(np.int64(1) << 30))
    result = (value * multiplier + round_) >> shift
    return np.clip(result + output_zp, *bounds)


def _multiplier_shift(scale: float) -> tuple[int, int] | None:
    """TOSA's 32-bit (multiplier, shift) for `scale`, as TFLite's `QuantizeMultiplier`."""
    if scale <= 0.0:
        return None
    mantissa, exponent = math.frexp(scale)
    multiplier = math.floor(mantissa * (1 << 31) + 0.5)
    if multiplier == 1 << 31:
        multiplier //= 2
        exponent += 1
    shift = 31 - exponent
    return (multiplier, shift) if 2 <= shift <= 62 else None


@dataclass(frozen=True)
class Requantization:
    """How a read's quantize is computed from the stored integer: nothing (it is the stored
    value), a rescale `(multiplier, shift, double_round)`, a 256-entry int8 table, or, when
    the dequantize's two formulas give different values (`Dequantize.lanes`), one of those
    for the first `split` elements of the flat tensor (`fused`) and one for the rest."""

    rescale: tuple[int, int, bool] | None = None
    table: np.ndarray | None = None
    split: tuple[int, Requantization, Requantization] | None = None


def requantization(d: Dequantize, q: Quantize) -> Requantization | None:
    """What `q` gives for every value `d` can write, as integer ops; None if not possible
    (no rescale matches a read that is not int8)."""
    if len(d.forms) == 1:
        return _requantization(d, q, d.forms[0])
    fused, product = _requantization(d, q, True), _requantization(d, q, False)
    if fused is None or product is None:
        return None
    if fused == product:
        return fused
    assert d.lanes is not None
    return Requantization(split=(int(d.lanes.sum()), fused, product))


def _requantization(d: Dequantize, q: Quantize, fused: bool) -> Requantization | None:
    element, out_element = _element(d.value), _element(q.cast.output)
    assert isinstance(element, IntegerType) and isinstance(out_element, IntegerType)
    low, high = _bounds(element)
    stored = np.arange(low, high + 1, dtype=np.int64)
    wanted = quantized(dequantized(stored, d, fused), q)
    if np.array_equal(wanted, stored) and element == out_element:
        return Requantization()
    pair = _multiplier_shift(float(d.scale) * float(q.inverse))
    for double_round in (False, True):
        if pair is not None and np.array_equal(wanted, rescale_reference(
                stored, *pair, d.zero_point, q.zero_point, double_round, _bounds(out_element))):
            return Requantization(rescale=(*pair, double_round))
    if element == i8 and out_element == i8:
        return Requantization(table=wanted.astype(np.int8))
    return None


@dataclass
class _Plan:
    """How one variable becomes an integer one."""

    variable: VariableOp
    write: Dequantize
    writes: list[tuple[VariableWriteOp, Dequantize]]
    reads: list[tuple[VariableReadOp, list[tuple[Quantize, Requantization]]]]
    initial: np.ndarray


def _users(value: SSAValue) -> Iterator[Operation]:
    for use in value.uses:
        yield use.operation


def _read_quantizes(read: VariableReadOp) -> list[Quantize] | None:
    """The quantizes that all uses of `read` feed, or None if any use leaks the float."""
    seen: set[Operation] = set()
    casts: list[ttc.CastOp] = []
    stack = list(_users(read.results[0]))
    while stack:
        op = stack.pop()
        if op in seen:
            continue
        seen.add(op)
        if isinstance(op, ttc.CastOp) and isinstance(_element(op.output), IntegerType):
            casts.append(op)
            continue
        if len(op.regions) or not op.results:
            return None
        for result in op.results:
            stack.extend(_users(result))
    matches = [match_quantize(cast, read.results[0]) for cast in casts]
    if not matches or any(m is None for m in matches):
        return None
    found = [m for m in matches if m is not None]
    covered = {op for m in found for op in m.ops}
    return found if seen <= covered else None


def _initial(variable: VariableOp, d: Dequantize, element: IntegerType) -> np.ndarray | None:
    """The stored integers whose dequantized values are the float initial value."""
    if variable.initial_value is None:
        floats = np.zeros(variable.shape, np.float32)
    else:
        floats = np.broadcast_to(dense_to_numpy(variable.initial_value), variable.shape)
    low, high = _bounds(element)
    q = np.clip(np.rint(floats.astype(np.float64) / float(d.scale)) + d.zero_point, low, high)
    exact = all(np.array_equal(dequantized(q, d, fused), floats) for fused in d.forms)
    return q.astype(np.int64) if exact else None


def _plan(module: ModuleOp, variable: VariableOp) -> _Plan | None:
    if variable.element_type != f32 or any(s < 0 for s in variable.shape):
        return None
    name = variable.var_name
    reads: list[tuple[VariableReadOp, list[Quantize]]] = []
    writes: list[tuple[VariableWriteOp, Dequantize]] = []
    for op in module.walk():
        if isinstance(op, VariableReadOp) and op.var_name == name:
            quantizes = _read_quantizes(op)
            if quantizes is None:
                return None
            reads.append((op, quantizes))
        elif isinstance(op, VariableWriteOp) and op.var_name == name:
            d = match_dequantize(op.operands[0])
            if d is None:
                return None
            writes.append((op, d))
    if not writes or not reads:
        return None
    first = writes[0][1]
    element = _element(first.value)
    key = (first.scale, first.zero_point, first.offset, element)
    if any((d.scale, d.zero_point, d.offset, _element(d.value)) != key for _, d in writes) \
            or not isinstance(element, IntegerType):
        return None
    planned = []
    for read, quantizes in reads:
        found = [(q, requantization(first, q)) for q in quantizes]
        if any(r is None for _, r in found):
            return None
        planned.append((read, [(q, r) for q, r in found if r is not None]))
    initial = _initial(variable, first, element)
    if initial is None:
        return None
    return _Plan(variable, first, writes, planned, initial)


def _requantize(rewriter: Rewriter, value: SSAValue, d: Dequantize, q: Quantize,
                how: Requantization) -> SSAValue:
    """`value` (stored with `d`'s scale and zero point) as `q` computes it from the float."""
    if how.rescale is None and how.table is None and how.split is None:
        return value
    ops: list[Operation] = []

    def const(array: np.ndarray, of: Attribute) -> SSAValue:
        ops.append(tt.ConstOp(numpy_to_dense(array, of)))
        return ops[-1].results[0]

    def add(op: Operation) -> SSAValue:
        ops.append(op)
        return op.results[0]

    if how.split is not None:
        count, first, rest = how.split
        value_type = value.type
        assert isinstance(value_type, TensorType)
        dims, element = value_type.get_shape(), value_type.element_type
        size = math.prod(dims)
        flat = add(tdl.ReshapeOp(value, add(tt.ConstShapeOp([size])),
                                TensorType(element, [size])))
        parts = []
        for start, length, part in ((0, count, first), (count, size - count, rest)):
            piece = add(tdl.SliceOp(flat, add(tt.ConstShapeOp([start])),
                                   add(tt.ConstShapeOp([length])),
                                   TensorType(element, [length])))
            rewriter.insert_op(ops, InsertPoint.before(q.cast))
            ops.clear()
            parts.append(_requantize(rewriter, piece, d, q, part))
        out = _element(q.cast.output)
        joined = add(tdl.ConcatOp(parts, 0, TensorType(out, [size])))
        add(tdl.ReshapeOp(joined, add(tt.ConstShapeOp(list(dims))), q.cast.output.type))
        rewriter.insert_op(ops, InsertPoint.before(q.cast))
        return ops[-1].results[0]

    if how.rescale is not None:
        multiplier, shift, double_round = how.rescale
        op: Operation = ttc.RescaleOp.create(
            operands=[value, const(np.array([multiplier], np.int32), i32),
                      const(np.array([shift], np.int8), i8),
                      const(np.array([d.zero_point]), _element(value)),
                      const(np.array([q.zero_point]), _element(q.cast.output))],
            result_types=[TensorType(_element(q.cast.output), _dims(value))],
            properties={
                "scale32": BoolAttr.from_bool(True),
                "rounding_mode": RoundingModeAttr(
                    RoundingMode.DOUBLE_ROUND if double_round else RoundingMode.SINGLE_ROUND),
                "per_channel": BoolAttr.from_bool(False),
                "input_unsigned": BoolAttr.from_bool(False),
                "output_unsigned": BoolAttr.from_bool(False)})
    else:
        assert how.table is not None
        op = ttc.TableOp.create(operands=[value, const(how.table, i8)],
                                result_types=[TensorType(i8, _dims(value))])
    ops.append(op)
    rewriter.insert_op(ops, InsertPoint.before(q.cast))
    return op.results[0]


def _erase_dead(ops: list[Operation]) -> None:
    """Erase `ops` (in any order) once nothing uses them, and the constants they alone used."""
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
    d = plan.write
    element = _element(d.value)
    assert isinstance(element, IntegerType)
    var_type = TensorType(element, plan.variable.shape)
    new_var = VariableOp(plan.variable.var_name, var_type,
                         numpy_to_dense(plan.initial.reshape(plan.variable.shape), element))
    new_var.attributes.update(plan.variable.attributes)
    new_var.attributes[QUANTIZATION_ATTR] = DictionaryAttr({
        "scale": FloatAttr(float(d.scale), f32),
        "zero_point": IntegerAttr(d.zero_point, i32)})
    rewriter.replace_op(plan.variable, new_var)
    dead: list[Operation] = []
    for read, quantizes in plan.reads:
        new_read = VariableReadOp(read.var_name, var_type)
        rewriter.insert_op(new_read, InsertPoint.before(read))
        for q, how in quantizes:
            value = _requantize(rewriter, new_read.results[0], d, q, how)
            q.cast.output.replace_all_uses_with(value)
            dead.extend(q.ops)
        dead.append(read)
    for write, wd in plan.writes:
        rewriter.replace_op(write, VariableWriteOp(write.var_name, wd.value))
        dead.extend(wd.ops)
    _erase_dead(dead)


@dataclass(frozen=True)
class TosaIntegerStatePass(ModulePass):
    """Float variables holding quantized values become integer variables (module doc)."""

    name = "tosa-integer-state"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        variables = [v for v in op.walk() if isinstance(v, VariableOp)]
        for variable in variables:
            plan = _plan(op, variable)
            if plan is not None:
                _rewrite(plan)
