"""What the `tfl` ops share: the resource type, the fused activations, and verifier helpers.

https://www.tensorflow.org/mlir/tfl_ops (TensorFlow's own `tfl` dialect, whose op and
property names these follow).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseArrayBase,
    IntegerAttr,
    IntegerType,
    StringAttr,
    TensorType,
    f32,
    i1,
    i8,
    i32,
)
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue, TypeAttribute
from xdsl.irdl import IRDLOperation, base, irdl_attr_definition
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import brief

OPERANDS_FORMAT = "operands attr-dict `:` functional-type(operands, results)"

ACTIVATIONS = ("NONE", "RELU", "RELU_N1_TO_1", "RELU6", "TANH")
"""TFLite's `ActivationFunctionType` values (SIGN_BIT is not used by builtin kernels)."""


@irdl_attr_definition
class ResourceType(ParametrizedAttribute, TypeAttribute):
    """`!tfl.resource`: a handle to a resource variable (TFLite tensor type RESOURCE)."""

    name = "tfl.resource"


Tensor = base(TensorType)


def i32_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i32)


def dims(value: SSAValue | Attribute) -> tuple[int, ...]:
    type_ = value.type if isinstance(value, SSAValue) else value
    assert isinstance(type_, TensorType)
    return tuple(type_.get_shape())


def element(value: SSAValue) -> Attribute:
    assert isinstance(value.type, TensorType)
    return value.type.element_type


def fmt(shape: Sequence[int]) -> str:
    return brief(["?" if d == DYNAMIC_INDEX else str(d) for d in shape], separator=",")


def check_activation(op: IRDLOperation, value: StringAttr) -> None:
    if value.data not in ACTIVATIONS:
        raise VerifyException(
            f"{op.name}: fused_activation_function must be one of {', '.join(ACTIVATIONS)}, "
            f"got '{value.data}'"
        )


def check_same_element(op: IRDLOperation, values: Iterable[SSAValue], what: str) -> None:
    types = {element(v) for v in values}
    if len(types) > 1:
        listed = ", ".join(str(t) for t in types)
        raise VerifyException(f"{op.name}: {what} must have one element type, got {listed}")


def check_integer(op: IRDLOperation, value: SSAValue, what: str, max_rank: int = 1) -> None:
    element_type = element(value)
    if not isinstance(element_type, IntegerType) or element_type == i1:
        raise VerifyException(f"{op.name}: {what} must be an integer tensor, got {value.type}")
    if len(dims(value)) > max_rank:
        raise VerifyException(f"{op.name}: {what} must have rank <= {max_rank}, got {value.type}")


def check_boolean(op: IRDLOperation, value: SSAValue, what: str) -> None:
    if element(value) != i1:
        raise VerifyException(f"{op.name}: {what} must be a boolean (i1) tensor, got {value.type}")


def check_axis(op: IRDLOperation, axis: int, rank: int, what: str = "axis") -> int:
    """`axis` in [-rank, rank): returns it made non-negative."""
    if not -rank <= axis < max(rank, 1):
        raise VerifyException(f"{op.name}: {what} {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def broadcast(op: IRDLOperation, a: Sequence[int], b: Sequence[int]) -> tuple[int, ...]:
    """numpy broadcasting (TFLite's binary ops broadcast the same way); `?` stays `?`."""
    rank = max(len(a), len(b))
    pa, pb = (1,) * (rank - len(a)) + tuple(a), (1,) * (rank - len(b)) + tuple(b)
    out = []
    for x, y in zip(pa, pb, strict=True):
        if x != y and 1 not in (x, y) and DYNAMIC_INDEX not in (x, y):
            raise VerifyException(f"{op.name}: shapes {fmt(a)} and {fmt(b)} do not broadcast")
        out.append(y if x == 1 else x if y in (1, x) else DYNAMIC_INDEX)
    return tuple(out)


def compatible(a: Sequence[int], b: Sequence[int]) -> bool:
    """Two shapes that can be equal at run time (`?` matches any dim)."""
    return len(a) == len(b) and all(
        x == y or DYNAMIC_INDEX in (x, y) for x, y in zip(a, b, strict=True)
    )


def static(shape: Sequence[int]) -> bool:
    return DYNAMIC_INDEX not in shape


def check_result_shape(op: IRDLOperation, result: SSAValue, expected: Sequence[int]) -> None:
    if not compatible(dims(result), expected):
        raise VerifyException(
            f"{op.name}: result shape {fmt(dims(result))} does not match the expected "
            f"{fmt(expected)}"
        )


def check_hybrid(op: IRDLOperation, value: SSAValue, filter: SSAValue, result: SSAValue,
                 filter_scale: DenseArrayBase) -> None:
    """A hybrid op: f32 input and result, an i8 filter with 1 or [O] scales."""
    check_same_element(op, (value, result), "input and result")
    if element(filter) != i8 or element(value) != f32:
        raise VerifyException(f"{op.name}: a hybrid {op.name.removeprefix('tfl.')} takes an "
                              "i8 filter and f32 input")
    filter_dims = dims(filter)
    scales = len(filter_scale.get_values())
    if not filter_dims or scales not in (1, filter_dims[0]):
        raise VerifyException(f"{op.name}: filter_scale needs 1 or "
                              f"{filter_dims[0] if filter_dims else '?'} values, got {scales}")
