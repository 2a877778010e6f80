"""Sorting `openvino` ops: TopK."""

from __future__ import annotations

from xdsl.dialects.builtin import BoolAttr, IntegerAttr, IntegerType, StringAttr, i32, i64
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
    element_type,
    i64_attr,
    tensor_shape,
)

TOPK_MODES = ("max", "min")
TOPK_SORTS = ("value", "index", "none")


@irdl_op_definition
class TopKOp(IRDLOperation):
    """TopK-1 / -3 / -11: the `k` largest (`mode = max`) or smallest elements along `axis`
    and their indices, ordered by value (`sort = value`; `none` too) or by index (`index`).
    `stable` (TopK-11) puts equal values in index order.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sort/top-k-11.html
    """

    name = "openvino.topk"

    input = operand_def(TensorLike)
    k = operand_def(TensorLike)
    values = result_def(TensorLike)
    indices = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])
    mode = prop_def(StringAttr)
    sort = prop_def(StringAttr)
    stable = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, k: SSAValue, result_types: tuple[Attribute, Attribute],
                 axis: int, mode: str, sort: str, stable: bool = False):
        super().__init__(
            operands=[input, k],
            result_types=list(result_types),
            properties={"axis": i64_attr(axis), "mode": StringAttr(mode),
                        "sort": StringAttr(sort), "stable": bool_attr(stable)},
        )

    def verify_(self) -> None:
        for value, allowed, what in ((self.mode, TOPK_MODES, "mode"),
                                     (self.sort, TOPK_SORTS, "sort")):
            if value.data not in allowed:
                raise VerifyException(f"{self.name}: {what} must be one of "
                                      f"{', '.join(allowed)}, got '{value.data}'")
        check_integer_operand(self, self.k, "k")
        if tensor_shape(self.k.type) not in (None, (), (1,)):
            raise VerifyException(f"{self.name}: k must be a scalar, got {self.k.type}")
        check_same_element_type(self, (self.input, self.values), "input and values")
        if element_type(self.indices.type) not in (i32, i64):
            raise VerifyException(f"{self.name}: indices must be i32 or i64, got "
                                  f"{self.indices.type}")
        shapes = [tensor_shape(v.type) for v in (self.input, self.values, self.indices)]
        if None in shapes:
            return
        rank = len(shapes[0])
        axis = self.axis.value.data
        if not -rank <= axis < rank:
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank {rank}")
        if any(len(s) != rank for s in shapes[1:]) or shapes[1] != shapes[2]:
            raise VerifyException(f"{self.name}: values and indices must have one shape of the "
                                  "input's rank")


SORTING_OPS = (TopKOp,)
