"""`tosa-hoist-variables`: lift legacy in-function `tosa.variable`s to the module.

The TOSA statefulness RFC and 2023-2025 MLIR / TensorFlow output declare variables at the
top of a `func.func`; upstream MLIR now requires them in the module's symbol table. The
verifier has already checked the RFC's rules (no name declared twice in one function, no
use before the declaration, equal declarations across functions), so the same name in
several functions is one variable: the first declaration moves in front of its function,
the others are dropped.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.tosa.variables import VariableOp


class HoistDeclaration(RewritePattern):
    """A declaration in a function body moves in front of the function (or merges into
    the module's declaration of the same name)."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableOp, rewriter: PatternRewriter) -> None:
        func = op.parent_op()
        if not isinstance(func, FuncOp) or not isinstance(module := func.parent_op(), ModuleOp):
            return
        declared = any(
            isinstance(other, VariableOp) and other.var_name == op.var_name
            for other in module.body.block.ops
        )
        if not declared:
            rewriter.insert(op.clone(), InsertPoint.before(func))
        rewriter.erase(op)


@dataclass(frozen=True)
class TosaHoistVariablesPass(ModulePass):
    """Moves every `tosa.variable` declared in a function body to the module."""

    name = "tosa-hoist-variables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        PatternRewriteWalker(HoistDeclaration(), apply_recursively=False).rewrite_module(op)
        for func in op.body.block.ops:
            for inner in func.walk():
                if isinstance(inner, VariableOp) and inner.parent_op() is not op:
                    raise PassFailedException(
                        error_at(inner, f"'tosa.variable' @{inner.var_name} could not be "
                                 "hoisted: it is not at the top of a function body")
                    )


def hoist_variables(ctx: Context, module: ModuleOp) -> None:
    """Run `tosa-hoist-variables` if any declaration is still inside a function."""
    if any(isinstance(op, VariableOp) and op.parent_op() is not module for op in module.walk()):
        TosaHoistVariablesPass().apply(ctx, module)
