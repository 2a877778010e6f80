"""The TOSA flatbuffer (`.tosa`), written by `tosa-opt` from Arm's `tosa-tools`.

We serialize with the TOSA toolchain's own translator (`tosa-opt --tosa-serialize`, upstream
MLIR's TOSA-to-flatbuffer translation built against the specification's `tosa.fbs`) rather
than a writer of our own: the reference model and Vela read exactly what it writes, and it
follows the schema's versions, where a writer of ours would re-implement every operator's
attribute table and drift from it. The module goes to it in upstream spelling and generic
form (which every upstream parser reads), after `tosa-validate` has accepted it. Reading a
`.tosa` back is the frontend's (`frontends/tosa_flatbuffer.py`).
"""

from __future__ import annotations

import tempfile
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from tosa_state.printing import Spelling, print_module
from tosa_state.tosa_tools import tosa_opt


def upstream_text(module: ModuleOp) -> str:
    """The module as upstream tools read it: upstream spelling, generic form."""
    return print_module(module, spelling=Spelling.UPSTREAM, generic=True)


def serialize(module: ModuleOp) -> bytes:
    """The flatbuffer of a module that is one TOSA graph (checked by `tosa-validate`)."""
    with tempfile.TemporaryDirectory(prefix="tosa_state_") as folder:
        path = Path(folder) / "model.tosa"
        # never `-o /dev/null`: a failing tosa-opt deletes its output file (as root, the
        # device node itself)
        tosa_opt([f"--tosa-serialize=tosa-flatbuffer-filename={path}", "-o",
                  str(Path(folder) / "module.mlir")],
                 upstream_text(module), "write the TOSA flatbuffer")
        return path.read_bytes()
