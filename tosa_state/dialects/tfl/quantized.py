"""QUANTIZE and DEQUANTIZE, and how the quantization of int8 tensors travels on `tfl` ops.

TFLite's affine quantization: `real = scale * (q - zero_point)`, one scale and zero point per
tensor or one per slice along `quantized_dimension` (per channel). TensorFlow's `tfl` dialect
keeps them in the element type (`!quant.uniform<i8:f32, 0.0305:14>`); here the tensors are
plain `i8` / `i32` and an op that reads or writes quantized tensors carries their parameters
in the discardable attribute `tfl.quantization`:

    {inputs = [{scale = array<f32: 0.03>, zero_point = array<i64: 14>, dimension = 0 : i64},
               unit], outputs = [...]}

(`unit` for an operand that is not quantized, e.g. a shape). QUANTIZE / DEQUANTIZE carry
the parameters of their quantized side as properties.
https://www.tensorflow.org/mlir/tfl_ops#tflquantize_tflquantizeop
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from xdsl.dialects.builtin import (
    ArrayAttr,
    DenseArrayBase,
    DictionaryAttr,
    IntegerAttr,
    UnitAttr,
    f32,
    i8,
    i32,
    i64,
)
from xdsl.ir import Attribute, Operation, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    operand_def,
    prop_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tfl.common import OPERANDS_FORMAT, Tensor, dims, element

QUANTIZATION_ATTR = "tfl.quantization"


@dataclass(frozen=True)
class Quantization:
    """Scales and zero points, one of each or one per slice along `dimension`."""

    scales: tuple[float, ...]
    zero_points: tuple[int, ...]
    dimension: int = 0

    @property
    def per_channel(self) -> bool:
        return len(self.scales) > 1

    def to_attr(self) -> DictionaryAttr:
        return DictionaryAttr({
            "scale": DenseArrayBase.from_list(f32, list(self.scales)),
            "zero_point": DenseArrayBase.from_list(i64, list(self.zero_points)),
            "dimension": IntegerAttr(self.dimension, i64),
        })

    @staticmethod
    def from_attr(attr: Attribute) -> Quantization | None:
        if not isinstance(attr, DictionaryAttr):
            return None
        data = attr.data
        scale, zero, dim = data.get("scale"), data.get("zero_point"), data.get("dimension")
        if not isinstance(scale, DenseArrayBase) or not isinstance(zero, DenseArrayBase) or \
                not isinstance(dim, IntegerAttr):
            raise VerifyException(f"{QUANTIZATION_ATTR}: malformed entry {attr}")
        return Quantization(tuple(float(s) for s in scale.get_values()),
                            tuple(int(z) for z in zero.get_values()), dim.value.data)


def set_quantization(op: Operation, inputs: Sequence[Quantization | None],
                     outputs: Sequence[Quantization | None]) -> None:
    """Attach the quantization of `op`'s operands and results."""
    def entries(qs: Sequence[Quantization | None]) -> ArrayAttr:
        return ArrayAttr([UnitAttr() if q is None else q.to_attr() for q in qs])
    op.attributes[QUANTIZATION_ATTR] = DictionaryAttr({"inputs": entries(inputs),
                                                       "outputs": entries(outputs)})


def quantization(op: Operation) -> tuple[list[Quantization | None],
                                         list[Quantization | None]] | None:
    """The quantization of `op`'s operands and results (None: a float op)."""
    attr = op.attributes.get(QUANTIZATION_ATTR)
    if attr is None:
        return None
    if not isinstance(attr, DictionaryAttr) or not isinstance(attr.data.get("inputs"),
                                                              ArrayAttr) or \
            not isinstance(attr.data.get("outputs"), ArrayAttr):
        raise VerifyException(f"{QUANTIZATION_ATTR} must be {{inputs = [...], outputs = [...]}}")
    ins = [Quantization.from_attr(a) for a in attr.data["inputs"].data]  # type: ignore[union-attr]
    outs = [Quantization.from_attr(a) for a in attr.data["outputs"].data]  # type: ignore[union-attr]
    return ins, outs


class _QuantizeBase(IRDLOperation):
    input = operand_def(Tensor)
    output = result_def(Tensor)
    scale = prop_def(DenseArrayBase)
    zero_point = prop_def(DenseArrayBase)
    quantized_dimension = prop_def(IntegerAttr, default_value=IntegerAttr(0, i64))

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, value: SSAValue, result_type: Attribute, params: Quantization):
        super().__init__(operands=[value], result_types=[result_type], properties={
            "scale": DenseArrayBase.from_list(f32, list(params.scales)),
            "zero_point": DenseArrayBase.from_list(i64, list(params.zero_points)),
            "quantized_dimension": IntegerAttr(params.dimension, i64)})

    @property
    def params(self) -> Quantization:
        return Quantization(tuple(float(s) for s in self.scale.get_values()),
                            tuple(int(z) for z in self.zero_point.get_values()),
                            self.quantized_dimension.value.data)

    def _check(self, real: SSAValue, quantized: SSAValue) -> None:
        if dims(real) != dims(quantized):
            raise VerifyException(f"{self.name}: input and result shapes differ")
        if element(real) != f32 or element(quantized) not in (i8, i32):
            raise VerifyException(f"{self.name}: converts between f32 and i8, got "
                                  f"{element(self.input)} -> {element(self.output)}")
        params = self.params
        if len(params.scales) != len(params.zero_points) or not params.scales:
            raise VerifyException(f"{self.name}: needs as many zero points as scales")
        shape = dims(quantized)
        if params.per_channel and not (0 <= params.dimension < len(shape) and
                                       shape[params.dimension] == len(params.scales)):
            raise VerifyException(f"{self.name}: {len(params.scales)} scales do not match "
                                  f"dimension {params.dimension} of {list(shape)}")


@irdl_op_definition
class QuantizeOp(_QuantizeBase):
    """QUANTIZE (f32 to int8): `clamp(round(x / scale) + zero_point)`."""

    name = "tfl.quantize"

    def verify_(self) -> None:
        self._check(self.input, self.output)


@irdl_op_definition
class DequantizeOp(_QuantizeBase):
    """DEQUANTIZE (int8 to f32): `scale * (q - zero_point)`."""

    name = "tfl.dequantize"

    def verify_(self) -> None:
        self._check(self.output, self.input)


QUANTIZED_OPS = (QuantizeOp, DequantizeOp)
