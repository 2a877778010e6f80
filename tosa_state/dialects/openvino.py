"""The `openvino` dialect: the operations of OpenVINO IR that stateful models use.

Each op mirrors one OpenVINO operation version (see the specification pages linked from the op
docstrings): operands come in OpenVINO's input-port order, attributes are typed properties, and
results carry the static (or `?`) shapes recorded in the IR. Parameters and Results are not ops:
they become the arguments and results of the enclosing `func.func`.

Custom form: `openvino.add %a, %b {auto_broadcast = "none"} : (T, T) -> T` (properties that keep
their default value are elided); the generic form `"openvino.add"(...) <{...}>` always parses.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I64,
    AnyFloat,
    ArrayAttr,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    Float32Type,
    Float64Type,
    FloatAttr,
    IntAttr,
    IntegerAttr,
    IntegerType,
    NoneAttr,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    f32,
    f64,
    i1,
    i64,
)
from xdsl.ir import (
    Attribute,
    Dialect,
    ParametrizedAttribute,
    Region,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    base,
    irdl_attr_definition,
    irdl_op_definition,
    lazy_traits_def,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    region_def,
    result_def,
    traits_def,
    var_operand_def,
    var_result_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import HasParent, IsTerminator, Pure
from xdsl.utils.exceptions import VerifyException

SPEC_ROOT = (
    "https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/"
)

TensorLike = base(TensorType) | base(UnrankedTensorType)
"""Operands and results: ranked tensors (`?` for dynamic dims) or unranked ones (dynamic rank)."""

OPERANDS_FORMAT = "operands attr-dict `:` functional-type(operands, results)"
AUTO_BROADCAST_VALUES = ("numpy", "none")
BROADCAST_MODES = ("numpy", "explicit", "bidirectional")
UNBOUNDED = -1
"""Upper bound of an interval dimension without an upper bound (OpenVINO's `2..`)."""


# ---------------------------------------------------------------------------------------------
# Shape helpers (shared by the verifiers and the importer)
# ---------------------------------------------------------------------------------------------


def tensor_shape(type_: Attribute) -> tuple[int, ...] | None:
    """The dims of a tensor type (`DYNAMIC_INDEX` for `?`), or None for an unranked tensor."""
    if isinstance(type_, TensorType):
        return tuple(type_.get_shape())
    return None


def element_type(type_: Attribute) -> Attribute:
    """The element type of a (ranked or unranked) tensor type."""
    assert isinstance(type_, TensorType | UnrankedTensorType)
    return type_.element_type


def format_shape(shape: Sequence[int] | None) -> str:
    """A shape the way OpenVINO prints it: `[1,?,4]`, `[]`, or `[...]` for dynamic rank."""
    if shape is None:
        return "[...]"
    return "[" + ",".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape) + "]"


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


def _check_integer_operand(op: IRDLOperation, value: SSAValue | None, what: str) -> None:
    if value is not None and not _is_integer_tensor(value.type):
        raise VerifyException(f"{op.name}: {what} must be an integer tensor, got {value.type}")


def _check_same_element_type(op: IRDLOperation, values: Iterable[SSAValue], what: str) -> None:
    types = {element_type(v.type) for v in values}
    if len(types) > 1:
        listed = ", ".join(sorted(str(t) for t in types))
        raise VerifyException(f"{op.name}: {what} must have one element type, got {listed}")


def _check_rank_at_most_one(op: IRDLOperation, value: SSAValue | None, what: str) -> None:
    if value is None:
        return
    shape = tensor_shape(value.type)
    if shape is not None and len(shape) > 1:
        raise VerifyException(f"{op.name}: {what} must be 0-D or 1-D, got {value.type}")


def _i64(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


def _bool(value: bool) -> BoolAttr:
    return IntegerAttr.from_bool(value)


def _version_attr(value: int) -> IntegerAttr:
    return IntegerAttr(value, i64)


# ---------------------------------------------------------------------------------------------
# Attributes
# ---------------------------------------------------------------------------------------------


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
        """Parse OpenVINO's spelling (`"1,?,1..8,2..,..5"`, `""` for 0-D, `"..."`); ValueError."""
        text = text.strip()
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


_PORT_MAP_SLICE_FIELDS = ("start", "end", "stride", "part_size")


@irdl_attr_definition
class PortMapAttr(ParametrizedAttribute):
    """One TensorIterator `<port_map>` entry, by position rather than by XML id.

    For an input: `external` = operand index, `internal` = body block-argument index. For an
    output: `external` = result index, `internal` = index into the body's `openvino.yield`.
    With `axis` the value is sliced (inputs) or concatenated (outputs) along `axis` in steps of
    `part_size` from `start` to `end` by `stride`; without it, it is passed whole (inputs) or the
    last iteration's value is returned (outputs).

    `#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1,
    part_size = 1>` or `#openvino.port_map<external = 1, internal = 1>`.
    """

    name = "openvino.port_map"

    external: IntAttr
    internal: IntAttr
    axis: IntAttr | NoneAttr
    start: IntAttr
    end: IntAttr
    stride: IntAttr
    part_size: IntAttr

    @staticmethod
    def make(
        external: int,
        internal: int,
        axis: int | None = None,
        start: int = 0,
        end: int = -1,
        stride: int = 1,
        part_size: int = 1,
    ) -> PortMapAttr:
        return PortMapAttr(
            IntAttr(external),
            IntAttr(internal),
            NoneAttr() if axis is None else IntAttr(axis),
            IntAttr(start),
            IntAttr(end),
            IntAttr(stride),
            IntAttr(part_size),
        )

    @property
    def sliced_axis(self) -> int | None:
        return self.axis.data if isinstance(self.axis, IntAttr) else None

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        values: dict[str, int] = {}
        with parser.in_angle_brackets():
            values["external"] = _parse_keyword_int(parser, "external")
            parser.parse_punctuation(",")
            values["internal"] = _parse_keyword_int(parser, "internal")
            if parser.parse_optional_punctuation(",") is not None:
                values["axis"] = _parse_keyword_int(parser, "axis")
                for field in _PORT_MAP_SLICE_FIELDS:
                    parser.parse_punctuation(",")
                    values[field] = _parse_keyword_int(parser, field)
        return PortMapAttr.make(**values).parameters

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            external, internal = self.external.data, self.internal.data
            printer.print_string(f"external = {external}, internal = {internal}")
            if self.sliced_axis is None:
                return
            printer.print_string(f", axis = {self.sliced_axis}")
            for field in _PORT_MAP_SLICE_FIELDS:
                printer.print_string(f", {field} = {getattr(self, field).data}")


@irdl_attr_definition
class BackEdgeAttr(ParametrizedAttribute):
    """A TensorIterator back edge: `openvino.yield` operand `from` feeds block argument `to` in
    the next iteration. `#openvino.back_edge<from = 1, to = 1>`."""

    name = "openvino.back_edge"

    from_result: IntAttr
    to_param: IntAttr

    @staticmethod
    def make(from_result: int, to_param: int) -> BackEdgeAttr:
        return BackEdgeAttr(IntAttr(from_result), IntAttr(to_param))

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            from_result = _parse_keyword_int(parser, "from")
            parser.parse_punctuation(",")
            to_param = _parse_keyword_int(parser, "to")
        return (IntAttr(from_result), IntAttr(to_param))

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<from = {self.from_result.data}, to = {self.to_param.data}>")


def _parse_keyword_int(parser: AttrParser, keyword: str) -> int:
    parser.parse_keyword(keyword)
    parser.parse_punctuation("=")
    return parser.parse_integer(allow_boolean=False)


# ---------------------------------------------------------------------------------------------
# Infrastructure: Constant, ReadValue, Assign
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class ConstantOp(IRDLOperation):
    """Constant-1: a tensor decoded from the weights file.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/constant-1.html

    `%c = openvino.constant dense<[1.0, 2.0]> : tensor<2xf32>`; values containing NaN or
    infinities print as a hex string (`dense<"0x...">`) so that they parse back bit-exactly.
    """

    name = "openvino.constant"

    value = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, value: DenseIntOrFPElementsAttr):
        super().__init__(properties={"value": value}, result_types=[value.type])

    def verify_(self) -> None:
        if self.result.type != self.value.type:
            raise VerifyException(
                f"{self.name}: result type {self.result.type} differs from the value's type "
                f"{self.value.type}"
            )

    def print(self, printer: Printer) -> None:
        printer.print_op_attributes(self.attributes)
        printer.print_string(" ")
        if _has_non_finite(self.value):
            printer.print_string(f'dense<"0x{self.value.data.data.hex().upper()}"> : ')
            printer.print_attribute(self.value.type)
        else:
            printer.print_attribute(self.value)

    @classmethod
    def parse(cls, parser: Parser) -> ConstantOp:
        attributes = parser.parse_optional_attr_dict()
        pos = parser.pos
        value = parser.parse_attribute()
        if not isinstance(value, DenseIntOrFPElementsAttr):
            parser.raise_error("expected a dense elements attribute", pos, parser.pos)
        op = cls(value)
        op.attributes.update(attributes)
        return op


