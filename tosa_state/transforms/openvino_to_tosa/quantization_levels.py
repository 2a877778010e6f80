"""A FakeQuantize's level index and output value in f32 and i32 ops, equal to OpenVINO's
reference (`fake_quantize.hpp`: `rint(f32(f32(d / span) * (levels - 1)))` with the quotient
rounded once, then `f32(f32(level / (levels - 1)) * (high - low)) + low`) for every f32
input, when the bounds are constants. TOSA has no float division, and no TOSA profile has
the f64 that would round the quotient once.

**The level.** As a function of `d = x - input_low` it is monotone, so it is known by its
thresholds: the least f32 `d` reaching each level, found at compile time by bisection over
the f32 values (numpy's f32 division is IEEE's, rounded once). The run-time estimate
`rint(f32(d * f32((levels - 1) / span)))` differs from the level only within a few ulps of a
threshold (both are within 2 ulps of the exact product, so they round differently only
where it is that close to a half-integer); the estimate and the level are compared on the
256 f32 values either side of every threshold, and each run of inputs where they differ
becomes one correction, `level += delta` where `lo <= d <= hi` — element-wise ops
(compares, `logical_and`, `select`), with per-element bounds as constants of the bounds'
shape, one round of them per correction an element needs.

**The value.** `f32(level / (levels - 1))` has no such cheap form (a reciprocal product is
an ulp off at 126 of the 256 levels), so the value of each level is a table computed at
compile time and read with one `tosa.gather` (an index per bounds element and level).

Bounds computed at run time, more than `MAX_TABLE` (element, level) pairs, or corrections
beyond `MAX_ROUNDS` leave the caller to its f64 form.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import f32, i1, i32
from xdsl.ir import SSAValue

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import Emitter, dims
from tosa_state.transforms.tosa_builder.values import tensor_type

MAX_TABLE = 1 << 18
"""The most (bounds element, level) pairs tabulated (and checked around their thresholds:
about 5 ms of numpy per element at 256 levels)."""
MAX_ROUNDS = 8
"""The most corrections one bounds element may need."""
WINDOW = 256
"""f32 values checked either side of each threshold."""

_F32 = np.float32


def _ordered(values: np.ndarray) -> np.ndarray:
    """f32 -> int64 keeping the order (-0 and +0 adjacent)."""
    bits = values.astype(_F32).view(np.int32).astype(np.int64)
    return np.where(bits < 0, -(bits & 0x7FFFFFFF) - 1, bits)


def _from_ordered(keys: np.ndarray) -> np.ndarray:
    bits = np.where(keys < 0, (-(keys + 1)) | 0x80000000, keys)
    return bits.astype(np.uint32).view(np.int32).view(_F32)


def exact_levels(d: np.ndarray, span: np.ndarray, steps: int) -> np.ndarray:
    """The reference's level of `d` (f32 ops, the quotient rounded once)."""
    with np.errstate(all="ignore"):
        return np.rint((d.astype(_F32) / span.astype(_F32)).astype(_F32) * _F32(steps))


SPLIT = _F32(4097)
"""Veltkamp's splitter for f32: `2^12 + 1`."""
LIMIT = _F32(2)
"""Quotients beyond +-2 are clamped there before the correction (their level is out of
range either way), so that nothing overflows."""


