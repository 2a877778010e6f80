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
A store in a `tosa.cond_if` branch (at any depth of nested `cond_if`s) first becomes a
result of the `cond_if`: each branch yields the value it stores last (loads after that store
in the branch read the value), or the global as it is (a load in the branch) when it stores
none, and one store of that result follows the `cond_if`, which then moves last as any other:

```mlir
%r = tosa.cond_if %c (%v = %s) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
^bb0(%v: tensor<2xf32>):
  ml_program.global_store @a = %v : tensor<2xf32>
  tosa.yield %v : tensor<2xf32>
} else { ... }
```
becomes
```mlir
%r, %a_new = tosa.cond_if %c (%v = %s) : ... -> (tensor<2xf32>, tensor<2xf32>) {
^bb0(%v: tensor<2xf32>):
  tosa.yield %v, %v : tensor<2xf32>, tensor<2xf32>
} else {
  ...
  %a = ml_program.global_load @a : tensor<2xf32>
  tosa.yield ..., %a : tensor<2xf32>, tensor<2xf32>
}
...
ml_program.global_store @a = %a_new : tensor<2xf32>
```
A store in any other region (a `tosa.while_loop` body: IREE's legalization unrolls the loops
of a fixed count first) is refused: the call could not be a transaction.
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.passes import ModulePass
from xdsl.rewriter import InsertPoint, Rewriter
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalStoreOp
from tosa_state.dialects.tosa.control_flow import IfOp, YieldOp


def _forward(store: GlobalStoreOp, end: Operation | None) -> bool:
    """Make the loads of `store`'s global after it in its block (up to `end`, nested ones
    too) read the stored value; True when a later store of the global is met first."""
    name, value, op = store.global_name, store.value, store.next_op
    while op is not None and op is not end:
        after = op.next_op  # `op` itself may be a load, erased below
        if isinstance(op, GlobalStoreOp) and op.global_name == name:
            return True
        for inner in list(op.walk()):
            if isinstance(inner, GlobalLoadOp) and inner.global_name == name:
                inner.result.replace_all_uses_with(value)
                Rewriter.erase_op(inner)
        op = after
    return False


def _branch_values(block: Block, types: dict[str, Attribute]) -> list[SSAValue]:
    """The value of each global of `types` (name -> type) at the end of branch `block`, its
    stores erased."""
    values = []
    terminator = block.last_op
    for name, value_type in types.items():
        stores = [op for op in block.ops
                  if isinstance(op, GlobalStoreOp) and op.global_name == name]
        if not stores:
            load = GlobalLoadOp(name, value_type)
            Rewriter.insert_op(load, InsertPoint.before(terminator))  # type: ignore[arg-type]
            values.append(load.result)
            continue
        for store in stores:
            _forward(store, terminator)
        values.append(stores[-1].value)
        for store in stores:
            Rewriter.erase_op(store)
    return values


def _hoist_if(op: IfOp) -> None:
    """Make the stores of `op`'s branches results of `op`, stored after it."""
    blocks = [op.then_graph.block, op.else_graph.block]
    for block in blocks:
        _hoist(block)
    types: dict[str, Attribute] = {}
    for block in blocks:
        for inner in block.ops:
            if isinstance(inner, GlobalStoreOp):
                types.setdefault(inner.global_name, inner.value.type)
    if not types:
        return
    regions = []
    for block in blocks:
        extra = _branch_values(block, types)
        old_yield = block.last_op
        assert isinstance(old_yield, YieldOp)
        Rewriter.replace_op(old_yield, YieldOp(*old_yield.inputs, *extra))
        region = Region()
        op.regions[len(regions)].move_blocks(region)
        regions.append(region)
    new = IfOp(op.condition, list(op.input_list),
               [*op.output_list.types, *types.values()], *regions)
    new.location, new.attributes = op.location, dict(op.attributes)
    count = len(op.output_list)
    Rewriter.replace_op(op, new, list(new.results[:count]))
    stores = [GlobalStoreOp(name, result)
              for name, result in zip(types, new.results[count:], strict=True)]
    Rewriter.insert_op(stores, InsertPoint.after(new))


def _hoist(block: Block) -> None:
    """Make every store nested in an op of `block` a store of `block` (`_hoist_if`)."""
    for op in list(block.ops):
        if not op.regions:
            continue
        if isinstance(op, IfOp):
            _hoist_if(op)
            continue
        for inner in op.walk():
            if isinstance(inner, GlobalStoreOp):
                raise PassFailedException(error_at(
                    inner, f"global @{inner.global_name} is stored inside '{op.name}', "
                    "whose stores cannot be moved to the end of the call (those of a "
                    "'tosa.cond_if' branch can): a call failing after it would leave it "
                    "written"))


def stores_last(block: Block) -> None:
    """Move the stores of `block` (a function's body), and those nested in its
    `tosa.cond_if`s, before its terminator."""
    terminator = block.last_op
    if not isinstance(terminator, ReturnOp):
        return
    _hoist(block)
    for store in [op for op in block.ops if isinstance(op, GlobalStoreOp)]:
        if _forward(store, terminator):
            Rewriter.erase_op(store)  # the later store wins
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
