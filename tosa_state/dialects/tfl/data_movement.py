"""Data-movement `tfl` ops: constants, RESHAPE, CONCATENATION, GATHER, SLICE, STRIDED_SLICE,
SPLIT, TRANSPOSE.

https://www.tensorflow.org/mlir/tfl_ops
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    BoolAttr,
    DenseIntOrFPElementsAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
)
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import (
    OPERANDS_FORMAT,
    Tensor,
    check_activation,
    check_axis,
    check_integer,
    check_result_shape,
    check_same_element,
    compatible,
    dims,
    fmt,
    i32_attr,
    static,
)


@irdl_op_definition
class PseudoConstOp(IRDLOperation):
    """A constant tensor (a TFLite tensor backed by a buffer)."""

    name = "tfl.pseudo_const"

    value = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(Tensor)

    traits = traits_def(Pure(), ConstantLike())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "attr-dict `:` type($output)"

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(result_types=[value.type], properties={"value": value})

    def verify_(self) -> None:
        if self.value.type != self.output.type:
            raise VerifyException(
                f"{self.name}: value type {self.value.type} differs from result type "
                f"{self.output.type}"
            )


class _SameElementResult(IRDLOperation):
    def _check_element(self, source: SSAValue, result: SSAValue) -> None:
        check_same_element(self, (source, result), "input and result")


@irdl_op_definition
class ReshapeOp(_SameElementResult):
    """RESHAPE: to the result's (static) shape; `shape`, when given, must agree with it."""

    name = "tfl.reshape"

    input = operand_def(Tensor)
    shape = opt_operand_def(Tensor)
    output = result_def(Tensor)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, shape: SSAValue | None, result_type: Attribute):
        super().__init__(operands=[value, shape], result_types=[result_type])

    def verify_(self) -> None:
        self._check_element(self.input, self.output)
        if self.shape is not None:
            check_integer(self, self.shape, "shape")
        shapes = dims(self.input), dims(self.output)
        if static(shapes[0]) and static(shapes[1]) and math.prod(shapes[0]) != math.prod(shapes[1]):
            raise VerifyException(
                f"{self.name}: cannot reshape {fmt(dims(self.input))} to {fmt(dims(self.output))}"
            )


@irdl_op_definition
class ConcatenationOp(IRDLOperation):
    """CONCATENATION along `axis` (negative counts from the end), with a fused activation."""

    name = "tfl.concatenation"

    values = var_operand_def(Tensor)
    output = result_def(Tensor)
    axis = prop_def(IntegerAttr[IntegerType])
    fused_activation_function = prop_def(StringAttr, default_value=StringAttr("NONE"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, values: Sequence[SSAValue], result_type: Attribute, axis: int,
                 activation: str = "NONE"):
        super().__init__(operands=[list(values)], result_types=[result_type],
                         properties={"axis": i32_attr(axis),
                                     "fused_activation_function": StringAttr(activation)})

    def verify_(self) -> None:
        check_activation(self, self.fused_activation_function)
        if not self.values:
            raise VerifyException(f"{self.name}: expects at least one value")
        check_same_element(self, (*self.values, self.output), "values and result")
        shapes = [dims(v) for v in self.values]
        rank = len(shapes[0])
        axis = check_axis(self, self.axis.value.data, rank)
        for shape in shapes:
            if len(shape) != rank or not compatible(
                [d for i, d in enumerate(shape) if i != axis],
                [d for i, d in enumerate(shapes[0]) if i != axis],
            ):
                raise VerifyException(
                    f"{self.name}: cannot concatenate {fmt(shapes[0])} and {fmt(shape)} "
                    f"along axis {axis}"
                )
        expected = list(shapes[0])
        along = [s[axis] for s in shapes]
        expected[axis] = sum(along) if static(along) else DYNAMIC_INDEX
        check_result_shape(self, self.output, expected)


@irdl_op_definition
class GatherOp(_SameElementResult):
    """GATHER of `params` at `indices` along `axis` (`batch_dims` leading dims shared)."""

    name = "tfl.gather"

    params = operand_def(Tensor)
    indices = operand_def(Tensor)
    output = result_def(Tensor)
    axis = prop_def(IntegerAttr[IntegerType])
    batch_dims = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, params: SSAValue, indices: SSAValue, result_type: Attribute, axis: int,
                 batch_dims: int = 0):
        super().__init__(operands=[params, indices], result_types=[result_type],
                         properties={"axis": i32_attr(axis), "batch_dims": i32_attr(batch_dims)})

    def verify_(self) -> None:
        self._check_element(self.params, self.output)
        check_integer(self, self.indices, "indices", max_rank=8)
        params, indices = dims(self.params), dims(self.indices)
        axis = check_axis(self, self.axis.value.data, len(params))
        batch = self.batch_dims.value.data
        if batch < 0:
            batch += len(indices)
        if not 0 <= batch <= min(axis, len(indices)) or not compatible(params[:batch],
                                                                        indices[:batch]):
            raise VerifyException(f"{self.name}: batch_dims {batch} does not fit the operands")
        check_result_shape(
            self, self.output, (*params[:axis], *indices[batch:], *params[axis + 1 :])
        )


