"""Loops over time steps as one `tosa.while_loop` (LSTMSequence / GRUSequence / RNNSequence,
TensorIterator): the IR and the compile time do not grow with the number of steps.

A `TimeLoop` collects the loop while a pattern builds the step:

- `carry(init)` adds a loop-carried value (a block argument of the body), `update` gives its
  next value;
- `invariant(value)` passes a value from outside into the body unchanged (the regions are
  isolated from above, as the TOSA specification's subgraphs are: weights come in as
  loop-carried values);
- `last(value)` carries a body value out of the loop: its value after the last step;
- `step_part(value, axis, part, ...)` is the part of `value` along `axis` that a step
  reads: a `tosa.gather` at the step's index;
- `stack(value_t, axis, ...)` collects a per-step value along `axis` into a result: a
  `tosa.scatter` into a carried accumulator at the step's index (the runtime writes it in
  place);
- `build(e)` emits the `tosa.while_loop` through the pattern's emitter and returns the
  final carried values and the stacked results.

Each distinct step index (`[outer, part]` positions of a gather or scatter) is a carried i32
tensor advanced by a constant each step. The loop stops when a one-element index (`[1, 1]`:
batch 1, one row a step) reaches its end, else when a carried step counter `tensor<1xi32>`
(then the first carried value) reaches `steps`.

Sizes may be known only at run time (`sizes.Size`: an int or a `!tosa.shape<1>`): the
number of steps, a reverse walk's start (`T - 1`) and the outer dims of the gathered and
stacked values (a dynamic batch). Then the step counter is compared with the step count
carried in as an invariant `tensor<1xi32>` (`Emitter.size_tensor`), and the index tables and
the zero accumulators are `tosa.tile`s of constants by run-time multiples; with every size
known the IR is the static one.

A single step (a streaming model's LSTM over one frame, say) needs no loop: the body is
built the same way, then placed straight in the function with each carried value bound to
its initial one (a step's part is then a `tosa.slice`, a stacked result the step's value),
so the constant step indices fold and nothing is left of the loop.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.builtin import TensorType, i32
from xdsl.ir import Attribute, Block, SSAValue

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dialects.tosa.control_flow import WhileOp, YieldOp
from tosa_state.transforms.openvino_to_tosa import sizes
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    Lowering,
    dims,
    dtype_of,
    element,
    shape,
)
from tosa_state.transforms.openvino_to_tosa.sizes import Size


@dataclass(frozen=True)
class _Stacked:
    accumulator: SSAValue
    """The body's block argument of the accumulator."""
    full_shape: tuple[Size, ...]
    """The result's sizes (a reshape to them also tells later ops its run-time sizes)."""


