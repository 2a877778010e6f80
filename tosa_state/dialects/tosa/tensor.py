"""TOSA 1.0 tensor-level operators, and the `!tosa.shape<N>` type.

The specification's tensor and data-node operators here, and the registration of its
tensor-level chapters, each in a module of its own (the elementwise chapters live in
`elementwise.py`):

- data nodes: `tosa.const`, `tosa.identity`; shapes: `tosa.const_shape`
- tensor: `tosa.matmul`, `tosa.conv2d`, `tosa.depthwise_conv2d`, `tosa.max_pool2d`,
  `tosa.avg_pool2d`, `tosa.argmax`
- reduction (`reduction.py`): `tosa.reduce_{all,any,max,min,product,sum}`
- data layout (`data_layout.py`): `tosa.concat`, `tosa.pad`, `tosa.reshape`, `tosa.reverse`,
  `tosa.slice`, `tosa.tile`, `tosa.transpose`
- scatter/gather (`scatter_gather.py`): `tosa.gather`, `tosa.scatter`

The shared type, checks and syntax are in `common.py`; every name callers use is importable
from here too (`from tosa_state.dialects.tosa import tensor as tt; tt.ReshapeOp`).

(Control flow, `tosa.cond_if` / `tosa.while_loop` / `tosa.yield`, is in `control_flow.py`.)

Custom syntax is exactly what upstream MLIR (`tosa-opt`) prints; `tosa.const` has none
(upstream prints it in generic form too). Verifiers check shapes and element types per
the specification, with upstream MLIR's wording where upstream has the rule. Dynamic
dimensions (`?`) are accepted and skipped by the shape checks.

- TOSA 1.0 specification: https://www.mlplatform.org/tosa/tosa_spec.html
- Upstream MLIR: https://mlir.llvm.org/docs/Dialects/TOSA/
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import ClassVar

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    I64,
    BoolAttr,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    bf16,
    f16,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.dialects.tosa import NanMode, NanModeAttr
from xdsl.ir import (
    Attribute,
    Operation,
    SSAValue,
    TypeAttribute,
)
from xdsl.irdl import (
    IRDLOperation,
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
    INDEX_TYPES,
    MATMUL_TYPES,
    NAN_PROPAGATE,
    NUMERIC_TYPES,
    ConstOp,
    ConstShapeOp,
    IdentityOp,
    ShapeType,
    TosaOperation,
    _check_axis,
    _check_element_type,
    _check_same_element_type,
    _check_windowed_shape,
    _check_zero_points,
    _dims,
    _element,
    _names,
    _same_dim,
    _same_shape,
    _shape,
    constant_shape,
)
from tosa_state.dialects.tosa.data_layout import (
    ConcatOp,
    DataLayoutOperation,
    PadOp,
    ReshapeOp,
    ReverseOp,
    SliceOp,
    TileOp,
    TransposeOp,
)
from tosa_state.dialects.tosa.reduction import (
    NanReductionOperation,
    ReduceAllOp,
    ReduceAnyOp,
    ReduceMaxOp,
    ReduceMinOp,
    ReduceProductOp,
    ReduceSumOp,
    ReductionOperation,
)
from tosa_state.dialects.tosa.scatter_gather import (
    GatherOp,
    ScatterOp,
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
    "DataLayoutOperation",
    "GatherOp",
    "IdentityOp",
    "MatMulOp",
    "NanReductionOperation",
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
    "TosaOperation",
    "TransposeOp",
    "constant_shape",
]
