"""Constant and the shape / data-movement `openvino` ops: Tile, Pad, Split, VariadicSplit,
StridedSlice, Slice, Concat, Reshape, Squeeze, Unsqueeze, Transpose, ShapeOf, Gather, Broadcast,
Range.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    i64,
)
from xdsl.ir import Attribute, SSAValue, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import Parser
from xdsl.printer import Printer
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_integer_operand,
    check_rank_at_most_one,
    check_same_element_type,
    dims_compatible,
    element_type,
    i64_attr,
    tensor_shape,
)

BROADCAST_MODES = ("numpy", "explicit", "bidirectional", "pdpd")


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """Constant-1: a tensor decoded from the weights file.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/constant-1.html

    `%c = openvino.constant dense<[1.0, 2.0]> : tensor<2xf32>`; values containing NaN or
    infinities print as a hex string (`dense<"0x...">`) so that they parse back bit-exactly.
    """

    name = "openvino.constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException(
                f"{self.name}: result type {self.result.type} differs from the value's type "
                f"{self.value.type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        if _has_non_finite(self.value):
            printer.print_string(f'dense<"0x{self.value.data.data.hex().upper()}"> : ')
            printer.print_attribute(self.value.type)
        else:
            printer.print_attribute(self.value)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute", pos, parser.pos)
        op = cls(value)
        op.attributes.update(attributes)
        return op


def _has_non_finite(value: DenseIntOrFPElementsAttr) -> bool:
    if not isinstance(value.get_element_type(), AnyFloat):
        return False
    return any(not math.isfinite(x) for x in value.get_values())


@irdl_op_definition
class TileOp(IRDLOperation):
    """Tile-1: `input` repeated `repeats` times along each dim (numpy `tile`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/tile-1.html
    """

    name = "openvino.tile"

    input = operand_def(TensorLike)
    repeats = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, repeats: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, repeats], result_types=[result_type])

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_integer_operand(self, self.repeats, "repeats")
        check_rank_at_most_one(self, self.repeats, "repeats")


PAD_MODES = ("constant", "edge", "reflect", "symmetric")
"""Pad's `pad_mode` values."""


@irdl_op_definition
class PadOp(IRDLOperation):
    """Pad-1 / Pad-12: `pads_begin` / `pads_end` elements added to each dim, by `pad_mode`
    (`constant` fills with `pad_value`, 0 without it; Pad-12 allows negative pads, which
    crop).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/pad-12.html
    """

    name = "openvino.pad"

    input = operand_def(TensorLike)
    pads_begin = operand_def(TensorLike)
    pads_end = operand_def(TensorLike)
    pad_value = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    pad_mode = prop_def(StringAttr, default_value=StringAttr("constant"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        pads_begin: SSAValue,
        pads_end: SSAValue,
        pad_value: SSAValue | None,
        result_type: Attribute,
        pad_mode: str = "constant",
    ):
        super().__init__(
            operands=[input, pads_begin, pads_end, [] if pad_value is None else [pad_value]],
            result_types=[result_type],
            properties={"pad_mode": StringAttr(pad_mode)},
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        for what, value in (("pads_begin", self.pads_begin), ("pads_end", self.pads_end)):
            check_integer_operand(self, value, what)
            check_rank_at_most_one(self, value, what)
        if self.pad_mode.data not in PAD_MODES:
            raise VerifyException(
                f"{self.name}: pad_mode must be one of {', '.join(PAD_MODES)}, got "
                f"'{self.pad_mode.data}'"
            )
        if self.pad_value is not None:
            check_same_element_type(self, (self.input, self.pad_value), "input and pad_value")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """Split-1: `num_splits` equal parts along `axis` (a scalar operand).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/split-1.html
    """

    name = "openvino.split"

    input = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    outputs = var_result_def(TensorLike)
    num_splits = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axis: SSAValue, result_types: Sequence[Attribute]):
        super().__init__(
            operands=[input, axis],
            result_types=[list(result_types)],
            properties={"num_splits": i64_attr(len(result_types))},
        )

    def verify_(self) -> None:
        check_integer_operand(self, self.axis, "axis")
        count = self.num_splits.value.data
        if count < 1 or count != len(self.outputs):
            raise VerifyException(
                f"{self.name}: num_splits = {count} but the op has {len(self.outputs)} results"
            )
        check_same_element_type(self, (self.input, *self.outputs), "input and results")


@irdl_op_definition
class VariadicSplitOp(IRDLOperation):
    """VariadicSplit-1: parts of `split_lengths` along `axis`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/variadic-split-1.html
    """

    name = "openvino.variadic_split"

    input = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    split_lengths = operand_def(TensorLike)
    outputs = var_result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        axis: SSAValue,
        split_lengths: SSAValue,
        result_types: Sequence[Attribute],
    ):
        super().__init__(operands=[input, axis, split_lengths], result_types=[list(result_types)])

    def verify_(self) -> None:
        check_integer_operand(self, self.axis, "axis")
        check_integer_operand(self, self.split_lengths, "split_lengths")
        check_rank_at_most_one(self, self.split_lengths, "split_lengths")
        if not self.outputs:
            raise VerifyException(f"{self.name}: expects at least one result")
        check_same_element_type(self, (self.input, *self.outputs), "input and results")


MASK_NAMES = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


@irdl_op_definition
class StridedSliceOp(IRDLOperation):
    """StridedSlice-1 (numpy-style slicing with TensorFlow masks).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/strided-slice-1.html
    """

    name = "openvino.strided_slice"

    input = operand_def(TensorLike)
    begin = operand_def(TensorLike)
    end = operand_def(TensorLike)
    stride = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    begin_mask = prop_def(DenseArrayBase)
    end_mask = prop_def(DenseArrayBase)
    new_axis_mask = prop_def(DenseArrayBase)
    shrink_axis_mask = prop_def(DenseArrayBase)
    ellipsis_mask = prop_def(DenseArrayBase)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        begin: SSAValue,
        end: SSAValue,
        stride: SSAValue | None,
        result_type: Attribute,
        masks: dict[str, Sequence[int]],
    ):
        super().__init__(
            operands=[input, begin, end, [stride] if stride is not None else []],
            result_types=[result_type],
            properties={
                name: DenseArrayBase.from_list(i64, list(masks.get(name, ())))
                for name in MASK_NAMES
            },
        )

    def verify_(self) -> None:
        for what, value in (("begin", self.begin), ("end", self.end), ("stride", self.stride)):
            check_integer_operand(self, value, what)
            check_rank_at_most_one(self, value, what)
        check_same_element_type(self, (self.input, self.result), "input and result")
        for name in MASK_NAMES:
            mask = getattr(self, name)
            if mask.elt_type != i64 or any(v not in (0, 1) for v in mask.get_values()):
                raise VerifyException(f"{self.name}: {name} must be an array<i64> of 0s and 1s")


