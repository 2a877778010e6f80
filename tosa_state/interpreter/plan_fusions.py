"""The fusions the plan recognises in the IR of the models it runs (`plan.py` stays a
generic code generator: it emits what these finders return, and plans every op alike
without them):

- row gathers: `reshape(gather(reshape(x)))`, a Gather of whole rows as converted (an LLM's
  beam reorder of its KV caches), one `tosa_tensor.gather_rows` call;
- grouped-query products: `matmul(a, transpose(reshape(... tile(x))))`, K / V heads repeated
  for groups of query heads, one `tosa_tensor.grouped_product` call that multiplies each
  group by its one head (no copy of the repeats);
- loops (`loop_fusion`): the comparison a `tosa.while_loop`'s condition reduces to (Python
  ints compared), the step indices it only advances and uses to gather or scatter one row
  (kept as Python ints: a slice, an assignment), and the carried outputs it only scatters
  into (updated in place).

The finders read the IR only.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Collection, Iterator
from dataclasses import dataclass
from typing import Any

from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.ir import Block, Operation, SSAValue

from tosa_state.dialects.tosa.control_flow import WhileOp, YieldOp
from tosa_state.dialects.tosa.elementwise import AddOp, GreaterOp
from tosa_state.dialects.tosa.shape import DimOp
from tosa_state.dialects.tosa.tensor import (
    ConstOp,
    GatherOp,
    MatMulOp,
    ReshapeOp,
    ScatterOp,
    TileOp,
    TransposeOp,
)
from tosa_state.interpreter.tosa_tensor import gather_rows, grouped_product

KernelOf = Callable[[Operation], Callable[..., Any]]
"""The plan kernel of an op (`plan_kernel`: the function its impl applies to its operands)."""


@dataclass(frozen=True)
class Fusion:
    """Ops the plan runs as one call of `build(kernel_of)` on `operands`, emitted at `anchor`
    (every operand is computed by then), whose one result it defines; a failure is reported
    at `reported`. The ops of `fused` are not planned on their own, but for `shape_only`
    ones, whose results `tosa.dim`s read too: the plan runs them on an array of no memory."""

    anchor: Operation
    reported: Operation
    fused: tuple[Operation, ...]
    operands: tuple[SSAValue, ...]
    build: Callable[[KernelOf], Callable[..., Any]]
    shape_only: tuple[Operation, ...] = ()


def row_gathers(block: Block, folded: Collection[SSAValue]) -> Iterator[Fusion]:
    """The `reshape(gather(reshape(x)))` chains of `block`, at their last reshape: each
    reshape's result used only by the next op, `x` not a constant (`folded`), not one row (a
    loop step's gather, planned on its step index)."""
    for gather in block.ops:
        if not isinstance(gather, GatherOp):
            continue
        first, uses = gather.values.owner, list(gather.output.uses)
        if not (isinstance(first, ReshapeOp) and first.parent is block
                and first.output.has_one_use() and len(uses) == 1
                and first.input1 not in folded
                and gather.indices.type.get_shape() != (1, 1)):  # one row: a step's
            continue
        last = uses[0].operation
        if isinstance(last, ReshapeOp) and last.parent is block and uses[0].index == 0:
            yield Fusion(
                anchor=last, reported=gather, fused=(first, gather),
                operands=(first.input1, first.shape, gather.indices, last.shape),
                build=lambda k, ops=(first, gather, last): gather_rows(*map(k, ops)))


def grouped_products(block: Block, folded: Collection[SSAValue]) -> Iterator[Fusion]:
    """The `tosa.matmul`s of `block` whose second operand is
    `transpose(reshape(... reshape(tile(x))))` (the `[0, 2, 1]` transpose optional; each
    result used only by the next op, or by `tosa.dim`s too, in `block`), at the matmul."""
    for matmul in block.ops:
        if not isinstance(matmul, MatMulOp):
            continue
        chain: list[ReshapeOp | TransposeOp] = []
        value = matmul.b
        owner = value.owner
        if isinstance(owner, TransposeOp) and tuple(owner.perms.get_values()) == (0, 2, 1):
            chain.append(owner)
            value = owner.input1
        while isinstance(owner := value.owner, ReshapeOp):
            chain.append(owner)
            value = owner.input1
        tile = value.owner
        if not (isinstance(tile, TileOp) and tile.parent is block and value not in folded
                and any(isinstance(op, ReshapeOp) for op in chain)
                and all(op.parent is block and _used_for_shape_besides(op, user)
                        for op, user in zip(chain, [matmul, *chain], strict=False))):
            continue
        reshapes = tuple(op for op in reversed(chain) if isinstance(op, ReshapeOp))
        transpose = chain[0] if isinstance(chain[0], TransposeOp) else None

        def build(k: KernelOf, matmul: MatMulOp = matmul, reshapes: tuple[ReshapeOp, ...] =
                  reshapes, transpose: TransposeOp | None = transpose) -> Callable[..., Any]:
            flip = None if transpose is None else k(transpose)
            return grouped_product(k(matmul), [k(op) for op in reshapes], flip)

        yield Fusion(
            anchor=matmul, reported=matmul, fused=tuple(chain),
            operands=(matmul.a, tile.output, matmul.a_zp, matmul.b_zp,
                      *(op.shape for op in reshapes)),
            build=build,
            shape_only=tuple(op for op in chain if not op.results[0].has_one_use()))


FINDERS = (row_gathers, grouped_products)


def block_fusions(block: Block, folded: Collection[SSAValue]) -> dict[Operation, Fusion]:
    """Every fusion of `block`, by anchor (`folded`: the values computed at compile time)."""
    return {fusion.anchor: fusion for finder in FINDERS for fusion in finder(block, folded)}


