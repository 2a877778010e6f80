"""Runs the lit/FileCheck suite in `lit_tests/`, so that `pytest` alone runs every test.

The suite is some 300 `tosa-state-opt` processes. When `test_lit_suite` is collected, the
suite starts right away in the background (`lit_job`, started by conftest's
`pytest_collection_finish` through `background`: niced, a worker per core), and the test,
which runs last, waits for it: the rest of the tests run one at a time in this process, so
the suite takes the core they leave idle instead of holding both while everything else
waits (CI's 20 minutes)."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import background

LIT_TESTS = Path(__file__).resolve().parent.parent / "lit_tests"


def lit_job(workers: int = 0) -> background.Job:
    """The suite as a background job with `workers` processes (0: one per core)."""
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    lit = shutil.which("lit", path=env["PATH"])
    assert lit is not None, "lit is not installed (pip install -e '.[test]')"
    # waited for last: below the exports that tests wait for sooner (nice 15: a third of
    # their share of a core)
    return background.Job("lit", [lit, "-v", f"-j{workers or os.cpu_count() or 1}",
                                  str(LIT_TESTS)], env, lane="lit", nice=background.NICE + 5)


def test_lit_suite() -> None:
    job = background.SESSION.wait(lit_job())  # not started (no conftest hook): every core
    assert job.returncode == 0, job.output[-25000:]
