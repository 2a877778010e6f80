"""MatMul, the reductions, Softmax, LogSoftmax and MVN of the `openvino` dialect."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    BoolAttr,
    DenseArrayBase,
    Float64Type,
    FloatAttr,
    IntegerAttr,
    IntegerType,
    StringAttr,
    f64,
    i64,
)
from xdsl.ir import Attribute, SSAValue
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
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    bool_attr,
    check_integer_operand,
    check_rank_at_most_one,
    check_same_element_type,
    check_same_shape,
    i64_attr,
    tensor_shape,
)


class _SoftmaxLikeOp(IRDLOperation):
    """An op on `input` along `axis` whose result has the input's type."""

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute, axis: int):
        super().__init__(
            operands=[input], result_types=[result_type], properties={"axis": i64_attr(axis)}
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)
        rank = len(tensor_shape(self.input.type) or ())
        axis = self.axis.value.data
        if not -rank <= axis < max(rank, 1):
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank {rank}")


@irdl_op_definition
class SoftmaxOp(_SoftmaxLikeOp):
    """Softmax-1 / Softmax-8 along `axis` (Softmax-8 allows a negative axis).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/softmax-8.html
    """

    name = "openvino.softmax"


@irdl_op_definition
class LogSoftmaxOp(_SoftmaxLikeOp):
    """LogSoftmax-5: `log(softmax(x))` along `axis` (which may be negative).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/log-soft-max-5.html
    """

    name = "openvino.log_softmax"


@irdl_op_definition
class MVNOp(IRDLOperation):
    """MVN-6: `x - mean(x)` over `axes`, divided by `sqrt(var + eps)` (`inside_sqrt`) or
    `sqrt(var) + eps` (`outside_sqrt`) when `normalize_variance`. MVN-1 (opset2) has its
    axes as the property `reduction_axes` (the importer derives them from
    `across_channels`) and `inside_sqrt`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/normalization/mvn-6.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/normalization/mvn-1.html
    """

    name = "openvino.mvn"

    input = operand_def(TensorLike)
    axes = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    normalize_variance = prop_def(BoolAttr)
    eps = prop_def(FloatAttr[Float64Type])
    eps_mode = prop_def(StringAttr)
    reduction_axes = opt_prop_def(DenseArrayBase[I64])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        axes: SSAValue | Sequence[int],
        result_type: Attribute,
        normalize_variance: bool,
        eps: float,
        eps_mode: str,
    ):
        """`axes`: the axes input (MVN-6) or the constant `reduction_axes` (MVN-1)."""
        properties: dict[str, Attribute] = {
            "normalize_variance": bool_attr(normalize_variance),
            "eps": FloatAttr(eps, f64),
            "eps_mode": StringAttr(eps_mode),
        }
        if not isinstance(axes, SSAValue):
            properties["reduction_axes"] = DenseArrayBase.from_list(i64, axes)
        super().__init__(
            operands=[input, [axes] if isinstance(axes, SSAValue) else []],
            result_types=[result_type],
            properties=properties,
        )

    def verify_(self) -> None:
        if (self.axes is None) == (self.reduction_axes is None):
            raise VerifyException(f"{self.name}: takes either the axes operand or the "
                                  "reduction_axes property")
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_same_shape(self, self.input.type, self.result.type)
        check_integer_operand(self, self.axes, "axes")
        check_rank_at_most_one(self, self.axes, "axes")
        if self.eps_mode.data not in ("inside_sqrt", "outside_sqrt"):
            raise VerifyException(
                f"{self.name}: eps_mode must be 'inside_sqrt' or 'outside_sqrt', got "
                f"'{self.eps_mode.data}'"
            )


@irdl_op_definition
class MatMulOp(IRDLOperation):
    """MatMul-1 (numpy matmul, optional transposes of the last two dims).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/matrix/matmul-1.html
    """

    name = "openvino.matmul"

    a = operand_def(TensorLike)
    b = operand_def(TensorLike)
    result = result_def(TensorLike)
    transpose_a = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))
    transpose_b = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        a: SSAValue,
        b: SSAValue,
        result_type: Attribute,
        transpose_a: bool = False,
        transpose_b: bool = False,
    ):
        super().__init__(
            operands=[a, b],
            result_types=[result_type],
            properties={
                "transpose_a": bool_attr(transpose_a),
                "transpose_b": bool_attr(transpose_b),
            },
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.a, self.b, self.result), "operands and result")
        for value in (self.a, self.b):
            shape = tensor_shape(value.type)
            if shape is not None and not shape:
                raise VerifyException(f"{self.name}: operands must have rank >= 1")


class ReduceOp(IRDLOperation):
    """Base of the reductions: `input`, `axes` (integer), `keep_dims`."""

    input = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)
    keep_dims = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self, input: SSAValue, axes: SSAValue, result_type: Attribute, keep_dims: bool = False
    ):
        super().__init__(
            operands=[input, axes],
            result_types=[result_type],
            properties={"keep_dims": bool_attr(keep_dims)},
        )

    def verify_(self) -> None:
        check_same_element_type(self, (self.input, self.result), "input and result")
        check_integer_operand(self, self.axes, "axes")
        check_rank_at_most_one(self, self.axes, "axes")
        in_shape, out_shape = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if in_shape is None or out_shape is None or not self.keep_dims.value.data:
            return
        if len(in_shape) != len(out_shape):
            raise VerifyException(f"{self.name}: keep_dims = true keeps the input rank")


@irdl_op_definition
class ReduceSumOp(ReduceOp):
    """ReduceSum-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/reduction/reduce-sum-1.html
    """

    name = "openvino.reduce_sum"


@irdl_op_definition
class ReduceMeanOp(ReduceOp):
    """ReduceMean-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/reduction/reduce-mean-1.html
    """

    name = "openvino.reduce_mean"


@irdl_op_definition
class ReduceMaxOp(ReduceOp):
    """ReduceMax-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/reduction/reduce-max-1.html
    """

    name = "openvino.reduce_max"


@irdl_op_definition
class ReduceMinOp(ReduceOp):
    """ReduceMin-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/reduction/reduce-min-1.html
    """

    name = "openvino.reduce_min"


@irdl_op_definition
class ReduceProdOp(ReduceOp):
    """ReduceProd-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/reduction/reduce-prod-1.html
    """

    name = "openvino.reduce_prod"


MATRIX_OPS = (
    SoftmaxOp,
    LogSoftmaxOp,
    MVNOp,
    MatMulOp,
    ReduceSumOp,
    ReduceMeanOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProdOp,
)
