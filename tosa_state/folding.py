"""Constant folding: an op evaluated on constant operands, for the passes that fold.

Passes rewrite IR and the interpreter runs it; neither imports the other. Folding needs the
ops' semantics, and the interpreter's numpy kernels are their one definition, so the
interpreter registers an evaluator here when it is imported (`tosa_state` imports it) and
the passes call `evaluate`: each op's meaning is written once, and no layer imports upward.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from xdsl.ir import Operation

Evaluator = Callable[[Operation, Sequence[Any]], Sequence[Any]]
"""Runs one op on Python values (numpy arrays, shape tuples); returns its results."""

_evaluators: list[Evaluator] = []


class FoldingUnavailable(Exception):
    """No evaluator is registered (the interpreter was not imported)."""


def register(evaluator: Evaluator) -> None:
    """Make `evaluator` the one `evaluate` uses (the latest registered wins)."""
    _evaluators.append(evaluator)


def evaluate(op: Operation, args: Sequence[Any]) -> tuple[Any, ...]:
    """`op`'s results on `args`; the evaluator's own errors propagate."""
    if not _evaluators:
        raise FoldingUnavailable("no evaluator is registered (import tosa_state first)")
    return tuple(_evaluators[-1](op, args))


__all__ = ["Evaluator", "FoldingUnavailable", "evaluate", "register"]
