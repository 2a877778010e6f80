"""`iree-compile` with a cache of compiled artifacts (`.vmfb`).

The key of an artifact is the SHA-256 of the IREE compiler's version, the flags and the
module's text: compiling the same module with the same flags twice reuses the file. The
cache lives in `$TOSA_STATE_IREE_CACHE` if set, else `$XDG_CACHE_HOME/tosa-state/iree`, else
`~/.cache/tosa-state/iree`; `clear_cache()` (`tosa-state cache clear`) empties it.
Artifacts are written whole (a temporary file renamed), so concurrent compiles of the same
module never leave a partial file.
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
from collections.abc import Callable, Sequence
from functools import cache
from pathlib import Path

from tosa_state.diagnostics import TosaStateError

CACHE_ENV = "TOSA_STATE_IREE_CACHE"
"""Environment variable: the directory of the compiled-artifact cache."""

TARGET_FLAGS = (
    "--iree-input-type=tosa",
    "--iree-hal-target-device=local",
    "--iree-hal-local-target-device-backends=llvm-cpu",
    "--iree-llvmcpu-target-cpu=host",
)
"""What the module is and the machine it runs on (this CPU)."""

TUNING_FLAGS = (
    "--iree-global-opt-use-im2col-for-convs",
    "--iree-opt-data-tiling",
    "--iree-llvmcpu-enable-ukernels=all",
)
"""Faster code: silero-vad 52 µs per chunk with these, ~300 µs without
(docs/runtime.md); no difference on the LSTMs."""

DEFAULT_FLAGS = TARGET_FLAGS + TUNING_FLAGS


class IreeCompileError(TosaStateError):
    """iree-compile refused the module, or is not installed."""


def cache_dir() -> Path:
    """The directory of compiled artifacts (see the module's docstring)."""
    if override := os.environ.get(CACHE_ENV):
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tosa-state" / "iree"


def clear_cache() -> int:
    """Remove every cached artifact; the number removed."""
    removed = 0
    folder = cache_dir()
    if folder.is_dir():
        for path in folder.glob("*.vmfb"):
            path.unlink(missing_ok=True)
            removed += 1
    return removed


@cache
def iree_compile_tool() -> tuple[str, str]:
    """The `iree-compile` executable and its version."""
    try:
        from iree.compiler.tools.binaries import find_tool
    except ImportError:
        raise IreeCompileError(
            "error: device 'iree' needs the IREE compiler: pip install 'tosa-state[iree]'"
        ) from None
    tool = find_tool("iree-compile")
    version = subprocess.run([tool, "--version"], capture_output=True, text=True, check=False)
    return tool, version.stdout.strip()


def artifact_key(text: str, flags: Sequence[str]) -> str:
    _, version = iree_compile_tool()
    digest = hashlib.sha256()
    for part in (version, "\0".join(flags), text):
        digest.update(part.encode())
        digest.update(b"\1")
    return digest.hexdigest()


def compile_module_text(text: str, flags: Sequence[str] = DEFAULT_FLAGS,
                        describe: Callable[[str], None] | None = None) -> Path:
    """The `.vmfb` of `text` (MLIR in upstream spelling) compiled with `flags`, from the
    cache when it is there. `describe` is told what runs (a progress bar's label)."""
    folder = cache_dir()
    path = folder / f"{artifact_key(text, flags)}.vmfb"
    if path.is_file():
        return path
    tool, _ = iree_compile_tool()
    folder.mkdir(parents=True, exist_ok=True)
    if describe is not None:
        describe("compiling: iree-compile")
    handle, partial = tempfile.mkstemp(suffix=".vmfb.partial", dir=folder)
    os.close(handle)
    try:
        done = subprocess.run([tool, *flags, "-", "-o", partial], input=text,
                              capture_output=True, text=True, check=False)
        if done.returncode != 0:
            lines = [line for line in done.stderr.splitlines() if line.strip()]
            errors = [line for line in lines if "error:" in line] or lines[-5:]
            detail = "\n".join(errors[:10])
            raise IreeCompileError(f"error: iree-compile failed on the module:\n{detail}")
        os.replace(partial, path)
    finally:
        Path(partial).unlink(missing_ok=True)
    return path


__all__ = ["CACHE_ENV", "DEFAULT_FLAGS", "IreeCompileError", "cache_dir", "clear_cache",
           "compile_module_text"]
