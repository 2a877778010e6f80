"""`tosa-integer-requantize`: float ops between an integer accumulator and an int8 result
become integer ops that give the same int8 values.

An NNCF-quantized convolution is lowered to an i8 `tosa.conv2d` into i32, then in f32: a
multiply by the scales, the bias, a ReLU and the next FakeQuantize, down to int8 levels.
Integer targets take no float op. Those ops are element-wise and their constants vary along
one axis at most (the channels), so each channel's int8 result is a function of its i32
accumulator alone: that function is evaluated with the runtime's kernels (`folding`, as
`tosa-integer-state` does) for every accumulator the producer can give (its weights, input
zero point and bias bound it), and replaced by

```mlir
%v = tosa.mul %acc, 2^m              // i32: room for a fractional offset
%b = tosa.add %v, B                  // B per channel, in 2^-m accumulator units
%w = tosa.mul %b, M, shift = S       // per channel: (b * M + 2^(S-1)) >> S, as a rescale
%q = tosa.rescale %w ... output_zp   // to int8, saturating (and a clamp when the table
                                     // stops short of the int8 bounds)
```

where `M`, `S`, `B` are fitted so that the result equals the float ops' on **every**
accumulator of the range (checked exactly, in int64, before anything is rewritten): the
levels of a monotone function are its thresholds, and a line through all of them is found
by scanning multipliers near the float scale and intersecting the intervals each threshold
allows the offset. Float ops round, so some thresholds sit one accumulator away from the
exact line; the fractional offset (`m` bits, as many as keep the i32 in range) is what lets
a line pass through them. When no fit exists, the accumulator range is unknown or too
large, or the function is not monotone, the ops are left as they are.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import BoolAttr, IntegerType, ModuleOp, TensorType, i8, i32
from xdsl.dialects.tosa import RoundingMode, RoundingModeAttr
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tosa import activation as tac
from tosa_state.dialects.tosa import data_layout as tdl
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa import type_conversion as ttc
from tosa_state.dialects.tosa.tensor import Conv2DOp, DepthwiseConv2DOp
from tosa_state.dtypes import numpy_to_dense
from tosa_state.transforms.tosa_integer_state import (
    Cone,
    constant_of,
    evaluate_all,
    integer_cone,
    rescale_reference,
)

MAX_EVALUATED = 1 << 24
"""The most (accumulator, channel) pairs evaluated for one result."""
CHUNK = 4096
"""Multipliers tried at once."""


@dataclass(frozen=True)
class ChannelFit:
    """`(((acc << shift_m) + offset) * multiplier + 2^(shift - 1)) >> shift`, plus
    `output_zp`, clamped to `[low, high]`."""

    offset: int
    multiplier: int
    shift: int


def _dims(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return value.type.get_shape()


def _element(value: SSAValue) -> Attribute:
    assert isinstance(value.type, TensorType)
    return value.type.element_type


def accumulator_range(value: SSAValue) -> tuple[int, int] | None:
    """Bounds of the i32 `value`: a convolution's (or a layout op of one) with constant
    weights and bias and an i8 input with a constant zero point; else None."""
    owner = value.owner
    while isinstance(owner, tdl.TransposeOp | tdl.ReshapeOp):
        owner = owner.operands[0].owner
    if not isinstance(owner, Conv2DOp | DepthwiseConv2DOp):
        return None
    weights, bias = constant_of(owner.weight), constant_of(owner.bias)
    input_zp = constant_of(owner.input_zp)
    weight_zp = constant_of(owner.weight_zp)
    if weights is None or bias is None or input_zp is None or weight_zp is None \
            or _element(owner.input) != i8 or np.any(weight_zp):
        return None
    zp = int(input_zp.reshape(-1)[0])
    w = weights.astype(np.int64)
    if isinstance(owner, DepthwiseConv2DOp):
        w = np.moveaxis(w, (2, 3), (0, 1)).reshape(-1, *w.shape[:2])
    else:
        w = w.reshape(w.shape[0], -1)
    extremes = np.stack([w * (-128 - zp), w * (127 - zp)])
    low = extremes.min(axis=0).reshape(w.shape[0], -1).sum(axis=1) + bias.astype(np.int64)
    high = extremes.max(axis=0).reshape(w.shape[0], -1).sum(axis=1) + bias.astype(np.int64)
    return int(low.min()), int(high.max())


def _channel_axis(cone: Cone) -> int | None:
    """The one axis the cone's constants vary along (-1 when all are scalars), or None."""
    axes = set()
    rank = len(_dims(cone.source))
    for op in cone.ops:
        for operand in op.operands:
            found = constant_of(operand)
            if found is None or found.size == 1:
                continue
            if found.ndim != rank:
                return None
            axes |= {axis for axis, size in enumerate(found.shape) if size > 1}
    if len(axes) > 1:
        return None
    return axes.pop() if axes else -1


