"""Importing the Einsum layer."""

from __future__ import annotations

from xdsl.ir import Operation

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec


def _build_einsum(b: OpBuilder) -> Operation:
    equation = b.data("equation")
    try:
        ov.parse_equation(equation, len(b.operands))
    except ValueError as error:
        b.fail(str(error))
    return ov.EinsumOp(b.operands, b.result_types[0], equation)


EINSUM_LAYERS: dict[str, OpSpec] = {
    "Einsum": OpSpec(("opset7",), (1, 1 << 20), _build_einsum),
}
