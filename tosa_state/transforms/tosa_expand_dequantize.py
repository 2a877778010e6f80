"""`tosa-expand-dequantize`: each `tosa_state.dequantize` as the TOSA ops that define it.

For consumers that know only TOSA (the `iree` device, upstream MLIR tools): the weight keeps
its stored bytes (the `tosa.const` of `i8`), and TOSA integer ops decode them:

- `i8`: `tosa.cast` to f32; `u8`: to i32, `& 255`, to f32;
- `u4` / `i4` / `nf4`: the bytes as i32 `& 255`, the low nibbles (`& 15`) and the high ones
  (`tosa.logical_right_shift` by 4) interleaved (`tosa.concat` of `[B, 1]` columns, a
  reshape to `[2B]`, a `tosa.slice` of the elements); `i4`: `(v ^ 8) - 8`; `nf4`: a
  `tosa.gather` from the 16 NormalFloat values;
- `u1`: the eight bits of each byte, most significant first, the same way;

then `tosa.sub` of the zero point (a small f32 constant, decoded here), `tosa.mul` by the
scale (`tosa.cast` to f32) and `tosa.reshape` to the result (`tosa.cast` to its type if not
f32). The 8-bit float weights (`f8e4m3`, `f8e5m2`) are refused: TOSA 1.0 casts them only in
the FP8 extension, which this dialect does not have.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType, f32, i8, i32
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa_state import DequantizeOp
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.packing import NF4_VALUES, unpack


class _Builder:
    """The TOSA ops replacing one op, in order."""

    def __init__(self) -> None:
        self.ops: list[Operation] = []

    def add(self, op: Operation) -> SSAValue:
        self.ops.append(op)
        return op.results[0]

    def const(self, array: np.ndarray, element: Attribute | None = None) -> SSAValue:
        return self.add(tt.ConstOp(numpy_to_dense(array, element)))

    def shape(self, dims: Sequence[int]) -> SSAValue:
        return self.add(tt.ConstShapeOp(list(dims)))

    def binary(self, cls: type[Operation], a: SSAValue, b: SSAValue) -> SSAValue:
        out = np.broadcast_shapes(_dims(a), _dims(b))
        return self.add(cls.create(operands=[a, b],
                                   result_types=[TensorType(_element(a), out)]))

    def scalar(self, value: float | int, element: Attribute, rank: int) -> SSAValue:
        return self.const(np.full((1,) * rank, value), element)

    def cast(self, value: SSAValue, element: Attribute) -> SSAValue:
        if _element(value) == element:
            return value
        return self.add(tew.CastOp(value, TensorType(element, _dims(value))))

    def reshape(self, value: SSAValue, dims: Sequence[int]) -> SSAValue:
        if _dims(value) == tuple(dims):
            return value
        return self.add(tt.ReshapeOp(value, self.shape(dims), TensorType(_element(value), dims)))

    def bytes_as_i32(self, raw: SSAValue) -> SSAValue:
        """The stored bytes as unsigned values 0..255 in i32."""
        return self.binary(tew.BitwiseAndOp, self.cast(raw, i32), self.scalar(255, i32, 1))

    def interleave(self, columns: list[SSAValue], count: int) -> SSAValue:
        """`[B]` columns c0, c1, ... as `c0[0], c1[0], ..., c0[1], ...`, the first `count`."""
        size = _dims(columns[0])[0]
        stacked = self.add(tt.ConcatOp([self.reshape(c, [size, 1]) for c in columns], 1,
                                       TensorType(i32, [size, len(columns)])))
        flat = self.reshape(stacked, [size * len(columns)])
        if count == size * len(columns):
            return flat
        return self.add(tt.SliceOp(flat, self.shape([0]), self.shape([count]),
                                   TensorType(i32, [count])))


def _dims(value: SSAValue) -> tuple[int, ...]:
    assert isinstance(value.type, TensorType)
    return tuple(value.type.get_shape())


def _element(value: SSAValue) -> Attribute:
    assert isinstance(value.type, TensorType)
    return value.type.element_type


def _codes(b: _Builder, raw: SSAValue, type_name: str, count: int) -> SSAValue:
    """The weight's elements as a `[count]` f32 tensor."""
    if type_name == "i8":
        return b.cast(b.reshape(raw, [count]), f32)
    values = b.bytes_as_i32(raw)
    if type_name == "u8":
        return b.cast(values, f32)
    if type_name == "u1":
        bits = [b.binary(tew.BitwiseAndOp,
                         b.binary(tew.LogicalRightShiftOp, values, b.scalar(k, i32, 1)),
                         b.scalar(1, i32, 1)) for k in range(7, -1, -1)]
        return b.cast(b.interleave(bits, count), f32)
    low = b.binary(tew.BitwiseAndOp, values, b.scalar(15, i32, 1))
    high = b.binary(tew.LogicalRightShiftOp, values, b.scalar(4, i32, 1))
    codes = b.interleave([low, high], count)
    if type_name == "i4":
        flipped = b.binary(tew.BitwiseXorOp, codes, b.scalar(8, i32, 1))
        return b.cast(b.binary(tew.SubOp, flipped, b.scalar(8, i32, 1)), f32)
    if type_name == "u4":
        return b.cast(codes, f32)
    assert type_name == "nf4"
    table = b.const(NF4_VALUES.reshape(1, 16, 1))
    gathered = b.add(tt.GatherOp(table, b.reshape(codes, [1, count]),
                                 TensorType(f32, [1, count, 1])))
    return b.reshape(gathered, [count])