@irdl_op_definition
class SliceOp(IRDLOperation):
    """Slice-8: `input[start:stop:step]` along `axes` (default: 0..n-1).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/slice-8.html
    """

    name = "openvino.slice"

    input = operand_def(TensorLike)
    start = operand_def(TensorLike)
    stop = operand_def(TensorLike)
    step = operand_def(TensorLike)
    axes = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        start: SSAValue,
        stop: SSAValue,
        step: SSAValue,
        axes: SSAValue | None,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[input, start, stop, step, [axes] if axes is not None else []],
            result_types=[result_type],
        )

    def verify_(self) -> None:
        values = (("start", self.start), ("stop", self.stop), ("step", self.step))
        for what, value in (*values, ("axes", self.axes)):
            check_integer_operand(self, value, what)
            check_rank_at_most_one(self, value, what)
        check_same_element_type(self, (self.input, self.result), "input and result")


@irdl_op_definition
class ConcatOp(IRDLOperation):
    """Concat-1 along `axis`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/concat-1.html
    """

    name = "openvino.concat"

    inputs = var_operand_def(TensorLike)
    result = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, inputs: Sequence[SSAValue], result_type: Attribute, axis: int):
        super().__init__(
            operands=[list(inputs)], result_types=[result_type], properties={"axis": i64_attr(axis)}
        )

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"{self.name}: expects at least one input")
        check_same_element_type(self, (*self.inputs, self.result), "inputs and result")
        ranks = {len(s) for v in (*self.inputs, self.result) if (s := tensor_shape(v.type))}
        ranks |= {0 for v in self.inputs if tensor_shape(v.type) == ()}
        if len(ranks) > 1:
            raise VerifyException(f"{self.name}: inputs and result must have one rank")
        axis = self.axis.value.data
        if ranks and not -max(ranks) <= axis < max(ranks):
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank {max(ranks)}")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """Reshape-1 (`special_zero`: a 0 in `shape` copies the input dim).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/reshape-1.html
    """

    name = "openvino.reshape"

    input = operand_def(TensorLike)
    shape = operand_def(TensorLike)
    result = result_def(TensorLike)
    special_zero = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self, input: SSAValue, shape: SSAValue, result_type: Attribute, special_zero: bool
    ):
        super().__init__(
            operands=[input, shape],
            result_types=[result_type],
            properties={"special_zero": bool_attr(special_zero)},
        )

    def verify_(self) -> None:
        check_integer_operand(self, self.shape, "shape")
        check_rank_at_most_one(self, self.shape, "shape")
        check_same_element_type(self, (self.input, self.result), "input and result")


class _AxesShapeOp(IRDLOperation):
    """Base of Squeeze / Unsqueeze: the result has the input's element type."""

    def _verify_axes_op(self, input: SSAValue, axes: SSAValue | None, result: SSAValue) -> None:
        check_integer_operand(self, axes, "axes")
        check_rank_at_most_one(self, axes, "axes")
        check_same_element_type(self, (input, result), "input and result")


