"""`tosa-integer-io`: a model's float inputs that it only quantizes, and float outputs that
it only dequantizes, become its integer inputs and outputs.

An integer target (TOSA PRO-INT, an NPU) takes no float: as TensorFlow's full-integer
export does, the quantize of an input and the dequantize of an output move to the
application, which the artifact's manifest tells how (`quantization`: scale and zero point).

- An f32 argument whose every use is an element-wise quantize with scalar constants ending in
  one int8 / int16 value (a FakeQuantize's levels) becomes that integer argument; its scale
  and zero point are recorded as `tosa_state.scale` / `tosa_state.zero_point` argument
  attributes (the quantize's, as `tosa-integer-frames` fits them).
- An f32 result that is `tosa.cast` of an i32 value times a constant (a scale per tensor or
  per channel: the dequantize of an int8 product) becomes the i32 value; the constant is
  recorded as the result's `tosa_state.scale` (a list for one per channel along the last
  axis) with `tosa_state.zero_point = 0`. The cast and the multiply are exact in the float
  model's own arithmetic (one f32 rounding), so `f32(q) * scale` in the application gives
  the float model's output bit for bit.

Other arguments and results are left as they are.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    FloatAttr,
    FunctionType,
    IntegerAttr,
    ModuleOp,
    TensorType,
    f32,
    i32,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, BlockArgument, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import Rewriter

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import type_conversion as ttc
from tosa_state.transforms.tosa_integer_frames import quantization_of
from tosa_state.transforms.tosa_integer_state import (
    SCALE_ATTR,
    ZERO_POINT_ATTR,
    constant_of,
    integer_cone,
)


def _attrs(attrs: ArrayAttr | None, count: int) -> list[dict[str, Attribute]]:
    if attrs is None:
        return [{} for _ in range(count)]
    return [dict(a.data) if isinstance(a, DictionaryAttr) else {} for a in attrs.data]


def _quantized_input(arg: BlockArgument) -> tuple[SSAValue, float, int] | None:
    """(the integer value, scale, zero point) when `arg` is only quantized per tensor."""
    if not isinstance(arg.type, TensorType) or arg.type.element_type != f32 or not arg.uses:
        return None
    cone = integer_cone(arg)
    if cone is None or len(cone.outputs) != 1 or any(
            (c := constant_of(o)) is not None and c.size != 1
            for op in cone.ops for o in op.operands):
        return None
    scale, zero_point = quantization_of(cone)
    return cone.outputs[0], scale, zero_point


def _dequantized_output(value: SSAValue) -> tuple[SSAValue, np.ndarray] | None:
    """(the i32 value, its scale) when `value` is `cast(i32) * constant`."""
    mul = value.owner
    if not isinstance(mul, tew.MulOp) or len(list(value.uses)) != 1:
        return None
    cast, scale = mul.input1.owner, constant_of(mul.input2)
    if not isinstance(cast, ttc.CastOp) or scale is None or scale.dtype != np.float32:
        return None
    source = cast.input
    if not isinstance(source.type, TensorType) or source.type.element_type != i32:
        return None
    if scale.size != 1 and np.prod(scale.shape[:-1]) != 1:
        return None
    return source, scale.reshape(-1)


def _scale_attr(scale: np.ndarray) -> Attribute:
    if scale.size == 1:
        return FloatAttr(float(scale[0]), f32)
    return ArrayAttr([FloatAttr(float(s), f32) for s in scale])


def _rewrite(func: FuncOp) -> None:
    block = func.body.blocks[0]
    arg_attrs = _attrs(func.arg_attrs, len(block.args))
    for index, arg in enumerate(list(block.args)):
        found = _quantized_input(arg)
        if found is None:
            continue
        value, scale, zero_point = found
        integer = block.insert_arg(value.type, index)
        value.replace_all_uses_with(integer)
        _erase_unused(block)
        block.erase_arg(arg)
        arg_attrs[index][SCALE_ATTR] = FloatAttr(scale, f32)
        arg_attrs[index][ZERO_POINT_ATTR] = IntegerAttr(zero_point, i32)
    ret = block.last_op
    assert isinstance(ret, ReturnOp)
    res_attrs = _attrs(func.res_attrs, len(ret.operands))
    for index, operand in enumerate(list(ret.operands)):
        found = _dequantized_output(operand)
        if found is None:
            continue
        source, scale = found
        ret.operands[index] = source
        res_attrs[index][SCALE_ATTR] = _scale_attr(scale)
        res_attrs[index][ZERO_POINT_ATTR] = IntegerAttr(0, i32)
    _erase_unused(block)
    func.function_type = FunctionType.from_lists([a.type for a in block.args],
                                                 [o.type for o in ret.operands])
    func.arg_attrs = ArrayAttr([DictionaryAttr(a) for a in arg_attrs])
    func.res_attrs = ArrayAttr([DictionaryAttr(a) for a in res_attrs])


def _erase_unused(block) -> None:
    """Erase ops (not side-effecting: element-wise, casts, constants) nothing uses."""
    changed = True
    while changed:
        changed = False
        for op in reversed(list(block.ops)):
            if op.results and not any(r.uses for r in op.results) and op.name in _PURE:
                Rewriter.erase_op(op)
                changed = True


_PURE = {"tosa.const", "tosa.cast", "tosa.mul", "tosa.add", "tosa.sub", "tosa.clamp",
         "tosa.rescale", "tosa.reciprocal", "tosa.maximum", "tosa.minimum", "tosa.select",
         "tosa.equal", "tosa.greater", "tosa.greater_equal", "tosa.floor"}


@dataclass(frozen=True)
class TosaIntegerIOPass(ModulePass):
    """Float inputs only quantized and float outputs only dequantized become the integer
    inputs and outputs, their scale and zero point recorded."""

    name = "tosa-integer-io"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in [f for f in op.walk() if isinstance(f, FuncOp) and f.body.blocks]:
            _rewrite(func)