def _used_for_shape_besides(op: Operation, user: Operation) -> bool:
    """Whether `op`'s result is used by `user` once and otherwise only by `tosa.dim`s."""
    uses = [u.operation for u in op.results[0].uses]
    return uses.count(user) == 1 and all(u is user or isinstance(u, DimOp) for u in uses)


# ---------------------------------------------------------------------------------------------
# Loops
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class LoopFusion:
    """What the plan makes of a `tosa.while_loop`: `compared`, the comparison its condition
    reduces to (None: the condition is planned as it is); `steps`, the carried values (by
    index) kept as Python ints; `in_place`, the carried values each updated in place by its
    one scatter."""

    compared: GreaterOp | None
    steps: frozenset[int]
    in_place: dict[int, ScatterOp]


UNFUSED_LOOP = LoopFusion(None, frozenset(), {})


def loop_fusion(op: WhileOp) -> LoopFusion:
    """What of `op` the plan fuses (`UNFUSED_LOOP`: nothing)."""
    in_place = accumulators(op)
    compared = scalar_comparison(op.cond_graph.block)
    return LoopFusion(compared, frozenset(step_indices(op, compared, set(in_place.values()))),
                      in_place)


def scalar_comparison(cond: Block) -> GreaterOp | None:
    """The `tosa.greater` of one-element integer tensors that `cond` yields, when it is all
    `cond` computes besides constants: the plan compares Python ints instead (a loop's
    counter against its end, say)."""
    terminator = cond.last_op
    ops = list(cond.ops)[:-1]
    if not ops or not isinstance(terminator, YieldOp) or len(terminator.inputs) != 1:
        return None
    greater = ops[-1]
    if (
        not isinstance(greater, GreaterOp)
        or terminator.inputs[0] is not greater.results[0]
        or not all(isinstance(o, ConstOp) for o in ops[:-1])
    ):
        return None
    for operand in greater.operands:
        if not (_one_integer(operand) and (operand.owner in ops or operand.owner is cond)):
            return None
    return greater


def static_dim(value: SSAValue, axis: int) -> int | None:
    value_type = value.type
    if not isinstance(value_type, TensorType) or not value_type.has_static_shape():
        return None
    return value_type.get_shape()[axis]


def _one_integer(value: SSAValue) -> bool:
    value_type = value.type
    return (isinstance(value_type, TensorType)
            and isinstance(value_type.element_type, IntegerType)
            and value_type.has_static_shape()
            and math.prod(value_type.get_shape()) == 1)


def step_indices(op: WhileOp, compared: GreaterOp | None,
                 in_place: Collection[ScatterOp]) -> list[int]:
    """The carried values of `op` that the plan may keep as Python ints: one-element
    integer tensors (a step index `[1, 1]` or counter `[1]`) that the body advances by
    adding a constant and otherwise uses only as the indices of one-row `tosa.gather`s
    of one batch and of in-place `tosa.scatter`s of one row, and that `cond_graph` uses
    at most in its comparison with a constant (`compared`)."""
    cond, body = op.cond_graph.block, op.body_graph.block
    body_yield = body.last_op
    found = []
    for index, arg in enumerate(body.args):
        if not _one_integer(arg) or any(u.operation is not compared
                                        for u in cond.args[index].uses):
            continue
        adds = [u.operation for u in arg.uses if isinstance(u.operation, AddOp)]
        if len(adds) != 1 or not _advances(adds[0], arg, index, body_yield):
            continue
        if all(u.operation is adds[0] or _one_row(u.operation, u.index, in_place)
               for u in arg.uses):
            found.append(index)
    return found


def _advances(add: AddOp, arg: SSAValue, index: int, body_yield: Operation | None) -> bool:
    """Whether `add` is `arg + constant`, yielded at `index` and used nowhere else."""
    other = add.operands[1] if add.operands[0] is arg else add.operands[0]
    uses = list(add.output.uses)
    return (
        other is not arg
        and isinstance(other.owner, ConstOp)
        and _one_integer(other)
        and add.output.type == arg.type
        and len(uses) == 1
        and uses[0].operation is body_yield
        and uses[0].index == index
    )


def _one_row(user: Operation, operand: int, in_place: Collection[ScatterOp]) -> bool:
    """Whether `user` takes a `[1, 1]` step index as the indices (operand 1) of a gather
    from one batch of static rows, or of an in-place scatter of one row."""
    if operand != 1:
        return False
    if isinstance(user, GatherOp):
        return static_dim(user.values, 0) == 1 and static_dim(user.values, 1) is not None
    return (isinstance(user, ScatterOp) and user in in_place
            and static_dim(user.values_in, 0) == 1
            and static_dim(user.values_in, 1) is not None)


def accumulators(op: WhileOp) -> dict[int, ScatterOp]:
    """The carried values of `op` (by index) that its body only updates through one
    `tosa.scatter` whose result it yields in the same place, and that `cond_graph` does not
    read: nothing else sees the old value, so the scatter may write in place."""
    cond, body = op.cond_graph.block, op.body_graph.block
    body_yield = body.last_op
    found: dict[int, ScatterOp] = {}
    for index, arg in enumerate(body.args):
        uses = list(arg.uses)
        if len(uses) != 1 or cond.args[index].uses:
            continue
        scatter = uses[0].operation
        if not isinstance(scatter, ScatterOp) or uses[0].index != 0:
            continue
        result_uses = list(scatter.values_out.uses)
        if (
            len(result_uses) == 1
            and result_uses[0].operation is body_yield
            and result_uses[0].index == index
        ):
            found[index] = scatter
    return found


__all__ = ["FINDERS", "UNFUSED_LOOP", "Fusion", "LoopFusion", "block_fusions",
           "grouped_products", "loop_fusion", "row_gathers", "static_dim"]