@irdl_op_definition
class SliceOp(_SameElementResult):
    """SLICE: `size` elements from `begin` in each dim (-1: up to the end)."""

    name = "tfl.slice"

    input = operand_def(Tensor)
    begin = operand_def(Tensor)
    size = operand_def(Tensor)
    output = result_def(Tensor)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, begin: SSAValue, size: SSAValue, result_type: Attribute):
        super().__init__(operands=[value, begin, size], result_types=[result_type])

    def verify_(self) -> None:
        self._check_element(self.input, self.output)
        rank = len(dims(self.input))
        for what, value in (("begin", self.begin), ("size", self.size)):
            check_integer(self, value, what)
            if dims(value) != (rank,):
                raise VerifyException(f"{self.name}: {what} must have shape [{rank}]")
        if len(dims(self.output)) != rank:
            raise VerifyException(f"{self.name}: result must have rank {rank}")


MASKS = ("begin_mask", "end_mask", "ellipsis_mask", "new_axis_mask", "shrink_axis_mask")


@irdl_op_definition
class StridedSliceOp(_SameElementResult):
    """STRIDED_SLICE with TensorFlow's masks (`offset`: `end` is relative to `begin`)."""

    name = "tfl.strided_slice"

    input = operand_def(Tensor)
    begin = operand_def(Tensor)
    end = operand_def(Tensor)
    strides = operand_def(Tensor)
    output = result_def(Tensor)
    begin_mask = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    end_mask = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    ellipsis_mask = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    new_axis_mask = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    shrink_axis_mask = prop_def(IntegerAttr[IntegerType], default_value=i32_attr(0))
    offset = prop_def(BoolAttr, default_value=BoolAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, operands: Sequence[SSAValue], result_type: Attribute,
                 masks: dict[str, int], offset: bool = False):
        properties: dict[str, Attribute] = {k: i32_attr(masks.get(k, 0)) for k in MASKS}
        properties["offset"] = BoolAttr.from_bool(offset)
        super().__init__(operands=list(operands), result_types=[result_type],
                         properties=properties)

    def mask(self, name: str) -> int:
        attr = getattr(self, name)
        assert isinstance(attr, IntegerAttr)
        return attr.value.data

    def verify_(self) -> None:
        self._check_element(self.input, self.output)
        lengths = set()
        for what in ("begin", "end", "strides"):
            value = getattr(self, what)
            check_integer(self, value, what)
            lengths.add(dims(value)[0] if dims(value) else 1)
        if len(lengths) != 1:
            raise VerifyException(f"{self.name}: begin, end and strides must have one length")
        for name in MASKS:
            if self.mask(name) < 0:
                raise VerifyException(f"{self.name}: {name} must not be negative")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """SPLIT of `value` into `num_splits` equal parts along the constant `split_dim`."""

    name = "tfl.split"

    split_dim = operand_def(Tensor)
    value = operand_def(Tensor)
    outputs = var_result_def(Tensor)
    num_splits = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, split_dim: SSAValue, value: SSAValue, result_types: Sequence[Attribute]):
        super().__init__(operands=[split_dim, value], result_types=[list(result_types)],
                         properties={"num_splits": i32_attr(len(result_types))})

    def verify_(self) -> None:
        check_integer(self, self.split_dim, "split_dim", max_rank=1)
        count = self.num_splits.value.data
        if count < 1 or count != len(self.outputs):
            raise VerifyException(
                f"{self.name}: num_splits is {count} but there are {len(self.outputs)} results"
            )
        check_same_element(self, (self.value, *self.outputs), "value and results")
        ranks = {len(dims(r)) for r in self.outputs}
        if ranks != {len(dims(self.value))}:
            raise VerifyException(f"{self.name}: results must have the rank of the value")


@irdl_op_definition
class UnpackOp(IRDLOperation):
    """UNPACK (unstack) `value` into its `num` slices along `axis`, that dim removed."""

    name = "tfl.unpack"

    value = operand_def(Tensor)
    outputs = var_result_def(Tensor)
    num = prop_def(IntegerAttr[IntegerType])
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, result_types: Sequence[Attribute], axis: int):
        super().__init__(operands=[value], result_types=[list(result_types)],
                         properties={"num": i32_attr(len(result_types)),
                                     "axis": i32_attr(axis)})

    def verify_(self) -> None:
        shape = dims(self.value)
        axis = check_axis(self, self.axis.value.data, len(shape))
        count = self.num.value.data
        if count != len(self.outputs) or (static(shape) and shape[axis] != count):
            raise VerifyException(f"{self.name}: num is {count}, there are "
                                  f"{len(self.outputs)} results and dim {axis} of "
                                  f"{fmt(shape)} to unpack")
        check_same_element(self, (self.value, *self.outputs), "value and results")
        expected = (*shape[:axis], *shape[axis + 1:])
        for result in self.outputs:
            check_result_shape(self, result, expected)


@irdl_op_definition
class TransposeOp(_SameElementResult):
    """TRANSPOSE by the permutation `perm`."""

    name = "tfl.transpose"

    input = operand_def(Tensor)
    perm = operand_def(Tensor)
    output = result_def(Tensor)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, perm: SSAValue, result_type: Attribute):
        super().__init__(operands=[value, perm], result_types=[result_type])

    def verify_(self) -> None:
        self._check_element(self.input, self.output)
        check_integer(self, self.perm, "perm")
        rank = len(dims(self.input))
        if dims(self.perm) != (rank,) or len(dims(self.output)) != rank:
            raise VerifyException(
                f"{self.name}: perm {fmt(dims(self.perm))} and result "
                f"{fmt(dims(self.output))} do not permute {fmt(dims(self.input))}"
            )


DATA_MOVEMENT_OPS = (
    PseudoConstOp,
    ReshapeOp,
    ConcatenationOp,
    GatherOp,
    SliceOp,
    StridedSliceOp,
    SplitOp,
    UnpackOp,
    TransposeOp,
)