def _has_non_finite(value: DenseIntOrFPElementsAttr) -> bool:
    if not isinstance(value.get_element_type(), AnyFloat):
        return False
    return any(not math.isfinite(x) for x in value.get_values())


@irdl_op_definition
class ReadValueOp(IRDLOperation):
    """ReadValue-3 / ReadValue-6: the value of variable `variable_id` before this step's Assign.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/read-value-6.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/read-value-3.html

    On the first step (and after a reset) it returns `init` (ReadValue-6 without `init`: zeros
    of `variable_shape` / `variable_type`). Opset 3 requires `init` and takes the variable's type
    from it; opset 6 declares the variable with `variable_shape` and `variable_type` (absent
    `variable_type` = OpenVINO's `dynamic`), which must relax the type of `init`.
    """

    name = "openvino.read_value"

    init = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    variable_id = prop_def(StringAttr)
    version = prop_def(IntegerAttr[IntegerType])
    variable_type = opt_prop_def(TypeAttribute)
    variable_shape = opt_prop_def(PartialShapeAttr)

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$variable_id (`(` $init^ `)`)? attr-dict `:` functional-type(operands, results)"
    )

    def __init__(
        self,
        variable_id: str,
        result_type: Attribute,
        init: SSAValue | None = None,
        *,
        version: int = 6,
        variable_type: Attribute | None = None,
        variable_shape: PartialShapeAttr | None = None,
    ):
        super().__init__(
            operands=[[init] if init is not None else []],
            result_types=[result_type],
            properties={
                "variable_id": StringAttr(variable_id),
                "version": _version_attr(version),
                "variable_type": variable_type,
                "variable_shape": variable_shape,
            },
        )

    def verify_(self) -> None:
        if not self.variable_id.data:
            raise VerifyException(f"{self.name}: variable_id must not be empty")
        version = self.version.value.data
        if version == 3:
            self._verify_opset3()
        elif version == 6:
            self._verify_opset6()
        else:
            raise VerifyException(f"{self.name}: version must be 3 or 6, got {version}")

    def _verify_opset3(self) -> None:
        if self.init is None:
            raise VerifyException(f"{self.name}: ReadValue-3 requires an init operand")
        if self.variable_type is not None or self.variable_shape is not None:
            raise VerifyException(
                f"{self.name}: ReadValue-3 takes its type from init; variable_type and "
                "variable_shape are opset 6 properties"
            )
        if self.init.type != self.result.type:
            raise VerifyException(
                f"{self.name}: result type {self.result.type} differs from the init type "
                f"{self.init.type}"
            )

    def _verify_opset6(self) -> None:
        if self.variable_shape is None:
            raise VerifyException(f"{self.name}: ReadValue-6 requires variable_shape")
        if self.init is not None:
            self._verify_relaxes(self.init.type, "init value")
        declared = self.variable_type
        result_element = element_type(self.result.type)
        if declared is not None and declared != result_element:
            raise VerifyException(
                f"{self.name}: result element type {result_element} differs from variable_type "
                f"{declared}"
            )
        if not self.variable_shape.compatible(tensor_shape(self.result.type)):
            raise VerifyException(
                f"{self.name}: result shape {format_shape(tensor_shape(self.result.type))} does "
                f"not fit variable_shape {self.variable_shape.to_openvino()}"
            )

    def _verify_relaxes(self, type_: Attribute, what: str) -> None:
        assert self.variable_shape is not None
        declared = self.variable_type
        if declared is not None and declared != element_type(type_):
            raise VerifyException(
                f"{self.name}: variable_type {declared} does not relax the {what}'s element type "
                f"{element_type(type_)} (it must be equal, or dynamic)"
            )
        shape = tensor_shape(type_)
        if not self.variable_shape.relaxes(shape):
            raise VerifyException(
                f"{self.name}: variable_shape {self.variable_shape.to_openvino()} does not "
                f"relax the {what}'s shape {format_shape(shape)}"
            )


@irdl_op_definition
class AssignOp(IRDLOperation):
    """Assign-3 / Assign-6: stores `value` into variable `variable_id` for the next step.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/assign-6.html
    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/assign-3.html

    The IR's output port (a copy of `value` that nothing reads) is dropped.
    `openvino.assign "v", %x {version = 6 : i64} : tensor<1x4xf32>`
    """

    name = "openvino.assign"

    value = operand_def(TensorLike)
    variable_id = prop_def(StringAttr)
    version = prop_def(IntegerAttr[IntegerType])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$variable_id `,` $value attr-dict `:` type($value)"

    def __init__(self, variable_id: str, value: SSAValue, *, version: int = 6):
        super().__init__(
            operands=[value],
            properties={"variable_id": StringAttr(variable_id), "version": _version_attr(version)},
        )

    def verify_(self) -> None:
        if not self.variable_id.data:
            raise VerifyException(f"{self.name}: variable_id must not be empty")
        if self.version.value.data not in (3, 6):
            raise VerifyException(
                f"{self.name}: version must be 3 or 6, got {self.version.value.data}"
            )


# ---------------------------------------------------------------------------------------------
# Element-wise operations
# ---------------------------------------------------------------------------------------------


class ElementwiseBinaryOp(IRDLOperation):
    """Base of the binary element-wise ops: `lhs`, `rhs`, `auto_broadcast` ("numpy" or "none")."""

    lhs = operand_def(TensorLike)
    rhs = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    RESULT_IS_BOOLEAN: ClassVar[bool] = False
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = False

    def __init__(
        self, lhs: SSAValue, rhs: SSAValue, result_type: Attribute, auto_broadcast: str = "numpy"
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={"auto_broadcast": StringAttr(auto_broadcast)},
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.lhs, self.rhs), "lhs and rhs")
        operand_element = element_type(self.lhs.type)
        if self.OPERANDS_ARE_BOOLEAN and operand_element != i1:
            raise VerifyException(f"{self.name}: operands must be boolean (i1) tensors")
        expected = i1 if self.RESULT_IS_BOOLEAN else operand_element
        if element_type(self.result.type) != expected:
            raise VerifyException(
                f"{self.name}: result element type must be {expected}, got "
                f"{element_type(self.result.type)}"
            )
        _verify_broadcast(
            self, [self.lhs.type, self.rhs.type], self.result.type, self.auto_broadcast.data
        )


def _verify_broadcast(
    op: IRDLOperation, operand_types: Sequence[Attribute], result_type: Attribute, mode: str
) -> None:
    if mode not in AUTO_BROADCAST_VALUES:
        raise VerifyException(
            f"{op.name}: auto_broadcast must be one of {', '.join(AUTO_BROADCAST_VALUES)}, "
            f"got '{mode}'"
        )
    shapes = [tensor_shape(t) for t in operand_types]
    if mode == "none":
        for shape in shapes[1:]:
            if not shapes_compatible(shapes[0], shape):
                raise VerifyException(
                    f'{op.name}: with auto_broadcast = "none" the operand shapes must match, '
                    f"got {format_shape(shapes[0])} and {format_shape(shape)}"
                )
        expected = shapes[0]
    else:
        expected = shapes[0]
        for shape in shapes[1:]:
            try:
                expected = broadcast_shapes(expected, shape)
            except VerifyException as e:
                raise VerifyException(f"{op.name}: {e}") from None
    if not shapes_compatible(expected, tensor_shape(result_type)):
        raise VerifyException(
            f"{op.name}: result shape {format_shape(tensor_shape(result_type))} does not match "
            f"the broadcast operand shape {format_shape(expected)}"
        )


@irdl_op_definition
class AddOp(ElementwiseBinaryOp):
    """Add-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/add-1.html
    """

    name = "openvino.add"


@irdl_op_definition
class SubtractOp(ElementwiseBinaryOp):
    """Subtract-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/subtract-1.html
    """

    name = "openvino.subtract"


@irdl_op_definition
class SquaredDifferenceOp(ElementwiseBinaryOp):
    """SquaredDifference-1: `(lhs - rhs) ** 2`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/squared-difference-1.html
    """

    name = "openvino.squared_difference"


@irdl_op_definition
class MultiplyOp(ElementwiseBinaryOp):
    """Multiply-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/multiply-1.html
    """

    name = "openvino.multiply"


