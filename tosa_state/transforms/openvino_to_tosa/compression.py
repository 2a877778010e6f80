"""Compressed weights: the decompression subgraphs of NNCF / optimum-intel models, and packed
constants.

- `fuse_decompression` (run first by `convert-openvino-to-tosa`) turns each decompression
  subgraph

      Constant u8/i8/u4/i4/nf4/u1/f8 -> Convert f16/f32 -> [Subtract zero point]
        -> Multiply scale -> [Reshape of groups] -> [Convert f32]

  into one `tosa_state.dequantize` of the weight's stored bytes (`dialects/tosa_state.py`):
  the weight is never converted to a float constant. The zero point is a Convert of an
  integer (or packed) Constant, or a float Constant; the scale a float Constant (or a Convert
  of one). Every intermediate value must have no other use.
- `openvino.packed_constant` used by anything else: decoded into a `tosa.const` (`u1` / `u4` /
  `i4` as i8, `nf4` and the 8-bit floats as their exact f32 values; a Convert after it sees
  the same numbers).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import (
    AnyFloat,
    DenseIntOrFPElementsAttr,
    IntegerType,
    ModuleOp,
    TensorType,
    bf16,
    f16,
    f32,
    i8,
)
from xdsl.ir import Operation, SSAValue
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa_state import DequantizeOp
from tosa_state.dtypes import dense_to_numpy
from tosa_state.packing import unpack
from tosa_state.transforms.openvino_to_tosa.common import Emitter, OpenVINOPattern, is_unsigned

_DECODED = {"u1": i8, "u4": i8, "i4": i8, "nf4": f32, "f8e4m3": f32, "f8e5m2": f32}
_FLOAT_NAMES = {f16: "f16", bf16: "bf16", f32: "f32"}


class PackedConstant(OpenVINOPattern):
    """A packed Constant-1, decoded into a `tosa.const` of i8 or f32 values."""

    OPS = (ov.PackedConstantOp,)

    def convert(self, op: ov.PackedConstantOp, e: Emitter) -> Sequence[SSAValue]:
        name = op.element_name
        values = unpack(dense_to_numpy(op.data), name, tuple(op.result.type.get_shape()))
        return [e.const(values, _DECODED[name])]


# ---------------------------------------------------------------------------------------------
# The decompression subgraph
# ---------------------------------------------------------------------------------------------


def _stored(value: SSAValue) -> tuple[ov.ConstantOp, str] | None:
    """The bytes of a constant stored compressed (as an i8 `openvino.constant`, no copy) and
    its OpenVINO type name."""
    owner = value.owner
    if isinstance(owner, ov.PackedConstantOp):
        data, name = owner.data, owner.element_name
    elif isinstance(owner, ov.ConstantOp):
        element = owner.value.get_element_type()
        if isinstance(element, IntegerType) and element.width.data == 8:
            name = "u8" if is_unsigned(element) else "i8"
        elif element in _FLOAT_NAMES:
            name = _FLOAT_NAMES[element]
        else:
            return None
        data = owner.value
    else:
        return None
    raw = DenseIntOrFPElementsAttr(TensorType(i8, [len(data.data.data)]), data.data)
    return ov.ConstantOp(raw), name


def _only_user(value: SSAValue) -> Operation | None:
    uses = list(value.uses)
    return uses[0].operation if len(uses) == 1 else None


def _float_tensor(value: SSAValue) -> bool:
    return isinstance(value.type, TensorType) and isinstance(value.type.element_type, AnyFloat)


def _float_constant(value: SSAValue) -> ov.ConstantOp | None:
    """A float Constant, or the float Constant a Convert to float converts."""
    owner = value.owner
    if isinstance(owner, ov.ConvertOp) and _float_tensor(owner.result):
        owner = owner.input.owner
    if isinstance(owner, ov.ConstantOp) and isinstance(owner.value.get_element_type(), AnyFloat):
        return owner
    return None


def _zero_point(value: SSAValue) -> tuple[SSAValue, Operation] | None:
    """The stored value of a zero point: a Convert of an integer / packed Constant, or a float
    Constant."""
    owner = value.owner
    if isinstance(owner, ov.ConvertOp) and isinstance(owner.input.owner, ov.PackedConstantOp
                                                       | ov.ConstantOp):
        return owner.input, owner
    if isinstance(owner, ov.ConstantOp):
        return value, owner
    return None


def _other(op: ov.ElementwiseBinaryOp, value: SSAValue) -> SSAValue | None:
    if op.auto_broadcast.data != "numpy":
        return None
    if op.lhs is value:
        return op.rhs
    return op.lhs if op.rhs is value else None


def _fuse(convert: ov.ConvertOp) -> DequantizeOp | None:
    """Replace the decompression subgraph starting at `convert`: its `tosa_state.dequantize`,
    or None when it was not one."""
    stored = _stored(convert.input)
    if stored is None or stored[1] in _FLOAT_NAMES or not _float_tensor(convert.result):
        return None
    weight_shape = convert.result.type.get_shape()
    chain: list[Operation] = [convert]
    value, zero_point = convert.result, None
    user = _only_user(value)
    if isinstance(user, ov.SubtractOp) and user.lhs is value:
        zero_point = _zero_point(user.rhs)
        if zero_point is None:
            return None
        chain.append(user)
        value, user = user.result, _only_user(user.result)
    if not isinstance(user, ov.MultiplyOp) or (scale_in := _other(user, value)) is None:
        return None
    scale = _float_constant(scale_in)
    if scale is None:
        return None
    chain.append(user)
    value, user = user.result, _only_user(user.result)
    if isinstance(user, ov.ReshapeOp) and user.input is value:
        chain.append(user)
        value, user = user.result, _only_user(user.result)
    if isinstance(user, ov.ConvertOp) and _float_tensor(user.result):
        chain.append(user)
        value = user.result
    result_type = value.type
    if not isinstance(result_type, TensorType) or not result_type.has_static_shape():
        return None
    return _replace(chain, stored, scale_in, zero_point, tuple(weight_shape))


def _replace(chain: list[Operation], stored: tuple[ov.ConstantOp, str], scale: SSAValue,
             zero_point: tuple[SSAValue, Operation] | None, weight_shape: tuple[int, ...]
             ) -> DequantizeOp:
    first, last = chain[0], chain[-1]
    weights, weight_type = stored
    new: list[Operation] = [weights]
    zp_operand = None
    if zero_point is not None:
        zp_stored = _stored(zero_point[0])
        assert zp_stored is not None
        new.append(zp_stored[0])
        zp_operand = (zp_stored[0].result, zp_stored[1], tuple(zero_point[0].type.get_shape()))
    scale_constant = _float_constant(scale)
    assert scale_constant is not None
    dequantize = DequantizeOp(weights.result, weight_type, weight_shape, scale_constant.result,
                              last.results[0].type, zp_operand)
    for op in new:
        op.location = first.location
    dequantize.location = last.location
    Rewriter.insert_op([*new, dequantize], InsertPoint.before(last))
    last.results[0].replace_all_uses_with(dequantize.result)
    # The subgraph, then what only it used: the weight, zero point and scale (and Converts).
    dead = [*reversed(chain), scale.owner]
    if zero_point is not None:
        dead.append(zero_point[1])
    dead += [first.input.owner, scale_constant]
    if zero_point is not None:
        dead.append(zero_point[0].owner)
    erased: set[int] = set()
    for op in dead:
        if (isinstance(op, Operation) and id(op) not in erased
                and all(not r.uses for r in op.results)):
            erased.add(id(op))
            Rewriter.erase_op(op)
    return dequantize


def fuse_decompression(module: ModuleOp) -> list[Operation]:
    """Every decompression subgraph of `module` as one `tosa_state.dequantize`; returns them
    (the conversion erases those its int8 products leave unused)."""
    fused: list[Operation] = []
    for op in list(module.walk()):
        if (isinstance(op, ov.ConvertOp) and op.parent is not None
                and (dequantize := _fuse(op)) is not None):
            fused.append(dequantize)
    return fused


COMPRESSION_PATTERNS = (PackedConstant,)
