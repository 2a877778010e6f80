"""`tosa-dynamic-empty-dims`: no size-0 dimension in a type; such dims become dynamic.

An empty start value has size-0 dims (the KV cache an optimum-intel decoder starts from is
a `tensor<?x2x0x16xf32>` tile of zeros). IREE's TOSA validation refuses any type with a
size-0 dim, even a `tosa.const : tensor<2x0xf32>`, but accepts the same value typed with a
dynamic dim. The pass retypes every op result and block argument with a 0 dim as `?` in
that dim, and replaces a constant with no elements (`tosa.const`, whose type must be its
value's) by `tensor.empty` with sizes 0:

```mlir
%e = "tosa.const"() <{values = dense<> : tensor<2x0xf32>}> : () -> tensor<2x0xf32>
%t = tosa.tile %z, %m : (tensor<1x1xf32>, !tosa.shape<2>) -> tensor<?x0xf32>
```
becomes
```mlir
%c0 = arith.constant 0 : index
%e = tensor.empty(%c0) : tensor<2x?xf32>
%t = tosa.tile %z, %m : (tensor<1x1xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
```
Function signatures are retyped likewise; globals keep their types (a variable that starts
empty is declared with `?` already).
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    IndexType,
    IntegerAttr,
    ModuleOp,
    TensorType,
)
from xdsl.dialects.tensor import EmptyOp
from xdsl.ir import Attribute
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.tosa.tensor import ConstOp
from tosa_state.transforms.retype import retype

DYNAMIC = DYNAMIC_INDEX


def dynamic_empty_dims(attribute: Attribute) -> Attribute:
    """A tensor type with its size-0 dims dynamic; any other type as it is."""
    if isinstance(attribute, TensorType) and 0 in attribute.get_shape():
        shape = [DYNAMIC if d == 0 else d for d in attribute.get_shape()]
        return TensorType(attribute.element_type, shape)
    return attribute


def _empty_constant(op: ConstOp) -> None:
    """`tosa.const` of no elements -> `tensor.empty` of sizes 0, typed with `?` dims."""
    new_type = dynamic_empty_dims(op.output.type)
    assert isinstance(new_type, TensorType)
    zero = ConstantOp(IntegerAttr(0, IndexType()))
    count = sum(1 for d in new_type.get_shape() if d == DYNAMIC)
    empty = EmptyOp([zero.result] * count, new_type)
    for new in (zero, empty):
        new.location = op.location
    Rewriter.insert_op([zero, empty], InsertPoint.before(op))
    Rewriter.replace_op(op, [], [empty.tensor])


@dataclass(frozen=True)
class TosaDynamicEmptyDimsPass(ModulePass):
    """Types every size-0 dim of an op result, block argument or function signature as
    dynamic."""

    name = "tosa-dynamic-empty-dims"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for inner in list(op.walk()):
            if isinstance(inner, ConstOp) and 0 in inner.output.type.get_shape():
                _empty_constant(inner)
            else:
                retype(inner, dynamic_empty_dims)


__all__ = ["TosaDynamicEmptyDimsPass", "dynamic_empty_dims"]
