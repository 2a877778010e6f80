"""Shared machinery of `convert-openvino-to-tosa`: the pattern base class and diagnostics
naming the OpenVINO layer, with the names of the TOSA builder (`transforms/tosa_builder`)
that every converter uses.

Each conversion pattern computes its results from the *converted* operands: their types are
static (OpenVINO IR may say `?` where our shapes are known), so result types are inferred here
rather than copied from the `openvino` op. A pattern

- waits (`Deferred`) until every operand is produced by a TOSA op (or a constant): the walker
  retries it in its next round, so the order in which ops are visited does not matter;
- builds its TOSA ops through an `Emitter`, which verifies each op and folds it into a
  `tosa.const` when all its operands are constants (shape subgraphs become constants: our
  shapes are static);
- raises `Unsupported` with a reason when the op cannot be expressed; the op then stays and the
  pass reports the reason, naming the layer.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from typing import Any, ClassVar

from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import describe_layer, error_at
from tosa_state.dialects import openvino as ov
from tosa_state.transforms.tosa_builder.emitter import (
    DATA_SIZES_LIMIT,
    Emitter,
    Lowering,
    RuntimeShape,
    widened_for_division,
)
from tosa_state.transforms.tosa_builder.values import (
    DYN,
    Deferred,
    ShapeOperand,
    Unsupported,
    broadcast_shape,
    constant,
    constant_ints,
    dims,
    dims_of,
    dtype_of,
    element,
    first_failure,
    integer_type,
    is_float,
    is_static,
    is_unsigned,
    normalize_axis,
    register_constant,
    require_constant,
    shape,
    signless,
)

# `openvino.constant` operands are read, and folded on, before their own conversion.
register_constant(ov.ConstantOp, lambda op: op.value)

# ---------------------------------------------------------------------------------------------
# Diagnostics
# ---------------------------------------------------------------------------------------------


def conversion_error(op: Operation, reason: str) -> str:
    """`file:line:col: error: layer ...: 'openvino.x' op could not be converted to TOSA: ...`."""
    layer = describe_layer(op)
    prefix = f"{layer}: " if layer else ""
    return error_at(op, f"{prefix}'{op.name}' op could not be converted to TOSA: {reason}")


# ---------------------------------------------------------------------------------------------
# The pattern base class
# ---------------------------------------------------------------------------------------------


def _check_operands_converted(op: Operation) -> None:
    for operand in op.operands:
        owner = operand.owner
        if (
            isinstance(owner, Operation)
            and owner.dialect_name() == "openvino"
            and not isinstance(owner, ov.ConstantOp)
        ):
            raise Deferred(f"its operand comes from '{owner.name}', which was not converted")


class OpenVINOPattern(RewritePattern, ABC):
    """Converts the ops of `OPS`: `convert` returns the values replacing the op's results."""

    OPS: ClassVar[tuple[type[Operation], ...]]

    def __init__(self, lowering: Lowering):
        self.lowering = lowering

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.OPS):
            return
        emitter = Emitter(self.lowering, op)
        try:
            _check_operands_converted(op)
            try:
                results = self.convert(op, emitter)
            except ShapeOperand:
                emitter.discard()
                self._shapes_as_tensors(op, rewriter)
                results = self.convert(op, emitter)
        except (Unsupported, VerifyException, ValueError) as error:
            emitter.discard()
            failure = error if isinstance(error, Unsupported) else Unsupported(str(error))
            self.lowering.failures[op] = failure
            return
        self.lowering.failures.pop(op, None)
        emitter.commit(rewriter, results)

    def _shapes_as_tensors(self, op: Operation, rewriter: PatternRewriter) -> None:
        """Replace `op`'s run-time shape operands by the integer tensors they stand for (a
        size used as data: `Equal(seq_len, 1)`, a position offset, ...)."""
        e = Emitter(self.lowering, op)
        for i, operand in enumerate(op.operands):
            if operand in self.lowering.shapes:
                op.operands[i] = e.shape_as_tensor(operand)
        e.insert(rewriter)

    @abstractmethod
    def convert(self, op: Any, e: Emitter) -> Sequence[SSAValue]:
        """The replacement values of `op`'s results; `Unsupported` if it cannot be converted."""


__all__ = [
    "DATA_SIZES_LIMIT", "DYN", "Deferred", "Emitter", "Lowering", "OpenVINOPattern",
    "RuntimeShape", "Unsupported", "broadcast_shape", "constant", "constant_ints",
    "conversion_error", "dims", "dims_of", "dtype_of", "element", "first_failure",
    "integer_type", "is_float", "is_static", "is_unsigned", "normalize_axis",
    "require_constant", "shape", "signless", "widened_for_division",
]
