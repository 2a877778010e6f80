"""Run the upstream MLIR tools (`iree-opt`, `tosa-opt`) on MLIR text, for use as test oracles.

Both tools come from wheels in the `test` extra (`iree-base-compiler`, `tosa-tools`); their console
scripts live next to the interpreter of the virtualenv, which is searched before `PATH`.

Traps:
- The pretty (custom) syntax of TOSA ops with attributes differs between the two tools, e.g.
  `iree-opt` prints `tosa.const values(dense<1> : tensor<i32>)` and
  `tosa.clamp %x min_val(0.0 : f32) max_val(6.0 : f32)`, which `tosa-opt` rejects (it wants
  `"tosa.const"() <{values = ...}>` and `tosa.clamp %x {min_val = ..., max_val = ...}`). The generic
  form (`--mlir-print-op-generic`) parses in both.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

TIMEOUT_SECONDS = 120


def tool_path(name: str) -> str | None:
    """Where `name` is: next to `sys.executable` first, then on `PATH`; None when absent."""
    beside = Path(sys.executable).parent / name
    if beside.is_file() and os.access(beside, os.X_OK):
        return str(beside)
    return shutil.which(name)


def run_tool(name: str, text: str, *args: str) -> str:
    """Run tool `name` with `args` on `text` (stdin); return stdout, AssertionError on failure."""
    path = tool_path(name)
    if path is None:
        raise FileNotFoundError(f"{name} not found next to {sys.executable} nor on PATH")
    proc = subprocess.run(
        [path, *args],
        input=text,
        capture_output=True,
        text=True,
        timeout=TIMEOUT_SECONDS,
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"{name} {' '.join(args)} failed with exit code {proc.returncode}:\n{proc.stderr}"
        )
    return proc.stdout


def iree_opt(text: str, *args: str) -> str:
    """`iree-opt ARGS` on `text`: upstream MLIR (parse, verify, passes, print)."""
    return run_tool("iree-opt", text, *args)


def tosa_opt(text: str, *args: str) -> str:
    """`tosa-opt ARGS` on `text`: upstream MLIR with the TOSA (de)serialization passes."""
    return run_tool("tosa-opt", text, *args)
