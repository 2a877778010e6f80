"""`tosa-integer-frames`: a float variable of past frames that the model concatenates with new
input and then quantizes becomes an integer variable of quantized frames.

A streaming convolution quantized by NNCF keeps its last frames in f32: the read is
concatenated with the new frames, the concat is quantized (a FakeQuantize: element-wise ops
ending in int8), and the variable is written with a slice of the concat. Integer targets
take no f32 variable. When the quantize is per tensor (its constants are scalars), it
commutes with the concat: the quantize is applied to each operand of the concat instead,
the concat joins the integers, and the variable stores the slice of the quantized concat:

```mlir
%r = tosa.variable.read @frames : tensor<1x4x2xf32>
%c = tosa.concat %r, %x {axis = 2} -> tensor<1x4x7xf32>
%w = tosa.slice %c, ... -> tensor<1x4x2xf32>
%q = ... element-wise ops of %c ... -> tensor<1x4x7xi8>
tosa.variable.write @frames, %w
```
becomes
```mlir
%r = tosa.variable.read @frames : tensor<1x4x2xi8>
%qx = ... the same ops of %x ... -> tensor<1x4x5xi8>
%q = tosa.concat %r, %qx {axis = 2} -> tensor<1x4x7xi8>
%w = tosa.slice %q, ... -> tensor<1x4x2xi8>
tosa.variable.write @frames, %w
```

The model's results are the same bits: everything after the read only sees the quantized
frames. The state holds the levels of the frames the float model holds (`query_state()`
gives them); its initial value is the quantize of the float one. The variable records the
scale and zero point of the quantize (`tosa_state.scale` / `tosa_state.zero_point`, as
`tosa-integer-state` does): the scale fitted to two of its rounding thresholds, the zero
point the level of 0. Otherwise — another use of the read or of the concat, a write that
is not a slice of the concat, a quantize with per-channel constants or several integer
results — the variable is left as it is.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import FloatAttr, IntegerAttr, ModuleOp, TensorType, f32, i32
from xdsl.ir import Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tosa import data_layout as tdl
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.transforms.tosa_integer_state import (
    SCALE_ATTR,
    ZERO_POINT_ATTR,
    Cone,
    constant_of,
    integer_cone,
)


@dataclass
class _Plan:
    variable: VariableOp
    read: VariableReadOp
    concat: tdl.ConcatOp
    quantize: Cone
    writes: list[tuple[VariableWriteOp, tdl.SliceOp]]


def _dims(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return value.type.get_shape()


def _plan(module: ModuleOp, variable: VariableOp) -> _Plan | None:
    if variable.element_type != f32 or any(s < 0 for s in variable.shape):
        return None
    reads = [op for op in module.walk()
             if isinstance(op, VariableReadOp) and op.var_name == variable.var_name]
    writes = [op for op in module.walk()
              if isinstance(op, VariableWriteOp) and op.var_name == variable.var_name]
    if len(reads) != 1 or not writes:
        return None
    (read,) = reads
    uses = list(read.results[0].uses)
    if len(uses) != 1 or not isinstance(concat := uses[0].operation, tdl.ConcatOp):
        return None
    slices = {use.operation for use in concat.output.uses
              if isinstance(use.operation, tdl.SliceOp)}
    planned = []
    for write in writes:
        owner = write.operands[0].owner
        if owner not in slices or len(list(owner.results[0].uses)) != 1:
            return None
        planned.append((write, owner))
    quantize = integer_cone(concat.output, ignore=slices)
    if quantize is None or len(quantize.outputs) != 1 or any(
            (c := constant_of(o)) is not None and c.size != 1
            for op in quantize.ops for o in op.operands):
        return None
    if len(slices) != len(planned):
        return None
    return _Plan(variable, read, concat, quantize, planned)


def _quantized(cone: Cone, value: np.ndarray) -> np.ndarray:
    return np.asarray(cone.evaluate(value.astype(np.float32))[0]).reshape(-1)


def _threshold(cone: Cone, low: float, high: float) -> float:
    """The float where the quantize's level changes between `low` and `high`."""
    level = _quantized(cone, np.array([low]))[0]
    for _ in range(80):
        middle = (low + high) / 2
        if _quantized(cone, np.array([middle]))[0] == level:
            low = middle
        else:
            high = middle
    return (low + high) / 2


