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
from xdsl.dialects.builtin import IntegerType, TensorType, i1, i32
from xdsl.ir import Attribute, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import shape as tts
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    RuntimeShape,
    Unsupported,
    broadcast_shape,
    constant,
    constant_ints,
    dims,
    dtype_of,
    element,
    normalize_axis,
    require_constant,
    shape,
)


class Constant(OpenVINOPattern):
    """Constant-1: `tosa.const` with the same value."""

    OPS = (ov.ConstantOp,)

    def convert(self, op: ov.ConstantOp, e: Emitter) -> Sequence[SSAValue]:
        return [e.value(tt.ConstOp(op.value))]


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
            return [e.shape_tensor(replace(runtime, scalar=_rank(op.result) == 0))]
        if DYN in dims(op.input):
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
        if isinstance(total, int) and isinstance(known, int):
            sizes[holes[0]] = total // known
        else:
            as_shape = [x if isinstance(x, SSAValue) else e.const_shape([x])
                        for x in (total, known)]
            sizes[holes[0]] = e.value(tts.DivFloorShapeOp(*as_shape))
    return e.reshape_sizes(op.input, sizes)


class Squeeze(OpenVINOPattern):
    """Squeeze-1: drop the size-1 dims in `axes` (all of them without `axes`)."""

    OPS = (ov.SqueezeOp,)

    def convert(self, op: ov.SqueezeOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:  # a 1-element shape to 0-D
            return [e.shape_tensor(replace(runtime, scalar=True))]
        dims = _dims(op.input)
        if op.axes is None:
            axes = {i for i, d in enumerate(dims) if d == 1}
        else:
            axes = {normalize_axis(a, len(dims)) for a in constant_ints(op.axes, "axes")}
        if any(dims[a] != 1 for a in axes):
            raise Unsupported(f"cannot squeeze non-1 dims {sorted(axes)} of {list(dims)}")
        return [e.reshape(op.input, [d for i, d in enumerate(dims) if i not in axes])]


class Unsqueeze(OpenVINOPattern):
    """Unsqueeze-1: size-1 dims inserted at `axes` (of the result)."""

    OPS = (ov.UnsqueezeOp,)

    def convert(self, op: ov.UnsqueezeOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:  # a 0-D shape to 1-D
            return [e.shape_tensor(replace(runtime, scalar=False))]
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
            if any(p is None for p in parts):
                raise Unsupported("a concatenation of a run-time shape with a computed tensor")
            elements = tuple(d for p in parts if p is not None for d in p.elements)
            return [e.shape_tensor(RuntimeShape(elements, False, element(op.result)))]
        axis = normalize_axis(op.axis.value.data, len(dims(inputs[0])))
        return [e.concat(inputs, axis)]


def _split(e: Emitter, value: SSAValue, axis: int, lengths: Sequence[int]) -> list[SSAValue]:
    sizes = dims(value)
    parts, offset = [], 0
    for length in lengths:
        start = [offset if d == axis else 0 for d in range(len(sizes))]
        size = [length if d == axis else n for d, n in enumerate(sizes)]
        parts.append(e.slice(value, start, size))
        offset += length
    return parts


def _scalar_axis(value: SSAValue, rank: int) -> int:
    axes = constant_ints(value, "axis")
    if len(axes) != 1:
        raise Unsupported(f"axis must hold one value, got {axes}")
    return normalize_axis(axes[0], rank)


def _static_axis_dims(value: SSAValue, axis_value: SSAValue) -> tuple[int, ...]:
    """The dims of a value split along `axis_value`, which must be static (others may be
    dynamic)."""
    sizes = dims(value)
    if sizes[_scalar_axis(axis_value, len(sizes))] == DYN:
        raise Unsupported("a split along a dynamic dimension")
    return sizes


class Split(OpenVINOPattern):
    """Split-1: `num_splits` equal `tosa.slice`s."""

    OPS = (ov.SplitOp,)

    def convert(self, op: ov.SplitOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:  # a shape into its sizes
            count = op.num_splits.value.data
            part = len(runtime.elements) // count
            if part * count != len(runtime.elements):
                raise Unsupported(f"{len(runtime.elements)} sizes do not split into {count}")
            return [e.shape_tensor(replace(runtime, elements=runtime.elements[i:i + part]))
                    for i in range(0, len(runtime.elements), part)]
        dims = _static_axis_dims(op.input, op.axis)
        axis = _scalar_axis(op.axis, len(dims))
        count = op.num_splits.value.data
        if dims[axis] % count:
            raise Unsupported(f"dim {dims[axis]} does not split into {count} equal parts")
        return _split(e, op.input, axis, [dims[axis] // count] * count)


class VariadicSplit(OpenVINOPattern):
    """VariadicSplit-1: `tosa.slice`s of `split_lengths` (one `-1` takes the rest)."""

    OPS = (ov.VariadicSplitOp,)

    def convert(self, op: ov.VariadicSplitOp, e: Emitter) -> Sequence[SSAValue]:
        dims = _static_axis_dims(op.input, op.axis)
        axis = _scalar_axis(op.axis, len(dims))
        lengths = constant_ints(op.split_lengths, "split_lengths")
        if lengths.count(-1) == 1:
            lengths[lengths.index(-1)] = dims[axis] - sum(n for n in lengths if n != -1)
        if sum(lengths) != dims[axis] or any(n < 0 for n in lengths):
            raise Unsupported(f"split_lengths {lengths} do not add up to dim {dims[axis]}")
        return _split(e, op.input, axis, lengths)


def strided(e: Emitter, value: SSAValue, ranges: Sequence[range]) -> SSAValue:
    """`value[r0, r1, ...]` for one Python range per dim: one `tosa.slice` of the bounding
    window, then gathers (or a reverse) along the dims with another step."""
    if any(len(r) == 0 for r in ranges):
        out = tuple(len(r) for r in ranges)
        return e.const(np.zeros(out, dtype_of(element(value))))
    starts = [min(r[0], r[-1]) for r in ranges]
    sizes = [abs(r[-1] - r[0]) + 1 for r in ranges]
    window = e.slice(value, starts, sizes)
    for axis, (r, start) in enumerate(zip(ranges, starts, strict=True)):
        indices = [i - start for i in r]
        if indices != list(range(sizes[axis])):
            window = e.take(window, axis, indices)
    return window


def _mask(op: ov.StridedSliceOp, name: str, index: int) -> bool:
    values = getattr(op, name).get_values()
    return index < len(values) and bool(values[index])


class StridedSlice(OpenVINOPattern):
    """StridedSlice-1 with all five masks (a mask bit of 1 ignores begin / end, adds a new axis,
    shrinks an axis, or stands for the dims not listed)."""

    OPS = (ov.StridedSliceOp,)

    def convert(self, op: ov.StridedSliceOp, e: Emitter) -> Sequence[SSAValue]:
        dims = shape(op.input)
        begin = constant_ints(op.begin, "begin")
        end = constant_ints(op.end, "end")
        stride = constant_ints(op.stride, "stride") if op.stride is not None else [1] * len(begin)
        ranges: list[range] = []
        out: list[int] = []
        entries = len(begin)
        consuming = sum(
            1 for i in range(entries)
            if not _mask(op, "new_axis_mask", i) and not _mask(op, "ellipsis_mask", i)
        )
        seen_ellipsis = False
        for i in range(entries):
            if _mask(op, "ellipsis_mask", i) and not seen_ellipsis:
                seen_ellipsis = True
                for _ in range(len(dims) - consuming):
                    ranges.append(range(dims[len(ranges)]))
                    out.append(len(ranges[-1]))
                continue
            if _mask(op, "new_axis_mask", i):
                out.append(1)
                continue
            if len(ranges) >= len(dims):
                raise Unsupported("more sliced dims than the input has")
            dim = dims[len(ranges)]
            if _mask(op, "shrink_axis_mask", i):
                index = begin[i] + dim if begin[i] < 0 else begin[i]
                if not 0 <= index < dim:
                    raise Unsupported(f"index {begin[i]} is out of range for dim {dim}")
                ranges.append(range(index, index + 1))
                continue
            if stride[i] == 0:
                raise Unsupported("a stride is 0")
            start = None if _mask(op, "begin_mask", i) else begin[i]
            stop = None if _mask(op, "end_mask", i) else end[i]
            ranges.append(range(*slice(start, stop, stride[i]).indices(dim)))
            out.append(len(ranges[-1]))
        for dim in dims[len(ranges) :]:
            ranges.append(range(dim))
            out.append(dim)
        return [e.reshape(strided(e, op.input, ranges), out)]


class Slice(OpenVINOPattern):
    """Slice-8: numpy slicing `[start:stop:step]` along `axes`."""

    OPS = (ov.SliceOp,)

    def convert(self, op: ov.SliceOp, e: Emitter) -> Sequence[SSAValue]:
        if DYN in _dims(op.input) or any(_runtime(e, v) is not None for v in
                                         (op.start, op.stop)):
            return [_slice_dynamic(e, op)]
        dims = shape(op.input)
        start = constant_ints(op.start, "start")
        stop = constant_ints(op.stop, "stop")
        step = constant_ints(op.step, "step")
        axes = constant_ints(op.axes, "axes") if op.axes is not None else range(len(start))
        ranges = [range(d) for d in dims]
        for axis, first, last, by in zip(axes, start, stop, step, strict=True):
            axis = normalize_axis(axis, len(dims))
            if by == 0:
                raise Unsupported("a step is 0")
            ranges[axis] = range(*slice(first, last, by).indices(dims[axis]))
        return [strided(e, op.input, ranges)]


def _slice_dynamic(e: Emitter, op: ov.SliceOp) -> SSAValue:
    """Slice-8 with step 1 where sizes are known only at run time: non-negative starts,
    stops clamped to the dims (`tosa.min_shape`), one `tosa.slice`."""
    found = [e.shape_elements(v) for v in (op.start, op.stop, op.step)]
    if any(f is None for f in found):
        raise Unsupported("start, stop and step must be constants or computed from shapes")
    start, stop, step = (f.elements for f in found)
    if any(not isinstance(s, int) or s != 1 for s in step):
        raise Unsupported("a slice with dynamic dims needs steps of 1")
    rank = len(_dims(op.input))
    axes = constant_ints(op.axes, "axes") if op.axes is not None else range(len(start))
    begin: list[int | SSAValue] = [0] * rank
    sizes = e.sizes(op.input)
    for axis, first, last in zip(axes, start, stop, strict=True):
        axis = normalize_axis(axis, rank)
        if any(isinstance(b, int) and b < 0 for b in (first, last)):
            raise Unsupported("a slice with dynamic dims needs non-negative bounds")
        dim = sizes[axis]
        if isinstance(last, int) and isinstance(dim, int):
            end: int | SSAValue = min(last, dim)
        elif isinstance(last, int) and last >= (1 << 62):
            end = dim
        else:
            end = e.value(tts.MinShapeOp(*(x if isinstance(x, SSAValue) else
                                           e.const_shape([x]) for x in (last, dim))))
        if isinstance(first, int) and isinstance(end, int):
            sizes[axis] = max(end - first, 0)
        else:
            sizes[axis] = e.value(tts.SubShapeOp(*(x if isinstance(x, SSAValue) else
                                                   e.const_shape([x]) for x in (end, first))))
        begin[axis] = first
    out = [s if isinstance(s, int) else DYN for s in sizes]
    result_type = TensorType(element(op.input), out)
    return e.value(tt.SliceOp(op.input, e.shape_operand(begin), e.shape_operand(sizes),
                              result_type))


def _index_table(e: Emitter, indices: SSAValue, size: int) -> SSAValue:
    """Indices as i32 / i64 with negative ones counted from the end."""
    index_type = element(indices)
    if not isinstance(index_type, IntegerType) or index_type == i1:
        raise Unsupported(f"indices of type {index_type}")
    if index_type.width.data < 32:
        indices = e.cast(indices, i32)
    rank = len(dims(indices))
    zero = e.scalar(0, element(indices), rank)
    wrapped = e.add(indices, e.scalar(size, element(indices), rank))
    return e.select(e.greater(zero, indices), wrapped, indices)


class Gather(OpenVINOPattern):
    """Gather-8: `tosa.gather` on the data reshaped to [outer, K, inner]; constant indices
    become slices where they can."""

    OPS = (ov.GatherOp,)

    def convert(self, op: ov.GatherOp, e: Emitter) -> Sequence[SSAValue]:
        if (runtime := _runtime(e, op.input)) is not None:
            return [_gather_sizes(e, op, runtime)]
        if DYN in dims(op.input):
            return [_gather_dynamic(e, op)]
        data, indices = shape(op.input), dims(op.indices)
        axis = _scalar_axis(op.axis, len(data))
        batch = op.batch_dims.value.data
        batch = batch + len(indices) if batch < 0 else batch
        if not 0 <= batch <= min(axis, len(indices)):
            raise Unsupported(f"batch_dims {op.batch_dims.value.data} is out of range")
        if DYN in indices:  # e.g. an embedding lookup of `input_ids: [?, ?]`
            if batch:
                raise Unsupported("batch_dims with indices of a dynamic shape")
            sizes = [e.dim(op.indices, i) if d == DYN else d for i, d in enumerate(indices)]
            table = e.reshape(_index_table(e, op.indices, data[axis]), (1, 1, DYN))
            outer = int(np.prod(data[:axis]))
            table = e.reshape(e.tile(table, (1, outer, 1)), (outer, DYN))
            gathered = e.gather3(op.input, axis, table)
            return [e.reshape(gathered, (*data[:axis], *sizes, *data[axis + 1 :]))]
        out = (*data[:axis], *indices[batch:], *data[axis + 1 :])
        constant_indices = constant(op.indices)
        if batch == 0 and constant_indices is not None:
            flat = [int(i) + data[axis] if i < 0 else int(i) for i in constant_indices.flat]
            if any(not 0 <= i < data[axis] for i in flat):
                raise Unsupported(f"an index is out of range for dim {data[axis]}")
            return [e.reshape(e.take(op.input, axis, flat), out)]
        table = _index_table(e, op.indices, data[axis])
        width = int(np.prod(indices[batch:]))
        outer = int(np.prod(data[:axis]))
        batches = int(np.prod(indices[:batch]))
        table = e.reshape(table, (batches, 1, width))
        table = e.tile(table, (1, outer // batches, 1))
        table = e.reshape(table, (outer, width))
        return [e.reshape(e.gather3(op.input, axis, table), out)]


def _gather_dynamic(e: Emitter, op: ov.GatherOp) -> SSAValue:
    """Gather-8 with dynamic dims (`batch_dims` 0, non-negative computed indices, as a
    `beam_idx` reorder of a KV cache): `tosa.gather` on the data as [outer, K, inner], the
    sizes computed at run time."""
    data = dims(op.input)
    axis = _scalar_axis(op.axis, len(data))
    if op.batch_dims.value.data != 0 or constant(op.indices) is not None:
        raise Unsupported("Gather with dynamic dims takes computed indices and batch_dims 0")
    index_type = element(op.indices)
    if not isinstance(index_type, IntegerType) or index_type == i1:
        raise Unsupported(f"indices of type {index_type}")
    indices = e.cast(op.indices, i32) if index_type.width.data < 32 else op.indices
    sizes = [e.size(op.input, i) for i in range(len(data))]
    index_sizes = [e.size(op.indices, i) for i in range(len(dims(op.indices)))]
    outer, inner = e.product(sizes[:axis]), e.product(sizes[axis + 1:])
    width = e.product(index_sizes)
    values = e.reshape_sizes(op.input, [outer, sizes[axis], inner])
    table = e.reshape_sizes(indices, [1, width])
    if outer != 1:
        table = e.value(tt.TileOp(table, e.shape_operand([outer, 1]),
                                  TensorType(element(table), [DYN, dims(table)[1]])))
        table = e.reshape_sizes(table, [outer, width])
    gathered_type = TensorType(element(op.input), [dims(values)[0], dims(table)[1],
                                                   dims(values)[2]])
    gathered = e.value(tt.GatherOp(values, table, gathered_type))
    return e.reshape_sizes(gathered, [*sizes[:axis], *index_sizes, *sizes[axis + 1:]])


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
    """Broadcast-3 (numpy, bidirectional, explicit): a reshape to the target rank and a
    `tosa.tile` (folded when the input is a constant)."""

    OPS = (ov.BroadcastOp,)

    def convert(self, op: ov.BroadcastOp, e: Emitter) -> Sequence[SSAValue]:
        mode = op.mode.data
        if (runtime := _runtime(e, op.target_shape)) is not None:
            return [_broadcast_at_run_time(e, op, runtime)]
        dims = shape(op.input)
        target = constant_ints(op.target_shape, "target_shape")
        if mode == "explicit":
            assert op.axes_mapping is not None
            mapping = constant_ints(op.axes_mapping, "axes_mapping")
            if len(mapping) != len(dims):
                raise Unsupported(f"axes_mapping {mapping} does not map {len(dims)} dims")
            expanded = [1] * len(target)
            for dim, axis in zip(dims, mapping, strict=True):
                expanded[axis] = dim
            value, out = e.reshape(op.input, expanded), target
        elif mode == "bidirectional":
            value, out = op.input, list(broadcast_shape([dims, target]))
        else:
            value, out = op.input, target
            if broadcast_shape([dims, target]) != tuple(target):
                raise Unsupported(f"{ov.format_shape(dims)} does not broadcast to {target}")
        result = e.broadcast_to(value, out)
        if shape(result) != tuple(out):
            raise Unsupported(f"{ov.format_shape(dims)} does not broadcast to {out}")
        return [result]


def _broadcast_at_run_time(e: Emitter, op: ov.BroadcastOp, target: RuntimeShape) -> SSAValue:
    """Broadcast (numpy, bidirectional) to a target shape known only at run time: a tile by
    the target's sizes where the input has 1s."""
    if op.mode.data not in ("numpy", "bidirectional"):
        raise Unsupported(f"mode '{op.mode.data}' with a target shape known only at run time")
    value_dims = dims(op.input)
    if len(value_dims) > len(target.elements):
        raise Unsupported("the input has a higher rank than the run-time target shape")
    return e.broadcast_to(op.input, target.elements)


class Tile(OpenVINOPattern):
    """Tile-1 as numpy's `tile`: `tosa.tile` (repeats padded with leading 1s, or the input
    given leading 1-dims, to one rank)."""

    OPS = (ov.TileOp,)

    def convert(self, op: ov.TileOp, e: Emitter) -> Sequence[SSAValue]:
        repeats = constant_ints(op.repeats, "repeats")
        if any(r < 0 for r in repeats):
            raise Unsupported(f"negative repeats {repeats}")
        rank = max(len(shape(op.input)), len(repeats))
        value = e.with_rank(op.input, rank)
        repeats = [1] * (rank - len(repeats)) + repeats
        if 0 in repeats:
            dims = [d * r for d, r in zip(shape(value), repeats, strict=True)]
            return [e.const(np.zeros(dims, dtype_of(element(value))))]
        return [e.tile(value, repeats)]


class Pad(OpenVINOPattern):
    """Pad-1 / Pad-12: negative pads crop (`tosa.slice`); `constant` mode is `tosa.pad`;
    `edge`, `reflect` and `symmetric` concatenate (reversed) slices of the input on each
    side, one axis at a time."""

    OPS = (ov.PadOp,)

    def convert(self, op: ov.PadOp, e: Emitter) -> Sequence[SSAValue]:
        dims = shape(op.input)
        begins = constant_ints(op.pads_begin, "pads_begin")
        ends = constant_ints(op.pads_end, "pads_end")
        if len(begins) != len(dims) or len(ends) != len(dims):
            raise Unsupported(f"pads of {len(begins)} / {len(ends)} values for rank {len(dims)}")
        value = e.slice(op.input, [max(-b, 0) for b in begins],
                        [d - max(-b, 0) - max(-a, 0) for d, b, a in zip(dims, begins, ends,
                                                                         strict=True)])
        begins, ends = [max(b, 0) for b in begins], [max(a, 0) for a in ends]
        mode = op.pad_mode.data
        if mode == "constant":
            return [_pad_constant(e, value, begins, ends, op.pad_value)]
        for axis, (before, after) in enumerate(zip(begins, ends, strict=True)):
            value = _pad_axis(e, value, axis, before, after, mode)
        return [value]


def _pad_constant(e: Emitter, value: SSAValue, begins: list[int], ends: list[int],
                  pad_value: SSAValue | None) -> SSAValue:
    fill = 0 if pad_value is None else require_constant(pad_value, "pad_value").reshape(-1)[0]
    return e.pad(value, [p for pair in zip(begins, ends, strict=True) for p in pair], fill)


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


RANGE_CAPACITY = 8192
"""The longest Range with bounds known only at run time: TOSA has no iota, so such a Range is
a `tosa.slice` of the constant `[0, 1, ..., RANGE_CAPACITY)` (positions of a sequence, in a
decoder LLM)."""


def _runtime_range(e: Emitter, op: ov.RangeOp) -> SSAValue:
    """Range-4 with bounds known at run time (sizes from ShapeOf): step 1 from a start >= 0,
    `tosa.slice` of `[0, ..., RANGE_CAPACITY)` at `[start]` of size `[stop - start]` (a bound
    beyond the capacity fails at run time, naming the layer)."""
    found = [e.shape_elements(v) for v in (op.start, op.stop, op.step)]
    if any(f is None for f in found):
        raise Unsupported("start, stop and step must be constants or computed from shapes")
    (first,), (last,), (step,) = (f.elements for f in found)
    if step != 1:
        raise Unsupported("a Range with bounds known at run time needs a constant step of 1")
    if isinstance(first, int) and first < 0:
        raise Unsupported("a Range with bounds known at run time needs a start >= 0")
    if isinstance(first, int) and isinstance(last, int):
        count: int | SSAValue = max(last - first, 0)
    elif first == 0:
        count = last
    else:
        as_shape = [x if isinstance(x, SSAValue) else e.const_shape([x]) for x in (last, first)]
        count = e.value(tts.SubShapeOp(*as_shape))
    return positions(e, first, count, op.output_type)


def positions(e: Emitter, first: int | SSAValue, count: int | SSAValue,
              element_type: Attribute) -> SSAValue:
    """`[first, first + 1, ..., first + count)` as a 1-D tensor, for sizes known at run time:
    a `tosa.slice` of the constant `[0, ..., RANGE_CAPACITY)`."""
    table = e.const(np.arange(RANGE_CAPACITY, dtype=dtype_of(element_type)))
    size = count if isinstance(count, SSAValue) else e.const_shape([count])
    out = count if isinstance(count, int) else DYN
    result_type = TensorType(element_type, [out])
    return e.value(tt.SliceOp(table, e.shape_operand([first]), size, result_type))


def shape_as_tensor(e: Emitter, value: SSAValue) -> SSAValue:
    """A shape known at run time (a converted ShapeOf, ...) as the integer tensor OpenVINO
    has there, for arithmetic with computed tensors: each size read from the position table
    (so sizes up to RANGE_CAPACITY)."""
    found = e.lowering.shapes[value]
    pieces = [positions(e, size, 1, found.element_type) if isinstance(size, SSAValue)
              else e.const(np.array([size]), found.element_type) for size in found.elements]
    joined = e.concat(pieces, 0) if len(pieces) > 1 else pieces[0]
    return e.reshape(joined, () if found.scalar else (len(found.elements),))


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

