"""Importing the quantization layers: FakeQuantize."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_fake_quantize(b: OpBuilder) -> Operation:
    levels = b.data_int("levels")
    if levels < 2:
        b.fail(f"levels={levels}: FakeQuantize needs at least 2 levels")
    x, low, high, out_low, out_high = b.operands
    return ov.FakeQuantizeOp((x, low, high, out_low, out_high), b.result_types[0], levels,
                             b.auto_broadcast())


QUANTIZATION_LAYERS: dict[str, OpSpec] = {
    "FakeQuantize": OpSpec(("opset1",), (5, 5), _build_fake_quantize),
}
