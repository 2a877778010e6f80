"""Shared machinery of `convert-tflite-to-tosa`: the pattern base class, the translation of a
subgraph (function) onto given values, and fused activations.

A pattern's `convert(op, operands, e)` builds the TOSA replacement of `op` from `operands`
(already TOSA values) through the OpenVINO conversion's `Emitter`, which verifies each op and
folds ops on constants. The same `convert` serves twice: as a rewrite of the ops of the entry
function, and to translate a WHILE body / cond or a CALL_ONCE init function onto the values
of one iteration (`translate`), which is how loops are unrolled.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np
from xdsl.dialects.builtin import StringAttr
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Operation, SSAValue
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import OPERATOR_ATTR, location_prefix
from tosa_state.dialects.tfl.state import VarHandleOp
from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.transforms.tosa_builder.emitter import Emitter, Lowering
from tosa_state.transforms.tosa_builder.values import (
    Deferred,
    Unsupported,
    clamp_bounds,
    constant_ints,
    dtype_of,
    element,
    is_float,
    shape,
)

SOURCE_ATTR = OPERATOR_ATTR


def describe(op: Operation) -> str:
    """`operator #3 (ADD) in subgraph 'main'` for an imported op, else its location and
    name (`f.mlir:3:5: 'tfl.add'`)."""
    source = op.attributes.get(SOURCE_ATTR)
    if isinstance(source, StringAttr):
        return source.data
    return f"{location_prefix(op)}'{op.name}'"


def is_tfl(op: Operation) -> bool:
    return op.dialect_name() == "tfl"


@dataclass
class TflLowering(Lowering):
    """`Lowering` plus the patterns by op class (for `translate`) and, while a CALL_ONCE init
    function is translated, the assignments it makes."""

    patterns: dict[type[Operation], TflPattern] = field(default_factory=dict)
    init_assignments: list[tuple[str, SSAValue]] | None = None
    translating: list[str] = field(default_factory=list)
    """The functions being translated, innermost last (a subgraph may not call itself)."""


def translate(lowering: TflLowering, func: FuncOp, args: Sequence[SSAValue],
              e: Emitter) -> list[SSAValue]:
    """The values `func` returns for `args`, its ops converted into `e` one by one."""
    name = func.sym_name.data
    if name in lowering.translating:
        chain = " -> ".join(f"@{n}" for n in [*lowering.translating, name])
        raise Unsupported(f"subgraphs call themselves ({chain})")
    lowering.translating.append(name)
    try:
        return _translate(lowering, func, args, e)
    finally:
        lowering.translating.pop()


def _translate(lowering: TflLowering, func: FuncOp, args: Sequence[SSAValue],
               e: Emitter) -> list[SSAValue]:
    block = func.body.block
    values: dict[SSAValue, SSAValue] = dict(zip(block.args, args, strict=True))
    for op in block.ops:
        if isinstance(op, ReturnOp):
            return [values[v] for v in op.arguments]
        if isinstance(op, VarHandleOp):
            values[op.handle] = op.handle
            continue
        pattern = lowering.patterns.get(type(op))
        if pattern is None:
            raise Unsupported(f"{describe(op)}: no conversion for '{op.name}'")
        try:
            results = pattern.convert(op, [values[v] for v in op.operands], e)
        except Unsupported as error:
            raise Unsupported(f"{describe(op)}: {error}") from None
        values.update(zip(op.results, results, strict=True))
    raise Unsupported(f"function @{func.sym_name.data} has no func.return")


def _in_entry(op: Operation) -> bool:
    """Ops of public functions are rewritten; private ones are subgraphs, translated."""
    parent = op.parent_op()
    return isinstance(parent, FuncOp) and (
        parent.sym_visibility is None or parent.sym_visibility.data == "public"
    )


class TflPattern(RewritePattern, ABC):
    """Converts the ops of `OPS` (in the entry function) through `convert`."""

    OPS: ClassVar[tuple[type[Operation], ...]]

    def __init__(self, lowering: TflLowering):
        self.lowering = lowering
        for cls in self.OPS:
            lowering.patterns[cls] = self

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        if not isinstance(op, self.OPS) or not _in_entry(op):
            return
        e = Emitter(self.lowering, op)
        try:
            for operand in op.operands:
                owner = operand.owner
                if isinstance(owner, Operation) and is_tfl(owner) and not isinstance(
                    owner, VarHandleOp
                ):
                    raise Deferred(f"its operand comes from '{owner.name}', not converted yet")
            results = self.convert(op, list(op.operands), e)
        except (Unsupported, VerifyException, ValueError) as error:
            e.discard()
            failure = error if isinstance(error, Unsupported) else Unsupported(str(error))
            self.lowering.failures[op] = failure
            return
        self.lowering.failures.pop(op, None)
        e.commit(rewriter, results)

    @abstractmethod
    def convert(self, op: Any, operands: Sequence[SSAValue], e: Emitter) -> Sequence[SSAValue]:
        """The values replacing `op`'s results, built from `operands`."""


def activate(e: Emitter, value: SSAValue, activation: StringAttr) -> SSAValue:
    """A fused activation (`fused_activation_function`) applied to `value`."""
    name = activation.data
    if name == "NONE":
        return value
    if name == "TANH":
        return e.unary(tew.TanhOp, value)
    low, high = {"RELU": (0.0, float("inf")), "RELU6": (0.0, 6.0),
                 "RELU_N1_TO_1": (-1.0, 1.0)}[name]
    return relu(e, value, low, high)


def relu(e: Emitter, value: SSAValue, low: float, high: float) -> SSAValue:
    """`tosa.clamp` to [low, high] (saturated to the element type)."""
    lo, hi = clamp_bounds(element(value), low, high)
    if not is_float(element(value)):
        lo, hi = int(lo), int(hi)
    return e.clamp(value, lo, hi)


def constant_list(value: SSAValue, what: str) -> list[int]:
    """A constant integer operand (after folding) as a list."""
    return constant_ints(value, what)


def zeros_like(value: SSAValue) -> np.ndarray:
    return np.zeros(shape(value), dtype_of(element(value)))
