"""What the `tosa` dialect's operator modules share: the `!tosa.shape<N>` type, the element
types each chapter of the specification accepts, the shape and type checks of the verifiers
(upstream MLIR's wording), the custom syntax `operands attr-dict : functional-type(...)`, and
`TosaOperation`, the base of the operators that print that way; and the data nodes the
checks read constants from (`tosa.const`, `tosa.identity`, `tosa.const_shape`).

- TOSA 1.0 specification: https://www.mlplatform.org/tosa/tosa_spec.html
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    TensorType,
    UnitAttr,
    bf16,
    f16,
    f32,
    f64,
    i1,
    i8,
    i32,
    i64,
)
from xdsl.dialects.tosa import NanMode, NanModeAttr
from xdsl.ir import (
    Attribute,
    Operation,
    ParametrizedAttribute,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.parser import AttrParser, Parser
from xdsl.printer import Printer
from xdsl.traits import ConstantLike, Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.variables import SUPPORTED_ELEMENT_TYPES

# ---------------------------------------------------------------------------------------
# The shape type
# ---------------------------------------------------------------------------------------


@irdl_attr_definition
class ShapeType(ParametrizedAttribute, TypeAttribute):
    """`!tosa.shape<N>`: a shape of rank `N`, i.e. a list of `N` index values.

    Produced by `tosa.const_shape` and consumed by `tosa.reshape`, `tosa.slice`,
    `tosa.tile` and `tosa.pad`. At run time a shape is a `tuple[int, ...]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#shapetype
    """

    name = "tosa.shape"

    rank_attr: IntAttr

    def __init__(self, rank: int | IntAttr):
        super().__init__(IntAttr(rank) if isinstance(rank, int) else rank)

    @property
    def rank(self) -> int:
        return self.rank_attr.data

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> Sequence[Attribute]:
        with parser.in_angle_brackets():
            rank = parser.parse_integer(allow_negative=False, allow_boolean=False)
        return (IntAttr(rank),)

    def print_parameters(self, printer: Printer) -> None:
        with printer.in_angle_brackets():
            printer.print_int(self.rank)


# ---------------------------------------------------------------------------------------
# Element types and shape helpers
# ---------------------------------------------------------------------------------------

NAN_PROPAGATE = NanModeAttr(NanMode.PROPAGATE)
"""The default `nan_mode`: NaN wins (upstream elides it when printing)."""

DATA_TYPES: tuple[Attribute, ...] = SUPPORTED_ELEMENT_TYPES
"""Element types data-movement ops accept: the spec's (i1, i8, i16, i32, f16, bf16, f32)
plus the ones OpenVINO models use (i64, ui8, f64), as for variables."""
INTEGER_TYPES: tuple[Attribute, ...] = tuple(
    t for t in DATA_TYPES if t != i1 and t not in (f16, bf16, f32, f64)
)
FLOAT_TYPES: tuple[Attribute, ...] = (f16, bf16, f32, f64)
NUMERIC_TYPES: tuple[Attribute, ...] = INTEGER_TYPES + FLOAT_TYPES
ACCUMULATING_TYPES: tuple[Attribute, ...] = (i32, i64, *FLOAT_TYPES)
"""Element types of `reduce_sum` / `reduce_product` (spec: i32 for sums, floats)."""
INDEX_TYPES: tuple[Attribute, ...] = (i32, i64)
"""Element types of `argmax` results and `gather` indices (i64: TOSA 1.1 EXT-INT64)."""

MATMUL_TYPES: dict[tuple[Attribute, Attribute], tuple[Attribute, ...]] = {
    (i8, i8): (i32,),
    (f16, f16): (f16, f32),
    (bf16, bf16): (f32,),
    (f32, f32): (f32,),
}
"""`(A_t, B_t) -> out_t` of TOSA 1.0 MATMUL (i16 x i16 -> i48 has no runtime type here)."""


def _tensor(value: SSAValue) -> TensorType:
    assert isinstance(value.type, TensorType), "checked by the operand constraint"
    return value.type


def _shape(value: SSAValue) -> tuple[int, ...]:
    return tuple(_tensor(value).get_shape())


def _element(value: SSAValue) -> Attribute:
    return _tensor(value).element_type


def _same_dim(a: int, b: int) -> bool:
    return a in (b, DYNAMIC_INDEX) or b == DYNAMIC_INDEX


def _same_shape(a: Sequence[int], b: Sequence[int]) -> bool:
    return len(a) == len(b) and all(_same_dim(x, y) for x, y in zip(a, b, strict=True))


def _is_static(shape: Sequence[int]) -> bool:
    return DYNAMIC_INDEX not in shape


def _dims(shape: Iterable[int]) -> str:
    return ", ".join("?" if d == DYNAMIC_INDEX else str(d) for d in shape)


def _names(types: Iterable[Attribute]) -> str:
    return ", ".join(str(t) for t in types)


def _check_element_type(what: str, value: SSAValue, allowed: tuple[Attribute, ...]) -> None:
    element = _element(value)
    if element not in allowed:
        raise VerifyException(
            f"expect '{what}' element type to be one of {_names(allowed)}, got '{element}'"
        )


def _check_same_element_type(a: SSAValue, b: SSAValue, a_name: str, b_name: str) -> None:
    if _element(a) != _element(b):
        raise VerifyException(
            f"expect {a_name} and {b_name} to have same element type, got '{_element(a)}' "
            f"and '{_element(b)}'"
        )


def _check_axis(axis: int, rank: int, what: str) -> None:
    if axis < 0 or axis >= rank:
        raise VerifyException(
            f"expect input tensor rank ({rank}) to be larger than {what} axis ({axis})"
        )


def _check_shape_rank(value: SSAValue, what: str, rank: int) -> None:
    shape_type = value.type
    assert isinstance(shape_type, ShapeType), "checked by the operand constraint"
    if shape_type.rank != rank:
        raise VerifyException(f"expect '{what}' to have rank {rank} but got {shape_type.rank}")


def constant_shape(value: SSAValue) -> tuple[int, ...] | None:
    """The values of a shape produced by `tosa.const_shape`, else `None`."""
    owner = value.owner
    if isinstance(owner, ConstShapeOp):
        return owner.shape_values
    return None


def _compile_time_shape(value: SSAValue, what: str, rank: int) -> tuple[int, ...] | None:
    """A `!tosa.shape<rank>` operand's values when `tosa.const_shape` gives them; `None`
    when TOSA shape ops (`tosa.dim`, `tosa.concat_shape`, ...: the dynamic-shape
    extension) compute them at run time. Any other producer is an error."""
    _check_shape_rank(value, what, rank)
    values = constant_shape(value)
    if values is None:
        owner = value.owner
        if isinstance(owner, Operation) and owner.name in SHAPE_OP_NAMES:
            return None
        raise VerifyException("shape operand is not compile time resolvable")
    return values


SHAPE_OP_NAMES = frozenset(
    ["tosa.dim", "tosa.concat_shape", "tosa.add_shape", "tosa.sub_shape", "tosa.mul_shape",
     "tosa.div_floor_shape", "tosa.max_shape", "tosa.min_shape", "tosa.shape_from_tensor"]
)
"""The TOSA shape operators whose results are only known at run time."""


def _zero_point_value(value: SSAValue) -> float | None:
    """The value of a `tensor<1xT>` zero point produced by `tosa.const`, else `None`."""
    owner = value.owner
    if isinstance(owner, ConstOp):
        values = owner.values.get_values()
        if len(values) == 1:
            return float(values[0])
    return None


def _check_zero_points(*zero_points: tuple[str, SSAValue, Attribute]) -> None:
    """Each `(name, value, operand element type)`: a `tensor<1xT>`, zero unless `T` is i8."""
    for what, zp, operand_t in zero_points:
        if _shape(zp) != (1,) or _element(zp) != operand_t:
            raise VerifyException(f"expect '{what}' to be a tensor<1x{operand_t}>, got '{zp.type}'")
        if operand_t != i8 and (value := _zero_point_value(zp)) not in (None, 0):
            raise VerifyException(
                f"expect '{what}' to be zero for non-int8 element type '{operand_t}', "
                f"got {value:g}"
            )


def _check_windowed_shape(
    out_shape: Sequence[int],
    batch_channels: tuple[int, int],
    sizes: tuple[int, int],
    kernels: Sequence[int],
    pad: Sequence[int],
    stride: Sequence[int],
    dilation: Sequence[int],
    span_text: str,
) -> None:
    """The output of a 2-D window op (convolution, pooling): for each of height and width,
    `size - 1 + pads - (kernel - 1) * dilation` must be divisible by the stride (TOSA has
    no partial windows); `span_text` names that quantity in the message."""
    inferred = [batch_channels[0], DYNAMIC_INDEX, DYNAMIC_INDEX, batch_channels[1]]
    for index in (0, 1):
        size, kernel, step = sizes[index], kernels[index], stride[index]
        if DYNAMIC_INDEX in (size, kernel):
            continue
        span = size - 1 + pad[2 * index] + pad[2 * index + 1] - (kernel - 1) * dilation[index]
        if span < 0 or span % step:
            what = span_text.format(("height", "width")[index])
            raise VerifyException(
                f"expected {what} ({span}) to be wholly divisible by stride ({step})"
            )
        inferred[1 + index] = span // step + 1
    if not _same_shape(out_shape, inferred):
        raise VerifyException(
            f"expected output shape {_dims(out_shape)} to be compatible with inferred "
            f"shape {_dims(inferred)}"
        )


# ---------------------------------------------------------------------------------------
# Custom syntax shared by the ops: `operands attr-dict : functional-type(operands, results)`
# ---------------------------------------------------------------------------------------


def _print_attr_dict(printer: Printer, op: Operation) -> None:
    """Properties and attributes in one sorted dictionary, defaults elided, like MLIR.

    `nan_mode` prints as a bare keyword (`nan_mode = IGNORE`); `PROPAGATE` is elided.
    """
    entries = {**op.attributes, **op.properties}
    nan_mode = entries.get("nan_mode")
    if isinstance(nan_mode, NanModeAttr) and nan_mode.data == NanMode.PROPAGATE:
        del entries["nan_mode"]
    if not entries:
        return
    printer.print_string(" ")
    with printer.in_braces():
        for index, (key, value) in enumerate(sorted(entries.items())):
            if index:
                printer.print_string(", ")
            printer.print_identifier_or_string_literal(key)
            if isinstance(value, UnitAttr):
                continue
            printer.print_string(" = ")
            if key == "nan_mode" and isinstance(value, NanModeAttr):
                printer.print_string(str(value.data))
            else:
                printer.print_attribute(value)


def _parse_attr_entry(parser: Parser) -> tuple[str, Attribute]:
    name = parser.parse_identifier_or_str_literal()
    if parser.parse_optional_punctuation("=") is None:
        return name, UnitAttr()
    if name == "nan_mode":
        mode = parser.parse_optional_str_enum(NanMode)
        if mode is not None:
            return name, NanModeAttr(mode)
    return name, parser.parse_attribute()


def _parse_attr_dict(
    parser: Parser, op_type: type[IRDLOperation]
) -> tuple[dict[str, Attribute], dict[str, Attribute]]:
    """An optional `{...}` dictionary, split into (properties, attributes)."""
    entries = parser.parse_optional_comma_separated_list(
        parser.Delimiter.BRACES, lambda: _parse_attr_entry(parser)
    )
    property_names = op_type.get_irdl_definition().properties.keys()
    properties: dict[str, Attribute] = {}
    attributes: dict[str, Attribute] = {}
    for name, value in entries or ():
        target = properties if name in property_names else attributes
        if name in target:
            parser.raise_error(f"duplicate key '{name}' in attribute dictionary")
        target[name] = value
    return dict(sorted(properties.items())), attributes


class TosaOperation(IRDLOperation):
    """Base of the TOSA ops printed as `operands attr-dict : (types) -> types`."""

    def print(self, printer: Printer) -> None:
        printer.print_string(" ")
        printer.print_list(self.operands, printer.print_operand)
        _print_attr_dict(printer, self)
        printer.print_string(" : ")
        printer.print_function_type(self.operand_types, self.result_types)

    @classmethod
    def parse(cls, parser: Parser) -> IRDLOperation:
        pos = parser.pos
        unresolved = (
            parser.parse_optional_undelimited_comma_separated_list(
                parser.parse_optional_unresolved_operand, parser.parse_unresolved_operand
            )
            or []
        )
        properties, attributes = _parse_attr_dict(parser, cls)
        parser.parse_punctuation(":")
        function_type = parser.parse_function_type()
        operands = parser.resolve_operands(unresolved, function_type.inputs.data, pos)
        return cls.create(
            operands=operands,
            result_types=function_type.outputs.data,
            properties=properties,
            attributes=attributes,
        )


# ---------------------------------------------------------------------------------------
# Data nodes and shapes
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class ConstOp(IRDLOperation):
    """A constant tensor `values` (printed in generic form, like upstream).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaconst-mlirtosaconstop
    """

    name = "tosa.const"

    values = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(TensorType)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, values: DenseIntOrFPElementsAttr):
        super().__init__(properties={"values": values}, result_types=[values.type])

    def verify_(self) -> None:
        if self.values.type != self.output.type:
            raise VerifyException(
                f"expect 'values' of type '{self.values.type}' to match the result type "
                f"'{self.output.type}'"
            )
        _check_element_type("output", self.output, DATA_TYPES)


@irdl_op_definition
class IdentityOp(TosaOperation):
    """Returns its input unchanged.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaidentity-mlirtosaidentityop
    """

    name = "tosa.identity"

    input1 = operand_def(TensorType)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, input1: SSAValue | Operation):
        super().__init__(operands=[input1], result_types=[SSAValue.get(input1).type])

    def verify_(self) -> None:
        if self.input1.type != self.output.type:
            raise VerifyException(
                f"expect input and output to have the same type, got '{self.input1.type}' "
                f"and '{self.output.type}'"
            )
        _check_element_type("input1", self.input1, DATA_TYPES)


@lru_cache(maxsize=4096)
def _shape_values(shape: tuple[int, ...]) -> DenseIntOrFPElementsAttr:
    """The `values` of a `tosa.const_shape` (attributes are immutable: one per shape, as
    building one is most of building the op, and a model repeats a few shapes thousands
    of times)."""
    return DenseIntOrFPElementsAttr.from_list(TensorType(IndexType(), [len(shape)]), list(shape))


@irdl_op_definition
class ConstShapeOp(TosaOperation):
    """A constant shape: `values : tensor<Nxindex>` gives a `!tosa.shape<N>`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaconst_shape-mlirtosaconstshapeop
    """

    name = "tosa.const_shape"

    values = prop_def(DenseIntOrFPElementsAttr)
    output = result_def(ShapeType)

    traits = traits_def(Pure(), ConstantLike())

    def __init__(self, shape: Sequence[int]):
        values = _shape_values(tuple(int(d) for d in shape))
        super().__init__(properties={"values": values}, result_types=[ShapeType(len(shape))])

    @property
    def shape_values(self) -> tuple[int, ...]:
        return tuple(int(v) for v in self.values.get_values())

    def verify_(self) -> None:
        values_type = self.values.type
        if not (
            isinstance(values_type, TensorType)
            and isinstance(values_type.element_type, IndexType)
            and values_type.get_num_dims() == 1
        ):
            raise VerifyException(
                f"expect 'values' to be a 1-D tensor of index, got '{values_type}'"
            )
        output_type = self.output.type
        assert isinstance(output_type, ShapeType)
        count = values_type.get_shape()[0]
        if count != output_type.rank:
            raise VerifyException(
                f"expect number of elements in attribute values ({count}) to be equal to "
                f"the rank ({output_type.rank}) for the result shape type"
            )
