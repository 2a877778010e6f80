"""`tosa-hoist-variables`: lift legacy in-function `tosa.variable`s to the module.

The TOSA statefulness RFC and 2023-2025 MLIR / TensorFlow output declare variables at the
top of a `func.func`; upstream MLIR now requires them in the module's symbol table. In the
legacy form declarations are function-scoped, as upstream's verifier has them: several
functions may declare one name, even differently. Hoisting makes each name one module
variable, so declarations of a name must agree (type and initial value): the first one
moves in front of its function, equal ones are dropped, and a different one is an error
naming both declarations.
"""

from __future__ import annotations

from dataclasses import dataclass, field

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

from tosa_state.diagnostics import error_at, location_prefix
from tosa_state.dialects.tosa.variables import VariableOp


def _legacy_declarations(module: ModuleOp) -> list[tuple[FuncOp, VariableOp]]:
    """The declarations at the top of the module's functions, in order."""
    found = []
    for func in module.body.block.ops:
        if isinstance(func, FuncOp) and func.body.blocks:
            found.extend(
                (func, op) for op in func.body.blocks.first.ops if isinstance(op, VariableOp)
            )
    return found


def _describe(var: VariableOp) -> str:
    """`= dense<...> : tensor<...>` or `: tensor<...>`, as the declaration reads."""
    if var.initial_value is None:
        return f": {var.tensor_type}"
    return f"= {var.initial_value}"


def _where(var: VariableOp) -> str:
    parent = var.parent_op()
    return f"function '{parent.sym_name.data}'" if isinstance(parent, FuncOp) else "the module"


def _check_mergeable(module: ModuleOp) -> None:
    """Every declaration of a name must equal the first one, which it will merge into."""
    first: dict[str, VariableOp] = {}
    for op in module.body.block.ops:
        if isinstance(op, VariableOp):
            first.setdefault(op.var_name, op)
    for _, var in _legacy_declarations(module):
        other = first.setdefault(var.var_name, var)
        if other is var or (
            other.tensor_type == var.tensor_type and other.initial_value == var.initial_value
        ):
            continue
        raise PassFailedException(
            error_at(
                var,
                f"'tosa.variable' @{var.var_name} cannot be hoisted: {_where(var)} declares "
                f"it '{_describe(var)}', {_where(other)} '{_describe(other)}', and hoisting "
                "makes them one module variable",
            )
            + f"\n{location_prefix(other)}note: the other declaration of @{var.var_name}"
        )


@dataclass
class HoistDeclaration(RewritePattern):
    """A declaration in a function body moves in front of the function (or merges into
    the module's declaration of the same name)."""

    declared: set[str] = field(default_factory=set)
    """The names the module declares."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableOp, rewriter: PatternRewriter) -> None:
        func = op.parent_op()
        if not isinstance(func, FuncOp) or not isinstance(func.parent_op(), ModuleOp):
            return
        if op.var_name not in self.declared:
            self.declared.add(op.var_name)
            rewriter.insert(op.clone(), InsertPoint.before(func))
        rewriter.erase(op)


@dataclass(frozen=True)
class TosaHoistVariablesPass(ModulePass):
    """Moves every `tosa.variable` declared in a function body to the module."""

    name = "tosa-hoist-variables"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        _check_mergeable(op)
        declared = {v.var_name for v in op.body.block.ops if isinstance(v, VariableOp)}
        PatternRewriteWalker(
            HoistDeclaration(declared), apply_recursively=False
        ).rewrite_module(op)
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
