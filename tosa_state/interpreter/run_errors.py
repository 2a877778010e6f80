"""Run-time failures, told in the user's terms.

A kernel that fails inside a plan knows only its op; the plan (`FunctionPlan.__call__`)
turns the failure into one line naming what the user controls:

- the op's location and, for a model converted from OpenVINO IR, its layer (id, name,
  type): `model.xml:199:3: error: layer id=12 name='reorder_kv' type='Gather' (opset8): ...`,
  whatever failed (our own checks as much as numpy's errors);
- for indices out of range (`IndexOutOfRange`) that come straight from a model input
  (through reshapes, tiles, casts and the select that wraps negative indices), the input
  and its bad values: `input 'beam_idx' [5] is out of range for a dimension of size 1
  (valid: 0 to 0)`; else, when the data indexed comes straight from an input, that input
  (`input 'attention_mask' (shape [1, 5]) is indexed out of range: ...`, a mask shorter
  than the cache);
- long values (shapes, indices) capped by `brief`.

This runs only when a call fails: nothing here costs anything per call.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
from xdsl.dialects.builtin import IntegerType, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Block, BlockArgument, Operation, SSAValue

from tosa_state.diagnostics import (
    InferenceError,
    TosaStateError,
    brief,
    describe_layer,
    error_at,
    location_prefix,
)
from tosa_state.dialects.tosa.elementwise import AddOp, CastOp, GreaterOp, SelectOp
from tosa_state.dialects.tosa.tensor import ConstOp, IdentityOp, ReshapeOp, TileOp
from tosa_state.signature import port_names

MESSAGE_LIMIT = 300
"""About how many characters of a foreign error's message (numpy's) a message keeps."""


class RunFailure(InferenceError):
    """A run-time failure told in the user's terms (a caller's plan passes it on as is)."""


class IndexOutOfRange(InferenceError):
    """A kernel's indices (operand `indices` of `op`) outside `[0, size)`, indexing
    operand `data`; `found` are their least and greatest values."""

    def __init__(self, op: Operation, size: int, found: tuple[int, int], indices: int = 1,
                 data: int = 0):
        self.range = (f"indices must be in [0, {size}), got values from {found[0]} to "
                      f"{found[1]}")
        super().__init__(f"error: '{op.name}' op index out of range: {self.range}")
        self.indices, self.data, self.size = indices, data, size


def layer_of(op: Operation) -> str | None:
    """The OpenVINO layer an op was converted from (its location is the layer's line)."""
    return describe_layer(op)


def run_failure(
    error: Exception, op: Operation | None, func: FuncOp | None, args: Sequence[Any]
) -> InferenceError | None:
    """`error`, raised by `op` while running `func` on `args`, as the user's error; `None`
    when it is one already (told by a function this one called). `func` is `None` for
    functions whose arguments are not the model's inputs."""
    if isinstance(error, TosaStateError):
        message = str(error).removeprefix(location_prefix(op))
        if op is None or isinstance(error, RunFailure) or not message.startswith("error: "):
            return None
        detail = message.removeprefix("error: ")
        layer = layer_of(op)
        if func is not None and (named := _from_input(error, op, func, args)) is not None:
            detail = named if layer else f"'{op.name}' op: {named}"
    elif op is None:
        return RunFailure(error_at(None, str(error)))
    else:
        layer = layer_of(op)
        detail = f"'{op.name}' op failed at run time: {brief(error, MESSAGE_LIMIT)}"
    return RunFailure(error_at(op, f"{layer}: {detail}" if layer else detail))


def _from_input(error: TosaStateError, op: Operation, func: FuncOp, args: Sequence[Any]
                ) -> str | None:
    """`input 'beam_idx' [5] is out of range ...` when `error` is about indices that come
    straight from an input of `func` (whose values `args` are), some of them out of
    range; `input 'attention_mask' (shape [1, 5]) is indexed out of range: ...` when the
    data indexed comes straight from one."""
    if not isinstance(error, IndexOutOfRange) or len(op.operands) <= error.indices:
        return None
    block = func.body.block
    hints = [arg.name_hint for arg in block.args]
    names = port_names(func.arg_attrs, len(block.args), "arg", hints)
    source = source_input(op.operands[error.indices], block)
    if source is not None and source[0] < len(args):
        index, wraps = source
        values = np.asarray(args[index])
        size, low = error.size, -error.size if wraps else 0
        bad = np.unique(values[(values < low) | (values >= size)])
        if bad.size:
            valid = f"valid: {low} to {size - 1}" if size else "nothing to index"
            return (f"input '{names[index]}' {brief(bad)} is out of range for a dimension "
                    f"of size {size} ({valid})")
    source = source_input(op.operands[error.data], block)
    if source is not None and source[0] < len(args):
        shape = list(np.shape(args[source[0]]))
        return (f"input '{names[source[0]]}' (shape {brief(shape)}) is indexed out of "
                f"range: {error.range}")
    return None


def source_input(value: SSAValue, block: Block) -> tuple[int, bool] | None:
    """The argument of `block` that `value` holds the values of (through reshapes, tiles,
    identities, casts from integers and the `select(0 > x, x + n, x)` that wraps negative
    indices), and whether negative values were wrapped on the way; `None` when `value` is
    computed otherwise."""
    wraps = False
    while True:
        if isinstance(value, BlockArgument):
            return (value.index, wraps) if value.block is block else None
        owner = value.owner
        if isinstance(owner, ReshapeOp | TileOp | IdentityOp) or (
            isinstance(owner, CastOp) and _integers(owner.input)
        ):
            value = owner.operands[0]
        elif isinstance(owner, SelectOp) and _wraps_negatives(owner):
            value, wraps = owner.input3, True
        else:
            return None


def _integers(value: SSAValue) -> bool:
    value_type = value.type
    return isinstance(value_type, TensorType) and isinstance(value_type.element_type,
                                                             IntegerType)


def _wraps_negatives(select: SelectOp) -> bool:
    """Whether `select` is `select(0 > x, x + n, x)` (`n` the dim, a constant or a size
    computed at run time): Gather's indices counted from the end."""
    x = select.input3
    test, wrapped = select.input1.owner, select.input2.owner
    return (
        isinstance(test, GreaterOp) and test.operands[1] is x
        and isinstance(test.operands[0].owner, ConstOp)
        and isinstance(wrapped, AddOp) and x in wrapped.operands
    )