@irdl_op_definition
class DivideOp(IRDLOperation):
    """Divide-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/divide-1.html

    `m_pythondiv` (default true): integer division rounds toward negative infinity (floor);
    false rounds toward zero.
    """

    name = "openvino.divide"

    lhs = operand_def(TensorLike)
    rhs = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))
    m_pythondiv = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(True))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        lhs: SSAValue,
        rhs: SSAValue,
        result_type: Attribute,
        auto_broadcast: str = "numpy",
        m_pythondiv: bool = True,
    ):
        super().__init__(
            operands=[lhs, rhs],
            result_types=[result_type],
            properties={
                "auto_broadcast": StringAttr(auto_broadcast),
                "m_pythondiv": _bool(m_pythondiv),
            },
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.lhs, self.rhs, self.result), "operands and result")
        _verify_broadcast(
            self, [self.lhs.type, self.rhs.type], self.result.type, self.auto_broadcast.data
        )


@irdl_op_definition
class ModOp(ElementwiseBinaryOp):
    """Mod-1 (remainder with the sign of the dividend).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/mod-1.html
    """

    name = "openvino.mod"


@irdl_op_definition
class FloorModOp(ElementwiseBinaryOp):
    """FloorMod-1 (remainder with the sign of the divisor).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/floormod-1.html
    """

    name = "openvino.floor_mod"


@irdl_op_definition
class PowerOp(ElementwiseBinaryOp):
    """Power-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/power-1.html
    """

    name = "openvino.power"


@irdl_op_definition
class MaximumOp(ElementwiseBinaryOp):
    """Maximum-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/maximum-1.html
    """

    name = "openvino.maximum"


@irdl_op_definition
class MinimumOp(ElementwiseBinaryOp):
    """Minimum-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/minimum-1.html
    """

    name = "openvino.minimum"


@irdl_op_definition
class GreaterOp(ElementwiseBinaryOp):
    """Greater-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/greater-1.html
    """

    name = "openvino.greater"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LessOp(ElementwiseBinaryOp):
    """Less-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/less-1.html
    """

    name = "openvino.less"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class EqualOp(ElementwiseBinaryOp):
    """Equal-1 (boolean result).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/comparison/equal-1.html
    """

    name = "openvino.equal"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LogicalAndOp(ElementwiseBinaryOp):
    """LogicalAnd-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-and-1.html
    """

    name = "openvino.logical_and"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class LogicalOrOp(ElementwiseBinaryOp):
    """LogicalOr-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-or-1.html
    """

    name = "openvino.logical_or"
    RESULT_IS_BOOLEAN: ClassVar[bool] = True
    OPERANDS_ARE_BOOLEAN: ClassVar[bool] = True


class ElementwiseUnaryOp(IRDLOperation):
    """Base of the unary element-wise ops: the result has the type of `input`."""

    input = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    OPERAND_IS_BOOLEAN: ClassVar[bool] = False

    def __init__(
        self,
        input: SSAValue,
        result_type: Attribute,
        properties: Mapping[str, Attribute] | None = None,
    ):
        super().__init__(
            operands=[input], result_types=[result_type], properties=dict(properties or {})
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        if self.OPERAND_IS_BOOLEAN and element_type(self.input.type) != i1:
            raise VerifyException(f"{self.name}: input must be a boolean (i1) tensor")
        _check_same_shape(self, self.input.type, self.result.type)


def _check_same_shape(op: IRDLOperation, a: Attribute, b: Attribute) -> None:
    if not shapes_compatible(tensor_shape(a), tensor_shape(b)):
        raise VerifyException(
            f"{op.name}: result shape {format_shape(tensor_shape(b))} differs from the input "
            f"shape {format_shape(tensor_shape(a))}"
        )


@irdl_op_definition
class ReluOp(ElementwiseUnaryOp):
    """ReLU-1 (IR type `ReLU`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/relu-1.html
    """

    name = "openvino.relu"


@irdl_op_definition
class SigmoidOp(ElementwiseUnaryOp):
    """Sigmoid-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/sigmoid-1.html
    """

    name = "openvino.sigmoid"


@irdl_op_definition
class TanhOp(ElementwiseUnaryOp):
    """Tanh-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/tanh-1.html
    """

    name = "openvino.tanh"


@irdl_op_definition
class ExpOp(ElementwiseUnaryOp):
    """Exp-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/exp-1.html
    """

    name = "openvino.exp"


@irdl_op_definition
class AbsOp(ElementwiseUnaryOp):
    """Abs-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/abs-1.html
    """

    name = "openvino.abs"


@irdl_op_definition
class NegativeOp(ElementwiseUnaryOp):
    """Negative-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/negative-1.html
    """

    name = "openvino.negative"


@irdl_op_definition
class LogOp(ElementwiseUnaryOp):
    """Log-1 (natural logarithm).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/log-1.html
    """

    name = "openvino.log"


@irdl_op_definition
class FloorOp(ElementwiseUnaryOp):
    """Floor-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/floor-1.html
    """

    name = "openvino.floor"


@irdl_op_definition
class CeilingOp(ElementwiseUnaryOp):
    """Ceiling-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/ceiling-1.html
    """

    name = "openvino.ceiling"


@irdl_op_definition
class SqrtOp(ElementwiseUnaryOp):
    """Sqrt-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/sqrt-1.html
    """

    name = "openvino.sqrt"


@irdl_op_definition
class SinOp(ElementwiseUnaryOp):
    """Sin-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/sin-1.html
    """

    name = "openvino.sin"


@irdl_op_definition
class CosOp(ElementwiseUnaryOp):
    """Cos-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/cos-1.html
    """

    name = "openvino.cos"


@irdl_op_definition
class ErfOp(ElementwiseUnaryOp):
    """Erf-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/arithmetic/erf-1.html
    """

    name = "openvino.erf"


@irdl_op_definition
class SoftmaxOp(IRDLOperation):
    """Softmax-1 / Softmax-8 along `axis` (Softmax-8 allows a negative axis).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/softmax-8.html
    """

    name = "openvino.softmax"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute, axis: int):
        super().__init__(
            operands=[input], result_types=[result_type], properties={"axis": _i64(axis)}
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_same_shape(self, self.input.type, self.result.type)
        rank = len(tensor_shape(self.input.type) or ())
        axis = self.axis.value.data
        if not -rank <= axis < max(rank, 1):
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank {rank}")


@irdl_op_definition
class GeluOp(ElementwiseUnaryOp):
    """Gelu-2 / Gelu-7: `0.5 x (1 + erf(x / sqrt 2))`, or its tanh approximation.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/gelu-7.html
    """

    name = "openvino.gelu"

    approximation_mode = prop_def(StringAttr, default_value=StringAttr("erf"))
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, input: SSAValue, result_type: Attribute, approximation_mode: str = "erf"):
        super().__init__(input, result_type, {"approximation_mode": StringAttr(approximation_mode)})

    def verify_(self) -> None:
        super().verify_()
        if self.approximation_mode.data not in ("erf", "tanh"):
            raise VerifyException(
                f"{self.name}: approximation_mode must be 'erf' or 'tanh', got "
                f"'{self.approximation_mode.data}'"
            )


@irdl_op_definition
class HSwishOp(ElementwiseUnaryOp):
    """HSwish-4: `x * min(max(x + 3, 0), 6) / 6`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/hswish-4.html
    """

    name = "openvino.hswish"


@irdl_op_definition
class HSigmoidOp(ElementwiseUnaryOp):
    """HSigmoid-5: `min(max(x + 3, 0), 6) / 6`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/hsigmoid-5.html
    """

    name = "openvino.hsigmoid"


@irdl_op_definition
class EluOp(ElementwiseUnaryOp):
    """Elu-1: `x` where `x > 0`, else `alpha (exp(x) - 1)`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/elu-1.html
    """

    name = "openvino.elu"

    alpha = prop_def(FloatAttr[Float64Type])
    irdl_options = (ParsePropInAttrDict(),)

    def __init__(self, input: SSAValue, result_type: Attribute, alpha: float):
        super().__init__(input, result_type, {"alpha": FloatAttr(alpha, f64)})


@irdl_op_definition
class SwishOp(IRDLOperation):
    """Swish-4: `x * sigmoid(beta x)`, `beta` a scalar input (1 without it).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/swish-4.html
    """

    name = "openvino.swish"

    input = operand_def(TensorLike)
    beta = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, beta: SSAValue | None, result_type: Attribute):
        super().__init__(operands=[input, [] if beta is None else [beta]],
                         result_types=[result_type])

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_same_shape(self, self.input.type, self.result.type)
        if self.beta is not None:
            _check_same_element_type(self, (self.input, self.beta), "input and beta")
            if tensor_shape(self.beta.type) not in ((), (1,), None):
                raise VerifyException(f"{self.name}: beta must be a scalar, got {self.beta.type}")


