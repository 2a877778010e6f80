"""Scatter `openvino` ops: ScatterUpdate, ScatterNDUpdate, ScatterElementsUpdate."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_integer_operand,
    check_same_element_type,
    check_same_shape,
    format_shape,
    shapes_compatible,
    tensor_shape,
)

ND_REDUCTIONS = ("none", "sum", "sub", "prod", "min", "max")
"""ScatterNDUpdate-15's `reduction` values (ScatterNDUpdate-3 is `none`)."""

ELEMENTS_REDUCTIONS = ("none", "sum", "prod", "min", "max", "mean")
"""ScatterElementsUpdate-12's `reduction` values (ScatterElementsUpdate-3 is `none`)."""


class ScatterBase(IRDLOperation):
    """What the scatter ops share: `data` and the result have one type; `indices` are
    integers; `updates` have the element type of `data`. (Each op declares its operands
    itself, in OpenVINO's port order.)"""

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def verify_(self) -> None:
        check_integer_operand(self, self.indices, "indices")
        check_same_element_type(self, (self.data, self.updates, self.result),
                                "data, updates and result")
        check_same_shape(self, self.data.type, self.result.type)

    def _check_updates_shape(self, expected: tuple[int, ...] | None) -> None:
        found = tensor_shape(self.updates.type)
        if not shapes_compatible(found, expected):
            raise VerifyException(
                f"{self.name}: updates must have shape {format_shape(expected)}, got "
                f"{format_shape(found)}"
            )

    def _check_axis(self, axis: SSAValue) -> None:
        check_integer_operand(self, axis, "axis")
        if tensor_shape(axis.type) not in (None, (), (1,)):
            raise VerifyException(f"{self.name}: axis must be a scalar, got {axis.type}")


@irdl_op_definition
class ScatterUpdateOp(ScatterBase):
    """ScatterUpdate-3: `data` with the slices `data[..., indices[j...], ...]` along `axis`
    replaced by `updates[..., j..., ...]` (negative indices count from the end).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/scatter-update-3.html
    """

    name = "openvino.scatter_update"

    data = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    updates = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    result = result_def(TensorLike)

    def __init__(self, data: SSAValue, indices: SSAValue, updates: SSAValue, axis: SSAValue,
                 result_type: Attribute):
        super().__init__(operands=[data, indices, updates, axis], result_types=[result_type])

    def verify_(self) -> None:
        super().verify_()
        self._check_axis(self.axis)
        data, indices = tensor_shape(self.data.type), tensor_shape(self.indices.type)
        updates = tensor_shape(self.updates.type)
        if None not in (data, indices, updates) and len(updates) != len(data) - 1 + len(indices):
            raise VerifyException(
                f"{self.name}: updates must have rank {len(data) - 1 + len(indices)} (data rank "
                f"- 1 + indices rank), got {len(updates)}"
            )


@irdl_op_definition
class ScatterNDUpdateOp(ScatterBase):
    """ScatterNDUpdate-3 / -15: `data` with the elements or slices at the index tuples of
    `indices` (last dim k) set to, or reduced (`reduction`) with, `updates` of shape
    `indices.shape[:-1] + data.shape[k:]`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/scatter-nd-update-15.html
    """

    name = "openvino.scatter_nd_update"

    data = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    updates = operand_def(TensorLike)
    result = result_def(TensorLike)
    reduction = prop_def(StringAttr, default_value=StringAttr("none"))
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, data: SSAValue, indices: SSAValue, updates: SSAValue,
                 result_type: Attribute, reduction: str = "none"):
        super().__init__(operands=[data, indices, updates], result_types=[result_type],
                         properties={"reduction": StringAttr(reduction)})

    def verify_(self) -> None:
        super().verify_()
        if self.reduction.data not in ND_REDUCTIONS:
            raise VerifyException(f"{self.name}: reduction must be one of "
                                  f"{', '.join(ND_REDUCTIONS)}, got '{self.reduction.data}'")
        data, indices = tensor_shape(self.data.type), tensor_shape(self.indices.type)
        if indices == ():
            raise VerifyException(f"{self.name}: indices must have rank >= 1")
        if data is None or indices is None or indices[-1] < 0:
            return
        if indices[-1] > len(data):
            raise VerifyException(f"{self.name}: index tuples of {indices[-1]} elements for "
                                  f"data of rank {len(data)}")
        self._check_updates_shape((*indices[:-1], *data[indices[-1]:]))


@irdl_op_definition
class ScatterElementsUpdateOp(ScatterBase):
    """ScatterElementsUpdate-3 / -12: each element of `updates` written to (or reduced with)
    the element of `data` at its own position, `indices` at the same position giving the
    coordinate along `axis`. `use_init_val` false leaves `data` out of the reductions.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/scatter-elements-update-12.html
    """

    name = "openvino.scatter_elements_update"

    data = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    updates = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    result = result_def(TensorLike)
    reduction = prop_def(StringAttr, default_value=StringAttr("none"))
    use_init_val = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(True))
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, data: SSAValue, indices: SSAValue, updates: SSAValue, axis: SSAValue,
                 result_type: Attribute, reduction: str = "none", use_init_val: bool = True):
        super().__init__(
            operands=[data, indices, updates, axis],
            result_types=[result_type],
            properties={"reduction": StringAttr(reduction),
                        "use_init_val": bool_attr(use_init_val)},
        )

    def verify_(self) -> None:
        super().verify_()
        self._check_axis(self.axis)
        if self.reduction.data not in ELEMENTS_REDUCTIONS:
            raise VerifyException(f"{self.name}: reduction must be one of "
                                  f"{', '.join(ELEMENTS_REDUCTIONS)}, got '{self.reduction.data}'")
        data, indices = tensor_shape(self.data.type), tensor_shape(self.indices.type)
        if data is not None and indices is not None and len(data) != len(indices):
            raise VerifyException(f"{self.name}: indices must have the rank of data "
                                  f"({len(data)}), got {len(indices)}")
        self._check_updates_shape(indices)


SCATTER_OPS = (ScatterUpdateOp, ScatterNDUpdateOp, ScatterElementsUpdateOp)
