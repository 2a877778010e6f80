"""WHILE, unrolled; CALL_ONCE, folded into initial values or run on the first call.

WHILE: the cond function is translated onto the loop values; when it folds to a constant
(Keras exports count steps with constant counters and a constant bound) the body is
translated onto them, and so on, at most `MAX_UNROLL` times. A cond that does not fold (a
trip count known only at run time) is refused.

CALL_ONCE: the init function is translated with its ASSIGN_VARIABLEs collected; an assigned
value that folds to a constant becomes the variable's `initial_value` (as TensorFlow's
legalisation does); a computed one is assigned on the first call and after each reset, guarded
by a hidden flag variable (as `convert-openvino-to-tosa` does for computed ReadValue inits).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import TensorType, i1
from xdsl.ir import SSAValue

from tosa_state.dialects.tfl.control_flow import CallOnceOp, WhileOp
from tosa_state.dialects.tosa.variables import VariableReadOp, VariableWriteOp, init_flag_name
from tosa_state.transforms.tflite_to_tosa.common import TflPattern, translate, zeros_like
from tosa_state.transforms.tflite_to_tosa.state import declare
from tosa_state.transforms.tosa_builder.emitter import Emitter
from tosa_state.transforms.tosa_builder.values import Unsupported, constant, shape

MAX_UNROLL = 256
"""The most iterations a WHILE is unrolled to."""

_FLAG_TYPE = TensorType(i1, [])


class While(TflPattern):
    """WHILE with a trip count that folds to a constant <= `MAX_UNROLL`: unrolled."""

    OPS = (WhileOp,)

    def convert(self, op: WhileOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        cond, body = op.functions()
        values = list(operands)
        for _ in range(MAX_UNROLL + 1):
            (going,) = translate(self.lowering, cond, values, e)
            decided = constant(going)
            if decided is None:
                raise Unsupported(
                    f"the loop condition @{cond.sym_name.data} does not fold to a constant "
                    "(the trip count must be known at compile time to unroll the loop)"
                )
            if not bool(np.asarray(decided).reshape(-1)[0]):
                return values
            values = translate(self.lowering, body, values, e)
        raise Unsupported(f"the loop runs more than {MAX_UNROLL} iterations (the unroll limit)")


class CallOnce(TflPattern):
    """CALL_ONCE: initial values, or a computed init on the first call."""

    OPS = (CallOnceOp,)

    def convert(self, op: CallOnceOp, operands: Sequence[SSAValue],
                e: Emitter) -> Sequence[SSAValue]:
        lowering = self.lowering
        outer, lowering.init_assignments = lowering.init_assignments, []
        try:
            translate(lowering, op.function(), [], e)
            assignments = lowering.init_assignments
        finally:
            lowering.init_assignments = outer
        computed = []
        for name, value in assignments:
            array = constant(value)
            if array is not None:
                declare(lowering, e, name, value.type, array)
            else:
                declare(lowering, e, name, value.type, zeros_like(value))
                computed.append((name, value))
        if computed:
            self._first_call(e, op.session_init_function.data, computed)
        return []

    def _first_call(self, e: Emitter, function: str,
                    computed: list[tuple[str, SSAValue]]) -> None:
        flag = init_flag_name(function)
        declare(self.lowering, e, flag, _FLAG_TYPE, np.array(False), flag_of=function)
        done = e.value(VariableReadOp(flag, _FLAG_TYPE))
        for name, value in computed:
            state = e.value(VariableReadOp(name, value.type))
            kept = e.select(e.reshape(done, (1,) * len(shape(value))), state, value)
            e.emit(VariableWriteOp(name, kept))
        e.emit(VariableWriteOp(flag, e.const(np.array(True))))


CONTROL_FLOW_PATTERNS = (While, CallOnce)