@irdl_op_definition
class PReluOp(IRDLOperation):
    """PRelu-1: `x` where `x >= 0`, else `slope * x`; a 1-D `slope` as long as the channel
    dimension (dimension 1) applies per channel, other slopes broadcast as numpy.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/prelu-1.html
    """

    name = "openvino.prelu"

    input = operand_def(TensorLike)
    slope = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, slope: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, slope], result_types=[result_type])

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.slope, self.result),
                                 "input, slope and result")
        _check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class MVNOp(IRDLOperation):
    """MVN-6: `x - mean(x)` over `axes`, divided by `sqrt(var + eps)` (`inside_sqrt`) or
    `sqrt(var) + eps` (`outside_sqrt`) when `normalize_variance`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/normalization/mvn-6.html
    """

    name = "openvino.mvn"

    input = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)
    normalize_variance = prop_def(BoolAttr)
    eps = prop_def(FloatAttr[Float64Type])
    eps_mode = prop_def(StringAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        axes: SSAValue,
        result_type: Attribute,
        normalize_variance: bool,
        eps: float,
        eps_mode: str,
    ):
        super().__init__(
            operands=[input, axes],
            result_types=[result_type],
            properties={
                "normalize_variance": _bool(normalize_variance),
                "eps": FloatAttr(eps, f64),
                "eps_mode": StringAttr(eps_mode),
            },
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_same_shape(self, self.input.type, self.result.type)
        _check_integer_operand(self, self.axes, "axes")
        _check_rank_at_most_one(self, self.axes, "axes")
        if self.eps_mode.data not in ("inside_sqrt", "outside_sqrt"):
            raise VerifyException(
                f"{self.name}: eps_mode must be 'inside_sqrt' or 'outside_sqrt', got "
                f"'{self.eps_mode.data}'"
            )


@irdl_op_definition
class LogicalNotOp(ElementwiseUnaryOp):
    """LogicalNot-1.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/logical/logical-not-1.html
    """

    name = "openvino.logical_not"
    OPERAND_IS_BOOLEAN: ClassVar[bool] = True


@irdl_op_definition
class ClampOp(IRDLOperation):
    """Clamp-1: `min(max(input, min), max)`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/activation/clamp-1.html
    """

    name = "openvino.clamp"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    min = prop_def(FloatAttr[Float64Type])
    max = prop_def(FloatAttr[Float64Type])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute, min: float, max: float):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"min": FloatAttr(min, f64), "max": FloatAttr(max, f64)},
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_same_shape(self, self.input.type, self.result.type)
        if self.min.value.data > self.max.value.data:
            raise VerifyException(
                f"{self.name}: min {self.min.value.data} is greater than max {self.max.value.data}"
            )


@irdl_op_definition
class ConvertOp(IRDLOperation):
    """Convert-1: element type conversion.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/type/convert-1.html
    """

    name = "openvino.convert"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)
    destination_type = prop_def(TypeAttribute)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={"destination_type": element_type(result_type)},
        )

    def verify_(self) -> None:
        if element_type(self.result.type) != self.destination_type:
            raise VerifyException(
                f"{self.name}: result element type {element_type(self.result.type)} differs "
                f"from destination_type {self.destination_type}"
            )
        _check_same_shape(self, self.input.type, self.result.type)


@irdl_op_definition
class SelectOp(IRDLOperation):
    """Select-1: `cond ? then : else`, broadcast.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/condition/select-1.html
    """

    name = "openvino.select"

    cond = operand_def(TensorLike)
    then_value = operand_def(TensorLike)
    else_value = operand_def(TensorLike)
    result = result_def(TensorLike)
    auto_broadcast = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        cond: SSAValue,
        then_value: SSAValue,
        else_value: SSAValue,
        result_type: Attribute,
        auto_broadcast: str = "numpy",
    ):
        super().__init__(
            operands=[cond, then_value, else_value],
            result_types=[result_type],
            properties={"auto_broadcast": StringAttr(auto_broadcast)},
        )

    def verify_(self) -> None:
        if element_type(self.cond.type) != i1:
            raise VerifyException(f"{self.name}: cond must be a boolean (i1) tensor")
        values = (self.then_value, self.else_value, self.result)
        _check_same_element_type(self, values, "then, else and result")
        operand_types = [self.cond.type, self.then_value.type, self.else_value.type]
        _verify_broadcast(self, operand_types, self.result.type, self.auto_broadcast.data)


# ---------------------------------------------------------------------------------------------
# Matrix, reductions
# ---------------------------------------------------------------------------------------------


AUTO_PADS = ("explicit", "valid", "same_upper", "same_lower")
"""Convolution-1's `auto_pad` values (`notset` in older IR means `explicit`)."""


def _check_window_properties(
    op: ConvolutionBase | PoolBase,
    spatial: int,
    extents: Sequence[tuple[str, DenseArrayBase, int]],
) -> None:
    """`extents` (name, values, lowest value) and the pads each hold one value per spatial
    dim; `auto_pad` is one of `AUTO_PADS`."""
    for what, values, low in (*extents, ("pads_begin", op.pads_begin, 0),
                              ("pads_end", op.pads_end, 0)):
        numbers = values.get_values()
        if len(numbers) != spatial or any(v < low for v in numbers):
            raise VerifyException(
                f"{op.name}: {what} must hold {spatial} values >= {low}, got {list(numbers)}"
            )
    if op.auto_pad.data not in AUTO_PADS:
        raise VerifyException(
            f"{op.name}: auto_pad must be one of {', '.join(AUTO_PADS)}, got "
            f"'{op.auto_pad.data}'"
        )


