"""A decoder step's inputs against what its KV caches hold.

OpenVINO GenAI's stateful LLM API (optimum-intel's exports) feeds `input_ids` [batch, L],
`attention_mask` [batch, past + L] and `position_ids` [batch, L] (`past` ... `past + L - 1`;
smaller with left padding) to a model whose KV caches hold `past` positions along their axis
2 ([batch, heads, time, head size]). The model's graph accepts a mask longer than
`past + L` (it reads the mask only up to the cache's length) and positions at or past
`past + L` (they only rotate), and silently computes something else; a request refuses
them before the call, naming the input and the layer that reads it (a mask shorter than
`past + L` is refused by the model's own Gather). Device `iree` asserts the same inside the
module (`tosa-runtime-checks`) and reports it with this message (`devices/iree_checks.py`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation

from tosa_state.diagnostics import InferenceError, describe_layer, error_at
from tosa_state.runtime.ports import Port
from tosa_state.runtime.variables import VariableSpec

TOKENS, MASK, POSITIONS, BEAMS = "input_ids", "attention_mask", "position_ids", "beam_idx"
"""A decoder's inputs as optimum-intel exports it (`position_ids`, `beam_idx` optional)."""
TIME_AXIS = 2
"""The KV caches' time axis ([batch, heads, time, head size])."""


@dataclass(frozen=True)
class DecoderInputs:
    """Where a decoder step's inputs are (argument indices), its KV caches, and the ops
    reading the mask and the positions (for the message)."""

    tokens: int
    mask: int
    positions: int | None
    caches: tuple[str, ...]
    """The longest holds the past (a layer with a sliding window may keep fewer)."""
    mask_reader: Operation | None
    positions_reader: Operation | None

    def check(self, args: Sequence[np.ndarray], past: int | None) -> None:
        """Refuse a mask longer than the cache and the new tokens, or a position at or past
        their end (`past`: the longest cache's length as the call starts; `None`: unknown,
        no check)."""
        if past is None:
            return
        new = args[self.tokens].shape[1]
        end = past + new
        mask = args[self.mask]
        if mask.shape[1] > end:
            raise InferenceError(_at(self.mask_reader, (
                f"input '{MASK}' (shape {list(mask.shape)}) is longer than the state holds "
                f"with the new tokens: {past} cached and {new} new positions, {end} in all")))
        if self.positions is None or not args[self.positions].size:
            return
        last = int(args[self.positions].max())
        if last >= end:
            raise InferenceError(_at(self.positions_reader, (
                f"input '{POSITIONS}' has position {last}, past what the state holds with "
                f"the new tokens: {past} cached and {new} new positions, 0 to {end - 1}")))


def _at(op: Operation | None, message: str) -> str:
    layer = describe_layer(op) if op is not None else None
    return error_at(op, f"{layer}: {message}" if layer else message)


def _reader(func: FuncOp, index: int) -> Operation | None:
    """The first op of `func` that reads its argument `index`."""
    arg = func.body.block.args[index]
    for op in func.walk():
        if arg in op.operands:
            return op
    return None


def decoder_inputs(func: FuncOp, inputs: Sequence[Port], specs: Sequence[VariableSpec]
                   ) -> DecoderInputs | None:
    """The decoder inputs of entry `func` (ports `inputs`, variables `specs`): `None` unless
    it takes `input_ids` and `attention_mask` of rank 2 and has a KV cache (a variable of
    rank 4 whose batch and time are dynamic)."""
    index = {port.name: i for i, port in enumerate(inputs)}
    ranks = {port.name: len(port.shape) for port in inputs}
    caches = tuple(spec.name for spec in specs if not spec.hidden and len(spec.shape) == 4
                   and spec.shape[0] < 0 and spec.shape[TIME_AXIS] < 0)
    if not caches or ranks.get(TOKENS) != 2 or ranks.get(MASK) != 2:
        return None
    positions = index.get(POSITIONS) if ranks.get(POSITIONS) == 2 else None
    return DecoderInputs(
        index[TOKENS], index[MASK], positions, caches, _reader(func, index[MASK]),
        None if positions is None else _reader(func, positions))


__all__ = ["BEAMS", "MASK", "POSITIONS", "TIME_AXIS", "TOKENS", "DecoderInputs", "decoder_inputs"]
