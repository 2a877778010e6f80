"""The weights file (`model.bin`) beside the XML, memory-mapped on first use.

The file is mapped read-only, never read as a whole: a large constant whose bytes can be
used as they are (any element type but `boolean`, its offset a multiple of its element
size) becomes a dense attribute over a `memoryview` of the mapping (`resources.mapped`),
which the passes and the interpreter use in place, so compiling touches none of its pages;
the operating system pages them in at the first call, and may drop them again under memory
pressure (they are clean, backed by the file). A large constant at an offset that is not
a multiple of its element size (OpenVINO's serializer packs constants without padding: in
an optimum-intel export every weight after a 1-byte constant is off by one) is read once
into an aligned arena, also held by a `memoryview`: one copy, made at import, no second
one later. Small constants, and those of other element types, are copied into
their attributes, as before. As with OpenVINO's own mapping, the file must not be changed
or truncated while a model compiled from it is alive.
"""

from __future__ import annotations

import math
import mmap
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, TensorType
from xdsl.ir import Attribute

from tosa_state.dtypes import numpy_to_dense
from tosa_state.file_slices import register_mapping, register_read
from tosa_state.resources import MAPPED_MIN_BYTES, address, read_into

ARENA = 64 << 20
"""Unaligned constants are copied into arenas of this size (see `Weights._free`)."""


class Weights:
    """The `.bin` file, mapped on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: memoryview | None = None
        self._arena: memoryview | None = None
        self._used = 0
        self._reader: ThreadPoolExecutor | None = None
        self._reads: list[tuple[Future[int], int]] = []
        self.problem = ""
        """Why `get()` returned None."""

    def get(self) -> memoryview | None:
        """The file's bytes (a read-only view of its mapping), or None (see `problem`)."""
        if self._data is None:
            try:
                with self.path.open("rb") as file:
                    size = file.seek(0, 2)
                    # an empty file cannot be mapped (and holds nothing to map)
                    mapping = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ) \
                        if size else None
                    if mapping is not None:
                        register_mapping(mapping, self.path)
                    self._data = memoryview(mapping if mapping is not None else b"")
            except FileNotFoundError:
                self.problem = f"the weights file '{self.path}' does not exist"
            except OSError as error:
                self.problem = f"cannot read the weights file '{self.path}': {error.strerror}"
        return self._data

    def dense(
        self, offset: int, shape: list[int], dtype: np.dtype, element: Attribute
    ) -> DenseIntOrFPElementsAttr:
        """The constant of `shape` x `element` at `offset` (in bounds: the caller checks):
        over the mapping itself when its bytes are usable as they are, over an aligned copy
        read from the file when only their offset is not, else a copy as any attribute."""
        data = self.get()
        assert data is not None
        count = math.prod(shape)
        size = count * dtype.itemsize
        in_place = dtype != np.bool_ and getattr(element, "compile_time_size", 0) == dtype.itemsize
        if not in_place or size < MAPPED_MIN_BYTES:
            array = np.frombuffer(data, dtype=dtype, count=count, offset=offset)
            return numpy_to_dense(array.reshape(shape), element)
        view = data[offset : offset + size] if offset % dtype.itemsize == 0 \
            else self._aligned_copy(offset, size)
        return DenseIntOrFPElementsAttr(TensorType(element, shape), BytesAttr(view))  # type: ignore[arg-type]

    def _aligned_copy(self, offset: int, size: int) -> memoryview:
        """`size` bytes of the file from `offset`, read (not through the mapping, whose
        pages stay untouched) into the next free bytes of an arena (`_free`).

        The read runs on a thread of its own, while the import goes on (reading releases
        the GIL): the bytes are there once `finish` returns, which the importer calls
        before anything can look at them."""
        view = self._free(size)
        assert self._arena is not None
        register_read(view.obj, address(view) - address(self._arena), self.path, offset, size)
        if self._reader is None:
            self._reader = ThreadPoolExecutor(1, thread_name_prefix="tosa-state-weights")
        self._reads.append((self._reader.submit(read_into, self.path, offset, view), size))
        return view.toreadonly()

    def finish(self) -> str:
        """Wait for the reads `_aligned_copy` started; what went wrong, if one did not read
        all its bytes ("" if all did)."""
        reader, reads = self._reader, self._reads
        self._reader, self._reads = None, []
        if reader is None:
            return ""
        reader.shutdown(wait=True)
        for read, size in reads:
            try:
                if read.result() < size:
                    return f"the weights file '{self.path}' ended while reading it"
            except OSError as error:
                return f"cannot read the weights file '{self.path}': {error.strerror}"
        return ""

    def _free(self, size: int) -> memoryview:
        """`size` bytes (64-byte aligned) of an arena: a private anonymous mapping of at
        least `ARENA` bytes (one mapping per weight would cost a system call and a mapping
        each). No huge pages are asked for: where the kernel compacts memory for them on
        the first touch (`defrag` = `madvise`, the default), copying 538 MB of weights took
        0.14 to 1.43 s from one run to the next instead of 0.29 to 0.39 s, and a decode
        step did not measurably gain from them."""
        if self._arena is None or self._used + size > self._arena.nbytes:
            arena = mmap.mmap(-1, max(ARENA, size), flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            self._arena, self._used = memoryview(arena), 0
        view = self._arena[self._used : self._used + size]
        self._used += -(-size // 64) * 64
        return view
