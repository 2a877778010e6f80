"""RESHAPE, CONCATENATION, GATHER, SLICE, STRIDED_SLICE, SPLIT, UNPACK, TRANSPOSE."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from xdsl.ir import Operation

from tosa_state.dialects.tfl import data_movement as dm
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _reshape(op: OperatorInput) -> Operation:
    return dm.ReshapeOp(op.operand(0, "input"), op.optional(1), op.result())


def _concatenation(op: OperatorInput) -> Operation:
    options = op.options(tflite.ConcatenationOptions, O.ConcatenationOptions)
    axis = op.read("axis", options.Axis) if options is not None else 0
    values = [op.operand(i, f"value {i}") for i in range(len(op.operands))]
    return dm.ConcatenationOp(values, op.result(), axis, op.activation(options))


def _gather(op: OperatorInput) -> Operation:
    options = op.options(tflite.GatherOptions, O.GatherOptions)
    axis = op.read("axis", options.Axis) if options is not None else 0
    batch = op.read("batch_dims", options.BatchDims) if options is not None else 0
    return dm.GatherOp(op.operand(0, "params"), op.operand(1, "indices"), op.result(), axis,
                       batch)


def _slice(op: OperatorInput) -> Operation:
    return dm.SliceOp(op.operand(0, "input"), op.operand(1, "begin"), op.operand(2, "size"),
                      op.result())


def _strided_slice(op: OperatorInput) -> Operation:
    options = op.options(tflite.StridedSliceOptions, O.StridedSliceOptions)
    masks: dict[str, int] = {}
    offset = False
    if options is not None:
        for name in dm.MASKS:
            accessor = "".join(part.title() for part in name.split("_"))
            masks[name] = op.read(name, getattr(options, accessor))
        offset = bool(op.read("offset", options.Offset))
    operands = [op.operand(i, what) for i, what in enumerate(("input", "begin", "end",
                                                                 "strides"))]
    return dm.StridedSliceOp(operands, op.result(), masks, offset)


def _split(op: OperatorInput) -> Operation:
    options = op.options(tflite.SplitOptions, O.SplitOptions)
    count = op.read("num_splits", options.NumSplits) if options is not None else 0
    if count != len(op.result_types):
        raise op.where.error(f"num_splits is {count} but the operator has "
                             f"{len(op.result_types)} outputs")
    return dm.SplitOp(op.operand(0, "split_dim"), op.operand(1, "value"), op.result_types)


def _unpack(op: OperatorInput) -> Operation:
    options = op.options(tflite.UnpackOptions, O.UnpackOptions)
    axis = op.read("axis", options.Axis) if options is not None else 0
    count = op.read("num", options.Num) if options is not None else 0
    if count != len(op.result_types):
        raise op.where.error(f"num is {count} but the operator has {len(op.result_types)} "
                             "outputs")
    return dm.UnpackOp(op.operand(0, "value"), op.result_types, axis)


def _transpose(op: OperatorInput) -> Operation:
    return dm.TransposeOp(op.operand(0, "input"), op.operand(1, "perm"), op.result())


BUILDERS: dict[int, Builder] = {
    B.RESHAPE: Builder(_reshape, (1, 2)),
    B.CONCATENATION: Builder(_concatenation, (1, 1 << 16)),
    B.GATHER: Builder(_gather, (2, 2)),
    B.SLICE: Builder(_slice, (3, 3)),
    B.STRIDED_SLICE: Builder(_strided_slice, (4, 4)),
    B.SPLIT: Builder(_split, (2, 2), None),
    B.TRANSPOSE: Builder(_transpose, (2, 2)),
    B.UNPACK: Builder(_unpack, (1, 1), None),
}
