"""TensorIterator-1, unrolled over its static iteration count.

The body is converted in place first (the pattern waits until no `openvino` op but the yield
is left in it); then, per iteration, its ops are cloned in front of the TensorIterator with
the body arguments bound through the port maps:

- a sliced input (`axis`) gives iteration k its k-th part (`tosa.slice`);
- a back edge gives iteration k > 0 the previous iteration's yielded value;
- any other input is passed whole.

A concatenated output (`axis`) joins the per-iteration values with `tosa.concat` (in reverse
order for a negative stride); any other output is the last iteration's value. Body constants
are cloned once, not per iteration.

Slicing follows OpenVINO: a negative `start` / `end` counts from the end with `-1` meaning the
end of the axis, `|stride|` must equal `part_size`, and a negative stride must cover the whole
axis (start -1, end 0), which is what OpenVINO's own transformations produce.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    Deferred,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    normalize_axis,
    shape,
)


@dataclass(frozen=True)
class _Slicing:
    """How a sliced port walks its axis: iteration k covers [offset(k), offset(k) + part)."""

    axis: int
    part: int
    reverse: bool
    first: int
    count: int

    def offset(self, k: int, dim: int) -> int:
        return dim - (k + 1) * self.part if self.reverse else self.first + k * self.part


def _slicing(entry: ov.PortMapAttr, dims: Sequence[int] | None) -> _Slicing:
    """The slicing of a port map entry; `dims` is the external shape (None for outputs)."""
    axis = entry.sliced_axis
    assert axis is not None
    start, end, stride, part = (entry.start.data, entry.end.data, entry.stride.data,
                                entry.part_size.data)
    where = f"port map (axis {axis}, start {start}, end {end}, stride {stride}, part {part})"
    if part < 1 or abs(stride) != part:
        raise Unsupported(f"{where}: |stride| must equal part_size")
    if dims is None:
        return _Slicing(axis, part, stride < 0, 0, 0)
    axis = normalize_axis(axis, len(dims))
    dim = dims[axis]
    first = start + dim + 1 if start < 0 else start
    last = end + dim + 1 if end < 0 else end
    if stride < 0:
        if (first, last) != (dim, 0):
            raise Unsupported(f"{where}: a negative stride must cover the whole axis")
        return _Slicing(axis, part, True, 0, dim // part)
    if not 0 <= first <= last <= dim or (last - first) % part:
        raise Unsupported(f"{where}: the range does not split into parts of dim {dim}")
    return _Slicing(axis, part, False, first, (last - first) // part)


class TensorIterator(OpenVINOPattern):
    """TensorIterator-1 (see the module docstring)."""

    OPS = (ov.TensorIteratorOp,)

    def convert(self, op: ov.TensorIteratorOp, e: Emitter) -> Sequence[SSAValue]:
        body = op.body.block
        pending = [o.name for o in body.ops if o.dialect_name() == "openvino"]
        if pending != ["openvino.yield"]:
            raise Deferred("its body still holds unconverted ops")
        inputs = {entry.internal.data: entry for entry in op.input_port_map.data}
        back_edges = {edge.to_param.data: edge.from_result.data for edge in op.back_edges.data}
        count = self._iterations(op)
        hoisted: dict[SSAValue, SSAValue] = {}
        for inner in body.ops:
            if isinstance(inner, tt.ConstOp | tt.ConstShapeOp):
                (hoisted[inner.results[0]],) = e.emit(inner.clone())
        yielded: list[list[SSAValue]] = []
        for k in range(count):
            mapping = dict(hoisted)
            for index, arg in enumerate(body.args):
                entry = inputs.get(index)
                if entry is None:
                    raise Unsupported(f"body argument {index} has no input port map entry")
                if k > 0 and index in back_edges:
                    value = yielded[-1][back_edges[index]]
                else:
                    value = self._input(op, entry, k, e)
                if value.type != arg.type:
                    raise Unsupported(
                        f"body argument {index} of type {arg.type} is bound to {value.type}"
                    )
                mapping[arg] = value
            yielded.append(self._iteration(op, e, mapping))
        return self._outputs(op, e, yielded)

    @staticmethod
    def _iterations(op: ov.TensorIteratorOp) -> int:
        counts = {
            _slicing(entry, shape(op.inputs[entry.external.data])).count
            for entry in op.input_port_map.data
            if entry.sliced_axis is not None
        }
        for entry in op.output_port_map.data:
            if entry.sliced_axis is not None:
                dims = shape(op.outputs[entry.external.data])
                axis = normalize_axis(entry.sliced_axis, len(dims))
                counts.add(dims[axis] // entry.part_size.data)
        if len(counts) != 1:
            raise Unsupported(f"cannot tell the iteration count (candidates: {sorted(counts)})")
        return counts.pop()

    @staticmethod
    def _input(op: ov.TensorIteratorOp, entry: ov.PortMapAttr, k: int, e: Emitter) -> SSAValue:
        value = op.inputs[entry.external.data]
        if entry.sliced_axis is None:
            return value
        dims = shape(value)
        slicing = _slicing(entry, dims)
        start = [0] * len(dims)
        start[slicing.axis] = slicing.offset(k, dims[slicing.axis])
        size = list(dims)
        size[slicing.axis] = slicing.part
        return e.slice(value, start, size)

    @staticmethod
    def _iteration(
        op: ov.TensorIteratorOp, e: Emitter, mapping: dict[SSAValue, SSAValue]
    ) -> list[SSAValue]:
        body = op.body.block
        for inner in body.ops:
            if isinstance(inner, ov.YieldOp):
                return [mapping.get(v, v) for v in inner.values]
            if isinstance(inner, tt.ConstOp | tt.ConstShapeOp):
                continue
            results = e.emit(inner.clone(value_mapper=dict(mapping)))
            mapping.update(zip(inner.results, results, strict=True))
        raise Unsupported("the body has no openvino.yield")

    @staticmethod
    def _outputs(
        op: ov.TensorIteratorOp, e: Emitter, yielded: list[list[SSAValue]]
    ) -> list[SSAValue]:
        results: list[SSAValue | None] = [None] * len(op.outputs)
        for entry in op.output_port_map.data:
            values = [step[entry.internal.data] for step in yielded]
            if entry.sliced_axis is None:
                results[entry.external.data] = values[-1]
                continue
            slicing = _slicing(entry, None)
            axis = normalize_axis(entry.sliced_axis, len(shape(values[0])))
            ordered = values[::-1] if slicing.reverse else values
            results[entry.external.data] = e.concat(ordered, axis)
        missing = [i for i, r in enumerate(results) if r is None]
        if missing:
            raise Unsupported(f"output(s) {missing} have no output port map entry")
        return [r for r in results if r is not None]


TENSOR_ITERATOR_PATTERNS = (TensorIterator,)