@irdl_op_definition
class SqueezeOp(_AxesShapeOp):
    """Squeeze-1 / -15: removes the size-1 dims in `axes` (all of them without `axes`); an
    axis whose dim is statically not 1 is left alone. `allow_axis_skip` (Squeeze-15) makes a
    dynamic dim in `axes` optional: squeezed only when it is 1 at run time (the result's rank
    is then dynamic).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/squeeze-15.html
    """

    name = "openvino.squeeze"

    input = operand_def(TensorLike)
    axes = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    allow_axis_skip = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axes: SSAValue | None, result_type: Attribute,
                 allow_axis_skip: bool = False):
        super().__init__(
            operands=[input, [axes] if axes is not None else []], result_types=[result_type],
            properties={"allow_axis_skip": bool_attr(allow_axis_skip)},
        )

    def verify_(self) -> None:
        self._verify_axes_op(self.input, self.axes, self.result)


@irdl_op_definition
class UnsqueezeOp(_AxesShapeOp):
    """Unsqueeze-1: inserts size-1 dims at `axes`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/unsqueeze-1.html
    """

    name = "openvino.unsqueeze"

    input = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axes: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, axes], result_types=[result_type])

    def verify_(self) -> None:
        self._verify_axes_op(self.input, self.axes, self.result)


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """Transpose-1 (`order` operand; empty `order` reverses the dims).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/transpose-1.html
    """

    name = "openvino.transpose"

    input = operand_def(TensorLike)
    order = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, order: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, order], result_types=[result_type])

    def verify_(self) -> None:
        check_integer_operand(self, self.order, "order")
        check_rank_at_most_one(self, self.order, "order")
        check_same_element_type(self, (self.input, self.result), "input and result")
        in_shape, out_shape = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if in_shape is not None and out_shape is not None and len(in_shape) != len(out_shape):
            raise VerifyException(f"{self.name}: result rank differs from the input rank")