def quantization_of(cone: Cone) -> tuple[float, int]:
    """(scale, zero point) of a per-tensor quantize: the level of 0, and the distance
    between two rounding thresholds over the levels between them."""
    zero_point = int(_quantized(cone, np.zeros(1))[0])
    grid = np.linspace(-1e4, 1e4, 200_001)
    levels = _quantized(cone, grid)
    changes = np.nonzero(np.diff(levels))[0]
    if len(changes) < 2:
        return 1.0, zero_point
    first, last = changes[0], changes[-1]
    low = _threshold(cone, grid[first], grid[first + 1])
    high = _threshold(cone, grid[last], grid[last + 1])
    count = int(levels[last]) - int(levels[first])
    return float(np.float32((high - low) / count)), zero_point


def _apply(rewriter: Rewriter, cone: Cone, value: SSAValue, before: Operation) -> SSAValue:
    """The cone's ops cloned onto `value` (constants are scalars: they broadcast)."""
    env = {cone.source: value}
    dims = _dims(value)
    for op in cone.ops:
        result_type = op.results[0].type
        assert isinstance(result_type, TensorType)
        clone = type(op).create(
            operands=[env.get(o, o) for o in op.operands],
            result_types=[TensorType(result_type.element_type, dims)],
            properties=dict(op.properties), attributes=dict(op.attributes))
        rewriter.insert_op(clone, InsertPoint.before(before))
        env[op.results[0]] = clone.results[0]
    return env[cone.outputs[0]]


def _rewrite(plan: _Plan) -> None:
    rewriter = Rewriter()
    variable, cone = plan.variable, plan.quantize
    output = cone.outputs[0]
    assert isinstance(output.type, TensorType)
    element = output.type.element_type
    var_type = TensorType(element, variable.shape)
    initial = (np.zeros(variable.shape, np.float32) if variable.initial_value is None
               else np.broadcast_to(dense_to_numpy(variable.initial_value), variable.shape))
    scale, zero_point = quantization_of(cone)
    new_var = VariableOp(variable.var_name, var_type,
                         numpy_to_dense(_quantized(cone, initial).reshape(variable.shape), element))
    new_var.attributes.update(variable.attributes)
    new_var.attributes[SCALE_ATTR] = FloatAttr(scale, f32)
    new_var.attributes[ZERO_POINT_ATTR] = IntegerAttr(zero_point, i32)
    rewriter.replace_op(variable, new_var)

    concat = plan.concat
    new_read = VariableReadOp(plan.read.var_name, var_type)
    rewriter.insert_op(new_read, InsertPoint.before(concat))
    parts = [new_read.results[0] if o == plan.read.results[0] else _apply(rewriter, cone, o, concat)
             for o in concat.input1]
    joined = tdl.ConcatOp(parts, concat.axis.value.data,
                          TensorType(element, _dims(concat.output)))
    rewriter.insert_op(joined, InsertPoint.before(concat))
    output.replace_all_uses_with(joined.output)
    for write, piece in plan.writes:
        window = tdl.SliceOp(joined.output, piece.start, piece.size,
                             TensorType(element, _dims(piece.results[0])))
        rewriter.insert_op(window, InsertPoint.before(write))
        rewriter.replace_op(write, VariableWriteOp(write.var_name, window.results[0]))
        Rewriter.erase_op(piece)
    for op in reversed(cone.ops):
        Rewriter.erase_op(op)
    Rewriter.erase_op(concat)
    Rewriter.erase_op(plan.read)


@dataclass(frozen=True)
class TosaIntegerFramesPass(ModulePass):
    """Float frame variables quantized after their concat with new input become integer
    variables of the quantized frames."""

    name = "tosa-integer-frames"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for variable in [v for v in op.walk() if isinstance(v, VariableOp)]:
            plan = _plan(op, variable)
            if plan is not None:
                _rewrite(plan)