def _expand(op: DequantizeOp) -> list[Operation]:
    weight_type = op.weight_type.data
    if weight_type in ("f8e4m3", "f8e5m2"):
        raise PassFailedException(error_at(
            op, f"'{op.name}' op of {weight_type} weights has no TOSA 1.0 lowering (8-bit "
            "floats need TOSA's FP8 extension)"))
    shape = op.shape_of_weights
    rank = len(shape)
    b = _Builder()
    value = b.reshape(_codes(b, op.weights, weight_type, math.prod(shape)), shape)
    if op.zero_point is not None and op.zero_point_type is not None:
        stored = op.zero_point.owner
        if not isinstance(stored, tt.ConstOp):
            raise PassFailedException(error_at(
                op, f"'{op.name}' op: the zero point must be a constant to be expanded"))
        zero_point = unpack(dense_to_numpy(stored.values), op.zero_point_type.data,
                            op.shape_of_zero_point).astype(np.float32)
        value = b.binary(tew.SubOp, value, b.const(
            zero_point.reshape((1,) * (rank - zero_point.ndim) + zero_point.shape)))
    scale = b.cast(op.scale, f32)
    scale = b.reshape(scale, (1,) * (rank - len(_dims(scale))) + _dims(scale))
    value = b.add(tew.MulOp(value, scale, b.const(np.zeros(1), i8),
                            TensorType(f32, shape)))
    result_type = op.result.type
    assert isinstance(result_type, TensorType)
    value = b.cast(b.reshape(value, result_type.get_shape()), result_type.element_type)
    for new in b.ops:
        new.location = op.location
    Rewriter.insert_op(b.ops, InsertPoint.before(op))
    op.result.replace_all_uses_with(value)
    stored_zero_point = op.zero_point.owner if op.zero_point is not None else None
    Rewriter.erase_op(op)
    if isinstance(stored_zero_point, tt.ConstOp) and not stored_zero_point.output.uses:
        Rewriter.erase_op(stored_zero_point)
    return b.ops


@dataclass(frozen=True)
class TosaExpandDequantizePass(ModulePass):
    """Replaces every `tosa_state.dequantize` by TOSA ops on its stored bytes."""

    name = "tosa-expand-dequantize"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for dequantize in [o for o in op.walk() if isinstance(o, DequantizeOp)]:
            for new in _expand(dequantize):
                new.verify()
