"""The part of upstream MLIR's `tensor` dialect that TOSA programs from OpenVINO need:
`tensor.bitcast`, which reinterprets the elements of a tensor as another type of the same bit
width (TOSA has no unsigned arithmetic: `ui8` values are computed on as `i8` and back).

```mlir
%0 = tensor.bitcast %a : tensor<2xui8> to tensor<2xi8>
```

Not registered in the `xdsl.universe` plugin: xDSL has a `tensor` dialect of its own (without
`bitcast`); `tosa_state.context.make_context` loads this one.

https://mlir.llvm.org/docs/Dialects/TensorOps/#tensorbitcast-tensorbitcastop
"""

from __future__ import annotations

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.dialects.tensor import EmptyOp
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


TENSOR = Dialect("tensor", [BitcastOp, EmptyOp], [])
