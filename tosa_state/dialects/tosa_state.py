"""The `tosa_state` dialect: what tosa-state adds beside TOSA.

`tosa_state.dequantize` is a compressed weight (OpenVINO's decompression subgraph of NNCF /
optimum-intel models, one op): the weight stays in its stored form — its bytes as OpenVINO
stores them, 4-bit codes packed two to a byte — at every lowering level, and becomes floats
only where it is used (the interpreter dequantizes it on each call).

```mlir
%w = "tosa.const"() <{values = dense<...> : tensor<1536xi8>}> : () -> tensor<1536xi8>
%s = "tosa.const"() <{values = dense<...> : tensor<48x4x1xf16>}> : () -> tensor<48x4x1xf16>
%z = "tosa.const"() <{values = dense<...> : tensor<96xi8>}> : () -> tensor<96xi8>
%f = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4",
       weight_shape = array<i64: 48, 4, 16>, zero_point_type = "u4",
       zero_point_shape = array<i64: 48, 4, 1>}
       : (tensor<1536xi8>, tensor<48x4x1xf16>, tensor<96xi8>) -> tensor<48x64xf32>
```

Meaning, in TOSA terms (per element, numpy broadcasting of `scale` and the zero point over
`weight_shape`, computed in f32):

    w = decode(weights, weight_type, weight_shape)        # tosa_state/packing.py
    z = decode(zero_point, zero_point_type, zero_point_shape)   # 0 without a zero point
    result = cast(reshape((f32(w) - f32(z)) * f32(scale), shape(result)))

`weights` and `zero_point` are the stored bytes (`tensor<Bxi8>`, B = `packing.packed_size`);
the types are OpenVINO's names (`u8`, `i8`, `u4`, `i4`, `nf4`, `u1`, `f8e4m3`, `f8e5m2`, and
for zero points also `f16` / `bf16` / `f32`). The op is pure (unused, it is erased) but
`NotFolded`: no folder (the conversion's, the runtime plan's) may turn it into a constant of
floats.

`tosa_state.check_capacity` guards a variable of fixed capacity (`tosa-static-state`): a call
whose `rows` new rows would not fit after the `count` rows the variable holds fails, naming
the variable, its capacity and the length asked for, before any state is written:

```mlir
tosa_state.check_capacity %count, %rows {variable = "kv", capacity = 64 : i64}
    : tensor<1xi32>, !tosa.shape<1>
```

It has no result and is not free of side effects (a failure is its effect): no pass erases
it, and a plan runs no state write before it.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.dialects.builtin import (
    I64,
    AnyFloat,
    DenseArrayBase,
    IntegerAttr,
    StringAttr,
    TensorType,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Dialect, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    opt_operand_def,
    opt_prop_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import OpTrait, Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.common import ShapeType
from tosa_state.packing import STORED_TYPES, packed_size


class NotFolded(OpTrait):
    """A side-effect-free op that no folder evaluates on its constant operands: keeping them
    as they are is its point (a compressed weight stays compressed). Unused, it is erased
    like any pure op."""


def _broadcasts_to(shape: Sequence[int], target: Sequence[int]) -> bool:
    if len(shape) > len(target):
        return False
    return all(d in (1, t) for d, t in zip(reversed(shape), reversed(target), strict=False))


@irdl_op_definition
class DequantizeOp(IRDLOperation):
    """A compressed weight as floats: `(decode(weights) - decode(zero_point)) * scale`,
    reshaped to the result (see the module docstring)."""

    name = "tosa_state.dequantize"

    weights = operand_def(TensorType)
    scale = operand_def(TensorType)
    zero_point = opt_operand_def(TensorType)
    weight_type = prop_def(StringAttr)
    weight_shape = prop_def(DenseArrayBase)
    zero_point_type = opt_prop_def(StringAttr)
    zero_point_shape = opt_prop_def(DenseArrayBase)
    result = result_def(TensorType)

    traits = traits_def(Pure(), NotFolded())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = (
        "$weights `scale` $scale (`zero_point` $zero_point^)? attr-dict `:` "
        "functional-type(operands, results)"
    )

    def __init__(
        self,
        weights: SSAValue,
        weight_type: str,
        weight_shape: Sequence[int],
        scale: SSAValue,
        result_type: Attribute,
        zero_point: tuple[SSAValue, str, Sequence[int]] | None = None,
    ):
        properties: dict[str, Attribute] = {
            "weight_type": StringAttr(weight_type),
            "weight_shape": DenseArrayBase.from_list(i64, weight_shape),
        }
        operands: list[SSAValue | Sequence[SSAValue]] = [weights, scale, []]
        if zero_point is not None:
            value, zp_type, zp_shape = zero_point
            operands[2] = [value]
            properties["zero_point_type"] = StringAttr(zp_type)
            properties["zero_point_shape"] = DenseArrayBase.from_list(i64, zp_shape)
        super().__init__(operands=operands, properties=properties, result_types=[result_type])

    @property
    def shape_of_weights(self) -> tuple[int, ...]:
        return tuple(self.weight_shape.get_values())

    @property
    def shape_of_zero_point(self) -> tuple[int, ...]:
        assert self.zero_point_shape is not None
        return tuple(self.zero_point_shape.get_values())

    def verify_(self) -> None:
        weight_shape = self.shape_of_weights
        self._check_stored("weights", self.weights, self.weight_type.data, weight_shape)
        scale_type = self.scale.type
        assert isinstance(scale_type, TensorType)
        if not isinstance(scale_type.element_type, AnyFloat):
            raise VerifyException("the scale must be a tensor of floats")
        if not _broadcasts_to(scale_type.get_shape(), weight_shape):
            raise VerifyException(
                f"scale of shape {list(scale_type.get_shape())} does not "
                f"broadcast to the weights' shape {list(weight_shape)}"
            )
        if (self.zero_point is None) != (self.zero_point_type is None) or (
            self.zero_point_type is None) != (self.zero_point_shape is None):
            raise VerifyException(
                "a zero point needs zero_point_type and zero_point_shape"
            )
        if self.zero_point is not None and self.zero_point_type is not None:
            zp_shape = self.shape_of_zero_point
            self._check_stored("zero_point", self.zero_point, self.zero_point_type.data, zp_shape)
            if not _broadcasts_to(zp_shape, weight_shape):
                raise VerifyException(
                    f"zero point of shape {list(zp_shape)} does not broadcast to "
                    f"the weights' shape {list(weight_shape)}"
                )
        result_type = self.result.type
        assert isinstance(result_type, TensorType)
        if not isinstance(result_type.element_type, AnyFloat):
            raise VerifyException("the result must be a tensor of floats")
        if (not result_type.has_static_shape()
                or math.prod(result_type.get_shape()) != math.prod(weight_shape)):
            raise VerifyException(
                f"the result {result_type} must have the "
                f"{math.prod(weight_shape)} elements of the weights"
            )

    def _check_stored(self, what: str, value: SSAValue, type_name: str,
                      shape: Sequence[int]) -> None:
        if type_name not in STORED_TYPES:
            raise VerifyException(f"unknown {what} type '{type_name}'")
        value_type = value.type
        expected = packed_size(type_name, math.prod(shape))
        if value_type != TensorType(i8, [expected]):
            raise VerifyException(
                f"{what} of {list(shape)} x {type_name} are stored as "
                f"tensor<{expected}xi8>, got {value_type}"
            )


@irdl_op_definition
class CheckCapacityOp(IRDLOperation):
    """Fails the call when `count` (`tensor<1xi32>`, the rows variable `variable` holds)
    plus `rows` (`!tosa.shape<1>`, the rows the call adds) exceeds `capacity`."""

    name = "tosa_state.check_capacity"

    count = operand_def(TensorType)
    rows = operand_def(ShapeType)
    variable = prop_def(StringAttr)
    capacity = prop_def(IntegerAttr[I64])

    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = "$count `,` $rows attr-dict `:` type($count) `,` type($rows)"

    def __init__(self, count: SSAValue, rows: SSAValue, variable: str, capacity: int):
        super().__init__(operands=[count, rows], properties={
            "variable": StringAttr(variable), "capacity": IntegerAttr(capacity, i64)})

    def verify_(self) -> None:
        count_type = self.count.type
        if not (isinstance(count_type, TensorType) and count_type.element_type == i32
                and tuple(count_type.get_shape()) == (1,)):
            raise VerifyException(f"the count must be a tensor<1xi32>, got {count_type}")
        rows_type = self.rows.type
        assert isinstance(rows_type, ShapeType)
        if rows_type.rank != 1:
            raise VerifyException(f"the rows must be a !tosa.shape<1>, got {rows_type}")
        if self.capacity.value.data < 0:
            raise VerifyException(f"the capacity must not be negative, got "
                                  f"{self.capacity.value.data}")


TOSA_STATE = Dialect("tosa_state", [DequantizeOp, CheckCapacityOp], [])