class ConvolutionBase(IRDLOperation):
    """Base of Convolution-1 and GroupConvolution-1: `input [N, C_IN, spatial...]`,
    a `filter`, `strides`, `dilations`, `pads_begin` / `pads_end` and `auto_pad`."""

    input = operand_def(TensorLike)
    filter = operand_def(TensorLike)
    result = result_def(TensorLike)
    strides = prop_def(DenseArrayBase[I64])
    dilations = prop_def(DenseArrayBase[I64])
    pads_begin = prop_def(DenseArrayBase[I64])
    pads_end = prop_def(DenseArrayBase[I64])
    auto_pad = prop_def(StringAttr, default_value=StringAttr("explicit"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    FILTER_EXTRA_DIMS: ClassVar[int] = 0
    """Filter rank minus input rank (GroupConvolution's filter has a leading group dim)."""

    def __init__(
        self,
        input: SSAValue,
        filter: SSAValue,
        result_type: Attribute,
        strides: Sequence[int],
        dilations: Sequence[int],
        pads_begin: Sequence[int],
        pads_end: Sequence[int],
        auto_pad: str = "explicit",
    ):
        super().__init__(
            operands=[input, filter],
            result_types=[result_type],
            properties={
                "strides": DenseArrayBase.from_list(i64, strides),
                "dilations": DenseArrayBase.from_list(i64, dilations),
                "pads_begin": DenseArrayBase.from_list(i64, pads_begin),
                "pads_end": DenseArrayBase.from_list(i64, pads_end),
                "auto_pad": StringAttr(auto_pad),
            },
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.filter, self.result),
                                 "input, filter and result")
        in_shape, filter_shape = tensor_shape(self.input.type), tensor_shape(self.filter.type)
        if in_shape is None or filter_shape is None:
            return
        spatial = len(in_shape) - 2
        if spatial < 1 or len(filter_shape) != len(in_shape) + self.FILTER_EXTRA_DIMS:
            raise VerifyException(
                f"{self.name}: input rank {len(in_shape)} (at least 3) and filter rank "
                f"{len(filter_shape)} do not fit (the filter has "
                f"{len(in_shape) + self.FILTER_EXTRA_DIMS} dims)"
            )
        _check_window_properties(self, spatial, (("strides", self.strides, 1),
                                                 ("dilations", self.dilations, 1)))
        groups = filter_shape[0] if self.FILTER_EXTRA_DIMS else 1
        per_group = filter_shape[1 + self.FILTER_EXTRA_DIMS]
        if -1 not in (in_shape[1], per_group, groups) and in_shape[1] != per_group * groups:
            raise VerifyException(
                f"{self.name}: input channels ({in_shape[1]}) differ from the filter's "
                f"({groups} group(s) of {per_group})"
            )


@irdl_op_definition
class ConvolutionOp(ConvolutionBase):
    """Convolution-1 by `filter [C_OUT, C_IN, kernel...]` (1-D to 3-D).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/convolution/convolution-1.html
    """

    name = "openvino.convolution"


@irdl_op_definition
class GroupConvolutionOp(ConvolutionBase):
    """GroupConvolution-1 by `filter [GROUPS, C_OUT / GROUPS, C_IN / GROUPS, kernel...]`:
    each group of input channels is convolved by its own filters (depthwise when
    `C_IN / GROUPS` is 1).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/convolution/group-convolution-1.html
    """

    name = "openvino.group_convolution"
    FILTER_EXTRA_DIMS: ClassVar[int] = 1


ROUNDING_TYPES = ("floor", "ceil")
"""MaxPool / AvgPool `rounding_type` values."""


class PoolBase(IRDLOperation):
    """Base of MaxPool and AvgPool over `input [N, C, spatial...]`: windows of `kernel`,
    moved by `strides`, over the input padded by `pads_begin` / `pads_end` (or `auto_pad`);
    `rounding_type` rounds the output size down (`floor`) or up (`ceil`)."""

    input = operand_def(TensorLike)
    kernel = prop_def(DenseArrayBase[I64])
    strides = prop_def(DenseArrayBase[I64])
    pads_begin = prop_def(DenseArrayBase[I64])
    pads_end = prop_def(DenseArrayBase[I64])
    rounding_type = prop_def(StringAttr, default_value=StringAttr("floor"))
    auto_pad = prop_def(StringAttr, default_value=StringAttr("explicit"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.results[0]), "input and output")
        in_shape = tensor_shape(self.input.type)
        if in_shape is None:
            return
        spatial = len(in_shape) - 2
        if spatial < 1:
            raise VerifyException(f"{self.name}: input rank {len(in_shape)} must be at least 3")
        _check_window_properties(self, spatial, (("kernel", self.kernel, 1),
                                                 ("strides", self.strides, 1)))
        if self.rounding_type.data not in ROUNDING_TYPES:
            raise VerifyException(
                f"{self.name}: rounding_type must be floor or ceil, got "
                f"'{self.rounding_type.data}'"
            )

    @staticmethod
    def _properties(kernel: Sequence[int], strides: Sequence[int], pads_begin: Sequence[int],
                    pads_end: Sequence[int], rounding_type: str, auto_pad: str
                    ) -> dict[str, Attribute]:
        return {
            "kernel": DenseArrayBase.from_list(i64, kernel),
            "strides": DenseArrayBase.from_list(i64, strides),
            "pads_begin": DenseArrayBase.from_list(i64, pads_begin),
            "pads_end": DenseArrayBase.from_list(i64, pads_end),
            "rounding_type": StringAttr(rounding_type),
            "auto_pad": StringAttr(auto_pad),
        }


@irdl_op_definition
class MaxPoolOp(PoolBase):
    """MaxPool-1 / MaxPool-8: the maximum of each window (MaxPool-8 also has `dilations`
    and a second output, the indices of the maxima).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/pooling/max-pool-8.html
    """

    name = "openvino.max_pool"

    output = result_def(TensorLike)  # (declared here: IRDL lists a subclass's fields first)
    indices = var_result_def(TensorLike)
    dilations = opt_prop_def(DenseArrayBase[I64])

    def __init__(self, input: SSAValue, result_types: Sequence[Attribute],
                 kernel: Sequence[int], strides: Sequence[int], pads_begin: Sequence[int],
                 pads_end: Sequence[int], rounding_type: str = "floor",
                 auto_pad: str = "explicit", dilations: Sequence[int] | None = None):
        properties = self._properties(kernel, strides, pads_begin, pads_end, rounding_type,
                                      auto_pad)
        if dilations is not None:
            properties["dilations"] = DenseArrayBase.from_list(i64, dilations)
        super().__init__(operands=[input], result_types=[result_types[0],
                                                         list(result_types[1:])],
                         properties=properties)


@irdl_op_definition
class AvgPoolOp(PoolBase):
    """AvgPool-1: the mean of each window; `exclude_pad` leaves the padding out of the
    count.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/pooling/avg-pool-1.html
    """

    name = "openvino.avg_pool"

    output = result_def(TensorLike)
    exclude_pad = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    def __init__(self, input: SSAValue, result_type: Attribute, kernel: Sequence[int],
                 strides: Sequence[int], pads_begin: Sequence[int], pads_end: Sequence[int],
                 exclude_pad: bool, rounding_type: str = "floor", auto_pad: str = "explicit"):
        properties = self._properties(kernel, strides, pads_begin, pads_end, rounding_type,
                                      auto_pad)
        properties["exclude_pad"] = _bool(exclude_pad)
        super().__init__(operands=[input], result_types=[result_type], properties=properties)


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
            properties={"transpose_a": _bool(transpose_a), "transpose_b": _bool(transpose_b)},
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.a, self.b, self.result), "operands and result")
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
            properties={"keep_dims": _bool(keep_dims)},
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_integer_operand(self, self.axes, "axes")
        _check_rank_at_most_one(self, self.axes, "axes")
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


# ---------------------------------------------------------------------------------------------
# Data movement and shapes
# ---------------------------------------------------------------------------------------------


@irdl_op_definition
class TileOp(IRDLOperation):
    """Tile-1: `input` repeated `repeats` times along each dim (numpy `tile`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/tile-1.html
    """

    name = "openvino.tile"

    input = operand_def(TensorLike)
    repeats = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, repeats: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, repeats], result_types=[result_type])

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        _check_integer_operand(self, self.repeats, "repeats")
        _check_rank_at_most_one(self, self.repeats, "repeats")


PAD_MODES = ("constant", "edge", "reflect", "symmetric")
"""Pad's `pad_mode` values."""


@irdl_op_definition
class PadOp(IRDLOperation):
    """Pad-1 / Pad-12: `pads_begin` / `pads_end` elements added to each dim, by `pad_mode`
    (`constant` fills with `pad_value`, 0 without it; Pad-12 allows negative pads, which
    crop).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/pad-12.html
    """

    name = "openvino.pad"

    input = operand_def(TensorLike)
    pads_begin = operand_def(TensorLike)
    pads_end = operand_def(TensorLike)
    pad_value = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    pad_mode = prop_def(StringAttr, default_value=StringAttr("constant"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        pads_begin: SSAValue,
        pads_end: SSAValue,
        pad_value: SSAValue | None,
        result_type: Attribute,
        pad_mode: str = "constant",
    ):
        super().__init__(
            operands=[input, pads_begin, pads_end, [] if pad_value is None else [pad_value]],
            result_types=[result_type],
            properties={"pad_mode": StringAttr(pad_mode)},
        )

    def verify_(self) -> None:
        _check_same_element_type(self, (self.input, self.result), "input and result")
        for what, value in (("pads_begin", self.pads_begin), ("pads_end", self.pads_end)):
            _check_integer_operand(self, value, what)
            _check_rank_at_most_one(self, value, what)
        if self.pad_mode.data not in PAD_MODES:
            raise VerifyException(
                f"{self.name}: pad_mode must be one of {', '.join(PAD_MODES)}, got "
                f"'{self.pad_mode.data}'"
            )
        if self.pad_value is not None:
            _check_same_element_type(self, (self.input, self.pad_value), "input and pad_value")


@irdl_op_definition
class SplitOp(IRDLOperation):
    """Split-1: `num_splits` equal parts along `axis` (a scalar operand).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/split-1.html
    """

    name = "openvino.split"

    input = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    outputs = var_result_def(TensorLike)
    num_splits = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axis: SSAValue, result_types: Sequence[Attribute]):
        super().__init__(
            operands=[input, axis],
            result_types=[list(result_types)],
            properties={"num_splits": _i64(len(result_types))},
        )

    def verify_(self) -> None:
        _check_integer_operand(self, self.axis, "axis")
        count = self.num_splits.value.data
        if count < 1 or count != len(self.outputs):
            raise VerifyException(
                f"{self.name}: num_splits = {count} but the op has {len(self.outputs)} results"
            )
        _check_same_element_type(self, (self.input, *self.outputs), "input and results")


@irdl_op_definition
class VariadicSplitOp(IRDLOperation):
    """VariadicSplit-1: parts of `split_lengths` along `axis`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/variadic-split-1.html
    """

    name = "openvino.variadic_split"

    input = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    split_lengths = operand_def(TensorLike)
    outputs = var_result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        axis: SSAValue,
        split_lengths: SSAValue,
        result_types: Sequence[Attribute],
    ):
        super().__init__(operands=[input, axis, split_lengths], result_types=[list(result_types)])

    def verify_(self) -> None:
        _check_integer_operand(self, self.axis, "axis")
        _check_integer_operand(self, self.split_lengths, "split_lengths")
        _check_rank_at_most_one(self, self.split_lengths, "split_lengths")
        if not self.outputs:
            raise VerifyException(f"{self.name}: expects at least one result")
        _check_same_element_type(self, (self.input, *self.outputs), "input and results")


MASK_NAMES = ("begin_mask", "end_mask", "new_axis_mask", "shrink_axis_mask", "ellipsis_mask")


