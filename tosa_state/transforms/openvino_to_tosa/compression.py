"""Compressed weights: packed constants, and the decompression subgraphs around them.

- `openvino.packed_constant` used by anything but a decompression subgraph: decoded into a
  `tosa.const` (`u1` / `u4` / `i4` as i8, `nf4` and the 8-bit floats as the exact f32 values;
  the Convert after it sees the same numbers).
"""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.dialects.builtin import f32, i8
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dtypes import dense_to_numpy
from tosa_state.packing import unpack
from tosa_state.transforms.openvino_to_tosa.common import Emitter, OpenVINOPattern

_DECODED = {"u1": i8, "u4": i8, "i4": i8, "nf4": f32, "f8e4m3": f32, "f8e5m2": f32}


class PackedConstant(OpenVINOPattern):
    """A packed Constant-1, decoded into a `tosa.const` of i8 or f32 values."""

    OPS = (ov.PackedConstantOp,)

    def convert(self, op: ov.PackedConstantOp, e: Emitter) -> Sequence[SSAValue]:
        name = op.element_name
        values = unpack(dense_to_numpy(op.data), name, tuple(op.result.type.get_shape()))
        return [e.const(values, _DECODED[name])]


COMPRESSION_PATTERNS = (PackedConstant,)
