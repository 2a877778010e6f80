"""A static decoder's two entries (`prefill` of `C` tokens, `decode` of one) run from the
loop a user writes for OpenVINO's dynamic model.

Each call gives `input_ids` `[B, L]`, `attention_mask` `[B, past + L]`, `position_ids`
`[B, L]` and `beam_idx` `[B]`; the request builds the static layout, as OpenVINO GenAI's
static pipeline (NPUW's chunked prefill) does:

- the mask is over the capacity `N`: the user's `past` columns first, the call's tokens
  in the last `n` columns (where the model's concat puts the new rows), zeros between;
  `decode` reads its one new row where it stores it, at the count
  (`tosa-static-state{rows-at-count}`), so its token's column is the one after the past;
- a prompt goes in chunks of `C` tokens through `prefill`; a last chunk of `r < C` tokens
  is padded on the right (token 0, mask 0, its last position repeated), and the count
  variables are then set back to `past + r`, so that the next call writes over the padding:
  no slot is lost (GenAI keeps its count outside the model for the same end). A chunk of
  one token, or one that would reach past the capacity only by its padding, goes through
  `decode`;
- the outputs that have the tokens' axis (`logits`) keep the real tokens' rows, chunks
  concatenated; the beam reorder applies to the first chunk only.

The request knows how many tokens its state holds (`past`: 0 after a reset, read back from
the count variables after a `set_state`) and refuses a mask of another length, or a call
that needs more than `N` rows, before anything runs. A call of several device calls
(chunks, or a padded chunk and the counts set back) is a transaction: if one fails, every
variable is put back as it was.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol

import numpy as np

from tosa_state.diagnostics import InferenceError
from tosa_state.runtime.decoder import BEAMS, MASK, POSITIONS, TOKENS
from tosa_state.runtime.ports import Port
from tosa_state.runtime.variables import StateStore


@dataclass(frozen=True)
class StaticLayout:
    """A static decoder's entries and sizes (`tosa_state.transforms.static_entries`)."""

    prefill: str
    decode: str
    capacity: int
    chunk: int
    counts: dict[str, str]
    """Each count variable and the variable whose rows it counts."""


class EntryRequest(Protocol):
    """A device request that runs any entry function of its module."""

    store: StateStore

    def run_entry(self, entry: str, args: list[np.ndarray]) -> list[np.ndarray]: ...


@dataclass(frozen=True)
class _Roles:
    """Where each input is, and each output's tokens axis (`None`: it has none)."""

    tokens: int
    mask: int
    positions: int | None
    beams: int | None
    token_axes: tuple[int | None, ...]


def user_ports(prefill: tuple[tuple[Port, ...], tuple[Port, ...]],
               decode: tuple[tuple[Port, ...], tuple[Port, ...]]
               ) -> tuple[tuple[Port, ...], tuple[Port, ...], tuple[int | None, ...]]:
    """The ports a user sees (the tokens axis, and the mask's length, dynamic), and each
    output's tokens axis: the one of size `C` in `prefill` and 1 in `decode`."""
    inputs = tuple(_dynamic(port, {1}) if port.name in (TOKENS, MASK, POSITIONS) else port
                   for port in prefill[0])
    axes = tuple(_token_axis(p, d) for p, d in zip(prefill[1], decode[1], strict=True))
    outputs = tuple(port if axis is None else _dynamic(port, {axis})
                    for port, axis in zip(prefill[1], axes, strict=True))
    return inputs, outputs, axes


def _dynamic(port: Port, axes: set[int]) -> Port:
    shape = tuple(-1 if axis in axes else d for axis, d in enumerate(port.shape))
    return Port(port.index, port.name, shape, port.dtype)


def _token_axis(prefill: Port, decode: Port) -> int | None:
    differ = [axis for axis, (p, d) in enumerate(zip(prefill.shape, decode.shape, strict=True))
              if p != d]
    return differ[0] if len(differ) == 1 and decode.shape[differ[0]] == 1 else None


