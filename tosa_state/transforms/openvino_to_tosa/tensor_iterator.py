"""TensorIterator-1 as one `tosa.while_loop` over its static iteration count, and Loop-5 over
its trip count (known at compile or at run time).

https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/tensor-iterator-1.html
https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/loop-5.html

The body is converted in place first (the pattern waits until no `openvino` op but the yield
is left in it); then its ops are cloned into the body of a `TimeLoop` (see `loops`), with the
body arguments bound through the port maps:

- a sliced input (`axis`) gives iteration k its k-th part: a `tosa.gather` at the step's
  index (walking backwards for a negative stride);
- a back edge makes the argument loop-carried: the first iteration sees the mapped input,
  iteration k > 0 the value iteration k - 1 yielded;
- any other input is passed whole (a loop-invariant carried value: the loop's regions are
  isolated from above).

A concatenated output (`axis`) is scattered part by part into an accumulator (from the end
for a negative stride); any other output is the last iteration's value, carried. (OpenVINO's
`get_iter_value(value, iteration)` does not store `iteration` in IR, and its CPU plugin
returns the last iteration's value whatever it says.) Body constants stay in the loop body:
the runtime's plan folds them once. The IR does not grow with the iteration count.

Slicing follows OpenVINO: a negative `start` / `end` counts from the end with `-1` meaning the
end of the axis, `|stride|` must equal `part_size`, and a negative stride must cover the whole
axis (start -1, end 0), which is what OpenVINO's own transformations and its ONNX frontend
(`Scan` with reverse directions) produce. As OpenVINO, a TensorIterator must run at least one
iteration.

A Loop is the same loop with `steps` its trip count (a size: an int, or a run-time one from
a shape or from data, `Emitter.size_values`); its `current_iteration` body argument is a
carried counter of its type from 0. Its execution condition must be a constant true and its
body's condition Result one once converted (a loop that stops on data, or a trip count of
-1, is refused naming the layer). Its sliced inputs may have dynamic dims (a positive
stride from a non-negative start), as may its inputs passed whole and its back edges; a
concatenated output or a last-iteration value that is not a back edge needs static dims
(their zeros are built before the loop).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.transforms.openvino_to_tosa.common import (
    Deferred,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    constant,
    dims,
    dtype_of,
    element,
    normalize_axis,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.loops import TimeLoop
from tosa_state.transforms.openvino_to_tosa.sizes import (
    DYN,
    Size,
    add,
    floordiv,
    mul,
    sub,
)


@dataclass(frozen=True)
class _Slicing:
    """How a sliced port walks its axis: iteration k covers [start + k * delta, ... + part)
    (`start` and `count` known at compile or at run time)."""

    axis: int
    part: int
    start: Size
    delta: int
    count: Size


def _slicing(entry: ov.PortMapAttr, dims: Sequence[int], output: bool = False) -> _Slicing:
    """The slicing of a port map entry over the external shape `dims`. An output is the
    concatenation of every iteration's part (its `start` / `end` are not read)."""
    axis = entry.sliced_axis
    assert axis is not None
    start, end, stride, part = (entry.start.data, entry.end.data, entry.stride.data,
                                entry.part_size.data)
    where = f"port map (axis {axis}, start {start}, end {end}, stride {stride}, part {part})"
    if part < 1 or abs(stride) != part:
        raise Unsupported(f"{where}: |stride| must equal part_size")
    axis = normalize_axis(axis, len(dims))
    dim = dims[axis]
    if dim == DYN:
        raise Unsupported(f"{where}: a dynamic axis")
    if output:
        if dim % part:
            raise Unsupported(f"{where}: the output's dim {dim} does not split into parts")
        first, last = 0, dim
    else:
        first = start + dim + 1 if start < 0 else start
        last = end + dim + 1 if end < 0 else end
    if stride < 0:
        if (first, last) != (dim, 0) and not output:
            raise Unsupported(f"{where}: a negative stride must cover the whole axis")
        if dim % part:
            raise Unsupported(f"{where}: the range does not split into parts of dim {dim}")
        return _Slicing(axis, part, dim - part, -part, dim // part)
    if not 0 <= first <= last <= dim or (last - first) % part:
        raise Unsupported(f"{where}: the range does not split into parts of dim {dim}")
    return _Slicing(axis, part, first, part, (last - first) // part)


def _input_slicing(e: Emitter, entry: ov.PortMapAttr, value: SSAValue) -> _Slicing:
    """The slicing of a sliced input, along an axis known at compile or at run time (then
    its bounds are shape arithmetic on the axis' `tosa.dim`)."""
    axis = normalize_axis(entry.sliced_axis, len(dims(value)))  # type: ignore[arg-type]
    if dims(value)[axis] != DYN:
        return _slicing(entry, dims(value))
    start, end, stride, part = (entry.start.data, entry.end.data, entry.stride.data,
                                entry.part_size.data)
    if part < 1 or abs(stride) != part:
        raise Unsupported(f"port map (axis {axis}, stride {stride}, part {part}): |stride| "
                          "must equal part_size")
    dim = e.size(value, axis)
    if stride < 0:
        if (start, end) != (-1, 0):
            raise Unsupported("a negative stride must cover the whole axis")
        return _Slicing(axis, part, sub(e, dim, part), -part, floordiv(e, dim, part))
    first = start if start >= 0 else add(e, dim, start + 1)
    last = end if end >= 0 else add(e, dim, end + 1)
    return _Slicing(axis, part, first, part, floordiv(e, sub(e, last, first), part))


class TensorIterator(OpenVINOPattern):
    """TensorIterator-1 and Loop-5 (see the module docstring)."""

    OPS = (ov.TensorIteratorOp, ov.LoopOp)

    def convert(self, op: ov.TensorIteratorOp | ov.LoopOp, e: Emitter) -> Sequence[SSAValue]:
        body = op.body.block
        pending = [o.name for o in body.ops if o.dialect_name() == "openvino"]
        if pending != ["openvino.yield"]:
            raise Deferred("its body still holds unconverted ops")
        steps = self._trip_count(op, e) if isinstance(op, ov.LoopOp) else self._iterations(op, e)
        loop = TimeLoop(self.lowering, e, steps)
        try:
            mapping = self._arguments(op, loop, e)
            yielded = self._body(op, loop, mapping)
            if isinstance(op, ov.LoopOp):
                _check_condition(yielded[op.condition.value.data], "the body's condition")
            return self._outputs(op, loop, mapping, yielded, steps, e)
        except Unsupported:
            loop.body.discard()
            raise

    @staticmethod
    def _trip_count(op: ov.LoopOp, e: Emitter) -> Size:
        """A Loop's number of iterations: its trip count, a constant true condition."""
        _check_condition(op.inputs[1], "the execution condition")
        found = e.size_values(op.inputs[0])
        if found is None or len(found.elements) != 1:
            raise Unsupported("the trip count must be one integer")
        count = found.elements[0]
        if isinstance(count, int) and count < 0:
            raise Unsupported("a trip count of -1 (a loop bounded by its condition only)")
        if isinstance(count, int) and count == 0:
            raise Unsupported("a trip count of 0 (no iteration)")
        return count

    @staticmethod
    def _iterations(op: ov.TensorIteratorOp, e: Emitter) -> Size:
        """The iteration count the sliced ports agree on (outputs along a dynamic axis
        follow the inputs)."""
        counts = [
            _input_slicing(e, entry, op.inputs[entry.external.data]).count
            for entry in op.input_port_map.data
            if entry.sliced_axis is not None
        ]
        for entry in op.output_port_map.data:
            extents = dims(op.outputs[entry.external.data])
            if entry.sliced_axis is not None and extents[
                    normalize_axis(entry.sliced_axis, len(extents))] != DYN:
                counts.append(_slicing(entry, extents, output=True).count)
        known = sorted({c for c in counts if isinstance(c, int)})
        if not counts or len(known) > 1:
            raise Unsupported(f"cannot tell the iteration count (candidates: {known})")
        # A count known at run time only is the first one's (as OpenVINO, which requires the
        # sliced ports to agree: a disagreement indexes out of range, failing at run time).
        count = known[0] if known else counts[0]
        if isinstance(count, int) and count == 0:
            raise Unsupported("it runs no iteration (its sliced axes are empty), which "
                              "OpenVINO rejects too")
        return count

    @staticmethod
    def _arguments(op: ov.TensorIteratorOp | ov.LoopOp, loop: TimeLoop, e: Emitter
                   ) -> dict[SSAValue, SSAValue]:
        """The values in the loop body of the TensorIterator body's arguments."""
        inputs = {entry.internal.data: entry for entry in op.input_port_map.data}
        back_edges = {edge.to_param.data for edge in op.back_edges.data}
        current = op.current_iteration.value.data if isinstance(op, ov.LoopOp) else -1
        mapping: dict[SSAValue, SSAValue] = {}
        for index, arg in enumerate(op.body.block.args):
            if index == current:  # the iteration's number: a counter from 0
                counter = loop.carry(e.const(np.zeros(shape(arg), dtype_of(element(arg))),
                                             element(arg)))
                loop.update(counter, loop.body.add(counter, loop.body.const(
                    np.ones(shape(arg), dtype_of(element(arg))), element(arg))))
                mapping[arg] = counter
                continue
            entry = inputs.get(index)
            if entry is None:
                raise Unsupported(f"body argument {index} has no input port map entry")
            value = op.inputs[entry.external.data]
            if entry.sliced_axis is not None:
                s = _input_slicing(e, entry, value)
                if index in back_edges:  # the first part, then the back edge
                    extents = shape(value)
                    value = e.slice(value, [s.start if d == s.axis else 0 for d in
                                            range(len(extents))],
                                    [s.part if d == s.axis else n
                                     for d, n in enumerate(extents)])
                else:
                    value = loop.step_part(value, s.axis, s.part, s.start, s.delta)
            if value.type != arg.type:
                raise Unsupported(
                    f"body argument {index} of type {arg.type} is bound to {value.type}"
                )
            if index in back_edges:
                value = loop.carry(value)
            elif entry.sliced_axis is None:
                value = loop.invariant(value)
            mapping[arg] = value
        return mapping

    @staticmethod
    def _body(op: ov.TensorIteratorOp, loop: TimeLoop, mapping: dict[SSAValue, SSAValue]
              ) -> list[SSAValue]:
        """Clone the body's ops into the loop body; returns the yielded values there."""
        for inner in op.body.block.ops:
            for operand in _outside_operands(op, inner):
                if operand not in mapping:  # the loop is isolated from above: carried in
                    mapping[operand] = loop.invariant(operand)
            if isinstance(inner, ov.YieldOp):
                return [mapping.get(v, v) for v in inner.values]
            results = loop.body.emit(inner.clone(value_mapper=mapping))
            mapping.update(zip(inner.results, results, strict=True))
        raise Unsupported("the body has no openvino.yield")

    @staticmethod
    def _outputs(op: ov.TensorIteratorOp | ov.LoopOp, loop: TimeLoop,
                 mapping: dict[SSAValue, SSAValue], yielded: list[SSAValue], steps: Size,
                 e: Emitter) -> list[SSAValue]:
        body = op.body.block
        carried_from: dict[int, SSAValue] = {}
        for edge in op.back_edges.data:
            arg = mapping[body.args[edge.to_param.data]]
            value = yielded[edge.from_result.data]
            if value.type != arg.type:
                raise Unsupported(
                    f"back edge from result {edge.from_result.data} of type {value.type} to "
                    f"body argument {edge.to_param.data} of type {arg.type}"
                )
            loop.update(arg, value)
            carried_from[edge.from_result.data] = arg
        last: dict[int, SSAValue] = {}
        stacked: dict[int, int] = {}
        for entry in op.output_port_map.data:
            index, value = entry.external.data, yielded[entry.internal.data]
            if DYN in dims(value) and (entry.sliced_axis is not None
                                       or entry.internal.data not in carried_from):
                raise Unsupported(f"output {index} has dynamic dims "
                                  f"{ov.format_shape(dims(value))} and is not a back edge "
                                  "(its zeros are built before the loop)")
            if entry.sliced_axis is None:
                carried = carried_from.get(entry.internal.data)
                last[index] = loop.last(value) if carried is None else carried
                continue
            axis = normalize_axis(entry.sliced_axis, len(dims(value)))
            if isinstance(op, ov.LoopOp) or dims(op.outputs[index])[axis] == DYN:
                # a part per iteration, in order (backwards for a negative stride)
                part, stride = entry.part_size.data, entry.stride.data
                if abs(stride) != part or part < 1:
                    raise Unsupported("a concatenated output needs |stride| equal to part_size")
                if isinstance(op, ov.LoopOp) and stride < 0:
                    raise Unsupported("a Loop's concatenated output needs a positive stride")
                length = mul(e, steps, part)
                first = 0 if stride > 0 else sub(e, length, part)
                stacked[index] = loop.stack(value, axis, length, first, stride)
                continue
            s = _slicing(entry, shape(op.outputs[index]), output=True)
            stacked[index] = loop.stack(value, s.axis, s.count * s.part, s.start, s.delta)
        missing = [i for i in range(len(op.outputs)) if i not in last and i not in stacked]
        if missing:
            raise Unsupported(f"output(s) {missing} have no output port map entry")
        finals, accumulated = loop.build()
        return [
            finals[last[i]] if i in last else accumulated[stacked[i]]
            for i in range(len(op.outputs))
        ]


def _check_condition(value: SSAValue, what: str) -> None:
    """A Loop's condition must be a constant true (a loop that stops on data is refused)."""
    found = constant(value)
    if found is None or not np.asarray(found).all():
        raise Unsupported(f"{what} must be a constant true (a Loop that stops on a computed "
                          "condition is not supported)")


def _outside_operands(op: ov.TensorIteratorOp, inner: Operation) -> list[SSAValue]:
    """The values `inner` (an op of `op`'s body, with its regions) uses from outside `op`."""
    found = []
    for nested in inner.walk():
        for operand in nested.operands:
            owner = operand.owner
            defining = owner if isinstance(owner, Operation) else owner.parent_op()
            if defining is None or not op.is_ancestor(defining):
                found.append(operand)
    return found


TENSOR_ITERATOR_PATTERNS = (TensorIterator,)
