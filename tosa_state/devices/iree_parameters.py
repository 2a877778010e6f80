"""A compiled module's parameters (`tosa-constants-to-parameters`): its large constants,
handed to IREE's runtime instead of being compiled into the `.vmfb`.

The values are the constants' own bytes: for an OpenVINO model, the weights file's mapping
(or the aligned arena its unaligned weights were read into), the same memory the
interpreter computes from; after a compile-record hit (`iree_record`), slices of the
weights file's mapping at the recorded offsets. They go into an
`iree.runtime.ParameterIndex` as buffers, and its provider into one `io_parameters` module
that every request's context loads before the model's. IREE uses a buffer in place when it
starts on a 64-byte boundary and copies it into each context otherwise (measured with IREE
3.13: a 256 MiB parameter at offsets 4, 16 and 32 cost 256 MiB per context, at 64 and 128
nothing), so a constant that is not aligned is copied once, here, into an aligned buffer
shared by the requests.

So nothing is written: no archive to store, check or read back. `save` writes one (`.irpa`,
IREE's parameter archive) for running the `.vmfb` elsewhere: `iree-run-module
--parameters=model=MODEL.irpa`.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

import numpy as np

from tosa_state.resources import address
from tosa_state.transforms.tosa_constants_to_parameters import SCOPE

ALIGNMENT = 64
"""IREE imports a host buffer without copying it when it is aligned to this."""


def aligned(data: Any) -> memoryview:
    """`data`'s bytes, read-only, starting on an `ALIGNMENT` boundary: the same memory when
    it does, else a copy."""
    view = memoryview(data).cast("B")
    if address(view) % ALIGNMENT == 0:
        return view.toreadonly()
    room = np.empty(view.nbytes + ALIGNMENT, np.uint8)
    start = -room.ctypes.data % ALIGNMENT
    copy = room[start:start + view.nbytes]
    copy[:] = np.frombuffer(view, np.uint8)
    return memoryview(copy).toreadonly()


class Parameters:
    """The parameters of one compiled module, by key, and the runtime module that provides
    them (shared by every request: read-only)."""

    def __init__(self, rt: Any, vm_instance: Any, views: Mapping[str, memoryview],
                 scope: str = SCOPE):
        """`views`: each parameter's bytes by key (a constant's own, or a model file's)."""
        self.scope = scope
        self.buffers = {key: aligned(view) for key, view in views.items()}
        self.copied = sum(view.nbytes for key, view in self.buffers.items()
                          if address(view) != address(memoryview(views[key]).cast("B")))
        """Bytes copied to align them (0 when every constant was aligned)."""
        self.index = rt.ParameterIndex()
        self.index.reserve(len(self.buffers))
        for key, view in self.buffers.items():
            self.index.add_buffer(key, view)
        self.module = rt.create_io_parameters_module(
            vm_instance, self.index.create_provider(scope=scope))

    @property
    def nbytes(self) -> int:
        return sum(view.nbytes for view in self.buffers.values())

    def save(self, path: Path) -> None:
        """Write the parameters as an IREE parameter archive (`.irpa`) at `path`."""
        self.index.create_archive_file(str(path))


def save_archive(parameters: Parameters | None, path: Path) -> None:
    """Write `parameters` as an IREE parameter archive at `path`; one with no entry when
    there are none (a model without large constants)."""
    if parameters is not None:
        parameters.save(path)
        return
    import iree.runtime as rt

    rt.ParameterIndex().create_archive_file(str(path))


__all__ = ["ALIGNMENT", "Parameters", "aligned", "save_archive"]
