"""Convolution, GroupConvolution, MaxPool and AvgPool of the `openvino` dialect."""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import I64, BoolAttr, DenseArrayBase, IntegerAttr, StringAttr, i64
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_result_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_same_element_type,
    tensor_shape,
)

AUTO_PADS = ("explicit", "valid", "same_upper", "same_lower")
"""Convolution-1's `auto_pad` values (`notset` in older IR means `explicit`)."""


def _check_window_properties(
    op: ConvolutionBase | PoolBase,
    spatial: int,
    extents: Sequence[tuple[str, DenseArrayBase, int]],
) -> None:
    """`extents` (name, values, lowest value) and the pads each hold one value per spatial
    dim; `auto_pad` is one of `AUTO_PADS`."""
    for what, values, low in (*extents, ("pads_begin", op.pads_begin, 0),
                              ("pads_end", op.pads_end, 0)):
        numbers = values.get_values()
        if len(numbers) != spatial or any(v < low for v in numbers):
            raise VerifyException(
                f"{op.name}: {what} must hold {spatial} values >= {low}, got {list(numbers)}"
            )
    if op.auto_pad.data not in AUTO_PADS:
        raise VerifyException(
            f"{op.name}: auto_pad must be one of {', '.join(AUTO_PADS)}, got "
            f"'{op.auto_pad.data}'"
        )


class ConvolutionBase(IRDLOperation):
    """Base of Convolution-1 and GroupConvolution-1: `input [N, C_IN, spatial...]`,
    a `filter`, `strides`, `dilations`, `pads_begin` / `pads_end` and `auto_pad`."""

    input = operand_def(TensorLike)
    filter = operand_def(TensorLike)
    result = result_def(TensorLike)
    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads_begin = prop_def(DenseArrayBase[I64])
    pads_end = prop_def(DenseArrayBase[I64])
    auto_pad = prop_def(StringAttr, default_value=StringAttr("explicit"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    FILTER_EXTRA_DIMS: ClassVar[int] = 0
    """Filter rank minus input rank (GroupConvolution's filter has a leading group dim)."""

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        result_type: Attribute,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        auto_pad: str = "explicit",
    ):
        super().__init__(
            operands=[input, filter],
            result_types=[result_type],
            properties={
                "strides": DenseArrayBase.from_list(i64, strides),
                "dilations": DenseArrayBase.from_list(i64, dilations),
                "pads_begin": DenseArrayBase.from_list(i64, pads_begin),
                "pads_end": DenseArrayBase.from_list(i64, pads_end),
                "auto_pad": StringAttr(auto_pad),
            },
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.filter, self.result),
                                 "input, filter and result")
        in_shape, filter_shape = tensor_shape(self.input.type), tensor_shape(self.filter.type)
        if in_shape is None or filter_shape is None:
            return
        spatial = len(in_shape) - 2
        if spatial < 1 or len(filter_shape) != len(in_shape) + self.FILTER_EXTRA_DIMS:
            raise VerifyException(
                f"{self.name}: input rank {len(in_shape)} (at least 3) and filter rank "
                f"{len(filter_shape)} do not fit (the filter has "
                f"{len(in_shape) + self.FILTER_EXTRA_DIMS} dims)"
            )
        _check_window_properties(self, spatial, (("strides", self.strides, 1),
                                                 ("dilations", self.dilations, 1)))
        groups = filter_shape[0] if self.FILTER_EXTRA_DIMS else 1
        per_group = filter_shape[1 + self.FILTER_EXTRA_DIMS]
        if -1 not in (in_shape[1], per_group, groups) and in_shape[1] != per_group * groups:
            raise VerifyException(
                f"{self.name}: input channels ({in_shape[1]}) differ from the filter's "
                f"({groups} group(s) of {per_group})"
            )


@irdl_op_definition
class ConvolutionOp(ConvolutionBase):
    """Convolution-1 by `filter [C_OUT, C_IN, kernel...]` (1-D to 3-D).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/convolution/convolution-1.html
    """

    name = "openvino.convolution"


@irdl_op_definition
class GroupConvolutionOp(ConvolutionBase):
    """GroupConvolution-1 by `filter [GROUPS, C_OUT / GROUPS, C_IN / GROUPS, kernel...]`:
    each group of input channels is convolved by its own filters (depthwise when
    `C_IN / GROUPS` is 1).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/convolution/group-convolution-1.html
    """

    name = "openvino.group_convolution"
    FILTER_EXTRA_DIMS: ClassVar[int] = 1


