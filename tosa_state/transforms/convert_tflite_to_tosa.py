"""`convert-tflite-to-tosa`: TFLite models (the `tfl` dialect) to TOSA 1.0 and TOSA variables.

Compute ops become TOSA ops with static shapes; WHILE loops with a compile-time trip count
are unrolled; resource variables (VAR_HANDLE + READ_VARIABLE / ASSIGN_VARIABLE) become
`tosa.variable @<shared_name>` with reads and writes in program order; a CALL_ONCE init that
folds to constants gives the variables' initial values. The private functions holding the
WHILE / CALL_ONCE subgraphs are erased afterwards. The pass fails, naming the TFLite operator
(`model.tflite: error: operator #5 (WHILE) in subgraph 'main': ...`), when an op cannot be
converted. The patterns live in `tflite_to_tosa`, one module per op family.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import GreedyRewritePatternApplier, PatternRewriteWalker
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.tfl.state import VarHandleOp
from tosa_state.transforms.tflite_to_tosa import TflLowering, conversion_patterns
from tosa_state.transforms.tflite_to_tosa.common import SOURCE_ATTR, describe, is_tfl
from tosa_state.transforms.to_tosa import clean_up, existing_variables, refine_result_types
from tosa_state.transforms.tosa_builder.values import first_failure

FILE_ATTR = "tfl.file"


def contains_tfl_ops(module: ModuleOp) -> bool:
    """Whether `module` holds any `tfl` op (`compile_model` converts it then)."""
    return any(is_tfl(op) for op in module.walk())


def _is_private(func: FuncOp) -> bool:
    return func.sym_visibility is not None and func.sym_visibility.data == "private"


@dataclass(frozen=True)
class ConvertTFLiteToTosaPass(ModulePass):
    """Converts every `tfl` op (an imported TFLite model) to TOSA and TOSA variables."""

    name = "convert-tflite-to-tosa"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        if not contains_tfl_ops(op):
            return
        lowering = TflLowering(variables=existing_variables(op))
        walker = PatternRewriteWalker(
            GreedyRewritePatternApplier(conversion_patterns(lowering), dce_enabled=False),
            apply_recursively=True,
        )
        walker.rewrite_module(op)
        entries = [f for f in op.body.block.ops if isinstance(f, FuncOp) and not _is_private(f)]
        for func in entries:
            for handle in [h for h in func.walk() if isinstance(h, VarHandleOp)]:
                if not handle.handle.uses:
                    handle.detach()
                    handle.erase()
        _check_converted(op, entries, lowering)
        for func in [f for f in op.body.block.ops if isinstance(f, FuncOp) and _is_private(f)]:
            if any(is_tfl(inner) for inner in func.walk()):
                func.detach()
                func.erase()
        for func in entries:
            refine_result_types(func)
        clean_up(op, lowering.created)
        op.attributes.pop(FILE_ATTR, None)  # only the diagnostics needed it


def _check_converted(module: ModuleOp, entries: list[FuncOp], lowering: TflLowering) -> None:
    """Fail on the first op left, preferring a real reason over a deferral."""
    left = [o for f in entries for o in f.walk() if is_tfl(o)]
    if not left:
        return
    bad, reason = first_failure(left, lowering.failures)
    what = f"'{bad.name}' op could not be converted to TOSA: {reason}"
    path = module.attributes.get(FILE_ATTR)
    if isinstance(path, StringAttr) and SOURCE_ATTR in bad.attributes:
        message = f"{path.data}: error: {describe(bad)}: {what}"
    else:  # parsed from MLIR text: file:line:col
        message = error_at(bad, what)
    if len(left) > 1:
        message += f"\nnote: {len(left) - 1} more 'tfl' op(s) were left unconverted"
    raise PassFailedException(message)