class StaticRequest:
    """A `DeviceRequest` of a static decoder: one call of the user's loop runs as one or
    more calls of the entries (see the module's docstring)."""

    def __init__(self, device: EntryRequest, layout: StaticLayout, inputs: tuple[Port, ...],
                 token_axes: tuple[int | None, ...], variables: tuple[str, ...]):
        self._device = device
        self._variables = variables
        self._layout = layout
        names = [port.name for port in inputs]
        self._roles = _Roles(names.index(TOKENS), names.index(MASK),
                             names.index(POSITIONS) if POSITIONS in names else None,
                             names.index(BEAMS) if BEAMS in names else None, token_axes)
        self.past: int | None = 0
        """Tokens the state holds; `None` after a `set_state`, until read back."""
        self.store = _TrackedStore(device.store, self._state_changed)

    def _state_changed(self, past: int | None) -> None:
        self.past = past

    def run(self, args: list[np.ndarray]) -> list[np.ndarray]:
        roles, layout = self._roles, self._layout
        tokens, mask = args[roles.tokens], args[roles.mask]
        length = tokens.shape[1]
        past = self._held()
        if length < 1:
            raise InferenceError(f"error: input '{TOKENS}' has no token")
        if mask.shape[1] != past + length:
            raise InferenceError(
                f"error: input '{MASK}' has {mask.shape[1]} columns; the request holds "
                f"{past} tokens, so a call of {length} needs {past + length}")
        if past + length > layout.capacity:
            variable = next(iter(layout.counts.values()))
            raise InferenceError(
                f"error: variable '{variable}' has a static capacity of {layout.capacity} "
                f"rows: this call asks for {past + length} ({past} held + {length} new); "
                f"nothing was changed")
        pieces = self._pieces(past, length)
        if len(pieces) == 1 and (pieces[0][2] == layout.decode or length == layout.chunk):
            return self._call(args, past, *pieces[0], first=True)  # one device call
        saved = {name: self.store.user_value(name) for name in self._variables}
        try:
            parts = [self._call(args, past, start, count, entry, first=start == 0)
                     for start, count, entry in pieces]
        except BaseException:
            for name, value in saved.items():
                self._device.store.set_checked(name, value)
            self.past = past
            raise
        return [parts[0][i] if axis is None else np.concatenate([p[i] for p in parts], axis)
                for i, axis in enumerate(roles.token_axes)]

    def _pieces(self, past: int, length: int) -> list[tuple[int, int, str]]:
        """The calls of a call of `length` tokens after `past`: (start, tokens, entry)."""
        layout, pieces, start = self._layout, [], 0
        while start < length:
            count = min(layout.chunk, length - start)
            if count > 1 and past + start + layout.chunk <= layout.capacity:
                pieces.append((start, count, layout.prefill))
                start += count
            else:  # one token, or a padded chunk would pass the capacity
                pieces.append((start, 1, layout.decode))
                start += 1
        return pieces

    def _call(self, args: list[np.ndarray], past: int, start: int, count: int, entry: str,
              first: bool) -> list[np.ndarray]:
        roles, layout = self._roles, self._layout
        size = 1 if entry == layout.decode else layout.chunk
        held = past + start
        static = list(args)
        tokens = args[roles.tokens]
        static[roles.tokens] = _window(tokens, start, count, size)
        if roles.positions is not None:
            positions = args[roles.positions]
            static[roles.positions] = _window(positions, start, count, size,
                                              fill=positions[:, start + count - 1:start + count])
        mask = args[roles.mask]
        window = np.zeros((mask.shape[0], layout.capacity), mask.dtype)
        window[:, :held] = mask[:, :held]
        column = held if entry == layout.decode else layout.capacity - size
        window[:, column:column + count] = mask[:, held:held + count]
        static[roles.mask] = window
        if roles.beams is not None and not first:
            static[roles.beams] = np.arange(tokens.shape[0], dtype=args[roles.beams].dtype)
        results = self._device.run_entry(entry, static)
        if count < size:  # the padding's rows are free again
            for name in layout.counts:
                self._device.store.set_checked(name, np.array([held + count], np.float32))
        self.past = held + count
        if count == size:
            return results
        return [r if axis is None else np.take(r, range(count), axis)
                for r, axis in zip(results, roles.token_axes, strict=True)]

    def _held(self) -> int:
        if self.past is None:
            held = {int(self._device.store.user_value(name)[0]) for name in self._layout.counts}
            if len(held) != 1:
                raise InferenceError(f"error: the count variables disagree ({sorted(held)} "
                                     "rows): set them alike, or reset the state")
            self.past = held.pop()
        return self.past


def _window(values: np.ndarray, start: int, count: int, size: int,
            fill: np.ndarray | int = 0) -> np.ndarray:
    """`values[:, start:start + count]` padded on the right to `size` columns."""
    part = values[:, start:start + count]
    if count == size:
        return part
    padded = np.empty((values.shape[0], size), values.dtype)
    padded[:, :count] = part
    padded[:, count:] = fill
    return padded


class _TrackedStore:
    """A device's store whose changes tell the request (a reset: 0 tokens held; a
    `set_state`: unknown until read back from the counts)."""

    def __init__(self, store: StateStore, changed: Callable[[int | None], None]):
        self._store = store
        self._changed = changed

    def user_value(self, name: str) -> np.ndarray:
        return self._store.user_value(name)

    def set_checked(self, name: str, value: object) -> None:
        self._store.set_checked(name, value)
        self._changed(None)

    def reset(self, name: str | None = None) -> None:
        self._store.reset(name)
        self._changed(0 if name is None else None)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._store, name)


__all__ = ["EntryRequest", "StaticLayout", "StaticRequest", "user_ports"]