ROUNDING_TYPES = ("floor", "ceil", "ceil_torch")
"""MaxPool / AvgPool `rounding_type` values (`ceil_torch`: MaxPool-14, AvgPool-14 / -16)."""


class PoolBase(IRDLOperation):
    """Base of MaxPool and AvgPool over `input [N, C, spatial...]`: windows of `kernel`,
    moved by `strides`, over the input padded by `pads_begin` / `pads_end` (or `auto_pad`);
    `rounding_type` rounds the output size down (`floor`) or up (`ceil`; `ceil_torch` as
    PyTorch: without a last window that starts in the end padding)."""

    input = operand_def(TensorLike)
    kernel = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    pads_begin = prop_def(DenseArrayBase[I64])
    pads_end = prop_def(DenseArrayBase[I64])
    rounding_type = prop_def(StringAttr, default_value=StringAttr("floor"))
    auto_pad = prop_def(StringAttr, default_value=StringAttr("explicit"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.results[0]), "input and output")
        in_shape = tensor_shape(self.input.type)
        if in_shape is None:
            return
        spatial = len(in_shape) - 2
        if spatial < 1:
            raise VerifyException(f"{self.name}: input rank {len(in_shape)} must be at least 3")
        _check_window_properties(self, spatial, (("kernel", self.kernel, 1),
                                                 ("strides", self.strides, 1)))
        if self.rounding_type.data not in ROUNDING_TYPES:
            raise VerifyException(
                f"{self.name}: rounding_type must be floor, ceil or ceil_torch, got "
                f"'{self.rounding_type.data}'"
            )

    @staticmethod
    def _properties(kernel: Sequence[int], strides: Sequence[int], pads_begin: Sequence[int],
                    pads_end: Sequence[int], rounding_type: str, auto_pad: str
                    ) -> dict[str, Attribute]:
        return {
            "kernel": DenseArrayBase.from_list(i64, kernel),
            "strides": DenseArrayBase.from_list(i64, strides),
            "pads_begin": DenseArrayBase.from_list(i64, pads_begin),
            "pads_end": DenseArrayBase.from_list(i64, pads_end),
            "rounding_type": StringAttr(rounding_type),
            "auto_pad": StringAttr(auto_pad),
        }


@irdl_op_definition
class MaxPoolOp(PoolBase):
    """MaxPool-1 / MaxPool-8: the maximum of each window (MaxPool-8 also has `dilations`
    and a second output, the indices of the maxima).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/pooling/max-pool-8.html
    """

    name = "openvino.max_pool"

    output = result_def(TensorLike)  # (declared here: IRDL lists a subclass's fields first)
    indices = var_result_def(TensorLike)
    dilations = opt_prop_def(DenseArrayBase[I64])

    def __init__(self, input: SSAValue, result_types: Sequence[Attribute],
                 kernel: Sequence[int], strides: Sequence[int], pads_begin: Sequence[int],
                 pads_end: Sequence[int], rounding_type: str = "floor",
                 auto_pad: str = "explicit", dilations: Sequence[int] | None = None):
        properties = self._properties(kernel, strides, pads_begin, pads_end, rounding_type,
                                      auto_pad)
        if dilations is not None:
            properties["dilations"] = DenseArrayBase.from_list(i64, dilations)
        super().__init__(operands=[input], result_types=[result_types[0],
                                                         list(result_types[1:])],
                         properties=properties)


@irdl_op_definition
class AvgPoolOp(PoolBase):
    """AvgPool-1 / -14 / -16: the mean of each window; `exclude_pad` leaves the padding out
    of the count (AvgPool-16 also has `dilations`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/pooling/avg-pool-1.html
    """

    name = "openvino.avg_pool"

    output = result_def(TensorLike)
    exclude_pad = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    dilations = opt_prop_def(DenseArrayBase[I64])

    def __init__(self, input: SSAValue, result_type: Attribute, kernel: Sequence[int],
                 strides: Sequence[int], pads_begin: Sequence[int], pads_end: Sequence[int],
                 exclude_pad: bool, rounding_type: str = "floor", auto_pad: str = "explicit",
                 dilations: Sequence[int] | None = None):
        properties = self._properties(kernel, strides, pads_begin, pads_end, rounding_type,
                                      auto_pad)
        properties["exclude_pad"] = bool_attr(exclude_pad)
        if dilations is not None:
            properties["dilations"] = DenseArrayBase.from_list(i64, dilations)
        super().__init__(operands=[input], result_types=[result_type], properties=properties)


CONVOLUTION_OPS = (
    ConvolutionOp,
    GroupConvolutionOp,
    MaxPoolOp,
    AvgPoolOp,
)
