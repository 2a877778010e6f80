"""Arm's TOSA toolchain (`tosa-tools`, the `tosa` extra): where its binaries are, and
`tosa-opt` run on a module's text. Used by the `.tosa` writer and reader and by device
`reference`. Its binaries are run from the installed package's own `bin/` (never looked
up on `PATH`), like any installed code.

Never give an MLIR tool `-o /dev/null`: one that fails deletes its output file, and run as
root it deletes the device node (this machine's `/dev/null` became a regular file so).
Write to a file in a temporary folder instead."""

from __future__ import annotations

import subprocess
from functools import cache
from importlib import metadata
from pathlib import Path

from tosa_state.diagnostics import TosaStateError

TIMEOUT_SECONDS = 600
MANIFEST_SUFFIX = ".json"
"""The state manifest of `model.tosa` is `model.tosa.json` (written by
`emitters.tosa_artifact`, read back by `frontends.tosa_flatbuffer`)."""
INSTALL_HINT = "pip install 'tosa-state[tosa]'"


@cache
def tool(name: str) -> Path:
    """A file of the installed `tosa-tools` (`tosa-opt`, `tosa_reference_model`,
    `tosa.fbs`), or an error saying how to install it."""
    try:
        path: Path | None = Path(str(
            metadata.distribution("tosa-tools").locate_file(f"bin/{name}")))
    except metadata.PackageNotFoundError:
        path = None
    if path is None or not path.is_file():
        raise TosaStateError(f"error: TOSA artifacts need Arm's tosa-tools ({name} not "
                             f"found): {INSTALL_HINT}")
    return path


def tosa_opt(args: list[str], text: str, what: str) -> str:
    """`tosa-opt ARGS -` on `text`; its output, or an error quoting its first lines."""
    proc = subprocess.run([str(tool("tosa-opt")), *args, "-"], input=text, text=True,
                          capture_output=True, timeout=TIMEOUT_SECONDS, check=False)
    if proc.returncode != 0:
        detail = (proc.stderr.strip().splitlines() or ["(no message)"])[:20]
        raise TosaStateError(f"error: tosa-opt failed to {what}:\n" + "\n".join(detail))
    return proc.stdout