class TimeLoop:
    """A `tosa.while_loop` over `steps` steps under construction (see the module docstring).
    `body` is the emitter of the step's ops."""

    def __init__(self, lowering: Lowering, e: Emitter, steps: Size):
        self.steps = steps
        self._outer = e
        self.body = Emitter(lowering, e.anchor, shared=False)
        self._block = Block()
        self._inits: list[SSAValue] = []
        self._next: dict[SSAValue, SSAValue] = {}
        self._indices: dict[tuple[Size, int, Size, int], SSAValue] = {}
        self._stacked: list[_Stacked] = []
        self._counter_init = e.const(np.zeros(1, np.int32))

    # -- what the body sees ---------------------------------------------------------------

    def carry(self, init: SSAValue) -> SSAValue:
        """A loop-carried value starting as `init`; its block argument (the current value)."""
        self._inits.append(init)
        return self._block.insert_arg(init.type, len(self._block.args))

    def invariant(self, value: SSAValue) -> SSAValue:
        """`value` (from outside) inside the body."""
        arg = self.carry(value)
        self._next[arg] = arg
        return arg

    def update(self, arg: SSAValue, value: SSAValue) -> None:
        """The value `arg` (from `carry`) has in the next step."""
        self._next[arg] = value

    def last(self, value: SSAValue) -> SSAValue:
        """A carried value that is `value` (from the body) after the last step; its block
        argument, the key of its final value in `build`'s result."""
        if self._next.get(value) is value:  # an invariant: the same after every step
            return value
        arg = self.carry(self._outer.const(np.zeros(shape(value), dtype_of(element(value)))))
        self._next[arg] = value
        return arg

    def index(self, outer: Size, part: int, start: Size, delta: int) -> SSAValue:
        """`[outer, part]` i32 positions `start + k*delta + (0..part-1)` at step k."""
        key = (outer, part, start, delta)
        if key not in self._indices:
            e = self._outer
            if isinstance(outer, int) and isinstance(start, int):
                first = e.const(np.tile(np.arange(start, start + part, dtype=np.int32),
                                        (outer, 1)))
            else:  # a `[1, part]` row (from a run-time start), tiled to `outer` rows
                row = np.arange(part, dtype=np.int32).reshape(1, part)
                if isinstance(start, int):
                    first = e.const(row + start)
                else:
                    first = e.reshape(e.size_tensor(start, i32), (1, 1))
                    if part > 1:
                        first = e.add(e.const(row), first)
                first = e.tile(first, [outer, 1])
            arg = self.carry(first)
            self._indices[key] = arg
            self._next[arg] = self.body.add(arg, self.body.const(np.full((1, 1), delta), i32))
        return self._indices[key]

    @property
    def single(self) -> bool:
        """Whether the loop runs once: `build` then places the body straight in the function."""
        return isinstance(self.steps, int) and self.steps == 1

    def step_part(self, value: SSAValue, axis: int, part: int, start: Size, delta: int,
                  value_sizes: Sequence[Size] | None = None) -> SSAValue:
        """The `part` entries of `value` along `axis` that step k reads, from
        `start + k*delta` on (shape: `value`'s with `part` at `axis`). `value_sizes` are
        `value`'s sizes (by default read from it: pass them to share the step index with
        other parts and stacks of the same outer sizes)."""
        extents = dims(value)
        if self.single:
            begin = [0] * len(extents)
            begin[axis] = start
            return self.body.slice(self.invariant(value), begin,
                                   [*extents[:axis], part, *extents[axis + 1:]])
        e = self._outer
        if value_sizes is None:
            value_sizes = e.sizes(value)
        outer = e.product(value_sizes[:axis])
        inner = e.product(value_sizes[axis + 1:])
        table = self.invariant(sizes.reshape(e, value, [outer, value_sizes[axis], inner]))
        result_type = TensorType(element(value), [sizes.static(outer), part, sizes.static(inner)])
        positions = self.index(outer, part, start, delta)
        gathered = self.body.value(tt.GatherOp(table, positions, result_type))
        return self.body.reshape(gathered, (*extents[:axis], part, *extents[axis + 1:]))

    def stack(self, value: SSAValue, axis: int, length: Size, start: Size, delta: int,
              value_sizes: Sequence[Size] | None = None) -> int:
        """Write the step's `value` at `start + k*delta` along `axis` of a result whose
        `axis` has `length` entries (the others are zeros until written); returns the
        result's position in `build`'s stacked list. `value_sizes` are the sizes of the
        step's value, known outside the loop (by default its static shape)."""
        found = list(value_sizes) if value_sizes is not None else list(shape(value))
        part = dims(value)[axis]
        e = self._outer
        outer = e.product(found[:axis])
        inner = e.product(found[axis + 1:])
        full = (*found[:axis], length, *found[axis + 1:])
        element_type = element(value)
        if self.single and part == length:  # the step writes all of it
            carrier = self.carry(_zeros(e, full, element_type))
            self._next[carrier] = value
            self._stacked.append(_Stacked(carrier, full))
            return len(self._stacked) - 1
        accumulator = self.carry(_zeros(e, (outer, length, inner), element_type))
        update = self.body.reshape(value, (sizes.static(outer), part, sizes.static(inner)))
        positions = self.index(outer, part, start, delta)
        self._next[accumulator] = self.body.value(
            tt.ScatterOp(accumulator, positions, update)
        )
        self._stacked.append(_Stacked(accumulator, full))
        return len(self._stacked) - 1

    # -- the loop ---------------------------------------------------------------------------

    def build(self) -> tuple[dict[SSAValue, SSAValue], list[SSAValue]]:
        """Emit the loop; returns the final value of each carried block argument and the
        stacked results."""
        if self.single:
            return self._build_straight(self._carried())
        step, end, forward = self._step()
        args = self._carried()
        self._block.add_ops([*self.body.ops, YieldOp(*(self._next[a] for a in args))])
        cond_block = Block(arg_types=[a.type for a in args])
        cond = Emitter(self.body.lowering, self.body.anchor, shared=False)
        current = cond_block.args[step.index]
        limit = (cond.const(np.full(shape(step), end, np.int32)) if isinstance(end, int)
                 else cond_block.args[end.index])
        going = cond.value(tew.GreaterOp(limit, current) if forward
                           else tew.GreaterOp(current, limit))
        cond_block.add_ops([*cond.ops, YieldOp(going)])
        loop = WhileOp(self._inits, cond_block, self._block)
        results = self._outer.emit(loop)
        # the pass's clean-up merges equal constants and shapes inside the regions too
        self.body.lowering.created.extend([*cond.ops, *self.body.ops])
        finals = dict(zip(args, results, strict=True))
        return finals, self._results(finals)

    def _results(self, finals: dict[SSAValue, SSAValue]) -> list[SSAValue]:
        """The stacked results in their full shapes."""
        return [sizes.reshape(self._outer, finals[s.accumulator], s.full_shape)
                for s in self._stacked]

    def _carried(self) -> list[SSAValue]:
        """The carried block arguments (each must have its next value)."""
        args = list(self._block.args)
        missing = [a.index for a in args if a not in self._next]
        assert not missing, f"carried values without an update: {missing}"
        return args

    def _build_straight(self, args: list[SSAValue]
                        ) -> tuple[dict[SSAValue, SSAValue], list[SSAValue]]:
        """The one step, in the function: the body's ops cloned with every carried value
        bound to its initial one (the emitter folds what became constant)."""
        mapping: dict[SSAValue, SSAValue] = dict(zip(args, self._inits, strict=True))
        for op in self.body.ops:
            results = self._outer.emit(op.clone(value_mapper=dict(mapping)))
            mapping.update(zip(op.results, results, strict=True))
        for op in reversed(self.body.ops):
            op.drop_all_references()
        finals = {arg: mapping.get(self._next[arg], self._next[arg]) for arg in args}
        return finals, self._results(finals)

    def _step(self) -> tuple[SSAValue, int | SSAValue, bool]:
        """What `cond_graph` compares with its end: a one-element step index (`[1, 1]`,
        position `start + k * delta`: `cond_graph` is `start + steps * delta > index`, or
        `<` walking backwards), else a step counter `tensor<1xi32>` from 0 carried first
        (`steps > counter`; a step count known at run time is carried in too, as an
        invariant). Returns the carried value, its end (an int, or the carried count) and
        whether it grows."""
        for (outer, part, start, delta), arg in self._indices.items():
            if outer == part == 1 and isinstance(start, int) and isinstance(self.steps, int):
                return arg, start + self.steps * delta, delta > 0
        counter = self._block.insert_arg(self._counter_init.type, 0)
        self._inits.insert(0, self._counter_init)
        self._next[counter] = self.body.add(counter, self.body.const(np.ones(1, np.int32)))
        if isinstance(self.steps, int):
            return counter, self.steps, True
        limit = self.invariant(self._outer.size_tensor(self.steps, i32))
        return counter, limit, True


def _zeros(e: Emitter, extents: Sequence[Size], element_type: Attribute) -> SSAValue:
    """Zeros of sizes known at compile or run time (a run-time `tosa.tile` of a constant)."""
    if all(isinstance(x, int) for x in extents):
        return e.const(np.zeros([int(x) for x in extents], dtype_of(element_type)))
    return e.tile(e.const(np.zeros([1] * len(extents), dtype_of(element_type))), list(extents))


__all__ = ["TimeLoop"]
