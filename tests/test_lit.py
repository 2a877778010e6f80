"""Runs the lit/FileCheck suite in `lit_tests/`, so that `pytest` alone runs every test.

The suite is some 300 `tosa-state-opt` processes. When `test_lit_suite` is collected, the
suite starts right away, in the background with one worker (`start_lit_suite`, called by
conftest's `pytest_collection_finish`), and the test waits for it: the rest of the tests
run one at a time in this process, so the suite uses the second core instead of holding
both while everything else waits (CI's 20 minutes)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

LIT_TESTS = Path(__file__).resolve().parent.parent / "lit_tests"

_running: tuple[subprocess.Popen[bytes], tempfile._TemporaryFileWrapper[bytes]] | None = None


def start_lit_suite(workers: int = 0) -> None:
    """Start the suite in the background (once), with `workers` processes (0: one per
    core)."""
    global _running
    if _running is not None:
        return
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    lit = shutil.which("lit", path=env["PATH"])
    assert lit is not None, "lit is not installed (pip install -e '.[test]')"
    output = tempfile.TemporaryFile()  # noqa: SIM115 (open until the test reads it)
    process = subprocess.Popen([lit, "-v", f"-j{workers or os.cpu_count() or 1}", str(LIT_TESTS)],
                               env=env,
                               stdout=output, stderr=subprocess.STDOUT)
    _running = (process, output)


def test_lit_suite() -> None:
    start_lit_suite()  # not started yet (collected without conftest's hook): every core
    assert _running is not None
    process, output = _running
    returncode = process.wait()
    output.seek(0)
    text = output.read().decode(errors="replace")
    assert returncode == 0, text[-25000:]
