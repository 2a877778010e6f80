"""`convert-openvino-to-tosa`: OpenVINO models (the `openvino` dialect) to TOSA 1.0.

Compute ops become TOSA ops (shape subgraphs of static shapes fold to constants; those of
dynamic dimensions become TOSA shape ops, see `openvino_to_tosa.shapes`; recurrent cells
become TOSA subgraphs, recurrent sequences and TensorIterators one `tosa.while_loop` each,
see `openvino_to_tosa.loops`); ReadValue / Assign become
`tosa.variable` declarations with `tosa.variable.read` / `tosa.variable.write`, keeping
OpenVINO's semantics (see `openvino_to_tosa.state`); compressed weights (NNCF's decompression
subgraphs) become one `tosa_state.dequantize` each (see `openvino_to_tosa.compression`). The
patterns live in the `openvino_to_tosa` package, one module per op family.

Afterwards no `openvino` op is left, function results have the types of what they return
(refined from OpenVINO's `?` dims where the conversion knows more), and all state writes
stand at the end of their function. Inputs keep their dynamic dimensions: the TOSA module
is shape-polymorphic. The pass fails, naming the op and its OpenVINO layer, when an op
cannot be converted (e.g. an op that needs static shapes gets a dynamic one).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import PatternRewriter, RewritePattern
from xdsl.utils.exceptions import PassFailedException

from tosa_state.transforms.openvino_to_tosa import Lowering, conversion_patterns
from tosa_state.transforms.openvino_to_tosa.common import OpenVINOPattern, conversion_error
from tosa_state.transforms.openvino_to_tosa.compression import fuse_decompression
from tosa_state.transforms.targeted_walker import rewrite_op
from tosa_state.transforms.to_tosa import clean_up, existing_variables, refine_result_types
from tosa_state.transforms.tosa_builder.values import first_failure


def _is_openvino(op: Operation) -> bool:
    return op.dialect_name() == "openvino"


def contains_openvino_ops(module: ModuleOp) -> bool:
    """Whether `module` holds any `openvino` op (`compile_model` converts it then)."""
    return any(_is_openvino(op) for op in module.walk())


class PatternsByOpType(RewritePattern):
    """The conversion's patterns, tried on an op only when they may apply: an
    `OpenVINOPattern` on the ops of its `OPS` (looked up once per op class), any other
    pattern on every op; the first that rewrites wins, as in `GreedyRewritePatternApplier`.
    (Trying all ~100 patterns on every op was a third of converting a 30-layer LLM.)"""

    def __init__(self, patterns: Sequence[RewritePattern]):
        self.patterns = list(patterns)
        self._by_class: dict[type[Operation], list[RewritePattern]] = {}

    def _candidates(self, cls: type[Operation]) -> list[RewritePattern]:
        found = self._by_class.get(cls)
        if found is None:
            found = self._by_class[cls] = [
                p for p in self.patterns
                if not isinstance(p, OpenVINOPattern) or issubclass(cls, p.OPS)
            ]
        return found

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        for pattern in self._candidates(type(op)):
            pattern.match_and_rewrite(op, rewriter)
            if rewriter.has_done_action:
                return


def convert_in_rounds(
    module: ModuleOp, patterns: RewritePattern, convertible: Callable[[Operation], bool]
) -> None:
    """Apply `patterns` to the `convertible` ops of `module` in order, round after round
    while a round converts one (a pattern defers an op whose operands are not converted
    yet: it is retried in the next round).

    What `PatternRewriteWalker(apply_recursively=True)` does for a conversion whose patterns
    match only the ops they replace, without visiting every op inserted, the users of every
    op replaced and then every op of the module again (a tenth of converting a 30-layer
    LLM)."""
    pending = [op for op in module.walk() if convertible(op)]
    while pending:
        # an op erased with the op around it (a loop's yield) is done
        left = [op for op in pending if op.parent is not None and not rewrite_op(op, patterns)]
        if len(left) == len(pending):
            return
        pending = left


@dataclass(frozen=True)
class ConvertOpenVINOToTosaPass(ModulePass):
    """Converts every `openvino` op (an imported OpenVINO IR model) to TOSA and TOSA variables."""

    name = "convert-openvino-to-tosa"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        funcs = [f for f in op.body.block.ops if isinstance(f, FuncOp) and
                 any(_is_openvino(inner) for inner in f.walk())]
        if not funcs:
            return
        lowering = Lowering(variables=existing_variables(op), created=fuse_decompression(op))
        convert_in_rounds(op, PatternsByOpType(conversion_patterns(lowering)), _is_openvino)
        _check_converted(op, lowering)
        for func in funcs:
            refine_result_types(func)
        clean_up(op, lowering.created)


def _name(func: FuncOp, index: int) -> str:
    attrs = func.arg_attrs.data[index] if func.arg_attrs is not None else None
    if isinstance(attrs, DictionaryAttr):
        name = attrs.data.get("openvino.name")
        if isinstance(name, StringAttr):
            return f"input '{name.data}'"
    return f"argument {index}"


def _check_converted(module: ModuleOp, lowering: Lowering) -> None:
    """Fail on the first op left, preferring a real reason over a deferral."""
    left = [op for op in module.walk() if _is_openvino(op) and op.name != "openvino.yield"]
    if not left:
        return
    op, reason = first_failure(left, lowering.failures)
    message = conversion_error(op, reason)
    if len(left) > 1:
        message += f"\nnote: {len(left) - 1} more 'openvino' op(s) were left unconverted"
    raise PassFailedException(message)
