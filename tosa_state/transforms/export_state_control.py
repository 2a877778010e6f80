"""`export-state-control`: exported functions that read, write and reset every
`ml_program` global, so that any host of the compiled module (IREE's Python or C API,
`iree-run-module`) controls the state without access to the globals themselves.

For each mutable global `@v : T` that is state (not an init flag):

```mlir
func.func @"state_get.v"() -> T              // its current value
func.func @"state_set.v"(%value: T)         // store %value (and its init flag true)
func.func @"state_reset.v"()                // store its initial value (and its flag false)
```
and one `func.func @state_reset_all()` resetting every variable. A variable whose initial
value is computed from the inputs (`tosa_state.init_flag_of` on its flag global `@f`) also
gets `@"state_initialized.v"() -> tensor<i1>`, the flag: false until the next inference
computes the initial value.

The value a reset stores is the global's initial value; without one, zeros (a static
type) or an empty tensor, 0 in every dynamic dimension (`tensor.empty`). The functions are
public and carry `tosa_state.state_control` (the kind: get, set, reset, initialized). The
ABI is documented in docs/runtime.md and does not change once released.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.arith import ConstantOp
from xdsl.dialects.builtin import (
    IndexType,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    TensorType,
    i1,
)
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.dialects.tensor import EmptyOp
from xdsl.ir import Attribute, Block, Operation, Region
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import error_at
from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalOp, GlobalStoreOp
from tosa_state.dialects.tosa.tensor import ConstOp
from tosa_state.dialects.tosa.variables import INIT_FLAG_ATTR
from tosa_state.dtypes import numpy_dtype, numpy_to_dense

KIND_ATTR = "tosa_state.state_control"
"""Discardable attribute of a generated function: `get`, `set`, `reset`, `initialized`."""

GET, SET, RESET, INITIALIZED = "state_get.", "state_set.", "state_reset.", "state_initialized."
RESET_ALL = "state_reset_all"


def _function(name: str, kind: str, inputs: list[Attribute], outputs: list[Attribute],
              body: list[Operation], block: Block, location: object) -> FuncOp:
    results = [r for op in body for r in op.results][-len(outputs):] if outputs else []
    func = FuncOp(name, (inputs, outputs), Region(block))
    block.add_ops([*body, ReturnOp(*results)])
    func.attributes[KIND_ATTR] = StringAttr(kind)
    for op in func.walk():
        op.location = location  # type: ignore[assignment]
    return func


def _reset_value(declaration: GlobalOp) -> list[Operation]:
    """Ops computing the value a reset stores (the last op's result)."""
    tensor_type = declaration.type
    assert isinstance(tensor_type, TensorType)
    if declaration.value is not None:
        return [ConstOp(declaration.value)]  # type: ignore[arg-type]
    if tensor_type.has_static_shape():
        zeros = np.zeros(tensor_type.get_shape(), numpy_dtype(tensor_type.element_type))
        return [ConstOp(numpy_to_dense(zeros))]
    dynamic = sum(1 for d in tensor_type.get_shape() if d < 0)
    zero = ConstantOp(IntegerAttr(0, IndexType()))
    return [zero, EmptyOp([zero.result] * dynamic, tensor_type)]


def _store_reset(declaration: GlobalOp) -> list[Operation]:
    ops = _reset_value(declaration)
    return [*ops, GlobalStoreOp(declaration.global_name, ops[-1].results[0])]


def _flag_true(flag: GlobalOp) -> list[Operation]:
    true = ConstOp(numpy_to_dense(np.ones(flag.type.get_shape(), np.bool_)))  # type: ignore
    return [true, GlobalStoreOp(flag.global_name, true.output)]


@dataclass(frozen=True)
class ExportStateControlPass(ModulePass):
    """Adds `state_get.<v>`, `state_set.<v>`, `state_reset.<v>`, `state_reset_all` (and
    `state_initialized.<v>` for computed inits) for every mutable `ml_program` global."""

    name = "export-state-control"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        globals_ = [g for g in op.body.block.ops if isinstance(g, GlobalOp) and g.mutable]
        names = {g.global_name for g in globals_}
        flags: dict[str, GlobalOp] = {}
        for declaration in globals_:
            if isinstance(of := declaration.attributes.get(INIT_FLAG_ATTR), StringAttr):
                flags[of.data] = declaration
        taken = {o.sym_name.data for o in op.body.block.ops if isinstance(o, FuncOp)}
        functions: list[FuncOp] = []
        reset_all: list[Operation] = []
        for declaration in globals_:
            if declaration in flags.values():
                continue
            name, tensor_type = declaration.global_name, declaration.type
            if not isinstance(tensor_type, TensorType):
                raise PassFailedException(error_at(
                    declaration, f"'{self.name}': global '{name}' is not a ranked tensor"))
            flag = flags.get(name)
            where = declaration.location
            functions.append(_function(
                GET + name, "get", [], [tensor_type],
                [GlobalLoadOp(name, tensor_type)], Block(), where))
            block = Block(arg_types=[tensor_type])
            functions.append(_function(
                SET + name, "set", [tensor_type], [],
                [GlobalStoreOp(name, block.args[0]), *(_flag_true(flag) if flag else [])],
                block, where))
            resets = [*_store_reset(declaration), *(_store_reset(flag) if flag else [])]
            reset_all += [*_store_reset(declaration), *(_store_reset(flag) if flag else [])]
            functions.append(_function(RESET + name, "reset", [], [], resets, Block(), where))
            if flag is not None:
                functions.append(_function(
                    INITIALIZED + name, "initialized", [], [TensorType(i1, [])],
                    [GlobalLoadOp(flag.global_name, flag.type)], Block(), where))
        functions.append(_function(RESET_ALL, "reset", [], [], reset_all, Block(), op.location))
        for func in functions:
            if func.sym_name.data in taken or func.sym_name.data in names:
                raise PassFailedException(error_at(
                    op, f"'{self.name}': the module already has a symbol "
                    f"'{func.sym_name.data}'"))
        op.body.block.add_ops(functions)


__all__ = ["GET", "INITIALIZED", "KIND_ATTR", "RESET", "RESET_ALL", "SET",
           "ExportStateControlPass"]
