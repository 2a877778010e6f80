"""`mlprogram-stores-last`: every `ml_program.global_store` of a function's body moved to
its end, so that a call failing before the end (an assertion, a trap) leaves every global as
it was: a compiled module's call is then a transaction, as the interpreter's is.

A load of a global after a store of it (in the same block or nested in an op after it)
reads the stored value instead; of several stores of one global the last one stays. The
stores go, in their order, just before the `func.return`:

```mlir
ml_program.global_store @kv = %all : tensor<?x2x?x16xf32>
%again = ml_program.global_load @kv : tensor<?x2x?x16xf32>
%y = tosa.mul %again, %m, %shift : ...
return %y : ...
```
becomes
```mlir
%y = tosa.mul %all, %m, %shift : ...
ml_program.global_store @kv = %all : tensor<?x2x?x16xf32>
return %y : ...
```
A store nested in a region (a `tosa.cond_if` branch) stays where it is, and so do the
body's stores of the same global (the order of the two matters); such a module's call
is a transaction only up to that store.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Block
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalStoreOp


def stores_last(block: Block) -> None:
    """Move the stores of `block` (a function's body) before its terminator."""
    terminator = block.last_op
    if not isinstance(terminator, ReturnOp):
        return
    nested = {op.global_name for top in block.ops if top.regions for op in top.walk()
              if isinstance(op, GlobalStoreOp)}
    stores = [op for op in block.ops
              if isinstance(op, GlobalStoreOp) and op.global_name not in nested]
    for store in stores:
        name, value = store.global_name, store.value
        op = store.next_op
        while op is not None and op is not terminator:
            after = op.next_op
            if isinstance(op, GlobalStoreOp) and op.global_name == name:
                Rewriter.erase_op(store)  # the later store wins
                break
            for inner in list(op.walk()):
                if isinstance(inner, GlobalLoadOp) and inner.global_name == name:
                    inner.result.replace_all_uses_with(value)
                    Rewriter.erase_op(inner)
            op = after
        else:
            store.detach()
            Rewriter.insert_op(store, InsertPoint.before(terminator))


@dataclass(frozen=True)
class MLProgramStoresLastPass(ModulePass):
    """Moves each function's `ml_program.global_store`s to its end (reads after a store use
    the stored value): a failing call writes no global."""

    name = "mlprogram-stores-last"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        for func in op.body.block.ops:
            if isinstance(func, FuncOp) and func.body.blocks:
                stores_last(func.body.block)


__all__ = ["MLProgramStoresLastPass", "stores_last"]
