"""Compressed weights: constants of the element types TOSA has no tensors of.

OpenVINO stores weights compressed by NNCF / optimum-intel as `u4`, `i4`, `nf4`, `u1` and
8-bit floats, packed as `tosa_state/packing.py` describes. `openvino.packed_constant` holds
such a constant as the bytes of the `.bin` (`tensor<Bxui8>`), typed with its logical element
type; `!openvino.nf4` is the element type of NormalFloat-4 codes (`ui4`, `i4`, `ui1`,
`f8E4M3FN` and `f8E5M2` are builtin types).

```mlir
%w = openvino.packed_constant dense<[33, 67]> : tensor<2xui8> -> tensor<4xui4>
```

https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/constant-1.html
"""

from __future__ import annotations

import math

from xdsl.dialects.builtin import (
    DenseIntOrFPElementsAttr,
    Float8E4M3FNType,
    Float8E5M2Type,
    IntegerType,
    Signedness,
    TensorType,
)
from xdsl.ir import Attribute, ParametrizedAttribute, TypeAttribute
from xdsl.irdl import (
    IRDLOperation,
    irdl_attr_definition,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.packing import packed_size


@irdl_attr_definition
class NF4Type(ParametrizedAttribute, TypeAttribute):
    """`!openvino.nf4`: a 4-bit code of OpenVINO's NormalFloat-4 table (`packing.NF4_VALUES`)."""

    name = "openvino.nf4"


def stored_name(element: Attribute) -> str | None:
    """The OpenVINO name (`u4`, `nf4`, ...) of an element type stored packed, else None."""
    if isinstance(element, NF4Type):
        return "nf4"
    if isinstance(element, Float8E4M3FNType):
        return "f8e4m3"
    if isinstance(element, Float8E5M2Type):
        return "f8e5m2"
    if isinstance(element, IntegerType) and element.width.data in (1, 4):
        unsigned = element.signedness.data == Signedness.UNSIGNED
        return f"{'u' if unsigned else 'i'}{element.width.data}"
    return None



@irdl_op_definition
class PackedConstantOp(IRDLOperation):
    """Constant-1 of a packed element type: `data` holds its bytes as OpenVINO stores them
    (`tosa_state/packing.py`), the result has the logical type.

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/infrastructure/constant-1.html
    """

    name = "openvino.packed_constant"

    data = prop_def(DenseIntOrFPElementsAttr)
    result = result_def(TensorType)

    traits = traits_def(Pure())
    assembly_format = "$data attr-dict `->` type($result)"

    def __init__(self, data: DenseIntOrFPElementsAttr, result_type: TensorType):
        super().__init__(properties={"data": data}, result_types=[result_type])

    @property
    def element_name(self) -> str:
        name = stored_name(self.result.type.element_type)
        assert name is not None
        return name

    def verify_(self) -> None:
        data_type = self.data.type
        if data_type.element_type != IntegerType(8, Signedness.UNSIGNED) or len(
            data_type.get_shape()
        ) != 1:
            raise VerifyException("data must be a 1-D tensor of ui8 bytes")
        result_type = self.result.type
        if not result_type.has_static_shape():
            raise VerifyException("the result must have a static shape")
        name = stored_name(result_type.element_type)
        if name is None:
            raise VerifyException(
                f"element type {result_type.element_type} is not a packed type "
                "(ui1, ui4, i4, !openvino.nf4, f8E4M3FN, f8E5M2)"
            )
        count = math.prod(result_type.get_shape())
        expected = packed_size(name, count)
        if data_type.get_shape()[0] != expected:
            raise VerifyException(
                f"{count} elements of {name} take {expected} bytes, "
                f"data has {data_type.get_shape()[0]}"
            )


COMPRESSION_OPS = [PackedConstantOp]
COMPRESSION_ATTRS = [NF4Type]
