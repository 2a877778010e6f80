"""Where a mapped constant's bytes come from: a slice of a model file.

A model file's large constants are views of its mapping, or of an arena they were read
into (`frontends/openvino/weights.py`, `resources.mapped`). The reader registers each
mapping (`register_mapping`) and each read into an arena (`register_read`); `file_slice`
then tells, for a view of such memory, the file and the offset its bytes were taken from,
so that a cache can record "these bytes are the file's, at this offset" instead of the
bytes (device `iree`'s compile record, `devices/iree_record.py`). The registry holds the
mappings weakly: it keeps none of them alive.
"""

from __future__ import annotations

import weakref
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tosa_state.resources import address


@dataclass
class _Source:
    path: Path
    start: int
    """The address of the mapping's first byte."""
    reads: list[tuple[int, int, int]] | None = field(default=None)
    """For an arena: (start in the arena, offset in the file, size) of each read into it;
    `None`: the mapping is the file's, byte for byte."""


_SOURCES: weakref.WeakKeyDictionary[Any, _Source] = weakref.WeakKeyDictionary()


def _start(mapping: Any) -> int:
    view = memoryview(mapping)
    try:
        return address(view)
    finally:
        view.release()


def register_mapping(mapping: Any, path: Path) -> None:
    """`mapping` (an `mmap`) maps the file `path` from its first byte."""
    _SOURCES[mapping] = _Source(Path(path).resolve(), _start(mapping))


def register_read(arena: Any, at: int, path: Path, offset: int, size: int) -> None:
    """`size` bytes of `path` from `offset` were read into `arena` (an `mmap`) at `at`."""
    source = _SOURCES.get(arena)
    if source is None or source.reads is None:
        source = _SOURCES[arena] = _Source(Path(path).resolve(), _start(arena), [])
    if source.path == Path(path).resolve():
        assert source.reads is not None
        source.reads.append((at, offset, size))


def file_slice(view: memoryview) -> tuple[Path, int] | None:
    """The file `view`'s bytes were taken from and their offset there; `None` when they are
    not a registered file's (bytes of their own, or a copy made since)."""
    try:
        source = _SOURCES.get(view.obj)
    except TypeError:  # an object that cannot be weakly referenced: not a mapping
        return None
    if source is None or not view.nbytes:
        return None
    at = address(view) - source.start
    if source.reads is None:
        return source.path, at
    for start, offset, size in source.reads:
        if start <= at and at + view.nbytes <= start + size:
            return source.path, offset + at - start
    return None


__all__ = ["file_slice", "register_mapping", "register_read"]