@irdl_op_definition
class StridedSliceOp(IRDLOperation):
    """StridedSlice-1 (numpy-style slicing with TensorFlow masks).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/strided-slice-1.html
    """

    name = "openvino.strided_slice"

    input = operand_def(TensorLike)
    begin = operand_def(TensorLike)
    end = operand_def(TensorLike)
    stride = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    begin_mask = prop_def(DenseArrayBase)
    end_mask = prop_def(DenseArrayBase)
    new_axis_mask = prop_def(DenseArrayBase)
    shrink_axis_mask = prop_def(DenseArrayBase)
    ellipsis_mask = prop_def(DenseArrayBase)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        begin: SSAValue,
        end: SSAValue,
        stride: SSAValue | None,
        result_type: Attribute,
        masks: dict[str, Sequence[int]],
    ):
        super().__init__(
            operands=[input, begin, end, [stride] if stride is not None else []],
            result_types=[result_type],
            properties={
                name: DenseArrayBase.from_list(i64, list(masks.get(name, ())))
                for name in MASK_NAMES
            },
        )

    def verify_(self) -> None:
        for what, value in (("begin", self.begin), ("end", self.end), ("stride", self.stride)):
            _check_integer_operand(self, value, what)
            _check_rank_at_most_one(self, value, what)
        _check_same_element_type(self, (self.input, self.result), "input and result")
        for name in MASK_NAMES:
            mask = getattr(self, name)
            if mask.elt_type != i64 or any(v not in (0, 1) for v in mask.get_values()):
                raise VerifyException(f"{self.name}: {name} must be an array<i64> of 0s and 1s")


@irdl_op_definition
class SliceOp(IRDLOperation):
    """Slice-8: `input[start:stop:step]` along `axes` (default: 0..n-1).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/slice-8.html
    """

    name = "openvino.slice"

    input = operand_def(TensorLike)
    start = operand_def(TensorLike)
    stop = operand_def(TensorLike)
    step = operand_def(TensorLike)
    axes = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        start: SSAValue,
        stop: SSAValue,
        step: SSAValue,
        axes: SSAValue | None,
        result_type: Attribute,
    ):
        super().__init__(
            operands=[input, start, stop, step, [axes] if axes is not None else []],
            result_types=[result_type],
        )

    def verify_(self) -> None:
        values = (("start", self.start), ("stop", self.stop), ("step", self.step))
        for what, value in (*values, ("axes", self.axes)):
            _check_integer_operand(self, value, what)
            _check_rank_at_most_one(self, value, what)
        _check_same_element_type(self, (self.input, self.result), "input and result")


@irdl_op_definition
class ConcatOp(IRDLOperation):
    """Concat-1 along `axis`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/concat-1.html
    """

    name = "openvino.concat"

    inputs = var_operand_def(TensorLike)
    result = result_def(TensorLike)
    axis = prop_def(IntegerAttr[IntegerType])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, inputs: Sequence[SSAValue], result_type: Attribute, axis: int):
        super().__init__(
            operands=[list(inputs)], result_types=[result_type], properties={"axis": _i64(axis)}
        )

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"{self.name}: expects at least one input")
        _check_same_element_type(self, (*self.inputs, self.result), "inputs and result")
        ranks = {len(s) for v in (*self.inputs, self.result) if (s := tensor_shape(v.type))}
        ranks |= {0 for v in self.inputs if tensor_shape(v.type) == ()}
        if len(ranks) > 1:
            raise VerifyException(f"{self.name}: inputs and result must have one rank")
        axis = self.axis.value.data
        if ranks and not -max(ranks) <= axis < max(ranks):
            raise VerifyException(f"{self.name}: axis {axis} is out of range for rank {max(ranks)}")


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """Reshape-1 (`special_zero`: a 0 in `shape` copies the input dim).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/reshape-1.html
    """

    name = "openvino.reshape"

    input = operand_def(TensorLike)
    shape = operand_def(TensorLike)
    result = result_def(TensorLike)
    special_zero = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self, input: SSAValue, shape: SSAValue, result_type: Attribute, special_zero: bool
    ):
        super().__init__(
            operands=[input, shape],
            result_types=[result_type],
            properties={"special_zero": _bool(special_zero)},
        )

    def verify_(self) -> None:
        _check_integer_operand(self, self.shape, "shape")
        _check_rank_at_most_one(self, self.shape, "shape")
        _check_same_element_type(self, (self.input, self.result), "input and result")


class _AxesShapeOp(IRDLOperation):
    """Base of Squeeze / Unsqueeze: the result has the input's element type."""

    def _verify_axes_op(self, input: SSAValue, axes: SSAValue | None, result: SSAValue) -> None:
        _check_integer_operand(self, axes, "axes")
        _check_rank_at_most_one(self, axes, "axes")
        _check_same_element_type(self, (input, result), "input and result")


@irdl_op_definition
class SqueezeOp(_AxesShapeOp):
    """Squeeze-1: removes the size-1 dims in `axes` (all of them without `axes`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/squeeze-1.html
    """

    name = "openvino.squeeze"

    input = operand_def(TensorLike)
    axes = opt_operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axes: SSAValue | None, result_type: Attribute):
        super().__init__(
            operands=[input, [axes] if axes is not None else []], result_types=[result_type]
        )

    def verify_(self) -> None:
        self._verify_axes_op(self.input, self.axes, self.result)


@irdl_op_definition
class UnsqueezeOp(_AxesShapeOp):
    """Unsqueeze-1: inserts size-1 dims at `axes`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/unsqueeze-1.html
    """

    name = "openvino.unsqueeze"

    input = operand_def(TensorLike)
    axes = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, axes: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, axes], result_types=[result_type])

    def verify_(self) -> None:
        self._verify_axes_op(self.input, self.axes, self.result)


@irdl_op_definition
class TransposeOp(IRDLOperation):
    """Transpose-1 (`order` operand; empty `order` reverses the dims).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/transpose-1.html
    """

    name = "openvino.transpose"

    input = operand_def(TensorLike)
    order = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, order: SSAValue, result_type: Attribute):
        super().__init__(operands=[input, order], result_types=[result_type])

    def verify_(self) -> None:
        _check_integer_operand(self, self.order, "order")
        _check_rank_at_most_one(self, self.order, "order")
        _check_same_element_type(self, (self.input, self.result), "input and result")
        in_shape, out_shape = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if in_shape is not None and out_shape is not None and len(in_shape) != len(out_shape):
            raise VerifyException(f"{self.name}: result rank differs from the input rank")


@irdl_op_definition
class ShapeOfOp(IRDLOperation):
    """ShapeOf-1 / ShapeOf-3: the input's shape as a 1-D i64 (or i32) tensor.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/shape/shape-of-3.html
    """

    name = "openvino.shape_of"

    input = operand_def(TensorLike)
    result = result_def(TensorLike)

    traits = traits_def(Pure())
    assembly_format = OPERANDS_FORMAT

    def __init__(self, input: SSAValue, result_type: Attribute):
        super().__init__(operands=[input], result_types=[result_type])

    def verify_(self) -> None:
        if element_type(self.result.type) not in (i64, IntegerType(32)):
            raise VerifyException(f"{self.name}: result element type must be i64 or i32")
        in_shape, out_shape = tensor_shape(self.input.type), tensor_shape(self.result.type)
        if out_shape is not None and len(out_shape) != 1:
            raise VerifyException(f"{self.name}: result must be 1-D")
        if in_shape is None or out_shape is None:
            return
        if not dims_compatible(out_shape[0], len(in_shape)):
            raise VerifyException(
                f"{self.name}: result has {out_shape[0]} elements for an input of rank "
                f"{len(in_shape)}"
            )


@irdl_op_definition
class GatherOp(IRDLOperation):
    """Gather-8 (negative indices count from the end).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/gather-8.html
    """

    name = "openvino.gather"

    input = operand_def(TensorLike)
    indices = operand_def(TensorLike)
    axis = operand_def(TensorLike)
    result = result_def(TensorLike)
    batch_dims = prop_def(IntegerAttr[IntegerType], default_value=IntegerAttr(0, i64))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        indices: SSAValue,
        axis: SSAValue,
        result_type: Attribute,
        batch_dims: int = 0,
    ):
        super().__init__(
            operands=[input, indices, axis],
            result_types=[result_type],
            properties={"batch_dims": _i64(batch_dims)},
        )

    def verify_(self) -> None:
        _check_integer_operand(self, self.indices, "indices")
        _check_integer_operand(self, self.axis, "axis")
        _check_rank_at_most_one(self, self.axis, "axis")
        _check_same_element_type(self, (self.input, self.result), "input and result")


