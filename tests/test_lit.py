"""Runs the lit/FileCheck suite in `lit_tests/`, so that `pytest` alone runs every test."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

LIT_TESTS = Path(__file__).resolve().parent.parent / "lit_tests"


def test_lit_suite() -> None:
    bin_dir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"}
    lit = shutil.which("lit", path=env["PATH"])
    assert lit is not None, "lit is not installed (pip install -e '.[test]')"
    result = subprocess.run(
        [lit, "-v", str(LIT_TESTS)], env=env, capture_output=True, text=True, check=False
    )
    assert result.returncode == 0, result.stdout[-20000:] + result.stderr[-5000:]
