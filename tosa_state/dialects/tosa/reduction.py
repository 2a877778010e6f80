"""TOSA 1.0 reduction operators: `tosa.reduce_{all,any,max,min,product,sum}` along one axis,
which keeps its dimension (of size 1).

https://www.mlplatform.org/tosa/tosa_spec.html#_reduction_operators
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import ClassVar

from xdsl.dialects.builtin import (
    I32,
    IntegerAttr,
    TensorType,
    i1,
)
from xdsl.dialects.tosa import NanModeAttr
from xdsl.ir import (
    Attribute,
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.common import (
    ACCUMULATING_TYPES,
    NAN_PROPAGATE,
    NUMERIC_TYPES,
    TosaOperation,
    _check_axis,
    _check_element_type,
    _check_same_element_type,
    _dims,
    _same_shape,
    _shape,
)

# ---------------------------------------------------------------------------------------
# Reductions
# ---------------------------------------------------------------------------------------


class ReductionOperation(TosaOperation):
    """Reduces `input` along `axis`, which stays in the shape with size 1."""

    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = NUMERIC_TYPES

    input = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        axis: int,
        result_type: Attribute | None = None,
        properties: Mapping[str, Attribute] | None = None,
    ):
        if result_type is None:
            in_type = SSAValue.get(input).type
            assert isinstance(in_type, TensorType)
            shape = list(in_type.get_shape())
            shape[axis] = 1
            result_type = TensorType(in_type.element_type, shape)
        super().__init__(
            operands=[input],
            properties={"axis": IntegerAttr(axis, 32), **(properties or {})},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        _check_element_type("input", self.input, self.ELEMENT_TYPES)
        _check_same_element_type(self.input, self.output, "input", "output")
        in_shape, out_shape = _shape(self.input), _shape(self.output)
        axis = self.axis.value.data
        _check_axis(axis, len(in_shape), "reduce")
        if len(out_shape) != len(in_shape):
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({len(in_shape)})"
            )
        if out_shape[axis] != 1:
            raise VerifyException(
                f"expect reduced dimension size to be 1, got {_dims([out_shape[axis]])}"
            )
        expected = (*in_shape[:axis], 1, *in_shape[axis + 1 :])
        if not _same_shape(out_shape, expected):
            raise VerifyException(
                f"expected output shape '{_dims(expected)}', got '{_dims(out_shape)}'"
            )


class NanReductionOperation(ReductionOperation):
    """A reduction with a `nan_mode` (`PROPAGATE`, the default, or `IGNORE`)."""

    nan_mode = opt_prop_def(NanModeAttr, default_value=NAN_PROPAGATE)


@irdl_op_definition
class ReduceAllOp(ReductionOperation):
    """Logical AND along `axis`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_all-mlirtosareduceallop
    """

    name = "tosa.reduce_all"
    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = (i1,)


@irdl_op_definition
class ReduceAnyOp(ReductionOperation):
    """Logical OR along `axis`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_any-mlirtosareduceanyop
    """

    name = "tosa.reduce_any"
    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = (i1,)


@irdl_op_definition
class ReduceMaxOp(NanReductionOperation):
    """Maximum along `axis`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_max-mlirtosareducemaxop
    """

    name = "tosa.reduce_max"


@irdl_op_definition
class ReduceMinOp(NanReductionOperation):
    """Minimum along `axis`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_min-mlirtosareduceminop
    """

    name = "tosa.reduce_min"


@irdl_op_definition
class ReduceProductOp(ReductionOperation):
    """Product along `axis` (f16 / bf16 accumulate in f32).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_product-mlirtosareduceproductop
    """

    name = "tosa.reduce_product"
    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = ACCUMULATING_TYPES


@irdl_op_definition
class ReduceSumOp(ReductionOperation):
    """Sum along `axis` (f16 / bf16 accumulate in f32).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareduce_sum-mlirtosareducesumop
    """

    name = "tosa.reduce_sum"
    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = ACCUMULATING_TYPES
