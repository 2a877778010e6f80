"""TOSA 1.0 tensor-level operators, and the `!tosa.shape<N>` type.

The specification's tensor, reduction, data-layout, scatter/gather, data-node and shape
operators (the elementwise chapters live in `elementwise.py`):

- data nodes: `tosa.const`, `tosa.identity`; shapes: `tosa.const_shape`
- tensor: `tosa.matmul`, `tosa.conv2d`, `tosa.depthwise_conv2d`, `tosa.max_pool2d`,
  `tosa.avg_pool2d`, `tosa.argmax`
- reduction: `tosa.reduce_{all,any,max,min,product,sum}`
- data layout: `tosa.concat`, `tosa.pad`, `tosa.reshape`, `tosa.reverse`, `tosa.slice`,
  `tosa.tile`, `tosa.transpose`
- scatter/gather: `tosa.gather`, `tosa.scatter`

(Control flow, `tosa.cond_if` / `tosa.while_loop` / `tosa.yield`, is in `control_flow.py`.)

Custom syntax is exactly what upstream MLIR (`tosa-opt`) prints; `tosa.const` has none
(upstream prints it in generic form too). Verifiers check shapes and element types per
the specification, with upstream MLIR's wording where upstream has the rule. Dynamic
dimensions (`?`) are accepted and skipped by the shape checks.

- TOSA 1.0 specification: https://www.mlplatform.org/tosa/tosa_spec.html
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from math import prod
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    DenseIntOrFPElementsAttr,
    IndexType,
    IntAttr,
    IntegerAttr,
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
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
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
     "tosa.div_floor_shape", "tosa.max_shape", "tosa.min_shape"]
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
        values = DenseIntOrFPElementsAttr.from_list(
            TensorType(IndexType(), [len(shape)]), list(shape)
        )
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


# ---------------------------------------------------------------------------------------
# Tensor operators
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class MatMulOp(TosaOperation):
    """Batched matrix product `[N,H,C] x [N,C,W] -> [N,H,W]` with zero points.

    `a_zp` / `b_zp` are `tensor<1xT>` and must be zero unless `T` is `i8`. i8 inputs
    accumulate in i32, floating-point inputs in f32.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosamatmul-mlirtosamatmulop
    """

    name = "tosa.matmul"

    a = operand_def(TensorType)
    b = operand_def(TensorType)
    a_zp = operand_def(TensorType)
    b_zp = operand_def(TensorType)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        a: SSAValue | Operation,
        b: SSAValue | Operation,
        a_zp: SSAValue | Operation,
        b_zp: SSAValue | Operation,
        result_type: Attribute,
    ):
        super().__init__(operands=[a, b, a_zp, b_zp], result_types=[result_type])

    def verify_(self) -> None:
        a_shape, b_shape, out_shape = _shape(self.a), _shape(self.b), _shape(self.output)
        for what, shape in (("a", a_shape), ("b", b_shape), ("output", out_shape)):
            if len(shape) != 3:
                raise VerifyException(f"expect '{what}' to have rank 3, got rank {len(shape)}")
        a_t, b_t, out_t = _element(self.a), _element(self.b), _element(self.output)
        allowed = MATMUL_TYPES.get((a_t, b_t))
        if allowed is None or out_t not in allowed:
            supported = "; ".join(
                f"{a} x {b} -> {' or '.join(str(o) for o in outs)}"
                for (a, b), outs in MATMUL_TYPES.items()
            )
            raise VerifyException(
                f"unsupported element types '{a_t}' x '{b_t}' -> '{out_t}'; supported: {supported}"
            )
        _check_zero_points(("a_zp", self.a_zp, a_t), ("b_zp", self.b_zp, b_t))
        n, h, c = a_shape
        if not _same_dim(b_shape[0], n):
            raise VerifyException(f"expected batch of b to match size {n}, got {b_shape[0]}")
        if not _same_dim(b_shape[1], c):
            raise VerifyException(f"expected channels of b to match size {c}, got {b_shape[1]}")
        inferred = (n if n != DYNAMIC_INDEX else b_shape[0], h, b_shape[2])
        if not _same_shape(out_shape, inferred):
            raise VerifyException(
                f"expected output shape {_dims(out_shape)} to be compatible with inferred "
                f"shape {_dims(inferred)}"
            )


CONV_TYPES: dict[tuple[Attribute, Attribute], tuple[Attribute, tuple[Attribute, ...]]] = {
    (i8, i8): (i32, (i32,)),
    (f16, f16): (f16, (f16, f32)),
    (bf16, bf16): (bf16, (f32,)),
    (f32, f32): (f32, (f32,)),
}
"""`(in_t, weight_t) -> (out_t, acc_types)` of TOSA 1.0 CONV2D."""


class ConvOperation(TosaOperation):
    """Base of the 2-D convolutions of `input [N,IH,IW,IC]`, plus `bias` (`[OC]` or `[1]`):
    `pad` = [top, bottom, left, right] (zeros, i.e. the zero point), `stride` = [y, x],
    `dilation` = [y, x], accumulated in `acc_type`. The zero points are `tensor<1xT>` and
    must be zero unless `T` is `i8`."""

    input = operand_def(TensorType)
    weight = operand_def(TensorType)
    bias = operand_def(TensorType)
    input_zp = operand_def(TensorType)
    weight_zp = operand_def(TensorType)
    output = result_def(TensorType)
    pad = prop_def(DenseArrayBase[I64])
    stride = prop_def(DenseArrayBase[I64])
    dilation = prop_def(DenseArrayBase[I64])
    acc_type = prop_def(TypeAttribute)
    local_bound = opt_prop_def(BoolAttr)

    traits = traits_def(Pure())

    def __init__(
        self,
        operands: Sequence[SSAValue | Operation],
        result_type: Attribute,
        pad: Sequence[int],
        stride: Sequence[int],
        dilation: Sequence[int],
        acc_type: Attribute,
    ):
        super().__init__(
            operands=list(operands),
            result_types=[result_type],
            properties={
                "acc_type": acc_type,
                "dilation": DenseArrayBase.from_list(i64, dilation),
                "pad": DenseArrayBase.from_list(i64, pad),
                "stride": DenseArrayBase.from_list(i64, stride),
            },
        )

    def verify_(self) -> None:
        in_shape, w_shape, out_shape = _shape(self.input), _shape(self.weight), _shape(self.output)
        for what, shape in (("input", in_shape), ("weight", w_shape), ("output", out_shape)):
            if len(shape) != 4:
                raise VerifyException(f"expect '{what}' to have rank 4, got rank {len(shape)}")
        in_t, w_t, out_t = _element(self.input), _element(self.weight), _element(self.output)
        if (in_t, w_t) not in CONV_TYPES:
            supported = "; ".join(f"{a} x {b}" for a, b in CONV_TYPES)
            raise VerifyException(
                f"unsupported element types '{in_t}' x '{w_t}'; supported: {supported}"
            )
        want_out, accumulators = CONV_TYPES[(in_t, w_t)]
        if out_t != want_out:
            raise VerifyException(f"expect output element type '{want_out}', got '{out_t}'")
        if self.acc_type not in accumulators:
            raise VerifyException(
                f"accumulator type '{self.acc_type}' is not one of {_names(accumulators)} for "
                f"'{in_t}' inputs"
            )
        if _element(self.bias) != out_t or len(_shape(self.bias)) != 1:
            raise VerifyException(f"expect 'bias' to be a 1-D tensor of '{out_t}', got "
                                  f"'{self.bias.type}'")
        _check_zero_points(("input_zp", self.input_zp, in_t),
                           ("weight_zp", self.weight_zp, w_t))
        pad, stride, dilation = (tuple(a.get_values()) for a in (self.pad, self.stride,
                                                                  self.dilation))
        for what, values, size, low in (("pad", pad, 4, 0), ("stride", stride, 2, 1),
                                        ("dilation", dilation, 2, 1)):
            if len(values) != size:
                raise VerifyException(f"expect '{what}' to have {size} values, got {len(values)}")
            if any(v < low for v in values):
                raise VerifyException(
                    f"expect all {what} values to be >= {low}, got {list(values)}"
                )
        n, ih, iw, ic = in_shape
        oc, kh, kw, wc = self.weight_dims(w_shape)
        if not _same_dim(ic, wc):
            raise VerifyException(f"expect input channels ({_dims([ic])}) to match the "
                                  f"weight's ({_dims([wc])})")
        bias_size = _shape(self.bias)[0]
        if bias_size not in (1, oc, DYNAMIC_INDEX) and oc != DYNAMIC_INDEX:
            raise VerifyException(f"bias channels expected to be equal to output channels "
                                  f"({oc}) or 1, got {bias_size}")
        _check_windowed_shape(
            out_shape, (n, oc), (ih, iw), (kh, kw), pad, stride, dilation,
            "input_{0} - 1 + pad - (kernel_{0} - 1) * dilation",
        )

    def weight_dims(self, w_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        """(output channels, KH, KW, input channels) of a weight of shape `w_shape`."""
        raise NotImplementedError


@irdl_op_definition
class Conv2DOp(ConvOperation):
    """2-D convolution by `weight [OC,KH,KW,IC]` (see `ConvOperation`).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaconv2d-mlirtosaconv2dop
    """

    name = "tosa.conv2d"

    def weight_dims(self, w_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        oc, kh, kw, ic = w_shape
        return oc, kh, kw, ic


@irdl_op_definition
class DepthwiseConv2DOp(ConvOperation):
    """Depthwise 2-D convolution by `weight [KH,KW,C,M]`: each input channel `c` is
    convolved by its own `M` filters, giving output channels `c * M + m` (see
    `ConvOperation`).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosadepthwise_conv2d-mlirtosadepthwiseconv2dop
    """

    name = "tosa.depthwise_conv2d"

    def weight_dims(self, w_shape: tuple[int, ...]) -> tuple[int, int, int, int]:
        kh, kw, c, m = w_shape
        out = DYNAMIC_INDEX if DYNAMIC_INDEX in (c, m) else c * m
        return out, kh, kw, c


class PoolOperation(TosaOperation):
    """Base of the 2-D pooling ops over `input [N,IH,IW,C]`: windows of `kernel` = [y, x],
    moved by `stride` = [y, x], over the input padded by `pad` = [top, bottom, left, right]
    (each pad smaller than the kernel; padding never wins a max nor counts in an average)."""

    kernel = prop_def(DenseArrayBase[I64])
    stride = prop_def(DenseArrayBase[I64])
    pad = prop_def(DenseArrayBase[I64])

    traits = traits_def(Pure())

    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]]

    def verify_(self) -> None:
        input_value, output = self.operands[0], self.results[0]
        in_shape, out_shape = _shape(input_value), _shape(output)
        for what, shape in (("input", in_shape), ("output", out_shape)):
            if len(shape) != 4:
                raise VerifyException(f"expect '{what}' to have rank 4, got rank {len(shape)}")
        _check_element_type("input", input_value, self.ELEMENT_TYPES)
        _check_same_element_type(input_value, output, "input", "output")
        kernel, stride, pad = (tuple(a.get_values()) for a in (self.kernel, self.stride,
                                                                self.pad))
        for what, values, size, low in (("kernel", kernel, 2, 1), ("stride", stride, 2, 1),
                                        ("pad", pad, 4, 0)):
            if len(values) != size or any(v < low for v in values):
                raise VerifyException(
                    f"expect '{what}' to hold {size} values >= {low}, got {list(values)}"
                )
        if pad[0] >= kernel[0] or pad[1] >= kernel[0] or pad[2] >= kernel[1] \
                or pad[3] >= kernel[1]:
            raise VerifyException(
                f"expected padding {list(pad)} to be less than the kernel {list(kernel)}"
            )
        n, ih, iw, c = in_shape
        _check_windowed_shape(out_shape, (n, c), (ih, iw), kernel, pad, stride, (1, 1),
                              "input_{0} + pad - kernel")


@irdl_op_definition
class MaxPool2DOp(PoolOperation):
    """The maximum of each window (`nan_mode = IGNORE` skips NaNs; PROPAGATE, the default,
    returns NaN for a window holding one).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosamax_pool2d-mlirtosamaxpool2dop
    """

    name = "tosa.max_pool2d"

    input = operand_def(TensorType)
    output = result_def(TensorType)
    nan_mode = prop_def(NanModeAttr, default_value=NanModeAttr(NanMode.PROPAGATE))

    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = (i8, f16, bf16, f32)

    def __init__(self, input: SSAValue | Operation, result_type: Attribute,
                 kernel: Sequence[int], stride: Sequence[int], pad: Sequence[int]):
        super().__init__(
            operands=[input],
            result_types=[result_type],
            properties={
                "kernel": DenseArrayBase.from_list(i64, kernel),
                "pad": DenseArrayBase.from_list(i64, pad),
                "stride": DenseArrayBase.from_list(i64, stride),
            },
        )


@irdl_op_definition
class AvgPool2DOp(PoolOperation):
    """The mean of the input elements of each window (padding does not count), accumulated
    in `acc_type`. i8 subtracts `input_zp`, divides by a fixed-point reciprocal of the
    count (rounding half up), adds `output_zp` and saturates; float zero points are zeros.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaavg_pool2d-mlirtosaavgpool2dop
    """

    name = "tosa.avg_pool2d"

    input = operand_def(TensorType)
    input_zp = operand_def(TensorType)
    output_zp = operand_def(TensorType)
    output = result_def(TensorType)
    acc_type = prop_def(TypeAttribute)

    ELEMENT_TYPES: ClassVar[tuple[Attribute, ...]] = (i8, f16, bf16, f32)
    ACCUMULATORS: ClassVar[dict[Attribute, tuple[Attribute, ...]]] = {
        i8: (i32,), f16: (f16, f32), bf16: (f32,), f32: (f32,)
    }

    def __init__(self, input: SSAValue | Operation, input_zp: SSAValue | Operation,
                 output_zp: SSAValue | Operation, result_type: Attribute,
                 kernel: Sequence[int], stride: Sequence[int], pad: Sequence[int],
                 acc_type: Attribute):
        super().__init__(
            operands=[input, input_zp, output_zp],
            result_types=[result_type],
            properties={
                "acc_type": acc_type,
                "kernel": DenseArrayBase.from_list(i64, kernel),
                "pad": DenseArrayBase.from_list(i64, pad),
                "stride": DenseArrayBase.from_list(i64, stride),
            },
        )

    def verify_(self) -> None:
        super().verify_()
        element = _element(self.input)
        accumulators = self.ACCUMULATORS[element]
        if self.acc_type not in accumulators:
            raise VerifyException(
                f"accumulator type '{self.acc_type}' is not one of {_names(accumulators)} for "
                f"'{element}' inputs"
            )
        _check_zero_points(("input_zp", self.input_zp, element),
                           ("output_zp", self.output_zp, element))


@irdl_op_definition
class ArgMaxOp(TosaOperation):
    """Index of the largest value along `axis` (removed from the shape).

    Ties give the first index. With `nan_mode = PROPAGATE` (default) a NaN is the
    largest value; with `IGNORE` NaNs are skipped (index 0 if all are NaN).

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaargmax-mlirtosaargmaxop
    """

    name = "tosa.argmax"

    input = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    nan_mode = opt_prop_def(NanModeAttr, default_value=NAN_PROPAGATE)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        input: SSAValue | Operation,
        axis: int,
        result_type: Attribute,
        nan_mode: NanModeAttr | None = None,
    ):
        properties: dict[str, Attribute] = {"axis": IntegerAttr(axis, 32)}
        if nan_mode is not None:
            properties["nan_mode"] = nan_mode
        super().__init__(operands=[input], properties=properties, result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("input", self.input, NUMERIC_TYPES)
        _check_element_type("output", self.output, INDEX_TYPES)
        in_shape, out_shape = _shape(self.input), _shape(self.output)
        axis = self.axis.value.data
        _check_axis(axis, len(in_shape), "reduce")
        expected = in_shape[:axis] + in_shape[axis + 1 :]
        if not _same_shape(out_shape, expected):
            raise VerifyException(
                f"expected output shape '{_dims(expected)}', got '{_dims(out_shape)}'"
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


# ---------------------------------------------------------------------------------------
# Data layout
# ---------------------------------------------------------------------------------------


class DataLayoutOperation(TosaOperation):
    """A data-movement op: `input1` and `output` have the same element type.

    Subclasses declare `input1` (first operand) and `output` themselves, so that their
    other operands follow `input1` in order.
    """

    traits = traits_def(Pure())

    def verify_(self) -> None:
        input1, output = self.operands[0], self.results[0]
        _check_element_type("input1", input1, DATA_TYPES)
        _check_same_element_type(input1, output, "input1", "output")
        self.verify_shapes(_shape(input1), _shape(output))

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        raise NotImplementedError


@irdl_op_definition
class ReshapeOp(DataLayoutOperation):
    """The same elements in row-major order with the shape given by `shape`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareshape-mlirtosareshapeop
    """

    name = "tosa.reshape"

    input1 = operand_def(TensorType)
    shape = operand_def(ShapeType)
    output = result_def(TensorType)

    def __init__(self, input1: SSAValue | Operation, shape: SSAValue | Operation, result_type):
        super().__init__(operands=[input1, shape], result_types=[result_type])

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        new_shape = _compile_time_shape(self.shape, "shape", len(out_shape))
        if _is_static(in_shape) and _is_static(out_shape) and prod(in_shape) != prod(out_shape):
            raise VerifyException(
                f"cannot reshape {prod(in_shape)} elements into {prod(out_shape)}"
            )
        if new_shape is None:
            return
        if new_shape.count(-1) > 1 or not all(
            s == -1 or _same_dim(s, d) for s, d in zip(new_shape, out_shape, strict=True)
        ):
            raise VerifyException(
                f"new shape [{_dims(new_shape)}] is inconsistent with result shape "
                f"[{_dims(out_shape)}]"
            )


@irdl_op_definition
class SliceOp(DataLayoutOperation):
    """The window of `input1` at offsets `start` with extents `size`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaslice-mlirtosasliceop
    """

    name = "tosa.slice"

    input1 = operand_def(TensorType)
    start = operand_def(ShapeType)
    size = operand_def(ShapeType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        start: SSAValue | Operation,
        size: SSAValue | Operation,
        result_type: Attribute,
    ):
        super().__init__(operands=[input1, start, size], result_types=[result_type])

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        rank = len(in_shape)
        start = _compile_time_shape(self.start, "start", rank)
        size = _compile_time_shape(self.size, "size", rank)
        if len(out_shape) != rank:
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({rank})"
            )
        if start is None or size is None:
            return
        for dim, (begin, extent, length) in enumerate(zip(start, size, in_shape, strict=True)):
            if begin < 0:
                raise VerifyException(
                    f"expect start values to be non-negative, got {begin} at dimension {dim}"
                )
            if extent <= 0 and extent != -1:
                raise VerifyException(
                    f"expect size values to be positive (or -1), got {extent} at dimension {dim}"
                )
            if length == DYNAMIC_INDEX:
                continue
            if extent == -1:  # to the end, as upstream
                extent = length - begin
            if begin + extent > length:
                raise VerifyException(
                    "start + size must be less than or equal to input dimension size, got "
                    f"start={begin}, size={extent} vs input dim size={length} at "
                    f"dimension {dim}"
                )
            if not _same_dim(out_shape[dim], extent):
                raise VerifyException(
                    f"expected output shape to match size values, got '{self.output.type}' vs "
                    f"[{_dims(size)}]"
                )


@irdl_op_definition
class TileOp(DataLayoutOperation):
    """`input1` repeated `multiples[i]` times along each dimension `i`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosatile-mlirtosatileop
    """

    name = "tosa.tile"

    input1 = operand_def(TensorType)
    multiples = operand_def(ShapeType)
    output = result_def(TensorType)

    def __init__(self, input1: SSAValue | Operation, multiples: SSAValue | Operation, result_type):
        super().__init__(operands=[input1, multiples], result_types=[result_type])

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        multiples = _compile_time_shape(self.multiples, "multiples", len(in_shape))
        if len(out_shape) != len(in_shape):
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({len(in_shape)})"
            )
        if multiples is None:
            return
        for dim, (size, times, out) in enumerate(zip(in_shape, multiples, out_shape, strict=True)):
            if times < 1:
                raise VerifyException(
                    f"expect multiples to be positive, got {times} at dimension {dim}"
                )
            if size != DYNAMIC_INDEX and not _same_dim(out, size * times):
                raise VerifyException(
                    f"expect output dimension {dim} to be {size} * {times} = {size * times}, "
                    f"got {_dims([out])}"
                )


@irdl_op_definition
class PadOp(DataLayoutOperation):
    """`input1` surrounded by `pad_const`: `padding = [lo0, hi0, lo1, hi1, ...]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosapad-mlirtosapadop
    """

    name = "tosa.pad"

    input1 = operand_def(TensorType)
    padding = operand_def(ShapeType)
    pad_const = operand_def(TensorType)
    output = result_def(TensorType)

    def __init__(
        self,
        input1: SSAValue | Operation,
        padding: SSAValue | Operation,
        pad_const: SSAValue | Operation,
        result_type: Attribute,
    ):
        super().__init__(operands=[input1, padding, pad_const], result_types=[result_type])

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        rank = len(in_shape)
        padding_type = self.padding.type
        assert isinstance(padding_type, ShapeType)
        if padding_type.rank != 2 * rank:
            raise VerifyException(
                f"padding tensor must have {rank} * 2 = {2 * rank} elements, but got "
                f"{padding_type.rank}"
            )
        if _element(self.pad_const) != _element(self.input1):
            raise VerifyException(
                f"expect input and pad_const to have same element type, got "
                f"'{_element(self.input1)}' and '{_element(self.pad_const)}'"
            )
        if _shape(self.pad_const) != (1,):
            raise VerifyException(
                f"expect 'pad_const' to have shape [1], got '{self.pad_const.type}'"
            )
        if len(out_shape) != rank:
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({rank})"
            )
        padding = _compile_time_shape(self.padding, "padding", 2 * rank)
        for dim in range(rank if padding is not None else 0):
            low, high = padding[2 * dim], padding[2 * dim + 1]
            if low < 0 or high < 0:
                raise VerifyException(
                    f"expect padding values to be non-negative, got [{low}, {high}] at "
                    f"dimension {dim}"
                )
            size = in_shape[dim]
            if size != DYNAMIC_INDEX and not _same_dim(out_shape[dim], low + size + high):
                raise VerifyException(
                    f"mismatch in output shape at dimension {dim}: expected {size} + {low} + "
                    f"{high} = {low + size + high}, but got {_dims([out_shape[dim]])}"
                )


@irdl_op_definition
class ReverseOp(DataLayoutOperation):
    """`input1` with the order of the elements along `axis` reversed.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosareverse-mlirtosareverseop
    """

    name = "tosa.reverse"

    input1 = operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    output = result_def(TensorType)

    def __init__(self, input1: SSAValue | Operation, axis: int):
        super().__init__(
            operands=[input1],
            properties={"axis": IntegerAttr(axis, 32)},
            result_types=[SSAValue.get(input1).type],
        )

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        _check_axis(self.axis.value.data, len(in_shape), "reverse")
        if not _same_shape(in_shape, out_shape):
            raise VerifyException(
                f"expect output shape '{_dims(out_shape)}' to equal input shape '{_dims(in_shape)}'"
            )


@irdl_op_definition
class TransposeOp(DataLayoutOperation):
    """`input1` with its dimensions permuted: `output.shape[i] = input1.shape[perms[i]]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosatranspose-mlirtosatransposeop
    """

    name = "tosa.transpose"

    input1 = operand_def(TensorType)
    perms = prop_def(DenseArrayBase[I32])
    output = result_def(TensorType)

    def __init__(self, input1: SSAValue | Operation, perms: Sequence[int], result_type=None):
        if result_type is None:
            in_type = SSAValue.get(input1).type
            assert isinstance(in_type, TensorType)
            shape = in_type.get_shape()
            result_type = TensorType(in_type.element_type, [shape[p] for p in perms])
        super().__init__(
            operands=[input1],
            properties={"perms": DenseArrayBase.from_list(i32, perms)},
            result_types=[result_type],
        )

    def verify_shapes(self, in_shape: tuple[int, ...], out_shape: tuple[int, ...]) -> None:
        perms = self.perms.get_values()
        rank = len(in_shape)
        if len(perms) != rank:
            raise VerifyException(
                f"expected perms attribute to have size {rank} (input rank) but got size "
                f"{len(perms)}"
            )
        if sorted(perms) != list(range(rank)):
            raise VerifyException("expected valid permutation indices")
        if len(out_shape) != rank:
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({rank})"
            )
        for dim, perm in enumerate(perms):
            if not _same_dim(out_shape[dim], in_shape[perm]):
                raise VerifyException(
                    f"expected output tensor dim {dim} to match input dim {perm} with value "
                    f"of {_dims([in_shape[perm]])}"
                )


@irdl_op_definition
class ConcatOp(TosaOperation):
    """The inputs joined along `axis`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosaconcat-mlirtosaconcatop
    """

    name = "tosa.concat"

    input1 = var_operand_def(TensorType)
    axis = prop_def(IntegerAttr[I32])
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, inputs: Sequence[SSAValue | Operation], axis: int, result_type: Attribute):
        super().__init__(
            operands=[inputs],
            properties={"axis": IntegerAttr(axis, 32)},
            result_types=[result_type],
        )

    def verify_(self) -> None:
        inputs = self.input1
        if not inputs:
            raise VerifyException("expect at least one input")
        _check_element_type("output", self.output, DATA_TYPES)
        for value in inputs:
            _check_same_element_type(value, self.output, "inputs", "output")
        shapes = [_shape(value) for value in inputs]
        out_shape = _shape(self.output)
        rank = len(shapes[0])
        axis = self.axis.value.data
        _check_axis(axis, rank, "concat")
        for index, shape in enumerate(shapes):
            if len(shape) != rank:
                raise VerifyException(
                    f"expect all operands to have the same rank, but got {rank} vs "
                    f"{len(shape)} on operands 0 and {index}"
                )
            for dim in range(rank):
                if dim != axis and not _same_dim(shape[dim], shapes[0][dim]):
                    raise VerifyException(
                        "expect all operand shapes to have the same sizes on non-axis "
                        f"dimensions, but got {_dims([shape[dim]])} vs "
                        f"{_dims([shapes[0][dim]])} at index {dim} on operands 0 and {index}"
                    )
        if len(out_shape) != rank:
            raise VerifyException(
                f"expect output rank ({len(out_shape)}) to equal input rank ({rank})"
            )
        for dim in range(rank):
            if dim != axis and not _same_dim(out_shape[dim], shapes[0][dim]):
                raise VerifyException(
                    f"expect output dimension {dim} to be {_dims([shapes[0][dim]])}, got "
                    f"{_dims([out_shape[dim]])}"
                )
        axis_sizes = [shape[axis] for shape in shapes]
        if _is_static(axis_sizes) and not _same_dim(out_shape[axis], sum(axis_sizes)):
            raise VerifyException(
                "requires sum of axis dimensions of input1 equal to output axis dimension, "
                f"got {sum(axis_sizes)} and {_dims([out_shape[axis]])}"
            )


# ---------------------------------------------------------------------------------------
# Scatter / gather
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(TosaOperation):
    """`output[n, w, c] = values[n, indices[n, w], c]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosagather-mlirtosagatherop
    """

    name = "tosa.gather"

    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, values: SSAValue | Operation, indices: SSAValue | Operation, result_type):
        super().__init__(operands=[values, indices], result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("values", self.values, DATA_TYPES)
        _check_element_type("indices", self.indices, INDEX_TYPES)
        _check_same_element_type(self.values, self.output, "values", "output")
        values, indices, out = _shape(self.values), _shape(self.indices), _shape(self.output)
        for what, shape, rank in (("values", values, 3), ("indices", indices, 2)):
            if len(shape) != rank:
                raise VerifyException(f"expect '{what}' to have rank {rank}, got rank {len(shape)}")
        if len(out) != 3:
            raise VerifyException(f"expect 'output' to have rank 3, got rank {len(out)}")
        n, _, c = values
        if not _same_dim(indices[0], n):
            raise VerifyException(
                f"requires indices dimension 0 to have size {_dims([n])}, got {_dims([indices[0]])}"
            )
        for dim, expected in enumerate((n, indices[1], c)):
            if not _same_dim(out[dim], expected):
                raise VerifyException(
                    f"requires output dimension {dim} to have size {_dims([expected])}, got "
                    f"{_dims([out[dim]])}"
                )


@irdl_op_definition
class ScatterOp(TosaOperation):
    """`values_out = values_in` with `values_out[n, indices[n, w], c] = input[n, w, c]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosascatter-mlirtosascatterop
    """

    name = "tosa.scatter"

    values_in = operand_def(TensorType)
    indices = operand_def(TensorType)
    input = operand_def(TensorType)
    values_out = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        values_in: SSAValue | Operation,
        indices: SSAValue | Operation,
        input: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        values_in = SSAValue.get(values_in)
        super().__init__(
            operands=[values_in, indices, input],
            result_types=[result_type or values_in.type],
        )

    def verify_(self) -> None:
        _check_element_type("values_in", self.values_in, DATA_TYPES)
        _check_element_type("indices", self.indices, INDEX_TYPES)
        _check_same_element_type(self.values_in, self.input, "values_in", "input")
        _check_same_element_type(self.values_in, self.values_out, "values_in", "values_out")
        shapes = {
            "values_in": _shape(self.values_in),
            "indices": _shape(self.indices),
            "input": _shape(self.input),
            "values_out": _shape(self.values_out),
        }
        for what, rank in (("values_in", 3), ("indices", 2), ("input", 3), ("values_out", 3)):
            if len(shapes[what]) != rank:
                raise VerifyException(
                    f"expect '{what}' to have rank {rank}, got rank {len(shapes[what])}"
                )
        n, k, c = shapes["values_in"]
        _, w = shapes["indices"]
        expected = {"indices": (n, w), "input": (n, w, c), "values_out": (n, k, c)}
        for what, dims in expected.items():
            if not _same_shape(shapes[what], dims):
                raise VerifyException(
                    f"requires '{what}' to have shape [{_dims(dims)}], got "
                    f"[{_dims(shapes[what])}]"
                )
        if _is_static((k, w)) and k < w:
            raise VerifyException(f"requires dimensions K >= W, got K={k} and W={w}")


TENSOR_OPS: list[type[IRDLOperation]] = [
    ConstOp,
    IdentityOp,
    ConstShapeOp,
    MatMulOp,
    Conv2DOp,
    DepthwiseConv2DOp,
    MaxPool2DOp,
    AvgPool2DOp,
    ArgMaxOp,
    ReduceAllOp,
    ReduceAnyOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProductOp,
    ReduceSumOp,
    ReshapeOp,
    SliceOp,
    TileOp,
    PadOp,
    ReverseOp,
    TransposeOp,
    ConcatOp,
    GatherOp,
    ScatterOp,
]
TENSOR_ATTRS: list[type[Attribute]] = [ShapeType]

__all__ = [
    "TENSOR_ATTRS",
    "TENSOR_OPS",
    "ArgMaxOp",
    "ConcatOp",
    "ConstOp",
    "ConstShapeOp",
    "GatherOp",
    "IdentityOp",
    "MatMulOp",
    "PadOp",
    "ReduceAllOp",
    "ReduceAnyOp",
    "ReduceMaxOp",
    "ReduceMinOp",
    "ReduceProductOp",
    "ReduceSumOp",
    "ReductionOperation",
    "ReshapeOp",
    "ReverseOp",
    "ScatterOp",
    "ShapeType",
    "SliceOp",
    "TileOp",
    "TransposeOp",
    "constant_shape",
]
