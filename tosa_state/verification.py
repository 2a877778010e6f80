"""Module verification with MLIR-style diagnostics.

xDSL's verifier raises bare exceptions; this driver walks the module the same way
(nested ops first) and reports the first failure as `file:line:col: error: 'op' op msg`.
"""

from __future__ import annotations

from xdsl.ir import Operation
from xdsl.utils.exceptions import DiagnosticException, VerifyException

from tosa_state.diagnostics import VerificationError, error_at
from tosa_state.symbol_cache import frozen_ir


def verify_module(module: Operation) -> None:
    """Raise `VerificationError` naming the first op (innermost first) that does not verify.

    Runs in `frozen_ir()`: symbol lookups are indexed once, so verification is linear in
    the size of the module."""
    with frozen_ir():
        for op in module.walk(reverse=False, region_first=True):
            try:
                op.verify(verify_nested_ops=False)
            except (VerifyException, DiagnosticException) as error:
                raise VerificationError(
                    error_at(op, f"'{op.name}' op {_first_line(error)}")
                ) from None


def _first_line(error: Exception) -> str:
    message = str(error.args[0]) if error.args else str(error)
    return message.removeprefix("Operation does not verify: ")
