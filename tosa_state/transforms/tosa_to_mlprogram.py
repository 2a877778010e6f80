"""`tosa-to-mlprogram`: upstream MLIR's lowering of TOSA variables to `ml_program` globals.

```mlir
tosa.variable @v = dense<0.0> : tensor<2xf32>
tosa.variable @w : tensor<4xi32>
%0 = tosa.variable.read @v : tensor<2xf32>
tosa.variable.write @v, %x : tensor<2xf32>
```
becomes
```mlir
ml_program.global private mutable @v(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @w : tensor<4xi32>
%0 = ml_program.global_load @v : tensor<2xf32>
ml_program.global_store @v = %x : tensor<2xf32>
```

Exactly what upstream's pass (`TosaToMLProgram.cpp`, run by IREE's TOSA input pipeline)
produces. Legacy in-function declarations are hoisted first (`tosa-hoist-variables`).
Afterwards no `tosa.variable*` op is left: the pass fails, naming the first op it could not
lower, otherwise. Every other op is left untouched.

The declaration table and the leftover check are shared with
`convert-tosa-variables-to-memref`.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import Operation
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalOp, GlobalStoreOp
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.transforms.tosa_hoist_variables import hoist_variables

VariableAccess = VariableReadOp | VariableWriteOp
AnyVariableOp = VariableOp | VariableReadOp | VariableWriteOp


class Declarations:
    """Every module-level `tosa.variable`'s type, by module and name, collected before
    any rewriting (a read may come before its declaration, which a pattern may already
    have replaced). One dictionary lookup per access instead of a symbol-table scan."""

    def __init__(self, root: ModuleOp):
        self._types: dict[ModuleOp, dict[str, TensorType]] = {}
        for op in root.walk():
            if isinstance(op, VariableOp) and isinstance(module := op.parent_op(), ModuleOp):
                self._types.setdefault(module, {}).setdefault(op.var_name, op.tensor_type)

    def type_of(self, access: Operation, name: str) -> TensorType | None:
        """The type of the variable `name` that `access` refers to, if declared."""
        module = access.parent_op()
        while module is not None and not isinstance(module, ModuleOp):
            module = module.parent_op()
        if module is None:
            return None
        return self._types.get(module, {}).get(name)


def located(source: Operation, *ops: Operation) -> list[Operation]:
    """`ops`, carrying `source`'s location (so run-time errors still point at the source)."""
    for op in ops:
        op.location = source.location
    return list(ops)


def fail_on_leftover_variables(
    root: ModuleOp, pass_name: str, reason: Callable[[Operation], str],
    left: Iterable[Operation] | None = None,
) -> None:
    """Raise `PassFailedException` (a located diagnostic) at the first variable op left
    (in `left`, the variable ops still in the IR in walk order, when the pass knows them;
    else found by a walk of `root`)."""
    for op in root.walk() if left is None else left:
        if isinstance(op, AnyVariableOp):
            raise PassFailedException(
                error_at(op, f"'{op.name}' op could not be lowered by '{pass_name}': "
                         f"{reason(op)}")
            )


def default_reason(declarations: Declarations, op: Operation) -> str:
    """Why a variable op is left when the pass lowers every declared variable."""
    if isinstance(op, VariableOp):
        return f"variable '{op.var_name}' is not declared directly in a module"
    assert isinstance(op, VariableAccess)
    if declarations.type_of(op, op.var_name) is None:
        return f"no 'tosa.variable' in the enclosing module declares '{op.var_name}'"
    return f"variable '{op.var_name}' was not lowered"


class VariableToGlobal(RewritePattern):
    """`tosa.variable` -> `ml_program.global private mutable` with the initial value."""

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableOp, rewriter: PatternRewriter) -> None:
        if not isinstance(op.parent_op(), ModuleOp):
            return
        new = GlobalOp(op.var_name, op.tensor_type, op.initial_value, is_mutable=True)
        new.attributes.update(op.attributes)  # discardable ones travel, e.g. init flags
        rewriter.replace(op, located(op, new))


@dataclass(frozen=True)
class ReadToGlobalLoad(RewritePattern):
    """`tosa.variable.read` -> `ml_program.global_load`, typed like the read."""

    declarations: Declarations

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableReadOp, rewriter: PatternRewriter) -> None:
        if self.declarations.type_of(op, op.var_name) is None:
            return
        rewriter.replace(op, located(op, GlobalLoadOp(op.var_name, op.output1.type)))


@dataclass(frozen=True)
class WriteToGlobalStore(RewritePattern):
    """`tosa.variable.write` -> `ml_program.global_store`."""

    declarations: Declarations

    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: VariableWriteOp, rewriter: PatternRewriter) -> None:
        if self.declarations.type_of(op, op.var_name) is None:
            return
        rewriter.replace(op, located(op, GlobalStoreOp(op.var_name, op.input1)))


@dataclass(frozen=True)
class TosaToMLProgramPass(ModulePass):
    """Lowers TOSA variables to `ml_program` globals, as upstream MLIR does.

    Afterwards: no `tosa.variable`, `tosa.variable.read` or `tosa.variable.write` is left.
    """

    name = "tosa-to-mlprogram"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        hoist_variables(ctx, op)
        declarations = Declarations(op)
        patterns: list[RewritePattern] = [
            VariableToGlobal(),
            ReadToGlobalLoad(declarations),
            WriteToGlobalStore(declarations),
        ]
        PatternRewriteWalker(
            GreedyRewritePatternApplier(patterns, dce_enabled=False),
            apply_recursively=False,
        ).rewrite_module(op)
        fail_on_leftover_variables(
            op, self.name, lambda left: default_reason(declarations, left)
        )


__all__ = [
    "AnyVariableOp",
    "Declarations",
    "ReadToGlobalLoad",
    "TosaToMLProgramPass",
    "VariableToGlobal",
    "WriteToGlobalStore",
    "fail_on_leftover_variables",
    "located",
]
