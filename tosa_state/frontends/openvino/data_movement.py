"""Importing the shape and data-movement layers: Tile, Pad, Split, VariadicSplit, StridedSlice,
Slice, Concat, Reshape, Squeeze, Unsqueeze, Transpose, ShapeOf, Gather, Broadcast.
"""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_tile(b: OpBuilder) -> Operation:
    return ov.TileOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_pad(b: OpBuilder) -> Operation:
    mode = b.data("pad_mode", "constant").strip().lower()
    if mode not in ov.PAD_MODES:
        b.fail(f"pad_mode '{mode}' is not one of {', '.join(ov.PAD_MODES)}")
    value = b.operands[3] if len(b.operands) > 3 else None
    return ov.PadOp(b.operands[0], b.operands[1], b.operands[2], value, b.result_types[0], mode)


def _build_split(b: OpBuilder) -> Operation:
    num_splits = b.data_int("num_splits")
    if num_splits != len(b.result_types):
        b.fail(f"num_splits={num_splits} but the layer has {len(b.result_types)} output ports")
    return ov.SplitOp(b.operands[0], b.operands[1], b.result_types)


def _build_variadic_split(b: OpBuilder) -> Operation:
    return ov.VariadicSplitOp(*b.operands, b.result_types)


def _build_strided_slice(b: OpBuilder) -> Operation:
    masks = {name: b.data_ints(name) for name in ov.MASK_NAMES}
    for name, mask in masks.items():
        if any(v not in (0, 1) for v in mask):
            b.fail(f"{name} must contain only 0 and 1")
    return ov.StridedSliceOp(
        b.operands[0], b.operands[1], b.operands[2], b.optional_operand(3), b.result_types[0], masks
    )


def _build_slice(b: OpBuilder) -> Operation:
    return ov.SliceOp(*b.operands[:4], b.optional_operand(4), b.result_types[0])


def _build_concat(b: OpBuilder) -> Operation:
    return ov.ConcatOp(b.operands, b.result_types[0], b.data_int("axis"))


def _build_reshape(b: OpBuilder) -> Operation:
    return ov.ReshapeOp(*b.operands, b.result_types[0], b.data_bool("special_zero", False))


def _build_squeeze(b: OpBuilder) -> Operation:
    allow_axis_skip = b.layer.version == "opset15" and b.data_bool("allow_axis_skip", False)
    return ov.SqueezeOp(b.operands[0], b.optional_operand(1), b.result_types[0], allow_axis_skip)


def _build_unsqueeze(b: OpBuilder) -> Operation:
    return ov.UnsqueezeOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_transpose(b: OpBuilder) -> Operation:
    return ov.TransposeOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_shape_of(b: OpBuilder) -> Operation:
    if b.layer.version == "opset3":
        output_type = b.data_element("output_type") if "output_type" in b.layer.data else None
        if output_type is not None and output_type.mlir != ov.element_type(b.result_types[0]):
            b.fail(f"output_type '{output_type.name}' differs from the output port's type")
    return ov.ShapeOfOp(b.operands[0], b.result_types[0])


def _build_gather(b: OpBuilder) -> Operation:
    version = int(b.layer.version.removeprefix("opset"))
    if version == 1 and "batch_dims" in b.layer.data:
        b.fail("Gather-1 has no batch_dims (Gather-7 added it)")
    return ov.GatherOp(*b.operands, b.result_types[0], b.data_int("batch_dims", 0), version)


_BROADCAST_1_MODES = ("numpy", "explicit", "pdpd")


def _build_broadcast(b: OpBuilder) -> Operation:
    mode = b.data("mode", "numpy").strip().lower()
    if b.layer.version == "opset1":
        return _build_broadcast_1(b, "explicit" if mode == "none" else mode)
    if mode not in ov.BROADCAST_MODES or mode == "pdpd":
        b.fail(f"mode='{mode}' is not supported (supported: numpy, explicit, bidirectional)")
    return ov.BroadcastOp(
        b.operands[0], b.operands[1], b.optional_operand(2), b.result_types[0], mode
    )


def _build_broadcast_1(b: OpBuilder, mode: str) -> Operation:
    """Broadcast-1: `mode` numpy, explicit (`none` in the IR) or pdpd with its start axis
    `mode.auto_broadcast_axis`; OpenVINO gives numpy and pdpd a third input (a u8 0) that they
    ignore."""
    if mode not in _BROADCAST_1_MODES:
        b.fail(f"mode='{mode}' is not a Broadcast-1 mode (numpy, explicit, pdpd)")
    if mode == "explicit":
        if len(b.operands) != 3:
            b.fail("explicit mode takes axes_mapping (input 2)")
        return ov.BroadcastOp(*b.operands, b.result_types[0], mode)
    axis = b.data_int("mode.auto_broadcast_axis", 0) if mode == "pdpd" else -1
    if axis < -1:
        b.fail(f"mode.auto_broadcast_axis={axis} must be -1 or a non-negative axis")
    return ov.BroadcastOp(b.operands[0], b.operands[1], None, b.result_types[0], mode, axis)


def _build_range(b: OpBuilder) -> Operation:
    result = ov.element_type(b.result_types[0])
    if b.layer.version == "opset1":  # no output_type: start, stop, step and result share one
        types = [ov.element_type(v.type) for v in b.operands]
        if any(t != result for t in types):
            b.fail("Range-1 takes start, stop and step of the result's element type, got "
                   f"{', '.join(map(str, types))} for {result}")
        return ov.RangeOp(*b.operands, b.result_types[0])
    output_type = b.data_element("output_type")
    if result != output_type.mlir:
        b.fail(f"output_type '{output_type.name}' differs from the output port's type")
    return ov.RangeOp(*b.operands, b.result_types[0])


DATA_MOVEMENT_LAYERS: dict[str, OpSpec] = {
    "Tile": OpSpec(("opset1",), (2, 2), _build_tile),
    "Pad": OpSpec(("opset1", "opset12"), (3, 4), _build_pad),
    "Split": OpSpec(("opset1",), (2, 2), _build_split, outputs=None),
    "VariadicSplit": OpSpec(("opset1",), (3, 3), _build_variadic_split, outputs=None),
    "StridedSlice": OpSpec(("opset1",), (3, 4), _build_strided_slice),
    "Slice": OpSpec(("opset8",), (4, 5), _build_slice),
    "Concat": OpSpec(("opset1",), (1, 1 << 30), _build_concat),
    "Reshape": OpSpec(("opset1",), (2, 2), _build_reshape),
    "Squeeze": OpSpec(("opset1", "opset15"), (1, 2), _build_squeeze),
    "Unsqueeze": OpSpec(("opset1",), (2, 2), _build_unsqueeze),
    "Transpose": OpSpec(("opset1",), (2, 2), _build_transpose),
    "ShapeOf": OpSpec(("opset1", "opset3"), (1, 1), _build_shape_of),
    "Gather": OpSpec(("opset1", "opset7", "opset8"), (3, 3), _build_gather),
    "Broadcast": OpSpec(("opset1", "opset3"), (2, 3), _build_broadcast),
    "Range": OpSpec(("opset1", "opset4"), (3, 3), _build_range),
}
