"""Constant folding: an op evaluated on constant operands, for the passes that fold.

Passes rewrite IR and the interpreter runs it; neither imports the other. Folding needs the
ops' semantics, and the interpreter's numpy kernels are their one definition, so the
interpreter registers an evaluator here when it is imported and the passes call `evaluate`:
each op's meaning is written once, and no layer imports upward. A process that runs a pass
without having imported the interpreter (plain `xdsl-opt`, `tosa_state.transforms` alone)
imports it, by name, at its first evaluation: the runtime's cost is paid by the passes that
fold, not by every import of a pass or of the `xdsl.universe` plugin.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from importlib import import_module
from typing import Any

from xdsl.ir import Operation

Evaluator = Callable[[Operation, Sequence[Any]], Sequence[Any]]
"""Runs one op on Python values (numpy arrays, shape tuples); returns its results."""

_evaluators: list[Evaluator] = []

DEFAULT_EVALUATOR = "tosa_state.interpreter.functions"
"""The module whose import registers the interpreter's evaluator."""


class FoldingUnavailable(Exception):
    """No evaluator is registered (the interpreter was not imported)."""


def register(evaluator: Evaluator) -> None:
    """Make `evaluator` the one `evaluate` uses (the latest registered wins)."""
    _evaluators.append(evaluator)


def evaluate(op: Operation, args: Sequence[Any]) -> tuple[Any, ...]:
    """`op`'s results on `args`; the evaluator's own errors propagate."""
    if not _evaluators:
        import_module(DEFAULT_EVALUATOR)
    if not _evaluators:
        raise FoldingUnavailable(f"no evaluator is registered (importing {DEFAULT_EVALUATOR} "
                                 "registered none)")
    return tuple(_evaluators[-1](op, args))


__all__ = ["Evaluator", "FoldingUnavailable", "evaluate", "register"]
