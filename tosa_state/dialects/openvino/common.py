"""What the `openvino` dialect's op families share: the spec link, operand type constraints,
shape helpers used by the verifiers (and the importer), and `PartialShapeAttr`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BoolAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    TensorType,
    UnrankedTensorType,
    i64,
)
from xdsl.ir import Attribute, ParametrizedAttribute, SSAValue
from xdsl.irdl import IRDLOperation, base, irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import format_shape

SPEC_ROOT = (
    "https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/"
)


TensorLike = base(TensorType) | base(UnrankedTensorType)
"""Operands and results: ranked tensors (`?` for dynamic dims) or unranked ones (dynamic rank)."""


OPERANDS_FORMAT = "operands attr-dict `:` functional-type(operands, results)"


UNBOUNDED = -1
"""Upper bound of an interval dimension without an upper bound (OpenVINO's `2..`)."""


def tensor_shape(type_: Attribute) -> tuple[int, ...] | None:
    """The dims of a tensor type (`DYNAMIC_INDEX` for `?`), or None for an unranked tensor."""
    if isinstance(type_, TensorType):
        return tuple(type_.get_shape())
    return None


def element_type(type_: Attribute) -> Attribute:
    """The element type of a (ranked or unranked) tensor type."""
    assert isinstance(type_, TensorType | UnrankedTensorType)
    return type_.element_type


def dims_compatible(a: int, b: int) -> bool:
    """Two dims can be equal at run time."""
    return a == b or DYNAMIC_INDEX in (a, b)


def shapes_compatible(a: Sequence[int] | None, b: Sequence[int] | None) -> bool:
    """Two shapes can be equal at run time."""
    if a is None or b is None:
        return True
    return len(a) == len(b) and all(dims_compatible(x, y) for x, y in zip(a, b, strict=True))


def broadcast_shapes(a: Sequence[int] | None, b: Sequence[int] | None) -> tuple[int, ...] | None:
    """The numpy-broadcast shape of `a` and `b`; `VerifyException` if they do not broadcast."""
    if a is None or b is None:
        return None
    rank = max(len(a), len(b))
    a = (1,) * (rank - len(a)) + tuple(a)
    b = (1,) * (rank - len(b)) + tuple(b)
    out: list[int] = []
    for x, y in zip(a, b, strict=True):
        if x == 1:
            out.append(y)
        elif y == 1 or x == y:
            out.append(x)
        elif DYNAMIC_INDEX in (x, y):
            out.append(DYNAMIC_INDEX)
        else:
            raise VerifyException(
                f"shapes {format_shape(a)} and {format_shape(b)} cannot be broadcast (numpy rules)"
            )
    return tuple(out)


def _is_integer_tensor(type_: Attribute) -> bool:
    return isinstance(type_, TensorType | UnrankedTensorType) and isinstance(
        type_.element_type, IntegerType
    )


def check_integer_operand(op: IRDLOperation, value: SSAValue | None, what: str) -> None:
    if value is not None and not _is_integer_tensor(value.type):
        raise VerifyException(f"{op.name}: {what} must be an integer tensor, got {value.type}")


def check_same_element_type(op: IRDLOperation, values: Iterable[SSAValue], what: str) -> None:
    types = {element_type(v.type) for v in values}
    if len(types) > 1:
        listed = ", ".join(sorted(str(t) for t in types))
        raise VerifyException(f"{op.name}: {what} must have one element type, got {listed}")


def check_rank_at_most_one(op: IRDLOperation, value: SSAValue | None, what: str) -> None:
    if value is None:
        return
    shape = tensor_shape(value.type)
    if shape is not None and len(shape) > 1:
        raise VerifyException(f"{op.name}: {what} must be 0-D or 1-D, got {value.type}")


def i64_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


_BOOLS = (IntegerAttr.from_bool(False), IntegerAttr.from_bool(True))


def bool_attr(value: bool) -> BoolAttr:
    return _BOOLS[bool(value)]


@irdl_attr_definition
class PartialShapeAttr(ParametrizedAttribute):
    """An OpenVINO partial shape: static dims, `?`, intervals, or dynamic rank.

    `#openvino.partial_shape<[1, ?, 1:8, 2:?]>` is OpenVINO's `1,?,1..8,2..`;
    `#openvino.partial_shape<*>` is the dynamic rank `...`. `lower[i]..upper[i]` is the interval
    of dim i (`upper == -1`: unbounded).
    """

    name = "openvino.partial_shape"

    lower: ArrayAttr[IntAttr]
    upper: ArrayAttr[IntAttr]
    ranked: IntAttr

    @staticmethod
    def from_intervals(dims: Sequence[tuple[int, int]] | None) -> PartialShapeAttr:
        """From `(lower, upper)` per dim (`upper == -1`: unbounded), or None for dynamic rank."""
        if dims is None:
            return PartialShapeAttr(ArrayAttr(()), ArrayAttr(()), IntAttr(0))
        lower = ArrayAttr(IntAttr(lo) for lo, _ in dims)
        upper = ArrayAttr(IntAttr(hi) for _, hi in dims)
        return PartialShapeAttr(lower, upper, IntAttr(1))

    @staticmethod
    def from_shape(shape: Sequence[int] | None) -> PartialShapeAttr:
        """From a tensor shape (`DYNAMIC_INDEX` → `?`), or None for dynamic rank."""
        if shape is None:
            return PartialShapeAttr.from_intervals(None)
        return PartialShapeAttr.from_intervals(
            [(0, UNBOUNDED) if d == DYNAMIC_INDEX else (d, d) for d in shape]
        )

    @staticmethod
    def from_openvino(text: str) -> PartialShapeAttr:
        """Parse OpenVINO's spelling (`"1,?,1..8,2..,..5"`, `""` for 0-D, `"..."`), also in
        brackets (`"[2,3]"`, `"[]"`) as OpenVINO's reader accepts; ValueError."""
        text = text.strip()
        if text.startswith("[") and text.endswith("]"):
            text = text[1:-1].strip()
        if text == "...":
            return PartialShapeAttr.from_intervals(None)
        if not text:
            return PartialShapeAttr.from_intervals([])
        return PartialShapeAttr.from_intervals([parse_openvino_dim(p) for p in text.split(",")])

    @property
    def intervals(self) -> tuple[tuple[int, int], ...] | None:
        """`(lower, upper)` per dim, or None for dynamic rank."""
        if not self.ranked.data:
            return None
        return tuple(
            (lo.data, hi.data) for lo, hi in zip(self.lower.data, self.upper.data, strict=True)
        )

    @property
    def is_static(self) -> bool:
        dims = self.intervals
        return dims is not None and all(lo == hi for lo, hi in dims)

    def to_shape(self) -> tuple[int, ...] | None:
        """A tensor shape: static dims kept, others `DYNAMIC_INDEX`; None for dynamic rank."""
        dims = self.intervals
        if dims is None:
            return None
        return tuple(lo if lo == hi else DYNAMIC_INDEX for lo, hi in dims)

    def to_openvino(self) -> str:
        """OpenVINO's spelling, e.g. `[1,?,1..8]` (with brackets, for messages)."""
        dims = self.intervals
        if dims is None:
            return "[...]"
        return "[" + ",".join(_format_openvino_dim(lo, hi) for lo, hi in dims) + "]"

    def relaxes(self, shape: Sequence[int] | None) -> bool:
        """Whether this declared shape extends `shape` (every shape `shape` allows, it allows)."""
        dims = self.intervals
        if dims is None:
            return True
        if shape is None or len(shape) != len(dims):
            return False
        return all(_interval_relaxes(lo, hi, d) for (lo, hi), d in zip(dims, shape, strict=True))

    def compatible(self, shape: Sequence[int] | None) -> bool:
        """Whether this declared shape and `shape` can describe the same tensor."""
        dims = self.intervals
        if dims is None or shape is None:
            return True
        if len(shape) != len(dims):
            return False
        return all(_interval_admits(lo, hi, d) for (lo, hi), d in zip(dims, shape, strict=True))

    def verify(self) -> None:
        if len(self.lower.data) != len(self.upper.data):
            raise VerifyException("partial_shape: lower and upper bounds differ in length")
        if not self.ranked.data and self.lower.data:
            raise VerifyException("partial_shape: a dynamic-rank shape has no dims")
        for lo, hi in zip(self.lower.data, self.upper.data, strict=True):
            if lo.data < 0 or (hi.data != UNBOUNDED and hi.data < lo.data):
                raise VerifyException(f"partial_shape: bad interval {lo.data}..{hi.data}")

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[ArrayAttr, ArrayAttr, IntAttr]:
        with parser.in_angle_brackets():
            if parser.parse_optional_punctuation("*") is not None:
                dims = None
            else:
                dims = parser.parse_comma_separated_list(
                    parser.Delimiter.SQUARE, lambda: _parse_dim(parser)
                )
        attr = PartialShapeAttr.from_intervals(dims)
        return (attr.lower, attr.upper, attr.ranked)

    def print_parameters(self, printer: Printer) -> None:
        dims = self.intervals
        with printer.in_angle_brackets():
            if dims is None:
                printer.print_string("*")
                return
            with printer.in_square_brackets():
                printer.print_list(dims, lambda d: printer.print_string(_format_dim(*d)))


def _interval_relaxes(lo: int, hi: int, dim: int) -> bool:
    if dim == DYNAMIC_INDEX:
        return lo == 0 and hi == UNBOUNDED
    return lo <= dim and (hi == UNBOUNDED or dim <= hi)


def _interval_admits(lo: int, hi: int, dim: int) -> bool:
    return dim == DYNAMIC_INDEX or (lo <= dim and (hi == UNBOUNDED or dim <= hi))


def parse_openvino_dim(text: str) -> tuple[int, int]:
    """One OpenVINO dim (`4`, `?`, `-1`, `1..8`, `2..`, `..5`) as (lower, upper); ValueError."""
    text = text.strip()
    if text in ("?", "-1"):
        return (0, UNBOUNDED)
    if ".." in text:
        lo_text, hi_text = text.split("..", 1)
        lo = int(lo_text) if lo_text.strip() else 0
        hi = int(hi_text) if hi_text.strip() else UNBOUNDED
        if lo < 0 or (hi != UNBOUNDED and hi < lo):
            raise ValueError(f"bad interval dimension '{text}'")
        return (lo, hi)
    value = int(text)
    if value < 0:
        raise ValueError(f"negative dimension '{text}'")
    return (value, value)


def _format_openvino_dim(lo: int, hi: int) -> str:
    if lo == hi:
        return str(lo)
    if lo == 0 and hi == UNBOUNDED:
        return "?"
    return f"{lo}..{'' if hi == UNBOUNDED else hi}"


def _parse_dim(parser: AttrParser) -> tuple[int, int]:
    if parser.parse_optional_punctuation("?") is not None:
        return (0, UNBOUNDED)
    lo = parser.parse_integer(allow_boolean=False, allow_negative=False)
    if parser.parse_optional_punctuation(":") is None:
        return (lo, lo)
    if parser.parse_optional_punctuation("?") is not None:
        return (lo, UNBOUNDED)
    return (lo, parser.parse_integer(allow_boolean=False, allow_negative=False))


def _format_dim(lo: int, hi: int) -> str:
    if lo == hi:
        return str(lo)
    if lo == 0 and hi == UNBOUNDED:
        return "?"
    return f"{lo}:{'?' if hi == UNBOUNDED else hi}"


def check_same_shape(op: IRDLOperation, a: Attribute, b: Attribute) -> None:
    if not shapes_compatible(tensor_shape(a), tensor_shape(b)):
        raise VerifyException(
            f"{op.name}: result shape {format_shape(tensor_shape(b))} differs from the input "
            f"shape {format_shape(tensor_shape(a))}"
        )


COMMON_ATTRIBUTES = (PartialShapeAttr,)