@irdl_op_definition
class BroadcastOp(IRDLOperation):
    """Broadcast-3 to `target_shape` (`mode` numpy, explicit with `axes_mapping`, or bidirectional).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/movement/broadcast-3.html
    """

    name = "openvino.broadcast"

    input = operand_def(TensorLike)
    target_shape = operand_def(TensorLike)
    axes_mapping = opt_operand_def(TensorLike)
    result = result_def(TensorLike)
    mode = prop_def(StringAttr, default_value=StringAttr("numpy"))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(
        self,
        input: SSAValue,
        target_shape: SSAValue,
        axes_mapping: SSAValue | None,
        result_type: Attribute,
        mode: str = "numpy",
    ):
        super().__init__(
            operands=[input, target_shape, [axes_mapping] if axes_mapping is not None else []],
            result_types=[result_type],
            properties={"mode": StringAttr(mode)},
        )

    def verify_(self) -> None:
        mode = self.mode.data
        if mode not in BROADCAST_MODES:
            raise VerifyException(
                f"{self.name}: mode must be one of {', '.join(BROADCAST_MODES)}, got '{mode}'"
            )
        if (mode == "explicit") != (self.axes_mapping is not None):
            raise VerifyException(f"{self.name}: axes_mapping is given exactly in explicit mode")
        _check_integer_operand(self, self.target_shape, "target_shape")
        _check_rank_at_most_one(self, self.target_shape, "target_shape")
        _check_integer_operand(self, self.axes_mapping, "axes_mapping")
        _check_same_element_type(self, (self.input, self.result), "input and result")


# ---------------------------------------------------------------------------------------------
# Recurrent cells and TensorIterator
# ---------------------------------------------------------------------------------------------


class _RecurrentCellOp(IRDLOperation):
    """Shared properties and checks of LSTMCell / GRUCell."""

    GATES: ClassVar[int]
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]]

    def _init_properties(
        self,
        hidden_size: int,
        activations: Sequence[str] | None,
        activations_alpha: Sequence[float],
        activations_beta: Sequence[float],
        clip: float,
    ) -> dict[str, Attribute]:
        return {
            "hidden_size": _i64(hidden_size),
            "activations": ArrayAttr(
                StringAttr(a) for a in (activations or self.DEFAULT_ACTIVATIONS)
            ),
            "activations_alpha": DenseArrayBase.from_list(f32, list(activations_alpha)),
            "activations_beta": DenseArrayBase.from_list(f32, list(activations_beta)),
            "clip": FloatAttr(clip, f32),
        }

    def _verify_cell(
        self,
        hidden: int,
        activations: Sequence[StringAttr],
        inputs: tuple[SSAValue, SSAValue, SSAValue, SSAValue],
    ) -> None:
        """Checks hidden_size, the activations and the shapes of X, W, R, B."""
        x, w, r, b = inputs
        if hidden < 1:
            raise VerifyException(f"{self.name}: hidden_size must be positive, got {hidden}")
        if len(activations) != len(self.DEFAULT_ACTIVATIONS):
            raise VerifyException(
                f"{self.name}: expects {len(self.DEFAULT_ACTIVATIONS)} activations, got "
                f"{len(activations)}"
            )
        _check_same_element_type(self, self.operands, "operands")
        gates = self.GATES * hidden
        _expect_shape(self, x, "X", (DYNAMIC_INDEX, DYNAMIC_INDEX))
        input_size = _dim(x, 1)
        _expect_shape(self, w, "W", (gates, input_size))
        _expect_shape(self, r, "R", (gates, hidden))
        _expect_shape(self, b, "B", (self._bias_size(hidden),))

    def _bias_size(self, hidden: int) -> int:
        return self.GATES * hidden


def _dim(value: SSAValue, index: int) -> int:
    shape = tensor_shape(value.type)
    if shape is None or len(shape) <= index:
        return DYNAMIC_INDEX
    return shape[index]


def _expect_shape(op: IRDLOperation, value: SSAValue, what: str, expected: Sequence[int]) -> None:
    shape = tensor_shape(value.type)
    if not shapes_compatible(shape, expected):
        raise VerifyException(
            f"{op.name}: {what} must have shape {format_shape(expected)}, got {format_shape(shape)}"
        )


@irdl_op_definition
class LSTMCellOp(_RecurrentCellOp):
    """LSTMCell-4: one LSTM step. Gates are stacked in OpenVINO order f, i, c, o in W [4H, I],
    R [4H, H] and B [4H]; results are the new hidden and cell state [N, H].

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/lstm-cell-1.html
    """

    name = "openvino.lstm_cell"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    initial_cell_state = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    hidden_state = result_def(TensorLike)
    cell_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 4
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
    ):
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        super().__init__(operands=list(operands), result_types=list(result_types), properties=props)

    def verify_(self) -> None:
        hidden = self.hidden_size.value.data
        self._verify_cell(hidden, self.activations.data, (self.x, self.w, self.r, self.b))
        state_shape = (_dim(self.x, 0), hidden)
        for what, value in (
            ("initial_hidden_state", self.initial_hidden_state),
            ("initial_cell_state", self.initial_cell_state),
            ("hidden_state", self.hidden_state),
            ("cell_state", self.cell_state),
        ):
            _expect_shape(self, value, what, state_shape)


@irdl_op_definition
class GRUCellOp(_RecurrentCellOp):
    """GRUCell-3: one GRU step. Gates are stacked in OpenVINO order z, r, h in W [3H, I] and
    R [3H, H]; B is [3H], or [4H] with `linear_before_reset`.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/gru-cell-3.html
    """

    name = "openvino.gru_cell"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    hidden_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    linear_before_reset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 3
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_type: Attribute,
        hidden_size: int,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool = False,
    ):
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["linear_before_reset"] = _bool(linear_before_reset)
        super().__init__(operands=list(operands), result_types=[result_type], properties=props)

    def _bias_size(self, hidden: int) -> int:
        return (4 if self.linear_before_reset.value.data else 3) * hidden

    def verify_(self) -> None:
        hidden = self.hidden_size.value.data
        self._verify_cell(hidden, self.activations.data, (self.x, self.w, self.r, self.b))
        state_shape = (_dim(self.x, 0), hidden)
        _expect_shape(self, self.initial_hidden_state, "initial_hidden_state", state_shape)
        _expect_shape(self, self.hidden_state, "hidden_state", state_shape)



DIRECTIONS = ("forward", "reverse", "bidirectional")
"""The `direction` of LSTMSequence / GRUSequence."""


class _RecurrentSequenceOp(_RecurrentCellOp):
    """Shared checks of LSTMSequence-5 / GRUSequence-5: `X [N, T, I]`, states `[N, D, H]`,
    `sequence_lengths [N]`, `W [D, G*H, I]`, `R [D, G*H, H]`, `B [D, G*H]` (D = 2 when
    bidirectional), `Y [N, D, T, H]`."""

    def _verify_sequence(self, states: Sequence[SSAValue], lengths: SSAValue) -> None:
        x, w, r, b = self.x, self.w, self.r, self.b  # type: ignore[attr-defined]
        hidden = self.hidden_size.value.data  # type: ignore[attr-defined]
        direction = self.direction.data  # type: ignore[attr-defined]
        if direction not in DIRECTIONS:
            raise VerifyException(
                f"{self.name}: direction must be one of {', '.join(DIRECTIONS)}, got "
                f"'{direction}'"
            )
        if hidden < 1:
            raise VerifyException(f"{self.name}: hidden_size must be positive, got {hidden}")
        activations = self.activations.data  # type: ignore[attr-defined]
        if len(activations) != len(self.DEFAULT_ACTIVATIONS):
            raise VerifyException(
                f"{self.name}: expects {len(self.DEFAULT_ACTIVATIONS)} activations, got "
                f"{len(activations)}"
            )
        _check_same_element_type(self, (x, w, r, b, *states, *self.results),
                                 "X, W, R, B, states and results")
        _check_integer_operand(self, lengths, "sequence_lengths")
        directions = 2 if direction == "bidirectional" else 1
        n, steps, gates = _dim(x, 0), _dim(x, 1), self.GATES * hidden
        _expect_shape(self, x, "X", (n, steps, DYNAMIC_INDEX))
        _expect_shape(self, lengths, "sequence_lengths", (n,))
        _expect_shape(self, w, "W", (directions, gates, _dim(x, 2)))
        _expect_shape(self, r, "R", (directions, gates, hidden))
        _expect_shape(self, b, "B", (directions, self._bias_size(hidden)))
        for index, state in enumerate(states):
            _expect_shape(self, state, f"initial state {index}", (n, directions, hidden))
        _expect_shape(self, self.results[0], "Y", (n, directions, steps, hidden))
        for result in self.results[1:]:
            _expect_shape(self, result, "output state", (n, directions, hidden))


