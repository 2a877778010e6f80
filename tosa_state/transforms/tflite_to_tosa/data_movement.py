"""Constants, RESHAPE, CONCATENATION, GATHER, SLICE, STRIDED_SLICE, SPLIT, TRANSPOSE.

Index operands (shapes, begins, sizes, gather indices, ...) must be constants once folded; in
unrolled loops the loop counter is one, so the TensorList emulation of Keras exports
(GATHER at the step, SLICE + CONCATENATION to write a step) becomes static slices.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl import data_movement as dm
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dtypes import dense_to_numpy
from tosa_state.resources import mapped
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, activate, constant_list
from tosa_state.transforms.tflite_to_tosa.quantized import require_same_quantization
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import Unsupported, normalize_axis, shape


class PseudoConst(TflPattern):
    """`tfl.pseudo_const` -> `tosa.const`; a weight mapped from the file
    (`resources.mapped`) keeps its attribute, not re-encoded."""

    OPS = (dm.PseudoConstOp,)

    def convert(self, op: dm.PseudoConstOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        if mapped(op.value):
            return [e.value(tt.ConstOp(op.value))]
        return [e.const(dense_to_numpy(op.value))]


def _target_shape(op: dm.ReshapeOp, operands: Sequence[SSAValue]) -> tuple[int, ...]:
    result = op.output.type
    if result.has_static_shape():
        return tuple(result.get_shape())
    if len(operands) < 2:
        raise Unsupported("a dynamic result shape and no shape operand")
    wanted = constant_list(operands[1], "the shape")
    size = math.prod(shape(operands[0]))
    if wanted.count(-1) == 1:
        known = math.prod(d for d in wanted if d != -1)
        wanted[wanted.index(-1)] = size // known if known else 0
    return tuple(wanted)


class Reshape(TflPattern):
    """RESHAPE to the result's shape (or the constant `shape`, one -1 inferred)."""

    OPS = (dm.ReshapeOp,)

    def convert(self, op: dm.ReshapeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        target = _target_shape(op, operands)
        if math.prod(target) != math.prod(shape(operands[0])):
            raise Unsupported(f"cannot reshape {list(shape(operands[0]))} to {list(target)}")
        return [e.reshape(operands[0], target)]


class Concatenation(TflPattern):
    """CONCATENATION: `tosa.concat` and the fused activation."""

    OPS = (dm.ConcatenationOp,)

    def convert(self, op: dm.ConcatenationOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        axis = normalize_axis(op.axis.value.data, len(shape(operands[0])))
        parts = [v for v in operands if shape(v)[axis] > 0] or list(operands[:1])
        return [activate(e, e.concat(parts, axis), op.fused_activation_function)]


class Gather(TflPattern):
    """GATHER with constant indices (batch_dims 0): slices, reverses or `tosa.gather`."""

    OPS = (dm.GatherOp,)

    def convert(self, op: dm.GatherOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        params, indices_value = operands
        if op.batch_dims.value.data != 0:
            raise Unsupported("batch_dims other than 0")
        dims = shape(params)
        axis = normalize_axis(op.axis.value.data, len(dims))
        indices = np.asarray(constant_list(indices_value, "the indices"), np.int64)
        if indices.size and not (indices.min() >= 0 and indices.max() < dims[axis]):
            raise Unsupported(f"index out of range [0, {dims[axis]}) in {indices.tolist()}")
        out = (*dims[:axis], *shape(indices_value), *dims[axis + 1 :])
        return [e.reshape(e.take(params, axis, indices.tolist()), out)]


class Slice(TflPattern):
    """SLICE with constant `begin` / `size` (-1: to the end)."""

    OPS = (dm.SliceOp,)

    def convert(self, op: dm.SliceOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        value = operands[0]
        dims = shape(value)
        begin = constant_list(operands[1], "begin")
        size = constant_list(operands[2], "size")
        size = [d - b if s == -1 else s for d, b, s in zip(dims, begin, size, strict=True)]
        for d, b, s in zip(dims, begin, size, strict=True):
            if b < 0 or s < 0 or b + s > d:
                raise Unsupported(f"slice [{b}, {b + s}) is out of range [0, {d})")
        return [e.slice(value, begin, size)]


def strided_indices(op: dm.StridedSliceOp, dims: Sequence[int], begin: list[int],
                    end: list[int], strides: list[int]) -> tuple[list[list[int]], list[int]]:
    """Per input dim the indices kept, and the result shape (TensorFlow's mask rules)."""
    if op.mask("ellipsis_mask"):
        raise Unsupported("ellipsis_mask")
    kept = [list(range(d)) for d in dims]
    out: list[int] = []
    dim = 0
    for i in range(len(begin)):
        bit = 1 << i
        if op.mask("new_axis_mask") & bit:
            out.append(1)
            continue
        if dim >= len(dims):
            raise Unsupported("more slice entries than input dims")
        size = dims[dim]
        if op.mask("shrink_axis_mask") & bit:
            index = begin[i] + size if begin[i] < 0 else begin[i]
            if not 0 <= index < size:
                raise Unsupported(f"index {begin[i]} out of range for a dim of {size}")
            kept[dim] = [index]
        else:
            if strides[i] == 0:
                raise Unsupported("a zero stride")
            start = None if op.mask("begin_mask") & bit else begin[i]
            stop = end[i] + begin[i] if op.offset.value.data else end[i]
            stop = None if op.mask("end_mask") & bit else stop
            kept[dim] = kept[dim][slice(start, stop, strides[i])]
            out.append(len(kept[dim]))
        dim += 1
    out += list(dims[dim:])
    return kept, out


class StridedSlice(TflPattern):
    """STRIDED_SLICE with constant begin / end / strides: slices (or gathers for strides
    other than 1) and a reshape for shrunk and new axes."""

    OPS = (dm.StridedSliceOp,)

    def convert(self, op: dm.StridedSliceOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        value = operands[0]
        begin, end, strides = (constant_list(v, what) for v, what in
                               zip(operands[1:], ("begin", "end", "strides"), strict=True))
        kept, out = strided_indices(op, shape(value), begin, end, strides)
        for axis, indices in enumerate(kept):
            if indices != list(range(shape(value)[axis])):
                value = e.take(value, axis, indices)
        return [e.reshape(value, out)]


class Split(TflPattern):
    """SPLIT into equal parts along the constant `split_dim`."""

    OPS = (dm.SplitOp,)

    def convert(self, op: dm.SplitOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        split_dim, value = operands
        dims = shape(value)
        (axis,) = constant_list(split_dim, "split_dim")
        axis = normalize_axis(axis, len(dims))
        count = len(op.outputs)
        if dims[axis] % count:
            raise Unsupported(f"{dims[axis]} elements do not split into {count} equal parts")
        part = dims[axis] // count
        size = [part if d == axis else n for d, n in enumerate(dims)]
        return [e.slice(value, [part * i if d == axis else 0 for d in range(len(dims))], size)
                for i in range(count)]


class Transpose(TflPattern):
    """TRANSPOSE by the constant `perm`."""

    OPS = (dm.TransposeOp,)

    def convert(self, op: dm.TransposeOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        perm = constant_list(operands[1], "perm")
        if sorted(perm) != list(range(len(shape(operands[0])))):
            raise Unsupported(f"perm {perm} is not a permutation")
        return [e.transpose(operands[0], perm)]


class Unpack(TflPattern):
    """UNPACK: one slice per index along `axis`, that dim reshaped away."""

    OPS = (dm.UnpackOp,)

    def convert(self, op: dm.UnpackOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        require_same_quantization(op)
        (value,) = operands
        dims = shape(value)
        axis = normalize_axis(op.axis.value.data, len(dims))
        size = [1 if d == axis else n for d, n in enumerate(dims)]
        kept = (*dims[:axis], *dims[axis + 1:])
        return [e.reshape(e.slice(value, [i if d == axis else 0 for d in range(len(dims))],
                                  size), kept) for i in range(dims[axis])]


DATA_MOVEMENT_PATTERNS = (PseudoConst, Reshape, Concatenation, Gather, Slice, StridedSlice,
                          Split, Unpack, Transpose)
