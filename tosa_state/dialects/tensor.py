"""The part of upstream MLIR's `tensor` dialect that our programs need: `tensor.bitcast`,
which reinterprets the elements of a tensor as another type of the same bit width (TOSA has no
unsigned arithmetic: `ui8` values are computed on as `i8` and back); xDSL's
`tensor.extract_slice`, with which the memref lowering reads a dynamic variable's used corner
of its buffer without a copy (and `tosa-lower-shape-ops` lowers `tosa.slice`); `tensor.empty`,
`dim`, `from_elements`, `cast`, `extract`, `pad` (and its `yield`), `collapse_shape` and a
`tensor.reshape` that takes dynamic types, for the IREE legalization.

```mlir
%0 = tensor.bitcast %a : tensor<2xui8> to tensor<2xi8>
%1 = tensor.extract_slice %b[0, 0] [2, %n] [1, 1] : tensor<2x?xf32> to tensor<2x?xf32>
```

Not registered in the `xdsl.universe` plugin: xDSL has a `tensor` dialect of its own (without
`bitcast`); `tosa_state.context.make_context` loads this one.

https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorbitcast-tensorbitcastop
https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorextract_slice-tensorextractsliceop
"""

from __future__ import annotations

from math import prod

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.dialects.tensor import (
    CastOp,
    CollapseShapeOp,
    DimOp,
    EmptyOp,
    ExtractOp,
    ExtractSliceOp,
    FromElementsOp,
    PadOp,
    YieldOp,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import IRDLOperation, irdl_op_definition, operand_def, result_def, traits_def
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException


def _bit_width(element_type: Attribute) -> int | None:
    width = getattr(element_type, "bitwidth", None)
    if isinstance(element_type, IntegerType):
        return element_type.width.data
    return width if isinstance(width, int) else None


@irdl_op_definition
class BitcastOp(IRDLOperation):
    """`tensor.bitcast`: the same bits, another element type of the same width and shape."""

    name = "tensor.bitcast"

    source = operand_def(TensorType)
    dest = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$source attr-dict `:` type($source) `to` type($dest)"

    def __init__(self, source: SSAValue, result_type: Attribute):
        super().__init__(operands=[source], result_types=[result_type])

    def verify_(self) -> None:
        source, dest = self.source.type, self.dest.type
        assert isinstance(source, TensorType) and isinstance(dest, TensorType)
        if source.get_shape() != dest.get_shape():
            raise VerifyException(
                f"'{self.name}' op operand type {source} and result type {dest} are cast "
                "incompatible"
            )
        widths = _bit_width(source.element_type), _bit_width(dest.element_type)
        if None in widths or widths[0] != widths[1]:
            raise VerifyException(
                f"'{self.name}' op operand type {source} and result type {dest} are cast "
                "incompatible"
            )


@irdl_op_definition
class ReshapeOp(IRDLOperation):
    """The elements of `source` with the shape given by the values of the 1-D `shape`:
    `%r = tensor.reshape %x(%shape) : (tensor<?x4xf32>, tensor<2xi64>) -> tensor<?x2xf32>`.

    xDSL's op, with a verifier that compares element counts only when both types are
    static (xDSL 0.74 multiplies the dynamic-size marker too).

    https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorreshape-tensorreshapeop
    """

    name = "tensor.reshape"

    source = operand_def(TensorType)
    shape = operand_def(TensorType)
    result = result_def(TensorType)
    assembly_format = (
        "attr-dict $source `(` $shape `)` `:` `(` type($source) `,` type($shape) `)` `->` "
        "type($result)"
    )

    traits = traits_def(Pure())

    def __init__(self, source: SSAValue, shape: SSAValue, result_type: Attribute):
        super().__init__(operands=[source, shape], result_types=[result_type])

    def verify_(self) -> None:
        source, shape, result = self.source.type, self.shape.type, self.result.type
        assert isinstance(source, TensorType) and isinstance(shape, TensorType)
        assert isinstance(result, TensorType)
        if source.element_type != result.element_type:
            raise VerifyException(
                "element types of source and result tensor types should be the same")
        if shape.get_num_dims() != 1 or shape.get_shape()[0] != result.get_num_dims():
            raise VerifyException("length of shape operand differs from the result's rank")
        if source.has_static_shape() and result.has_static_shape() and (
                prod(source.get_shape()) != prod(result.get_shape())):
            raise VerifyException(
                "source and result tensor should have the same number of elements")


TENSOR = Dialect(
    "tensor",
    [BitcastOp, CastOp, CollapseShapeOp, DimOp, EmptyOp, ExtractOp, ExtractSliceOp,
     FromElementsOp, PadOp, ReshapeOp, YieldOp],
    [],
)
