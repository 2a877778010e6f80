"""`iree-compile` with a cache of compiled artifacts (`.vmfb`).

The key of an artifact is the SHA-256 of the IREE compiler's version, the flags and the
module's text: compiling the same module with the same flags twice reuses the file. The
cache lives in `$TOSA_STATE_IREE_CACHE` if set, else `$XDG_CACHE_HOME/tosa-state/iree`, else
`~/.cache/tosa-state/iree`; `clear_cache()` (`tosa-state cache --clear`) empties it (the
compile records of `iree_record` too).

The artifacts are native code that device `iree` loads and runs, so the cache is a
`trusted_cache`: used only when no other user could have written it (else
`UntrustedCacheError`), each artifact loaded only when it matches the SHA-256 recorded
beside it (else compiled again), written whole (a temporary file, fsynced, renamed), one
compiler at a time per artifact.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import subprocess
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path

from tosa_state.diagnostics import TosaStateError

from .trusted_cache import (
    UntrustedCacheError,
    build_lock,
    load_verified,
    publish,
    remove,
    trusted_directory,
)

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

DECODER_TUNING_FLAGS = tuple(
    "--iree-global-opt-data-tiling" if flag == "--iree-opt-data-tiling" else flag
    for flag in TUNING_FLAGS)
"""A static decoder's (`compile_model(..., static_state=...)`'s prefill and decode entries):
data tiling at global optimization. With `--iree-opt-data-tiling`, IREE 3.13 miscompiles the
SmolLM-135M-shaped decoder's `decode` entry (logits 5.5-6.8% off OpenVINO's from the first
decode step: layer 0's attention output is wrong, its prefill right; it takes 9 query heads
in 3 groups: `tests/test_static_entries.py`'s one-layer Llama of that shape); with this
flag its logits are within
1.4e-6 and `iree-compile` took 30% less time (docs/runtime.md "The static decoder at real
size"). Not the default: silero-vad does not compile with it."""

DECODER_FLAGS = TARGET_FLAGS + DECODER_TUNING_FLAGS


class IreeCompileError(TosaStateError):
    """iree-compile refused the module, or is not installed."""


def cache_dir() -> Path:
    """The directory of compiled artifacts (see the module's docstring)."""
    if override := os.environ.get(CACHE_ENV):
        return Path(override)
    base = os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache"
    return Path(base) / "tosa-state" / "iree"


RECORD_SUFFIX = ".record"
"""Device `iree`'s compile records (`iree_record`), beside the artifacts."""


def clear_cache() -> int:
    """Remove every cached artifact and compile record (with their digests); the number of
    artifacts removed."""
    remove(cache_dir(), RECORD_SUFFIX)
    return remove(cache_dir(), ".vmfb")


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


@dataclass(frozen=True)
class Artifact:
    """A compiled module in the cache: its path, and its bytes as checked against the
    digest recorded beside it (mapped read-only; load these, not the path, so that what
    runs is what was checked)."""

    path: Path
    data: mmap.mmap


def compile_module_text(text: str, flags: Sequence[str] = DEFAULT_FLAGS,
                        describe: Callable[[str], None] | None = None) -> Artifact:
    """The `.vmfb` of `text` (MLIR in upstream spelling) compiled with `flags`, from the
    cache when it is there and intact. `describe` is told what runs (a progress bar's
    label). Raises `UntrustedCacheError` for a cache another user could have written."""
    path = trusted_directory(cache_dir()) / f"{artifact_key(text, flags)}.vmfb"
    if (data := load_verified(path)) is not None:
        return Artifact(path, data)
    tool, _ = iree_compile_tool()
    waiting = None if describe is None else (
        lambda: describe("waiting: another process compiles this module"))
    with build_lock(path, waiting):
        if (data := load_verified(path)) is not None:  # the other process compiled it
            return Artifact(path, data)
        if describe is not None:
            describe("compiling: iree-compile")
        publish(path, lambda partial: _iree_compile(tool, text, flags, partial))
        data = load_verified(path)
    if data is None:
        raise IreeCompileError(f"error: the artifact just compiled, {path}, does not match "
                               "its digest (is something else writing the cache?)")
    return Artifact(path, data)


def _iree_compile(tool: str, text: str, flags: Sequence[str], output: Path) -> None:
    done = subprocess.run([tool, *flags, "-", "-o", str(output)], input=text,
                          capture_output=True, text=True, check=False)
    if done.returncode != 0:
        lines = [line for line in done.stderr.splitlines() if line.strip()]
        errors = [line for line in lines if "error:" in line] or lines[-5:]
        detail = "\n".join(errors[:10])
        raise IreeCompileError(f"error: iree-compile failed on the module:\n{detail}")


__all__ = ["CACHE_ENV", "DECODER_FLAGS", "DEFAULT_FLAGS", "Artifact", "IreeCompileError",
           "UntrustedCacheError", "cache_dir", "clear_cache", "compile_module_text"]
