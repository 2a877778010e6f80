"""Importing the sorting layers: TopK."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_topk(b: OpBuilder) -> Operation:
    choices = {"mode": ov.TOPK_MODES, "sort": ov.TOPK_SORTS}
    found = {}
    for key, allowed in choices.items():
        found[key] = b.data(key).strip().lower()
        if found[key] not in allowed:
            b.fail(f"{key} '{found[key]}' is not one of {', '.join(allowed)}")
    if b.layer.version != "opset1" and "index_element_type" in b.layer.data:
        index_type = b.data_element("index_element_type")
        if ov.element_type(b.result_types[1]) != index_type.mlir:
            b.fail(f"index_element_type '{index_type.name}' differs from the indices port's type")
    stable = b.layer.version == "opset11" and b.data_bool("stable", False)
    return ov.TopKOp(b.operands[0], b.operands[1], (b.result_types[0], b.result_types[1]),
                     b.data_int("axis"), found["mode"], found["sort"], stable)


SORTING_LAYERS: dict[str, OpSpec] = {
    "TopK": OpSpec(("opset1", "opset3", "opset11"), (2, 2), _build_topk, outputs=2),
}
