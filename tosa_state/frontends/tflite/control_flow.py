"""WHILE and CALL_ONCE: their subgraphs become functions named by the ops."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from xdsl.ir import Operation, SSAValue

from tosa_state.dialects.tfl.control_flow import CallOnceOp, WhileOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _while(op: OperatorInput) -> Operation:
    options = op.options(tflite.WhileOptions, O.WhileOptions)
    if options is None:
        raise op.where.error("WHILE needs its WhileOptions")
    cond = op.function_name(op.read("cond_subgraph_index", options.CondSubgraphIndex), "cond")
    body = op.function_name(op.read("body_subgraph_index", options.BodySubgraphIndex), "body")
    inputs: list[SSAValue] = [op.operand(i, f"loop value {i}") for i in range(len(op.operands))]
    if len(inputs) != len(op.result_types):
        raise op.where.error(f"{len(inputs)} inputs but {len(op.result_types)} outputs")
    return WhileOp(inputs, op.result_types, cond, body)


def _call_once(op: OperatorInput) -> Operation:
    options = op.options(tflite.CallOnceOptions, O.CallOnceOptions)
    if options is None:
        raise op.where.error("CALL_ONCE needs its CallOnceOptions")
    index = op.read("init_subgraph_index", options.InitSubgraphIndex)
    return CallOnceOp(op.function_name(index, "init"))


BUILDERS: dict[int, Builder] = {
    B.WHILE: Builder(_while, (0, 1 << 16), None),
    B.CALL_ONCE: Builder(_call_once, (0, 0), 0),
}