def split(value: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Veltkamp: `value = high + low`, each with at most 12 significant bits."""
    with np.errstate(all="ignore"):
        c = (SPLIT * value).astype(_F32)
        high = (c - (c - value).astype(_F32)).astype(_F32)
        return high, (value - high).astype(_F32)


def estimated_levels(d: np.ndarray, span: np.ndarray, steps: int) -> np.ndarray:
    """The run-time estimate, op for op as `emit_levels` computes it: the reciprocal
    product, corrected once by its residual (`d - q0 * span`, the product exact by
    Dekker's splitting), times `steps`, rounded."""
    f = _F32
    with np.errstate(all="ignore"):
        d, span = d.astype(f), span.astype(f)
        inverse = (f(1) / span).astype(f)
        s_high, s_low = split(span)
        q0 = np.clip((d * inverse).astype(f), -LIMIT, LIMIT)
        q_high, q_low = split(q0)
        p = (q0 * span).astype(f)
        error = ((((q_high * s_high).astype(f) - p).astype(f) + (q_high * s_low).astype(f)
                  ).astype(f) + (q_low * s_high).astype(f)).astype(f)
        error = (error + (q_low * s_low).astype(f)).astype(f)
        residual = ((d - p).astype(f) - error).astype(f)
        q1 = np.clip((q0 + (residual * inverse).astype(f)).astype(f), -LIMIT, LIMIT)
        return np.rint((q1 * f(steps)).astype(f))


@dataclass(frozen=True)
class LevelPlan:
    """`span` per bounds element; `rounds` of (lo, hi, delta) arrays of the bounds' shape
    (an empty interval where an element needs fewer corrections)."""

    span: np.ndarray
    steps: int
    rounds: list[tuple[np.ndarray, np.ndarray, np.ndarray]]


def _thresholds(span: np.ndarray, steps: int) -> np.ndarray:
    """`[E, steps]`: the least f32 `d` whose level is at least k, k = 1..steps."""
    flat = span.reshape(-1, 1)
    targets = np.arange(1, steps + 1, dtype=np.float64)[None, :]
    low = np.full((flat.shape[0], steps), _ordered(np.array([-np.finfo(_F32).max]))[0])
    high = np.full_like(low, _ordered(np.array([np.finfo(_F32).max]))[0])
    for _ in range(34):
        middle = (low + high) // 2
        reached = exact_levels(_from_ordered(middle), np.broadcast_to(flat, middle.shape),
                               steps) >= targets
        high = np.where(reached, middle, high)
        low = np.where(reached, low, middle)
    return high


def plan_levels(span: np.ndarray, steps: int) -> LevelPlan | None:
    """How to compute the reference's levels exactly for constant `span` (> 0), or None."""
    if span.size * (steps + 1) > MAX_TABLE or not np.all(span > 0):
        return None
    thresholds = _thresholds(span, steps)
    offsets = np.arange(-WINDOW, WINDOW + 1)
    flat_span = span.astype(_F32).reshape(-1)
    per_element: list[list[tuple[float, float, int]]] = []
    for e in range(span.size):
        keys = np.unique((thresholds[e][:, None] + offsets[None, :]).reshape(-1))
        d = _from_ordered(keys)
        d = d[np.isfinite(d)]
        keys = _ordered(d)
        delta = exact_levels(d, flat_span[e], steps) - estimated_levels(d, flat_span[e], steps)
        if np.any(np.abs(delta) > 1):
            return None
        runs: list[tuple[float, float, int]] = []
        for i in np.nonzero(delta)[0]:
            extends = (runs and i > 0 and keys[i - 1] == keys[i] - 1
                       and delta[i - 1] == delta[i])
            if extends:
                runs[-1] = (runs[-1][0], float(d[i]), runs[-1][2])
            else:
                runs.append((float(d[i]), float(d[i]), int(delta[i])))
        per_element.append(runs)
    count = max((len(r) for r in per_element), default=0)
    if count > MAX_ROUNDS:
        return None
    rounds = []
    for k in range(count):
        lo = np.full(span.size, np.inf, _F32)
        hi = np.full(span.size, -np.inf, _F32)
        delta = np.zeros(span.size, _F32)
        for e, runs in enumerate(per_element):
            if k < len(runs):
                lo[e], hi[e], delta[e] = runs[k]
        rounds.append((lo.reshape(span.shape), hi.reshape(span.shape),
                       delta.reshape(span.shape)))
    return LevelPlan(span.astype(_F32), steps, rounds)


def emit_levels(e: Emitter, d: SSAValue, plan: LevelPlan) -> SSAValue:
    """The f32 levels (whole numbers) of `d` by `plan`: `estimated_levels` in TOSA ops, then
    the corrections."""
    rank = len(dims(d))

    def const(array: np.ndarray) -> SSAValue:
        return e.const(_shaped(np.asarray(array, _F32), rank))

    def split_value(value: SSAValue) -> tuple[SSAValue, SSAValue]:
        c = e.mul(value, const(SPLIT))
        high = e.sub(c, e.sub(c, value))
        return high, e.sub(value, high)

    span = plan.span
    with np.errstate(all="ignore"):
        inverse = (_F32(1) / span).astype(_F32)
    s_high, s_low = split(span)
    q0 = e.clamp(e.mul(d, const(inverse)), -float(LIMIT), float(LIMIT))
    q_high, q_low = split_value(q0)
    p = e.mul(q0, const(span))
    error = e.add(e.add(e.sub(e.mul(q_high, const(s_high)), p), e.mul(q_high, const(s_low))),
                  e.mul(q_low, const(s_high)))
    error = e.add(error, e.mul(q_low, const(s_low)))
    residual = e.sub(e.sub(d, p), error)
    q1 = e.clamp(e.add(q0, e.mul(residual, const(inverse))), -float(LIMIT), float(LIMIT))
    scaled = e.mul(q1, const(np.full(1, plan.steps, _F32)))
    level = e.cast(e.cast(scaled, i32), f32)
    for lo, hi, delta in plan.rounds:
        inside = e.elementwise(
            tew.LogicalAndOp,
            e.elementwise(tew.GreaterEqualOp, d, const(lo), result_element=i1),
            e.elementwise(tew.GreaterEqualOp, const(hi), d, result_element=i1),
            result_element=i1)
        level = e.select(inside, e.add(level, const(delta)), level)
    return level


def _shaped(array: np.ndarray, rank: int) -> np.ndarray:
    return array.astype(_F32).reshape((1,) * (rank - array.ndim) + array.shape)


def level_values(steps: int, out_low: np.ndarray, out_high: np.ndarray) -> np.ndarray:
    """`[E, steps + 1]`: the reference's output value of each level, per bounds element."""
    k = np.arange(steps + 1, dtype=_F32)
    fraction = (k / _F32(steps)).astype(_F32)
    span = (out_high.astype(_F32) - out_low.astype(_F32)).astype(_F32).reshape(-1, 1)
    return ((fraction[None, :] * span).astype(_F32) + out_low.astype(_F32).reshape(-1, 1)
            ).astype(_F32)


def emit_values(e: Emitter, level: SSAValue, steps: int, shape: tuple[int, ...],
                table: np.ndarray) -> SSAValue:
    """`table[element, level]` at each position, `shape` the bounds' (numpy broadcast)."""
    rank = len(dims(level))
    base = (np.arange(int(np.prod(shape)), dtype=np.int64) * (steps + 1)).reshape(shape)
    # the index in f32 (exact: below 2^24) until it has the gather's shape: PRO-FP has no
    # i32 reshape
    index = e.add(e.clamp(level, 0.0, float(steps)),
                  e.const(base.astype(_F32).reshape((1,) * (rank - len(shape)) + shape)))
    sizes = e.sizes(index)
    rows = e.cast(e.reshape_sizes(index, [1, e.product(sizes)]), i32)
    values = e.const(table.reshape(1, -1, 1).astype(_F32))
    width = dims(rows)[1]
    gathered = e.value(tt.GatherOp(values, rows, tensor_type(f32, [1, width, 1])))
    return e.reshape_sizes(gathered, sizes)
