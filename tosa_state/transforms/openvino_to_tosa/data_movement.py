"""Shape and data-movement OpenVINO ops: Constant, ShapeOf, Reshape, Squeeze, Unsqueeze,
Transpose, Concat, Split, VariadicSplit, StridedSlice, Slice, Gather, Broadcast, Tile, Pad,
Range.

Shapes are static, so every shape-like operand (target shapes, axes, slice bounds, orders) must
fold to a constant; ShapeOf is one, and the emitter folds the arithmetic around it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import (
    DATA_SIZES_LIMIT,
    DYN,
    Emitter,
    OpenVINOPattern,
    RuntimeShape,
    Unsupported,
    constant,
    constant_ints,
    dims,
    dtype_of,
    element,
    normalize_axis,
    require_constant,
    shape,
    signless,
)


class Constant(OpenVINOPattern):
    """Constant-1: `tosa.const` with the same value."""

    OPS = (ov.ConstantOp,)

    def convert(self, op: ov.ConstantOp, e: Emitter) -> Sequence[SSAValue]:
        value_type = op.value.type
        stored = signless(value_type.element_type)
        if stored == value_type.element_type or stored.width.data == 8:
            return [e.const_attr(op.value)]
        # ui16 / ui32 / ui64: TOSA holds the same bytes as signless integers
        same_bytes = DenseIntOrFPElementsAttr(TensorType(stored, value_type.shape), op.value.data)
        return [e.bitcast(e.const_attr(same_bytes), value_type.element_type)]


class ShapeOf(OpenVINOPattern):
    """ShapeOf-1/3: a constant when the shape is static; else a `!tosa.shape` of the known
    sizes and `tosa.dim`s of the dynamic ones (a `RuntimeShape`)."""

    OPS = (ov.ShapeOfOp,)

    def convert(self, op: ov.ShapeOfOp, e: Emitter) -> Sequence[SSAValue]:
        sizes = [e.dim(op.input, i) if d == DYN else d for i, d in enumerate(dims(op.input))]
        return [e.shape_tensor(RuntimeShape(tuple(sizes), False, element(op.result)))]


def _reshape_target(op: ov.ReshapeOp, in_shape: tuple[int, ...]) -> tuple[int, ...]:
    target = constant_ints(op.shape, "the target shape")
    if bool(op.special_zero.value.data):
        target = [in_shape[i] if d == 0 and i < len(in_shape) else d for i, d in enumerate(target)]
    if target.count(-1) > 1:
        raise Unsupported(f"target shape {target} has more than one -1")
    if DYN in in_shape:  # the emitter reads the dynamic sizes at run time
        return tuple(DYN if d == -1 else d for d in target)
    known = int(np.prod([d for d in target if d != -1]))
    total = int(np.prod(in_shape))
    if -1 in target:
        if known == 0 or total % known:
            raise Unsupported(f"cannot infer the -1 of {target} for {total} elements")
        target[target.index(-1)] = total // known
    if int(np.prod(target)) != total:
        raise Unsupported(f"cannot reshape {ov.format_shape(in_shape)} into {target}")
    return tuple(target)


class Reshape(OpenVINOPattern):
    """Reshape-1 (`special_zero`, one `-1`): `tosa.reshape` with a `tosa.const_shape`."""

    OPS = (ov.ReshapeOp,)

    def convert(self, op: ov.ReshapeOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := e.shape_elements(op.input)) is not None and constant(op.input) is None:
            return [e.shape_tensor(replace(runtime, scalar=_rank(op.result) == 0), op.result)]
        if DYN in dims(op.input) or (constant(op.shape) is None and
                                     e.shape_elements(op.shape) is not None):
            # a static input's target computed from run-time shapes too (a cache's length)
            return [_reshape_dynamic(e, op)]
        return [e.reshape(op.input, _reshape_target(op, dims(op.input)))]


def _reshape_dynamic(e: Emitter, op: ov.ReshapeOp) -> SSAValue:
    """Reshape of a tensor with dynamic dims: the target's sizes (a constant, or a shape known
    at run time), `special_zero` copying input sizes, the `-1` the quotient of the element
    counts, all computed with shape arithmetic where they are not known."""
    target = e.shape_elements(op.shape)
    if target is None:
        raise Unsupported("the target shape must be a constant or computed from shapes")
    sizes: list[int | SSAValue] = []
    for i, d in enumerate(target.elements):
        if isinstance(d, int) and d == 0 and bool(op.special_zero.value.data):
            sizes.append(e.size(op.input, i))
        else:
            sizes.append(d)
    holes = [i for i, d in enumerate(sizes) if isinstance(d, int) and d == -1]
    if len(holes) > 1:
        raise Unsupported("the target shape has more than one -1")
    if holes:
        known = e.product([d for i, d in enumerate(sizes) if i != holes[0]])
        total = e.product(e.sizes(op.input))
        sizes[holes[0]] = sz.floordiv(e, total, known)
    return e.reshape_sizes(op.input, sizes)


class Squeeze(OpenVINOPattern):
    """Squeeze-1 / -15: drop the size-1 dims in `axes` (all of them without `axes`); as
    OpenVINO, an axis whose dim is statically not 1 is skipped."""

    OPS = (ov.SqueezeOp,)

    def convert(self, op: ov.SqueezeOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:  # a 1-element shape to 0-D
            return [e.shape_tensor(replace(runtime, scalar=_rank(op.result) == 0), op.result)]
        dims = _dims(op.input)
        if op.axes is None:
            axes = {i for i, d in enumerate(dims) if d == 1}
        else:
            axes = {normalize_axis(a, len(dims)) for a in constant_ints(op.axes, "axes")}
            axes = {a for a in axes if dims[a] in (1, DYN)}
        if op.allow_axis_skip.value.data and any(dims[a] == DYN for a in axes):
            raise Unsupported(f"allow_axis_skip with a dynamic dim in axes {sorted(axes)} of "
                              f"{ov.format_shape(dims)}: the result's rank is known only at run "
                              "time (OpenVINO's CPU plugin refuses it too)")
        if any(dims[a] != 1 for a in axes):
            raise Unsupported(f"cannot squeeze non-1 dims {sorted(axes)} of {list(dims)}")
        return [e.reshape(op.input, [d for i, d in enumerate(dims) if i not in axes])]


class Unsqueeze(OpenVINOPattern):
    """Unsqueeze-1: size-1 dims inserted at `axes` (of the result)."""

    OPS = (ov.UnsqueezeOp,)

    def convert(self, op: ov.UnsqueezeOp, e: Emitter) -> Sequence[SSAValue]:
        runtime = _runtime(e, op.input) if _rank(op.result) <= 1 else None
        if runtime is not None:  # a 0-D shape to 1-D
            return [e.shape_tensor(replace(runtime, scalar=False), op.result)]
        dims = list(_dims(op.input))
        axes_list = constant_ints(op.axes, "axes")
        rank = len(dims) + len(axes_list)
        for axis in sorted(normalize_axis(a, rank) for a in axes_list):
            dims.insert(axis, 1)
        return [e.reshape(op.input, dims)]


class Transpose(OpenVINOPattern):
    """Transpose-1: `tosa.transpose` (an empty order reverses the dims)."""

    OPS = (ov.TransposeOp,)

    def convert(self, op: ov.TransposeOp, e: Emitter) -> Sequence[SSAValue]:
        rank = len(dims(op.input))
        order = constant_ints(op.order, "the order") or list(range(rank - 1, -1, -1))
        perms = [normalize_axis(p, rank) for p in order]
        if sorted(perms) != list(range(rank)):
            raise Unsupported(f"order {order} is not a permutation of {rank} dims")
        return [e.transpose(op.input, perms)]


class Concat(OpenVINOPattern):
    """Concat-1: `tosa.concat`."""

    OPS = (ov.ConcatOp,)

    def convert(self, op: ov.ConcatOp, e: Emitter) -> Sequence[SSAValue]:
        inputs = list(op.inputs)
        if any(_runtime(e, v) is not None for v in inputs):  # of shapes
            parts = [e.shape_elements(v) for v in inputs]
            if all(p is not None for p in parts):
                elements = tuple(d for p in parts if p is not None for d in p.elements)
                return [e.shape_tensor(RuntimeShape(elements, False, element(op.result)))]
            # with a computed tensor: the shapes as the integer tensors they stand for
            inputs = [e.shape_as_tensor(v) if _runtime(e, v) is not None else v
                      for v in inputs]
        axis = normalize_axis(op.axis.value.data, len(dims(inputs[0])))
        return [e.concat(inputs, axis)]


def _split(e: Emitter, value: SSAValue, axis: int, lengths: Sequence[sz.Size]
           ) -> list[SSAValue]:
    """Consecutive windows of `lengths` along `axis` (lengths known or not)."""
    sizes = e.sizes(value)
    parts: list[SSAValue] = []
    offset: sz.Size = 0
    for length in lengths:
        starts = [offset if d == axis else 0 for d in range(len(sizes))]
        extents = [length if d == axis else n for d, n in enumerate(sizes)]
        parts.append(sz.window(e, value, starts, extents))
        offset = sz.add(e, offset, length)
    return parts


def _scalar_axis(value: SSAValue, rank: int) -> int:
    axes = constant_ints(value, "axis")
    if len(axes) != 1:
        raise Unsupported(f"axis must hold one value, got {axes}")
    return normalize_axis(axes[0], rank)


class Split(OpenVINOPattern):
    """Split-1: `num_splits` equal windows (of a dim known or not)."""

    OPS = (ov.SplitOp,)

    def convert(self, op: ov.SplitOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:  # a shape into its sizes
            count = op.num_splits.value.data
            part = len(runtime.elements) // count
            if part * count != len(runtime.elements):
                raise Unsupported(f"{len(runtime.elements)} sizes do not split into {count}")
            return [e.shape_tensor(replace(runtime, elements=runtime.elements[i:i + part]),
                                   result)
                    for i, result in zip(range(0, len(runtime.elements), part), op.results,
                                         strict=True)]
        axis = _scalar_axis(op.axis, len(dims(op.input)))
        count = op.num_splits.value.data
        size = e.size(op.input, axis)
        if isinstance(size, int) and size % count:
            raise Unsupported(f"dim {size} does not split into {count} equal parts")
        return _split(e, op.input, axis, [sz.floordiv(e, size, count)] * count)


class VariadicSplit(OpenVINOPattern):
    """VariadicSplit-1: windows of `split_lengths` (one `-1` takes the rest)."""

    OPS = (ov.VariadicSplitOp,)

    def convert(self, op: ov.VariadicSplitOp, e: Emitter) -> Sequence[SSAValue]:
        axis = _scalar_axis(op.axis, len(dims(op.input)))
        found = e.size_values(op.split_lengths)
        if found is None:
            raise Unsupported("split_lengths must be constants or computed from shapes")
        lengths: list[sz.Size] = list(found.elements)
        size = e.size(op.input, axis)
        holes = [i for i, n in enumerate(lengths) if isinstance(n, int) and n == -1]
        if len(holes) > 1:
            raise Unsupported(f"split_lengths {list(found.elements)} have more than one -1")
        if holes:
            rest: sz.Size = size
            for i, n in enumerate(lengths):
                if i != holes[0]:
                    rest = sz.sub(e, rest, n)
            lengths[holes[0]] = rest
        known = all(isinstance(n, int) for n in (*lengths, size))
        if known and (sum(lengths) != size or any(n < 0 for n in lengths)):
            raise Unsupported(f"split_lengths {lengths} do not add up to dim {size}")
        return _split(e, op.input, axis, lengths)


def _mask(op: ov.StridedSliceOp, name: str, index: int) -> bool:
    values = getattr(op, name).get_values()
    return index < len(values) and bool(values[index])


def _bounds(e: Emitter, value: SSAValue | None, what: str, count: int) -> list[sz.Size]:
    if value is None:
        return [1] * count
    found = e.size_values(value)
    if found is None:
        raise Unsupported(f"{what} must be constants, or computed from shapes or from data "
                          f"(at most {DATA_SIZES_LIMIT} values)")
    return list(found.elements)


class StridedSlice(OpenVINOPattern):
    """StridedSlice-1 with all five masks (a mask bit of 1 ignores begin / end, adds a new axis,
    shrinks an axis, or stands for the dims not listed), on dims known or not."""

    OPS = (ov.StridedSliceOp,)

    def convert(self, op: ov.StridedSliceOp, e: Emitter) -> Sequence[SSAValue]:
        rank = len(dims(op.input))
        begin = _bounds(e, op.begin, "begin", 0)
        end = _bounds(e, op.end, "end", 0)
        stride = _bounds(e, op.stride, "stride", len(begin))
        if any(not isinstance(s, int) for s in stride):
            raise Unsupported("strides must be constants")
        axes: list[sz.AxisSlice] = []
        layout: list[int | None] = []  # per output dim: the input axis, None for a new one
        entries = len(begin)
        consuming = sum(
            1 for i in range(entries)
            if not _mask(op, "new_axis_mask", i) and not _mask(op, "ellipsis_mask", i)
        )
        seen_ellipsis = False
        for i in range(entries):
            if _mask(op, "ellipsis_mask", i) and not seen_ellipsis:
                seen_ellipsis = True
                for _ in range(rank - consuming):
                    layout.append(len(axes))
                    axes.append(sz.AxisSlice())
                continue
            if _mask(op, "new_axis_mask", i):
                layout.append(None)
                continue
            if len(axes) >= rank:
                raise Unsupported("more sliced dims than the input has")
            if _mask(op, "shrink_axis_mask", i):
                axes.append(_shrunk(e, op.input, len(axes), begin[i]))
                continue
            start = None if _mask(op, "begin_mask", i) else begin[i]
            stop = None if _mask(op, "end_mask", i) else end[i]
            layout.append(len(axes))
            axes.append(sz.AxisSlice(start, stop, int(stride[i])))
        while len(axes) < rank:
            layout.append(len(axes))
            axes.append(sz.AxisSlice())
        result = sz.slice_ranges(e, op.input, axes)
        sizes = e.sizes(result)
        return [sz.reshape(e, result, [1 if a is None else sizes[a] for a in layout])]


def _shrunk(e: Emitter, value: SSAValue, axis: int, index: sz.Size) -> sz.AxisSlice:
    """The one-element window of a shrunk axis; a constant index of a static dim must be in
    range (others fail at run time in the slice)."""
    dim = dims(value)[axis]
    if isinstance(index, int) and dim != DYN and not -dim <= index < dim:
        raise Unsupported(f"index {index} is out of range for dim {dim}")
    stop = sz.BIG if isinstance(index, int) and index == -1 else sz.add(e, index, 1)
    return sz.AxisSlice(index, stop, 1)


class Slice(OpenVINOPattern):
    """Slice-8: numpy slicing `[start:stop:step]` along `axes` (bounds negative, clamped,
    `INT64_MAX`, or computed from shapes; dims known or not)."""

    OPS = (ov.SliceOp,)

    def convert(self, op: ov.SliceOp, e: Emitter) -> Sequence[SSAValue]:
        rank = len(dims(op.input))
        start = _bounds(e, op.start, "start", 0)
        stop = _bounds(e, op.stop, "stop", 0)
        step = _bounds(e, op.step, "step", 0)
        if any(not isinstance(s, int) for s in step):
            raise Unsupported("steps must be constants")
        axes = constant_ints(op.axes, "axes") if op.axes is not None else range(len(start))
        if not len(start) == len(stop) == len(step) == len(axes):
            raise Unsupported("start, stop, step and axes differ in length")
        specs: list[sz.AxisSlice | None] = [None] * rank
        for axis, first, last, by in zip(axes, start, stop, step, strict=True):
            specs[normalize_axis(axis, rank)] = sz.AxisSlice(first, last, int(by))
        return [sz.slice_ranges(e, op.input, specs)]


class Gather(OpenVINOPattern):
    """Gather-1/7/8 (`batch_dims`, negative indices counted from the end), constant or
    computed indices, on dims known or not: windows for constant indices, else one
    `tosa.gather` of the data as [outer, K, inner]."""

    OPS = (ov.GatherOp,)

    def convert(self, op: ov.GatherOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:
            return [_gather_sizes(e, op, runtime)]
        indices = op.indices
        if _runtime(e, indices) is not None:
            indices = e.shape_as_tensor(indices)
        axis = _scalar_axis(op.axis, len(dims(op.input)))
        batch = op.batch_dims.value.data
        batch = batch + len(dims(indices)) if batch < 0 else batch
        return [sz.gather(e, op.input, indices, axis, batch, op.wraps_negative_indices)]


def _gather_sizes(e: Emitter, op: ov.GatherOp, runtime: RuntimeShape) -> SSAValue:
    """Gather of constant indices from a run-time shape: the sizes they pick."""
    indices = constant(op.indices)
    if indices is None or _scalar_axis(op.axis, 1) != 0 or indices.ndim > 1:
        raise Unsupported("only constant indices (0-D or 1-D) can pick from a run-time shape")
    count = len(runtime.elements)
    picked = []
    for i in indices.reshape(-1).tolist():
        if not -count <= i < count:
            raise Unsupported(f"index {i} is out of range for a shape of rank {count}")
        picked.append(runtime.elements[i])
    return e.shape_tensor(RuntimeShape(tuple(picked), indices.ndim == 0, runtime.element_type))


def _runtime(e: Emitter, value: SSAValue) -> RuntimeShape | None:
    return e.lowering.shapes.get(value)


def _dims(value: SSAValue) -> tuple[int, ...]:
    return dims(value)


def _rank(value: SSAValue) -> int:
    return len(value.type.get_shape()) if isinstance(value.type, TensorType) else 1


class Broadcast(OpenVINOPattern):
    """Broadcast-1 / -3 (numpy, bidirectional, explicit, pdpd): a reshape to the target rank and a
    `tosa.tile` (folded when the input is a constant); the input, the target shape and the
    axes mapping may be computed from shapes, the dims known or not."""

    OPS = (ov.BroadcastOp,)

    def convert(self, op: ov.BroadcastOp, e: Emitter) -> Sequence[SSAValue]:
        value = op.input
        found = e.size_values(op.target_shape)
        runtime = _runtime(e, value)
        if runtime is not None and found is not None and len(runtime.elements) == 1 and all(
                isinstance(t, int) for t in found.elements) and len(found.elements) <= 1:
            count = found.elements[0] if found.elements else 1  # a shape of repeated sizes
            return [e.shape_tensor(replace(runtime, elements=runtime.elements * int(count),
                                           scalar=not found.elements))]
        if runtime is not None:  # a size broadcast as data (e.g. sequence lengths)
            value = e.shape_as_tensor(value)
        if found is None:
            raise Unsupported("target_shape must be constants or computed from shapes")
        target = list(found.elements)
        mode = op.mode.data
        if mode == "explicit":
            assert op.axes_mapping is not None
            mapping = constant_ints(op.axes_mapping, "axes_mapping")
            if len(mapping) != len(dims(value)) or sorted(mapping) != mapping or any(
                    not 0 <= a < len(target) for a in mapping):
                raise Unsupported(f"axes_mapping {mapping} does not map {len(dims(value))} "
                                  f"dims into rank {len(target)}")
            sizes = e.sizes(value)
            expanded: list[sz.Size] = [1] * len(target)
            for size, axis in zip(sizes, mapping, strict=True):
                expanded[axis] = size
            value = sz.reshape(e, value, expanded)
        elif mode == "pdpd":
            _check_pdpd_axis(op.pdpd_axis.value.data, len(dims(value)), len(target))
        elif len(dims(value)) > len(target) and mode != "bidirectional":
            raise Unsupported(f"the input has a higher rank ({len(dims(value))}) than the "
                              f"target shape ({len(target)})")
        return [_broadcast(e, value, target, mode in ("bidirectional", "pdpd"))]


def _check_pdpd_axis(axis: int, rank: int, target_rank: int) -> None:
    """Broadcast-1 pdpd whose input ends where the target does (`axis + rank == target
    rank`; -1 is that axis): then it is the bidirectional broadcast (OpenVINO's shape
    inference fails on a shorter input and leaves a longer one's extra dims unexplained)."""
    if axis + rank != target_rank if axis != -1 else rank > target_rank:
        raise Unsupported(f"pdpd axis {axis} does not align the input's {rank} dims with the "
                          f"end of the target shape's {target_rank}")


def _broadcast(e: Emitter, value: SSAValue, target: list[sz.Size], bidirectional: bool
               ) -> SSAValue:
    """numpy (or bidirectional) broadcasting of `value` to `target`: a tile by the target's
    size along the input's 1-dims."""
    rank = max(len(dims(value)), len(target))
    value = e.with_rank(value, rank)
    target = [1] * (rank - len(target)) + target
    multiples: list[sz.Size] = []
    known: list[int] = []  # the result's static dims: a dynamic dim broadcast to N is N
    for d, t in zip(dims(value), target, strict=True):
        known.append(t if isinstance(t, int) and d == DYN and t != 1 else d)
        if d == 1:
            multiples.append(t)
            known[-1] = t if isinstance(t, int) else DYN
            continue
        if isinstance(t, int) and t != d and d != DYN and not (t == 1 and bidirectional):
            raise Unsupported(f"dim {d} of {ov.format_shape(dims(value))} does not broadcast "
                              f"to {t}")
        multiples.append(1)
    if any(isinstance(m, int) and m == 0 for m in multiples):
        out = [d * m for d, m in zip(dims(value), multiples, strict=True)
               if isinstance(m, int) and d != DYN]
        if len(out) == rank:
            return e.const(np.zeros(out, dtype_of(element(value))))
    result = e.tile(value, multiples)  # an empty state of a run-time batch: a tile by 0
    # A dynamic dim broadcast to N must be N at run time (1 is refused there, naming the
    # layer: TOSA's tile cannot depend on it).
    return e.generalize(result, TensorType(element(result), known))


class Tile(OpenVINOPattern):
    """Tile-1 as numpy's `tile`: `tosa.tile` (repeats padded with leading 1s, or the input
    given leading 1-dims, to one rank); repeats constant or computed from shapes."""

    OPS = (ov.TileOp,)

    def convert(self, op: ov.TileOp, e: Emitter) -> Sequence[SSAValue]:
        found = e.size_values(op.repeats)
        if found is None:
            raise Unsupported("repeats must be constants, or computed from shapes or from data "
                              f"(at most {DATA_SIZES_LIMIT} values)")
        repeats = list(found.elements)
        if any(isinstance(r, int) and r < 0 for r in repeats):
            raise Unsupported(f"negative repeats {repeats}")
        rank = max(len(dims(op.input)), len(repeats))
        value = e.with_rank(op.input, rank)
        repeats = [1] * (rank - len(repeats)) + repeats
        if any(isinstance(r, int) and r == 0 for r in repeats):
            out = [d * r for d, r in zip(dims(value), repeats, strict=True)
                   if isinstance(r, int) and d != DYN]
            if len(out) != rank:
                raise Unsupported("zero repeats of a tensor with dynamic dims")
            return [e.const(np.zeros(out, dtype_of(element(value))))]
        return [e.tile(value, repeats)]


class Pad(OpenVINOPattern):
    """Pad-1 / Pad-12: negative pads crop (`tosa.slice`); `constant` mode is `tosa.pad`;
    `edge`, `reflect` and `symmetric` concatenate (reversed) slices of the input on each
    side, one axis at a time."""

    OPS = (ov.PadOp,)

    def convert(self, op: ov.PadOp, e: Emitter) -> Sequence[SSAValue]:
        sizes = e.sizes(op.input)
        begins, ends = (_bounds(e, v, what, 0) for v, what in
                        ((op.pads_begin, "pads_begin"), (op.pads_end, "pads_end")))
        if len(begins) != len(sizes) or len(ends) != len(sizes):
            raise Unsupported(f"pads of {len(begins)} / {len(ends)} values for rank "
                              f"{len(sizes)}")
        # Negative pads crop: `max(-p, 0)` cropped, then `max(p, 0)` padded (folded for
        # constants; amounts the shape arithmetic shows non-negative only pad).
        crops = [(_negative(e, b), _negative(e, a)) for b, a in zip(begins, ends, strict=True)]
        value = sz.window(e, op.input, [b for b, _ in crops],
                          [sz.sub(e, d, sz.add(e, b, a))
                           for d, (b, a) in zip(sizes, crops, strict=True)])
        begins = [_positive(e, b) for b in begins]
        ends = [_positive(e, a) for a in ends]
        padding = [p for pair in zip(begins, ends, strict=True) for p in pair]
        fill = 0 if op.pad_value is None else require_constant(op.pad_value, "pad_value"
                                                               ).reshape(-1)[0]
        mode = op.pad_mode.data
        if mode == "constant" and all(isinstance(p, int) for p in padding):
            return [e.pad(value, [int(p) for p in padding], fill)]
        if mode == "constant":
            out = [sz.static(sz.add(e, sz.add(e, d, b), a)) for d, b, a in
                   zip(e.sizes(value), begins, ends, strict=True)]
            pad_const = e.const(np.full(1, fill), element(value))
            return [e.value(tt.PadOp(value, e.shape_operand(padding), pad_const,
                                     TensorType(element(value), out)))]
        if not all(isinstance(p, int) for p in padding):
            raise Unsupported(f"{mode} padding by amounts known only at run time")
        for axis, (before, after) in enumerate(zip(begins, ends, strict=True)):
            value = _pad_axis(e, value, axis, int(before), int(after), mode)
        return [value]


def _negative(e: Emitter, pad: sz.Size) -> sz.Size:
    """How much a pad crops: `max(-pad, 0)`."""
    if isinstance(pad, int):
        return max(-pad, 0)
    return 0 if sz.sign(pad) == 1 else sz.maximum(e, sz.sub(e, 0, pad), 0)


def _positive(e: Emitter, pad: sz.Size) -> sz.Size:
    """How much a pad adds: `max(pad, 0)`."""
    if isinstance(pad, int):
        return max(pad, 0)
    return pad if sz.sign(pad) == 1 else sz.maximum(e, pad, 0)


def _pad_axis(e: Emitter, value: SSAValue, axis: int, before: int, after: int, mode: str
              ) -> SSAValue:
    """`value` with `before` / `after` elements added along `axis` by `mode`."""
    if not before and not after:
        return value
    dims = shape(value)
    size = dims[axis]
    limit = size if mode in ("edge", "symmetric") else size - 1
    if mode != "edge" and max(before, after) > limit:
        raise Unsupported(f"{mode} padding of {max(before, after)} on an axis of size {size}")

    def take(start: int, length: int) -> SSAValue:
        begin = [0] * len(dims)
        extent = list(dims)
        begin[axis], extent[axis] = start, length
        return e.slice(value, begin, extent)

    def side(count: int, at_start: bool) -> SSAValue:
        if mode == "edge":
            edge = take(0 if at_start else size - 1, 1)
            return e.tile(edge, [count if i == axis else 1 for i in range(len(dims))])
        skip = 1 if mode == "reflect" else 0  # reflect leaves out the border element
        start = skip if at_start else size - skip - count
        return e.value(tt.ReverseOp(take(start, count), axis))

    parts = ([side(before, True)] if before else []) + [value]
    parts += [side(after, False)] if after else []
    return e.concat(parts, axis)


def range_values(start: np.ndarray, stop: np.ndarray, step: np.ndarray,
                 dtype: np.dtype) -> np.ndarray:
    """Range-4 as OpenVINO's reference (which folds constant Ranges): for an integer
    `output_type` the bounds are converted to it first (floats truncated), then
    `ceil((stop - start) / step)` elements (none when not positive) `start + i * step`."""
    bounds = [np.asarray(v).reshape(()) for v in (start, stop, step)]
    if np.issubdtype(dtype, np.integer):
        first, last, stride = (int(np.trunc(b)) for b in bounds)
        if stride == 0:
            raise Unsupported("step is zero")
        return np.arange(first, last, stride, dtype=np.int64).astype(dtype)
    first, last, stride = (float(b) for b in bounds)
    if stride == 0:
        raise Unsupported("step is zero")
    count = max(int(np.ceil((last - first) / stride)), 0)
    typed = [np.asarray(v, dtype) for v in (first, stride)]
    return typed[0] + np.arange(count).astype(dtype) * typed[1]


class Range(OpenVINOPattern):
    """Range-4 with constant bounds (or bounds computed from static shapes): a constant."""

    OPS = (ov.RangeOp,)

    def convert(self, op: ov.RangeOp, e: Emitter) -> Sequence[SSAValue]:
        if any(_runtime(e, v) is not None for v in (op.start, op.stop, op.step)):
            return [_runtime_range(e, op)]
        start, stop, step = (require_constant(v, what) for v, what in
                             ((op.start, "start"), (op.stop, "stop"), (op.step, "step")))
        return [e.const(range_values(start, stop, step, dtype_of(op.output_type)))]


def _runtime_range(e: Emitter, op: ov.RangeOp) -> SSAValue:
    """Range-4 with bounds known at run time (sizes from ShapeOf): step 1 from a start >= 0,
    a window of `[0, ..., RANGE_CAPACITY)` (`sizes.positions`)."""
    found = [e.shape_elements(v) for v in (op.start, op.stop, op.step)]
    if any(f is None for f in found):
        raise Unsupported("start, stop and step must be constants or computed from shapes")
    (first,), (last,), (step,) = (f.elements for f in found)
    if step != 1:
        raise Unsupported("a Range with bounds known at run time needs a constant step of 1")
    if isinstance(first, int) and first < 0:
        raise Unsupported("a Range with bounds known at run time needs a start >= 0")
    count = sz.maximum(e, sz.sub(e, last, first), 0) if isinstance(last, int) and isinstance(
        first, int) else sz.sub(e, last, first)
    return sz.positions(e, first, count, op.output_type)


DATA_MOVEMENT_PATTERNS = (
    Constant,
    ShapeOf,
    Reshape,
    Squeeze,
    Unsqueeze,
    Transpose,
    Concat,
    Split,
    VariadicSplit,
    StridedSlice,
    Slice,
    Gather,
    Broadcast,
    Tile,
    Pad,
    Range,
)

