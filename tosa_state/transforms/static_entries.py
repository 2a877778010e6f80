"""A decoder with static-capacity state as one module of two entries sharing its variables:
`prefill` (a chunk of `C` tokens) and `decode` (one token), both fully static.

OpenVINO GenAI's static pipeline compiles a decoder twice, for a prompt chunk and for one
token, with the attention mask over the capacity `N` (`tosa-static-state`'s layout). Here
both are functions of one module: `entry_shapes` gives each entry's input shapes (batch
`B`, `input_ids` / `position_ids` of `[B, C]` or `[B, 1]`, `attention_mask` of `[B, N]`,
`beam_idx` of `[B]`), the model is specialised and made static once per entry, and
`merge_entries` moves the functions into one module, whose variable declarations the
entries must agree on. `tosa_state.runtime.static_entries` runs them from the loop a user
writes for the dynamic model.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from xdsl.dialects.builtin import ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp
from xdsl.rewriter import InsertPoint, Rewriter

from tosa_state.diagnostics import TosaStateError
from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.runtime.decoder import BEAMS, MASK, POSITIONS, TOKENS
from tosa_state.signature import input_names, select_entry
from tosa_state.transforms.tosa_static_state import StaticState, StaticStateError, capacity_of

PREFILL, DECODE = "prefill", "decode"
"""The names of the two entry functions."""

DEFAULT_CHUNK = 16
"""Tokens of a prefill call when `static_state` names no `prefill_chunk`."""

ENTRY_OPTIONS = ("prefill_chunk", "batch")
"""`static_state`'s options for the entries (the others give the capacity)."""


@dataclass(frozen=True)
class StaticEntries:
    """The static form's sizes: capacity `N`, prefill chunk `C`, batch `B`."""

    capacity: int
    chunk: int
    batch: int

    @staticmethod
    def of(static_state: StaticState) -> StaticEntries:
        """The sizes `static_state` asks for: `N`, or a dict of `capacity` (or
        `max_prompt_len` and `min_response_len`), `prefill_chunk` and `batch`."""
        options = dict(static_state) if isinstance(static_state, Mapping) else {}
        chunk = options.pop("prefill_chunk", None)
        batch = options.pop("batch", 1)
        capacity = capacity_of(options if isinstance(static_state, Mapping) else static_state)
        chunk = min(DEFAULT_CHUNK, capacity) if chunk is None else chunk
        for name, value in (("prefill_chunk", chunk), ("batch", batch)):
            if not isinstance(value, int) or isinstance(value, bool) or value < 1:
                raise StaticStateError(f"error: static_state's {name} must be a positive int, "
                                       f"got {value!r}")
        if chunk > capacity:
            raise StaticStateError(f"error: static_state's prefill_chunk ({chunk}) is larger "
                                   f"than the capacity ({capacity})")
        return StaticEntries(capacity, chunk, batch)

    def shapes(self, tokens: int, module: ModuleOp, entry: str | None = None
               ) -> dict[str, list[int]]:
        """The input shapes of the entry taking `tokens` tokens a call."""
        names = input_names(select_entry(module, entry))
        shapes = {TOKENS: [self.batch, tokens], MASK: [self.batch, self.capacity],
                  POSITIONS: [self.batch, tokens], BEAMS: [self.batch]}
        return {name: shapes[name] for name in names}


def is_decoder(module: ModuleOp, entry: str | None = None) -> bool:
    """Whether the entry's inputs are a decoder's (`input_ids`, `attention_mask`, and at
    most `position_ids` and `beam_idx` besides)."""
    names = set(input_names(select_entry(module, entry)))
    return {TOKENS, MASK} <= names <= {TOKENS, MASK, POSITIONS, BEAMS}


class EntriesError(TosaStateError):
    """The entries disagree on the module's variables."""


def merge_entries(entries: Mapping[str, ModuleOp], entry: str | None = None) -> ModuleOp:
    """One module: the first of `entries`, its entry function renamed to its key, and the
    others' entry functions moved in under theirs. Every module must declare the same
    variables (name, type, initial value) and hold nothing else at the top level."""
    (first_name, merged), *others = entries.items()
    _entry_of(merged, entry, first_name).sym_name = StringAttr(first_name)
    declared = _declarations(merged)
    for name, module in others:
        func = _entry_of(module, entry, name)
        if (theirs := _declarations(module)) != declared:
            differ = sorted(set(theirs.items()) ^ set(declared.items()))
            raise EntriesError(f"error: the static entries '{first_name}' and '{name}' "
                               f"declare different variables ({differ[0][0]!r} differs)")
        func.detach()
        func.sym_name = StringAttr(name)
        Rewriter.insert_op(func, InsertPoint.at_end(merged.body.block))
    return merged


def _entry_of(module: ModuleOp, entry: str | None, name: str) -> FuncOp:
    func = select_entry(module, entry)
    others = [op for op in module.body.block.ops
              if not isinstance(op, VariableOp) and op is not func]
    if others:
        raise EntriesError(f"error: the static entry '{name}' has '{others[0].name}' beside its "
                           "function: only one function and variables can be merged")
    return func


def _declarations(module: ModuleOp) -> dict[str, str]:
    """Each variable's declaration, as text."""
    return {op.var_name: str(op) for op in module.body.block.ops if isinstance(op, VariableOp)}


__all__ = ["DECODE", "ENTRY_OPTIONS", "PREFILL", "EntriesError", "StaticEntries", "is_decoder",
           "merge_entries"]
