"""Importing the scatter layers: ScatterUpdate, ScatterNDUpdate, ScatterElementsUpdate."""

from __future__ import annotations

from collections.abc import Sequence

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _reduction(b: OpBuilder, allowed: Sequence[str]) -> str:
    if b.layer.version in ("opset3", "opset4"):
        return "none"
    reduction = b.data("reduction", "none").strip().lower()
    if reduction not in allowed:
        b.fail(f"reduction '{reduction}' is not one of {', '.join(allowed)}")
    return reduction


def _build_scatter_update(b: OpBuilder) -> Operation:
    return ov.ScatterUpdateOp(*b.operands, b.result_types[0])


def _build_scatter_nd_update(b: OpBuilder) -> Operation:
    return ov.ScatterNDUpdateOp(*b.operands, b.result_types[0],
                                _reduction(b, ov.ND_REDUCTIONS))


def _build_scatter_elements_update(b: OpBuilder) -> Operation:
    use_init_val = b.layer.version == "opset3" or b.data_bool("use_init_val", True)
    return ov.ScatterElementsUpdateOp(*b.operands, b.result_types[0],
                                      _reduction(b, ov.ELEMENTS_REDUCTIONS), use_init_val)


SCATTER_LAYERS: dict[str, OpSpec] = {
    "ScatterUpdate": OpSpec(("opset3",), (4, 4), _build_scatter_update),
    "ScatterNDUpdate": OpSpec(("opset4", "opset15"), (3, 3), _build_scatter_nd_update),
    "ScatterElementsUpdate": OpSpec(("opset3", "opset12"), (4, 4),
                                    _build_scatter_elements_update),
}