def _thresholds(table: np.ndarray, accumulators: np.ndarray) -> np.ndarray:
    """For a non-decreasing `table`: the first accumulator reaching each level above the
    first."""
    levels = np.arange(table[0] + 1, table[-1] + 1)
    return accumulators[np.searchsorted(table, levels)]


def natural_shift(table: np.ndarray, accumulators: np.ndarray, shift_m: int) -> int:
    """The shift that puts the multiplier of `table`'s slope in [2^30, 2^31)."""
    steps = _thresholds(table, accumulators)
    u_high = ((steps[-1] - steps[0] + 1) / (len(steps) - 1) if len(steps) > 1
              else float(accumulators[-1] - accumulators[0] + 1))
    return shift_m + 30 + max(0, math.ceil(math.log2(u_high)))


def fit_channel(table: np.ndarray, accumulators: np.ndarray, shift_m: int, shift: int
                ) -> ChannelFit | None:
    """A `ChannelFit` (output zero point `table[0]`) equal to `table` on `accumulators`."""
    if table[0] == table[-1] or np.any(np.diff(table) < 0):
        return None
    steps = _thresholds(table, accumulators).astype(np.float64)
    j = np.arange(1, len(steps) + 1, dtype=np.float64)
    # accumulators per level `u`: each pair of thresholds bounds it
    if len(steps) > 1:
        first_j, second_j = np.triu_indices(len(steps), 1)
        apart = (second_j - first_j).astype(np.float64)
        span = steps[second_j] - steps[first_j]
        u_low, u_high = ((span - 1) / apart).max(), ((span + 1) / apart).min()
    else:
        u_low, u_high = 1.0, float(accumulators[-1] - accumulators[0] + 1)
    if u_low >= u_high:
        return None
    # u = 2^shift / (multiplier * 2^shift_m)
    first = max(1, math.floor(2.0 ** (shift - shift_m) / u_high))
    last = min(2 ** 31 - 1, math.ceil(2.0 ** (shift - shift_m) / max(u_low, 1e-9)))
    scale = 2.0 ** shift_m
    centre = 2.0 ** (shift - shift_m) * 2 / (u_low + u_high)
    chunks = sorted(range(first, last + 1, CHUNK), key=lambda c: abs(c + CHUNK / 2 - centre))
    for chunk in chunks:
        candidates = np.arange(chunk, min(chunk + CHUNK, last + 1), dtype=np.float64)
        per_level = 2.0 ** (shift - shift_m) / candidates
        c = (j[None, :] - 0.5) * per_level[:, None] - steps[None, :]
        offsets = np.ceil(c.max(axis=1) * scale)
        room = (c.min(axis=1) + 1) * scale - offsets
        for index in np.argsort(-room)[:4]:
            if room[index] <= 1:
                break
            fit = ChannelFit(int(offsets[index] + room[index] // 2), int(candidates[index]),
                             shift)
            if np.array_equal(apply_fit(accumulators, fit, shift_m, int(table[0]),
                                        (int(table[0]), int(table[-1]))), table):
                return fit
    return None


def apply_fit(acc: np.ndarray, fit: ChannelFit, shift_m: int, output_zp: int,
              bounds: tuple[int, int]) -> np.ndarray:
    """The integer ops' result, exactly (int64)."""
    value = (acc.astype(np.int64) << shift_m) + fit.offset
    scaled = (value * fit.multiplier + (np.int64(1) << (fit.shift - 1))) >> fit.shift
    return rescale_reference(scaled, 1 << 30, 30, 0, output_zp, False, bounds)


@dataclass
class _Plan:
    cone: Cone
    axis: int
    fits: list[ChannelFit]
    shift_m: int
    output_zp: int
    bounds: tuple[int, int]


def _ends(value: SSAValue) -> bool:
    """An int8 result, or the i32 levels a float is rounded to (`tosa.cast`) when they are
    not made a float again."""
    element = _element(value)
    owner = value.owner
    return element == i8 or (
        element == i32 and isinstance(owner, ttc.CastOp)
        and not isinstance(_element(owner.input), IntegerType)
        and not any(isinstance(u.operation, ttc.CastOp)
                    and not isinstance(_element(u.operation.output), IntegerType)
                    for u in value.uses))


def _plan(source: SSAValue) -> _Plan | None:
    if _element(source) != i32 or any(d < 0 for d in _dims(source)):
        return None
    cone = integer_cone(source, ends=_ends)
    if cone is None or len(cone.outputs) != 1 \
            or not any(isinstance(op, ttc.CastOp) for op in cone.ops):
        return None
    axis = _channel_axis(cone)
    found = accumulator_range(source)
    if axis is None or found is None:
        return None
    low, high = found
    dims = _dims(source)
    channels = 1 if axis < 0 else dims[axis]
    if (high - low + 1) * channels > MAX_EVALUATED:
        return None
    shape = [1] * len(dims)
    if axis >= 0:
        shape[axis] = channels
    accumulators = np.arange(low, high + 1, dtype=np.int64)
    batch = np.broadcast_to(accumulators.astype(np.int32).reshape(-1, *[1] * len(dims)),
                            (len(accumulators), *shape)).copy()
    evaluated = evaluate_all(cone, batch)
    if evaluated is None:
        return None
    tables = evaluated[0].reshape(len(accumulators), channels).astype(np.int64)
    shift_m = max(0, min(12, 30 - math.ceil(math.log2(max(abs(low), abs(high), 1) + 1)) - 1))
    output_zp = int(tables[0, 0])
    bounds = (output_zp, int(tables.max()))
    if np.any(tables[0] != output_zp):
        return None
    if any(tables[0, c] == tables[-1, c] for c in range(channels)):
        return None
    shift = min(natural_shift(tables[:, c], accumulators, shift_m) for c in range(channels))
    fits = []
    for channel in range(channels):
        table = tables[:, channel]
        fit = fit_channel(table, accumulators, shift_m, shift)
        if fit is None or not np.array_equal(
                apply_fit(accumulators, fit, shift_m, output_zp, bounds), table):
            return None
        fits.append(fit)
    return _Plan(cone, axis, fits, shift_m, output_zp, bounds)


def _rewrite(plan: _Plan) -> None:
    rewriter = Rewriter()
    cone = plan.cone
    output = cone.outputs[0]
    before = cone.ops[0]
    dims = _dims(cone.source)
    rank = len(dims)
    shape = [1] * rank
    if plan.axis >= 0:
        shape[plan.axis] = len(plan.fits)

    def add(op: Operation) -> SSAValue:
        rewriter.insert_op(op, InsertPoint.before(before))
        return op.results[0]

    def const(values: np.ndarray | list[int], element: Attribute, shape_: list[int]
              ) -> SSAValue:
        return add(tt.ConstOp(numpy_to_dense(np.asarray(values).reshape(shape_), element)))

    no_shift = const([0], i8, [1])
    typed = TensorType(i32, dims)
    value = add(tew.MulOp(cone.source, const([1 << plan.shift_m], i32, [1] * rank),
                          no_shift, typed))
    value = add(tew.AddOp(value, const([f.offset for f in plan.fits], i32, shape), typed))
    (shift,) = {f.shift for f in plan.fits}
    value = add(tew.MulOp(value, const([f.multiplier for f in plan.fits], i32, shape),
                          const([shift], i8, [1]), typed))
    low, high = plan.bounds
    if _element(output) == i32:
        if plan.output_zp:
            value = add(tew.AddOp(value, const([plan.output_zp], i32, [1] * rank), typed))
        # TOSA 1.0 has no i32 clamp: a minimum and a maximum
        value = add(tew.MinimumOp(value, const([high], i32, [1] * rank), typed))
        result = add(tew.MaximumOp(value, const([low], i32, [1] * rank), typed))
    else:
        result = add(ttc.RescaleOp.create(
            operands=[value, const([1 << 30], i32, [1]), const([30], i8, [1]),
                      const([0], i32, [1]), const([plan.output_zp], i8, [1])],
            result_types=[TensorType(i8, dims)],
            properties=_rescale_properties()))
        if (low, high) != (-128, 127):
            result = add(tac.ClampOp(result, low, high))
    output.replace_all_uses_with(result)
    for op in reversed(cone.ops):
        Rewriter.erase_op(op)


def _rescale_properties() -> dict[str, Attribute]:
    false = BoolAttr.from_bool(False)
    return {"scale32": BoolAttr.from_bool(True),
            "rounding_mode": RoundingModeAttr(RoundingMode.SINGLE_ROUND),
            "per_channel": false, "input_unsigned": false, "output_unsigned": false}


@dataclass(frozen=True)
class TosaIntegerRequantizePass(ModulePass):
    """Float element-wise ops from an i32 accumulator to an int8 result become fitted
    integer ops giving the same int8 values on every accumulator."""

    name = "tosa-integer-requantize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        sources = [r for o in op.walk() for r in o.results
                   if isinstance(r.type, TensorType) and isinstance(r.type.element_type,
                                                                  IntegerType)]
        for source in sources:
            plan = _plan(source)
            if plan is not None:
                _rewrite(plan)
