"""VAR_HANDLE, READ_VARIABLE, ASSIGN_VARIABLE."""

from __future__ import annotations

import tflite
from tflite.BuiltinOperator import BuiltinOperator as B
from tflite.BuiltinOptions import BuiltinOptions as O
from xdsl.ir import Operation

from tosa_state.dialects.tfl.state import AssignVariableOp, ReadVariableOp, VarHandleOp
from tosa_state.frontends.tflite.common import Builder, OperatorInput


def _text(raw: bytes | None) -> str:
    return raw.decode("utf-8") if raw else ""


def _var_handle(op: OperatorInput) -> Operation:
    options = op.options(tflite.VarHandleOptions, O.VarHandleOptions)
    if options is None:
        raise op.where.error("VAR_HANDLE needs its VarHandleOptions")
    shared_name = op.read("shared_name", lambda: _text(options.SharedName()))
    container = op.read("container", lambda: _text(options.Container()))
    if not shared_name:
        raise op.where.error("VAR_HANDLE has no shared_name")
    return VarHandleOp(shared_name, container)


BUILDERS: dict[int, Builder] = {
    B.VAR_HANDLE: Builder(_var_handle, (0, 0)),
    B.READ_VARIABLE: Builder(lambda op: ReadVariableOp(op.operand(0, "resource"), op.result()),
                             (1, 1)),
    B.ASSIGN_VARIABLE: Builder(
        lambda op: AssignVariableOp(op.operand(0, "resource"), op.operand(1, "value")), (2, 2), 0
    ),
}
