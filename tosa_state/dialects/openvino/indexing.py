"""Index-driven data-movement `openvino` ops: Roll, GatherND, GatherElements, NonZero."""

from __future__ import annotations

from xdsl.dialects.builtin import DYNAMIC_INDEX, IntegerAttr, IntegerType, i32, i64
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
    check_integer_operand,
    check_rank_at_most_one,
    check_same_element_type,
    check_same_shape,
    element_type,
    format_shape,
    i64_attr,
    shapes_compatible,
    tensor_shape,
)


@irdl_op_definition
class RollOp(IRDLOperation):
    """Roll-7: shifts `data` cyclically by `shift[i]` along `axes[i]` (0-D or 1-D integer
    inputs; one shift for all axes, or one per axis; negative axes count from the end).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/roll-7.html
    """

    name = "openvino.roll"

    input = operand_def(TensorLike)
    shift = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, shift: SSAValue, axes: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, shift, axes], result_types=[result_type])

    def verify_(self) -> None:
        for value, what in ((self.shift, "shift"), (self.axes, "axes")):
            check_integer_operand(self, value, what)
            check_rank_at_most_one(self, value, what)
        shift, axes = tensor_shape(self.shift.type), tensor_shape(self.axes.type)
        if shift and axes is not None and shift[0] not in (1, DYNAMIC_INDEX):
            count = 1 if axes == () else axes[0]
            if count not in (shift[0], DYNAMIC_INDEX):
                raise VerifyException(
                    f"{self.name}: shift has {shift[0]} elements but axes has {count}"
                )
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class GatherNDOp(IRDLOperation):
    """GatherND-5 / -8: the elements or slices of `data` at the index tuples of `indices`
    (last dim k), per batch of the first `batch_dims` dims (GatherND-5 folds the batch dims
    of the result into one; -8 keeps them).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-nd-8.html
    """

    name = "openvino.gather_nd"

    input = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    result = result_def(TensorLike)
    batch_dims = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, indices: SSAValue, result_type: Attribute,
                 batch_dims: int = 0):
        super().__init__(operands=[input, indices], result_types=[result_type],
                         properties={"batch_dims": i64_attr(batch_dims)})

    def verify_(self) -> None:
        check_integer_operand(self, self.indices, "indices")
        check_same_element_type(self, (self.input, self.result), "input and result")
        data, indices = tensor_shape(self.input.type), tensor_shape(self.indices.type)
        if data is None or indices is None:
            return
        batch = self.batch_dims.value.data
        if not 0 <= batch < min(len(data), len(indices)):
            raise VerifyException(f"{self.name}: batch_dims {batch} must be in [0, "
                                  f"{min(len(data), len(indices))})")
        if not shapes_compatible(data[:batch], indices[:batch]):
            raise VerifyException(f"{self.name}: the batch dims of data {format_shape(data)} "
                                  f"and indices {format_shape(indices)} differ")
        if indices[-1] != DYNAMIC_INDEX and indices[-1] > len(data) - batch:
            raise VerifyException(f"{self.name}: index tuples of {indices[-1]} elements for "
                                  f"{len(data) - batch} non-batch dims of data")


@irdl_op_definition
class GatherElementsOp(IRDLOperation):
    """GatherElements-6: `out[i] = data[i with its axis coordinate replaced by indices[i]]`
    (negative indices count from the end).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-elements-6.html
    """

    name = "openvino.gather_elements"

    input = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    result = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, indices: SSAValue, result_type: Attribute, axis: int):
        super().__init__(operands=[input, indices], result_types=[result_type],
                         properties={"axis": i64_attr(axis)})

    def verify_(self) -> None:
        check_integer_operand(self, self.indices, "indices")
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.indices.type, self.result.type)
        data, indices = tensor_shape(self.input.type), tensor_shape(self.indices.type)
        if data is None or indices is None:
            return
        if len(data) != len(indices):
            raise VerifyException(f"{self.name}: indices must have the rank of data "
                                  f"({len(data)}), got {len(indices)}")
        axis = self.axis.value.data
        if not -len(data) <= axis < len(data):
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank "
                                  f"{len(data)}")


@irdl_op_definition
class NonZeroOp(IRDLOperation):
    """NonZero-3: the coordinates of the non-zero elements of `input`, as [rank, count]
    (i32 or i64), in row-major order.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/condition/nonzero-3.html
    """

    name = "openvino.non_zero"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        if element_type(self.result.type) not in (i32, i64):
            raise VerifyException(f"{self.name}: result must be i32 or i64, got "
                                  f"{self.result.type}")
        data, result = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if result is not None and (len(result) != 2 or (
                data is not None and result[0] not in (len(data), DYNAMIC_INDEX))):
            rank = "the input rank" if data is None else len(data)
            raise VerifyException(f"{self.name}: result must have shape [{rank},?], got "
                                  f"{format_shape(result)}")


INDEXING_OPS = (RollOp, GatherNDOp, GatherElementsOp, NonZeroOp)