@irdl_op_definition
class ShapeOfOp(IRDLOperation):
    """ShapeOf-1 / ShapeOf-3: the input's shape as a 1-D i64 (or i32) tensor.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/shape-of-3.html
    """

    name = "openvino.shape_of"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        if element_type(self.result.type) not in (i64, IntegerType(32)):
            raise VerifyException(f"{self.name}: result element type must be i64 or i32")
        in_shape, out_shape = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if out_shape is not None and len(out_shape) != 1:
            raise VerifyException(f"{self.name}: result must be 1-D")
        if in_shape is None or out_shape is None:
            return
        if not dims_compatible(out_shape[0], len(in_shape)):
            raise VerifyException(
                f"{self.name}: result has {out_shape[0]} elements for an input of rank "
                f"{len(in_shape)}"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Gather-1/7/8: slices of `input` along `axis` at `indices` (Gather-7 adds
    `batch_dims`; Gather-8 counts negative indices from the end, where OpenVINO's runtime
    gives zeros for the older versions). `version` is set for Gather-1/7 only.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-8.html
    """

    name = "openvino.gather"

    input = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    result = result_def(TensorLike)
    batch_dims = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))
    version = opt_prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        indices: SSAValue,
        axis: SSAValue,
        result_type: Attribute,
        batch_dims: int = 0,
        version: int = 8,
    ):
        properties = {"batch_dims": i64_attr(batch_dims)}
        if version != 8:
            properties["version"] = i64_attr(version)
        super().__init__(
            operands=[input, indices, axis], result_types=[result_type], properties=properties
        )

    @property
    def wraps_negative_indices(self) -> bool:
        """Gather-8 counts negative indices from the end; Gather-1/7 do not."""
        return self.version is None or self.version.value.data >= 8

    def verify_(self) -> None:
        check_integer_operand(self, self.indices, "indices")
        check_integer_operand(self, self.axis, "axis")
        check_rank_at_most_one(self, self.axis, "axis")
        check_same_element_type(self, (self.input, self.result), "input and result")


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """Broadcast-1 / -3 to `target_shape` (`mode` numpy, explicit with `axes_mapping`,
    bidirectional (-3), or pdpd (-1): the input's dims aligned with the target's from
    `pdpd_axis` (-1: right-aligned), a target dim of 1 taking the input's).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/broadcast-3.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/broadcast-1.html
    """

    name = "openvino.broadcast"

    input = operand_def(TensorLike)
    target_shape = operand_def(TensorLike)
    axes_mapping = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    mode = prop_def(StringAttr, default_value=StringAttr("numpy"))
    pdpd_axis = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(-1, i64))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        target_shape: SSAValue,
        axes_mapping: SSAValue | None,
        result_type: Attribute,
        mode: str = "numpy",
        pdpd_axis: int = -1,
    ):
        super().__init__(
            operands=[input, target_shape, [axes_mapping] if axes_mapping is not None else []],
            result_types=[result_type],
            properties={"mode": StringAttr(mode), "pdpd_axis": i64_attr(pdpd_axis)},
        )

    def verify_(self) -> None:
        mode = self.mode.data
        if mode not in BROADCAST_MODES:
            raise VerifyException(
                f"{self.name}: mode must be one of {', '.join(BROADCAST_MODES)}, got '{mode}'"
            )
        if (mode == "explicit") != (self.axes_mapping is not None):
            raise VerifyException(f"{self.name}: axes_mapping is given exactly in explicit mode")
        if self.pdpd_axis.value.data < -1:
            raise VerifyException(f"{self.name}: pdpd_axis must be >= -1, got "
                                  f"{self.pdpd_axis.value.data}")
        check_integer_operand(self, self.target_shape, "target_shape")
        check_rank_at_most_one(self, self.target_shape, "target_shape")
        check_integer_operand(self, self.axes_mapping, "axes_mapping")
        check_same_element_type(self, (self.input, self.result), "input and result")


@irdl_op_definition
class RangeOp(IRDLOperation):
    """Range-4: `start, start + step, ...` up to (not including) `stop`, of `output_type`;
    `ceil((stop - start) / step)` elements (none when that is not positive).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/generation/range-4.html
    """

    name = "openvino.range"

    start = operand_def(TensorLike)
    stop = operand_def(TensorLike)
    step = operand_def(TensorLike)
    result = result_def(TensorLike)
    output_type = prop_def(TypeAttribute)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, start: SSAValue, stop: SSAValue, step: SSAValue, result_type: Attribute):
        super().__init__(
            operands=[start, stop, step],
            result_types=[result_type],
            properties={"output_type": element_type(result_type)},
        )

    def verify_(self) -> None:
        for value, what in ((self.start, "start"), (self.stop, "stop"), (self.step, "step")):
            dims = tensor_shape(value.type)
            if dims is not None and (len(dims) > 1 or (dims and dims[0] not in (1, -1))):
                raise VerifyException(f"{self.name}: {what} must be a scalar, got {value.type}")
        if element_type(self.result.type) != self.output_type:
            raise VerifyException(
                f"{self.name}: result element type {element_type(self.result.type)} differs "
                f"from output_type {self.output_type}"
            )
        dims = tensor_shape(self.result.type)
        if dims is not None and len(dims) != 1:
            raise VerifyException(f"{self.name}: result must be 1-D, got {self.result.type}")


DATA_MOVEMENT_OPS = (
    ConstantOp,
    TileOp,
    PadOp,
    SplitOp,
    VariadicSplitOp,
    StridedSliceOp,
    SliceOp,
    ConcatOp,
    ReshapeOp,
    SqueezeOp,
    UnsqueezeOp,
    TransposeOp,
    ShapeOfOp,
    GatherOp,
    BroadcastOp,
    RangeOp,
)
