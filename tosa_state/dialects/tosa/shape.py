"""TOSA shape operators (the dynamic-shape extension): shapes computed at run time.

`tosa.dim` reads one dimension of a tensor as a `!tosa.shape<1>`; `tosa.concat_shape`
joins shapes; `tosa.add_shape` / `sub_shape` / `mul_shape` / `div_floor_shape` /
`max_shape` / `min_shape` combine two shapes of one rank element by element;
`tosa.shape_from_tensor` (a tosa-state extension: neither TOSA 1.0 nor upstream MLIR has
it) reads the values of a small integer tensor as a shape, for sizes computed from data. Their
results feed the shape operands of `tosa.reshape`, `tosa.slice`, `tosa.tile` and
`tosa.pad`, whose dimensions are then `?` in the result type.

Upstream MLIR: `mlir/include/mlir/Dialect/Tosa/IR/TosaShapeOps.td`
(https://mlir.llvm.org/docs/Dialects/TOSA/#tosadim-mlirtosadimop); `iree-opt` parses the
generic form printed here.
"""

from __future__ import annotations

from xdsl.dialects.builtin import I32, IntegerAttr, IntegerType, TensorType, i32
from xdsl.ir import Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.tensor import ShapeType, TosaOperation


def _rank(value: SSAValue) -> int:
    value_type = value.type
    assert isinstance(value_type, ShapeType)
    return value_type.rank


@irdl_op_definition
class DimOp(TosaOperation):
    """Dimension `axis` of `input1` (known at run time) as a `!tosa.shape<1>`.

    ```mlir
    %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
    ```
    """

    name = "tosa.dim"

    input1 = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    output = result_def(ShapeType)

    traits = traits_def(Pure())

    def __init__(self, input1: SSAValue | Operation, axis: int):
        super().__init__(
            operands=[input1],
            properties={"axis": IntegerAttr(axis, i32)},
            result_types=[ShapeType(1)],
        )

    def verify_(self) -> None:
        input_type = self.input1.type
        assert isinstance(input_type, TensorType)
        rank = input_type.get_num_dims()
        axis = self.axis.value.data
        if not 0 <= axis < rank:
            raise VerifyException(f"axis {axis} is out of range for a tensor of rank {rank}")
        if _rank(self.output) != 1:
            raise VerifyException(f"expect a '!tosa.shape<1>' result, got '{self.output.type}'")


@irdl_op_definition
class ShapeFromTensorOp(TosaOperation):
    """The values of the 1-D integer tensor `input1` (computed at run time) as a
    `!tosa.shape<N>`, N its static length: sizes, bounds or amounts computed from data
    (Mamba's pad `(4 - T) * (cache_length == 4)`, a mixture-of-experts router's counts).

    A tosa-state extension (TOSA 1.0 has no op from data to shapes); `tosa-lower-shape-ops`
    lowers it to `tensor.extract` + `arith.index_cast`.

    ```mlir
    %s = tosa.shape_from_tensor %t : (tensor<2xi64>) -> !tosa.shape<2>
    ```
    """

    name = "tosa.shape_from_tensor"

    input1 = operand_def(TensorType)
    output = result_def(ShapeType)

    traits = traits_def(Pure())

    def __init__(self, input1: SSAValue):
        input_type = input1.type
        assert isinstance(input_type, TensorType)
        super().__init__(operands=[input1],
                         result_types=[ShapeType(max(input_type.get_shape()[0], 0))])

    def verify_(self) -> None:
        input_type = self.input1.type
        assert isinstance(input_type, TensorType)
        if (input_type.get_num_dims() != 1 or not input_type.has_static_shape()
                or not isinstance(input_type.element_type, IntegerType)
                or input_type.element_type.width.data < 8):
            raise VerifyException(
                f"expect a 1-D integer tensor of static length, got '{input_type}'")
        if input_type.get_shape()[0] != _rank(self.output):
            raise VerifyException(
                f"expect a '!tosa.shape<{input_type.get_shape()[0]}>' result, got "
                f"'{self.output.type}'")


@irdl_op_definition
class ConcatShapeOp(TosaOperation):
    """The shapes `input1...` one after the other.

    ```mlir
    %s = tosa.concat_shape %a, %b : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
    ```
    """

    name = "tosa.concat_shape"

    input1 = var_operand_def(ShapeType)
    output = result_def(ShapeType)

    traits = traits_def(Pure())

    def __init__(self, inputs: list[SSAValue]):
        rank = sum(_rank(v) for v in inputs)
        super().__init__(operands=[inputs], result_types=[ShapeType(rank)])

    def verify_(self) -> None:
        total = sum(_rank(v) for v in self.input1)
        if total != _rank(self.output):
            raise VerifyException(
                f"expect the result rank ({_rank(self.output)}) to be the sum of the input "
                f"ranks ({total})"
            )


class ShapeBinaryOperation(TosaOperation):
    """`output[i] = f(input1[i], input2[i])` on two shapes of one rank."""

    input1 = operand_def(ShapeType)
    input2 = operand_def(ShapeType)
    output = result_def(ShapeType)

    traits = traits_def(Pure())

    def __init__(self, input1: SSAValue, input2: SSAValue):
        super().__init__(operands=[input1, input2], result_types=[input1.type])

    def verify_(self) -> None:
        ranks = {_rank(self.input1), _rank(self.input2), _rank(self.output)}
        if len(ranks) != 1:
            raise VerifyException(
                f"expect the inputs and the result to have one rank, got '{self.input1.type}', "
                f"'{self.input2.type}' and '{self.output.type}'"
            )


@irdl_op_definition
class AddShapeOp(ShapeBinaryOperation):
    name = "tosa.add_shape"


@irdl_op_definition
class SubShapeOp(ShapeBinaryOperation):
    name = "tosa.sub_shape"


@irdl_op_definition
class MulShapeOp(ShapeBinaryOperation):
    name = "tosa.mul_shape"


@irdl_op_definition
class DivFloorShapeOp(ShapeBinaryOperation):
    name = "tosa.div_floor_shape"


@irdl_op_definition
class MaxShapeOp(ShapeBinaryOperation):
    name = "tosa.max_shape"


@irdl_op_definition
class MinShapeOp(ShapeBinaryOperation):
    name = "tosa.min_shape"


SHAPE_OPS: list[type[IRDLOperation]] = [
    DimOp,
    ShapeFromTensorOp,
    ConcatShapeOp,
    AddShapeOp,
    SubShapeOp,
    MulShapeOp,
    DivFloorShapeOp,
    MaxShapeOp,
    MinShapeOp,
]

__all__ = [
    "SHAPE_OPS",
    "AddShapeOp",
    "ConcatShapeOp",
    "DimOp",
    "DivFloorShapeOp",
    "MaxShapeOp",
    "MinShapeOp",
    "MulShapeOp",
    "ShapeBinaryOperation",
    "ShapeFromTensorOp",
    "SubShapeOp",
]