@irdl_op_definition
class LSTMSequenceOp(_RecurrentSequenceOp):
    """LSTMSequence-5: LSTMCell-4 steps over `T` time steps, in `direction`; steps of a
    batch element beyond its `sequence_lengths` leave its state unchanged and output zeros.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/lstm-sequence-5.html
    """

    name = "openvino.lstm_sequence"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    initial_cell_state = operand_def(TensorLike)
    sequence_lengths = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    y = result_def(TensorLike)
    hidden_state = result_def(TensorLike)
    cell_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    direction = prop_def(StringAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 4
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        direction: str,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
    ):
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["direction"] = StringAttr(direction)
        super().__init__(operands=list(operands), result_types=list(result_types), properties=props)

    def verify_(self) -> None:
        self._verify_sequence((self.initial_hidden_state, self.initial_cell_state),
                              self.sequence_lengths)


@irdl_op_definition
class GRUSequenceOp(_RecurrentSequenceOp):
    """GRUSequence-5: GRUCell-3 steps over `T` time steps, in `direction` (see
    LSTMSequence-5 for `sequence_lengths`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/sequence/gru-sequence-5.html
    """

    name = "openvino.gru_sequence"

    x = operand_def(TensorLike)
    initial_hidden_state = operand_def(TensorLike)
    sequence_lengths = operand_def(TensorLike)
    w = operand_def(TensorLike)
    r = operand_def(TensorLike)
    b = operand_def(TensorLike)
    y = result_def(TensorLike)
    hidden_state = result_def(TensorLike)

    hidden_size = prop_def(IntegerAttr[IntegerType])
    activations = prop_def(ArrayAttr[StringAttr])
    activations_alpha = prop_def(DenseArrayBase)
    activations_beta = prop_def(DenseArrayBase)
    clip = prop_def(FloatAttr[Float32Type])
    direction = prop_def(StringAttr)
    linear_before_reset = prop_def(BoolAttr, default_value=IntegerAttr.from_bool(False))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    GATES: ClassVar[int] = 3
    DEFAULT_ACTIVATIONS: ClassVar[tuple[str, ...]] = ("sigmoid", "tanh")

    def __init__(
        self,
        operands: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        hidden_size: int,
        direction: str,
        activations: Sequence[str] | None = None,
        activations_alpha: Sequence[float] = (),
        activations_beta: Sequence[float] = (),
        clip: float = 0.0,
        linear_before_reset: bool = False,
    ):
        props = self._init_properties(
            hidden_size, activations, activations_alpha, activations_beta, clip
        )
        props["direction"] = StringAttr(direction)
        props["linear_before_reset"] = _bool(linear_before_reset)
        super().__init__(operands=list(operands), result_types=list(result_types), properties=props)

    def verify_(self) -> None:
        self._verify_sequence((self.initial_hidden_state,), self.sequence_lengths)

    def _bias_size(self, hidden: int) -> int:
        return (4 if bool(self.linear_before_reset.value.data) else 3) * hidden


@irdl_op_definition
class YieldOp(IRDLOperation):
    """Terminates a TensorIterator body: its operands are the body's Results, in IR order."""

    name = "openvino.yield"

    values = var_operand_def(TensorLike)

    traits = lazy_traits_def(lambda: (IsTerminator(), HasParent(TensorIteratorOp)))
    assembly_format = "($values^ `:` type($values))? attr-dict"

    def __init__(self, values: Sequence[SSAValue]):
        super().__init__(operands=[list(values)])


@irdl_op_definition
class TensorIteratorOp(IRDLOperation):
    """TensorIterator-1: runs `body` once per slice of its sliced inputs.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/tensor-iterator-1.html

    The body's block arguments are the body Parameters and its `openvino.yield` operands the body
    Results (both in IR order). `input_port_map` binds operands to block arguments (sliced with
    `axis`, else passed whole), `output_port_map` binds yield operands to results (concatenated
    with `axis`, else the last iteration's value), and `back_edges` feed a yield operand into a
    block argument for the next iteration (the mapped operand is then only the first value).
    """

    name = "openvino.tensor_iterator"

    inputs = var_operand_def(TensorLike)
    outputs = var_result_def(TensorLike)
    body = region_def("single_block")
    input_port_map = prop_def(ArrayAttr[PortMapAttr])
    output_port_map = prop_def(ArrayAttr[PortMapAttr])
    back_edges = prop_def(ArrayAttr[BackEdgeAttr])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "`(` $inputs `)` attr-dict `:` functional-type($inputs, results) $body"

    def __init__(
        self,
        inputs: Sequence[SSAValue],
        result_types: Sequence[Attribute],
        body: Region,
        input_port_map: Sequence[PortMapAttr],
        output_port_map: Sequence[PortMapAttr],
        back_edges: Sequence[BackEdgeAttr],
    ):
        super().__init__(
            operands=[list(inputs)],
            result_types=[list(result_types)],
            regions=[body],
            properties={
                "input_port_map": ArrayAttr(input_port_map),
                "output_port_map": ArrayAttr(output_port_map),
                "back_edges": ArrayAttr(back_edges),
            },
        )

    @property
    def body_yield(self) -> YieldOp:
        terminator = self.body.block.last_op
        if not isinstance(terminator, YieldOp):
            raise VerifyException(f"{self.name}: the body must end with openvino.yield")
        return terminator

    def verify_(self) -> None:
        block = self.body.block
        num_params, num_results = len(block.args), len(self.body_yield.values)
        mapped_params: set[int] = set()
        for entry in self.input_port_map.data:
            _check_index(self, "input_port_map external", entry.external.data, len(self.inputs))
            _check_index(self, "input_port_map internal", entry.internal.data, num_params)
            if entry.internal.data in mapped_params:
                raise VerifyException(
                    f"{self.name}: body argument {entry.internal.data} is mapped twice"
                )
            mapped_params.add(entry.internal.data)
            outer = self.inputs[entry.external.data].type
            inner = block.args[entry.internal.data].type
            _check_port_types(self, outer, inner)
        for entry in self.output_port_map.data:
            _check_index(self, "output_port_map external", entry.external.data, len(self.outputs))
            _check_index(self, "output_port_map internal", entry.internal.data, num_results)
            inner = self.body_yield.values[entry.internal.data].type
            _check_port_types(self, self.outputs[entry.external.data].type, inner)
        for edge in self.back_edges.data:
            _check_index(self, "back edge from", edge.from_result.data, num_results)
            _check_index(self, "back edge to", edge.to_param.data, num_params)
            if edge.to_param.data not in mapped_params:
                raise VerifyException(
                    f"{self.name}: back edge to body argument {edge.to_param.data}, which has "
                    "no initial value in input_port_map"
                )


def _check_index(op: IRDLOperation, what: str, index: int, size: int) -> None:
    if not 0 <= index < size:
        raise VerifyException(f"{op.name}: {what} index {index} is out of range [0, {size})")


def _check_port_types(op: IRDLOperation, outer: Attribute, inner: Attribute) -> None:
    if element_type(outer) != element_type(inner):
        raise VerifyException(
            f"{op.name}: port map connects {outer} and {inner} of different element types"
        )


OpenVINO = Dialect(
    "openvino",
    [
        ConstantOp,
        ReadValueOp,
        AssignOp,
        AddOp,
        SubtractOp,
        MultiplyOp,
        DivideOp,
        ModOp,
        FloorModOp,
        PowerOp,
        MaximumOp,
        MinimumOp,
        GreaterOp,
        LessOp,
        EqualOp,
        LogicalAndOp,
        LogicalOrOp,
        LogicalNotOp,
        ReluOp,
        SigmoidOp,
        TanhOp,
        ExpOp,
        AbsOp,
        NegativeOp,
        LogOp,
        FloorOp,
        CeilingOp,
        SqrtOp,
        SinOp,
        CosOp,
        ErfOp,
        SoftmaxOp,
        SquaredDifferenceOp,
        GeluOp,
        HSwishOp,
        HSigmoidOp,
        EluOp,
        SwishOp,
        PReluOp,
        MVNOp,
        ClampOp,
        ConvertOp,
        SelectOp,
        MatMulOp,
        ConvolutionOp,
        GroupConvolutionOp,
        MaxPoolOp,
        AvgPoolOp,
        ReduceSumOp,
        ReduceMeanOp,
        ReduceMaxOp,
        ReduceMinOp,
        ReduceProdOp,
        TileOp,
        PadOp,
        SplitOp,
        VariadicSplitOp,
        StridedSliceOp,
        SliceOp,
        ConcatOp,
        ReshapeOp,
        SqueezeOp,
        UnsqueezeOp,
        TransposeOp,
        ShapeOfOp,
        GatherOp,
        BroadcastOp,
        LSTMCellOp,
        GRUCellOp,
        LSTMSequenceOp,
        GRUSequenceOp,
        TensorIteratorOp,
        YieldOp,
    ],
    [PartialShapeAttr, PortMapAttr, BackEdgeAttr],
)
