"""Importing Convolution, GroupConvolution, MaxPool and AvgPool."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import Converter, OpBuilder, OpSpec


def _auto_pad(b: OpBuilder) -> str:
    """The layer's `auto_pad` (`notset`, older IR's name for `explicit`, is `explicit`)."""
    auto_pad = b.data("auto_pad", "explicit").strip().lower()
    auto_pad = "explicit" if auto_pad == "notset" else auto_pad
    if auto_pad not in ov.AUTO_PADS:
        b.fail(f"auto_pad '{auto_pad}' is not one of {', '.join(ov.AUTO_PADS)}")
    return auto_pad


def _convolution(cls: type[ov.ConvolutionBase]) -> Converter:
    def build(b: OpBuilder) -> Operation:
        return cls(
            b.operands[0], b.operands[1], b.result_types[0],
            b.data_ints("strides"), b.data_ints("dilations"),
            b.data_ints("pads_begin"), b.data_ints("pads_end"), _auto_pad(b),
        )

    return build


_CEIL_TORCH_VERSIONS = {"MaxPool": ("opset14",), "AvgPool": ("opset14", "opset16")}
"""The pooling versions that have `rounding_type` ceil_torch."""


def _pool_attributes(b: OpBuilder) -> dict[str, object]:
    auto_pad = _auto_pad(b)
    rounding = b.data("rounding_type", "floor").strip().lower()
    torch = b.layer.version in _CEIL_TORCH_VERSIONS[b.layer.type]
    if rounding not in ov.ROUNDING_TYPES or (rounding == "ceil_torch" and not torch):
        b.fail(f"rounding_type '{rounding}' is not floor or ceil"
               + (" (ceil_torch came with opset14)" if rounding == "ceil_torch" else ""))
    return {
        "kernel": b.data_ints("kernel"), "strides": b.data_ints("strides"),
        "pads_begin": b.data_ints("pads_begin"), "pads_end": b.data_ints("pads_end"),
        "rounding_type": rounding, "auto_pad": auto_pad,
    }


def _build_max_pool(b: OpBuilder) -> Operation:
    dilations = b.data_ints("dilations") if b.layer.version != "opset1" else None
    return ov.MaxPoolOp(b.operands[0], b.result_types, dilations=dilations,
                        **_pool_attributes(b))  # type: ignore[arg-type]


def _build_avg_pool(b: OpBuilder) -> Operation:
    dilations = b.data_ints("dilations") if b.layer.version == "opset16" else None
    return ov.AvgPoolOp(b.operands[0], b.result_types[0],
                        exclude_pad=b.data_bool("exclude-pad", False),
                        dilations=dilations or None,
                        **_pool_attributes(b))  # type: ignore[arg-type]


CONVOLUTION_LAYERS: dict[str, OpSpec] = {
    "Convolution": OpSpec(("opset1",), (2, 2), _convolution(ov.ConvolutionOp)),
    "GroupConvolution": OpSpec(("opset1",), (2, 2), _convolution(ov.GroupConvolutionOp)),
    "MaxPool": OpSpec(("opset1", "opset8", "opset14"), (1, 1), _build_max_pool, outputs=None),
    "AvgPool": OpSpec(("opset1", "opset14", "opset16"), (1, 1), _build_avg_pool),
}
