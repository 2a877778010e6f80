"""TOSA 1.0 data-layout operators: `tosa.concat`, `tosa.pad`, `tosa.reshape`, `tosa.reverse`,
`tosa.slice`, `tosa.tile`, `tosa.transpose`. Their shape operands are `!tosa.shape<N>` values
(`tosa.const_shape`, or the shape operators' results when sizes are known only at run time).

https://www.mlplatform.org/tosa/tosa_spec.html#_data_layout
"""

from __future__ import annotations

from collections.abc import Sequence
from math import prod

from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    I32,
    DenseArrayBase,
    IntegerAttr,
    TensorType,
    i32,
)
from xdsl.ir import (
    Attribute,
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.common import (
    DATA_TYPES,
    ShapeType,
    TosaOperation,
    _check_axis,
    _check_element_type,
    _check_same_element_type,
    _compile_time_shape,
    _dims,
    _element,
    _is_static,
    _same_dim,
    _same_shape,
    _shape,
)

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
