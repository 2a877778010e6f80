"""What the conversions to TOSA ask of a value (its dims, element type, constant contents),
and `Unsupported`: an op that cannot be converted, with the reason the pass reports.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import cache

import numpy as np
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    Signedness,
    TensorType,
    UnrankedTensorType,
    i1,
)
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.diagnostics import format_shape
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dtypes import (
    UnsupportedElementType,
    dense_to_numpy,
    numpy_dtype,
)


class Unsupported(Exception):
    """The op cannot be converted; the message says why (the pass names op and layer)."""


class Deferred(Unsupported):
    """An operand comes from an op not converted yet: the walker retries in its next round."""


def first_failure(
    left: Sequence[Operation], failures: Mapping[Operation, Unsupported]
) -> tuple[Operation, str]:
    """The op a conversion pass reports among those `left` unconverted, and why: the first
    with a real reason, else the first op (a deferral only says its operand was not ready)."""
    reasons = [(op, failures.get(op)) for op in left]
    op, failure = next(
        ((o, f) for o, f in reasons if f is not None and not isinstance(f, Deferred)),
        reasons[0],
    )
    return op, str(failure) if failure is not None else "no conversion pattern for this op"


# ---------------------------------------------------------------------------------------------
# Types and constants
# ---------------------------------------------------------------------------------------------


DYN = DYNAMIC_INDEX
"""A dynamic dimension (`?`) in the shapes `dims` returns and the emitter takes."""


def dims(value: SSAValue) -> tuple[int, ...]:
    """The shape of a ranked tensor value, `DYN` for each dynamic dimension (for patterns
    that handle dynamic shapes; the others use `shape`)."""
    value_type = value.type
    _reject_runtime_shape(value_type)
    if not isinstance(value_type, TensorType):
        raise Unsupported(f"operand of type {value_type} has a dynamic rank")
    return tuple(value_type.get_shape())


dims_of = dims
"""`dims` under another name, for methods with a local `dims`."""


def shape(value: SSAValue) -> tuple[int, ...]:
    """The static shape of a ranked tensor value (`Unsupported` if it has a dynamic dim)."""
    found = dims(value)
    if DYN in found:
        raise Unsupported(f"operand of type {value.type} has a dynamic shape (this op needs "
                          "static shapes)")
    return found


def static_shape(value: SSAValue) -> tuple[int, ...] | None:
    """The shape of a tensor value when every dim is static, else None (for rewrites that
    apply to static shapes only)."""
    value_type = value.type
    if isinstance(value_type, TensorType) and value_type.has_static_shape():
        return tuple(value_type.get_shape())
    return None


@cache
def _tensor_type(element_type: Attribute, shape_: tuple[int, ...]) -> TensorType:
    return TensorType(element_type, shape_)


def tensor_type(element_type: Attribute, shape_: Sequence[int]) -> TensorType:
    """`TensorType(element_type, shape_)`, built once per element type and shape (the
    conversion asks for the same few types thousands of times)."""
    return _tensor_type(element_type, tuple(shape_))


def is_static(shape_: Sequence[int]) -> bool:
    return DYN not in shape_


class ShapeOperand(Unsupported):
    """A run-time shape (`!tosa.shape`) reached an op that takes tensors: the pattern base
    retries with the shape as the integer tensor OpenVINO has there."""


def _reject_runtime_shape(value_type: Attribute) -> None:
    if isinstance(value_type, tt.ShapeType):
        raise ShapeOperand(
            f"an operand is a shape only known at run time ({value_type}), which this op "
            "cannot take"
        )


def element(value: SSAValue) -> Attribute:
    """The element type of a (ranked or unranked) tensor value."""
    value_type = value.type
    _reject_runtime_shape(value_type)
    assert isinstance(value_type, TensorType | UnrankedTensorType)
    return value_type.element_type


def is_float(element_type: Attribute) -> bool:
    return isinstance(element_type, AnyFloat)


def dtype_of(element_type: Attribute) -> np.dtype:
    try:
        return numpy_dtype(element_type)
    except UnsupportedElementType as error:
        raise Unsupported(str(error)) from None


FOREIGN_CONSTANTS: dict[type[Operation], Callable[[Operation], DenseIntOrFPElementsAttr]] = {}
"""A source dialect's constant op (`openvino.constant`) and how to read its value: its
conversion registers it (`register_constant`), so that patterns read it, and the emitter
folds on it, before it is converted; the builder imports no source dialect."""


def register_constant(
    cls: type[Operation], value: Callable[[Operation], DenseIntOrFPElementsAttr]
) -> None:
    """Make `constant` (and the emitter's folding) read the ops of `cls` by `value`."""
    FOREIGN_CONSTANTS[cls] = value


def dense(value: SSAValue) -> DenseIntOrFPElementsAttr | None:
    """The attribute a `tosa.const` or a registered constant op holds, else None."""
    owner = value.owner
    if isinstance(owner, tt.ConstOp):
        return owner.values
    read = FOREIGN_CONSTANTS.get(type(owner))
    return read(owner) if read is not None else None  # type: ignore[arg-type]


def constant(value: SSAValue) -> np.ndarray | None:
    """The array a `tosa.const` or a registered constant op (`register_constant`) holds,
    else None."""
    attribute = dense(value)
    return dense_to_numpy(attribute) if attribute is not None else None


def require_constant(value: SSAValue, what: str) -> np.ndarray:
    """A constant operand (shape arguments, axes, ...); `Unsupported` when it is computed."""
    array = constant(value)
    if array is None:
        raise Unsupported(f"{what} must be a constant (or computed from static shapes only)")
    return array


def constant_ints(value: SSAValue, what: str) -> list[int]:
    """A constant 0-D or 1-D integer operand as a list."""
    return [int(v) for v in np.asarray(require_constant(value, what)).reshape(-1)]


def normalize_axis(axis: int, rank: int) -> int:
    """OpenVINO's negative axes count from the end."""
    if not -rank <= axis < max(rank, 1):
        raise Unsupported(f"axis {axis} is out of range for rank {rank}")
    return axis + rank if axis < 0 else axis


def broadcast_shape(shapes: Sequence[Sequence[int]]) -> tuple[int, ...]:
    """numpy broadcasting (OpenVINO's `auto_broadcast = numpy`); a dynamic dim meets 1 or
    another dynamic dim as `?`, and a static size other than 1 as that size."""
    rank = max((len(s) for s in shapes), default=0)
    out: list[int] = []
    for axis in range(rank):
        sizes = [s[axis - rank + len(s)] for s in shapes if axis >= rank - len(s)]
        static = {d for d in sizes if d != DYN and d != 1}
        if len(static) > 1:
            listed = " and ".join(format_shape(s) for s in shapes)
            raise Unsupported(f"shapes {listed} cannot be broadcast (numpy rules)")
        out.append(static.pop() if static else DYN if DYN in sizes else 1)
    return tuple(out)


def float_max(element_type: Attribute) -> float:
    """The largest finite value of a float element type."""
    return float(np.finfo(dtype_of(element_type)).max)


def clamp_bounds(element_type: Attribute, low: float, high: float) -> tuple[float, float]:
    """Bounds for `tosa.clamp` on `element_type`: integer bounds round inward (OpenVINO's
    Clamp on integers) and saturate to the type's range."""
    if is_float(element_type):
        limit = float_max(element_type)
        return max(low, -limit), min(high, limit)
    info = np.iinfo(dtype_of(element_type))
    return max(np.ceil(low), info.min), min(np.floor(high), info.max)


def is_unsigned(element_type: Attribute) -> bool:
    if not isinstance(element_type, IntegerType):
        return False
    return element_type.signedness.data == Signedness.UNSIGNED


def signless(element_type: Attribute) -> Attribute:
    """`ui8` -> `i8`, ...: the TOSA type unsigned values are computed in; others unchanged."""
    return IntegerType(element_type.width) if is_unsigned(element_type) else element_type


def integer_type(value: SSAValue) -> IntegerType | None:
    element_type = element(value)
    return element_type if isinstance(element_type, IntegerType) and element_type != i1 else None


