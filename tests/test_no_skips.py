"""The suite has no skips and no lenient xfails: `tests/conftest.py` turns a skipped test, a
module skipped at collection (`pytest.importorskip` of a missing peer), or a non-strict xfail
that passes, into a failure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _pytest(directory: Path) -> subprocess.CompletedProcess[str]:
    """pytest on `directory` with our conftest loaded as a plugin."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        [str(TESTS), *filter(None, [os.environ.get("PYTHONPATH")])])}
    return subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-p", "conftest",
         "--rootdir", str(directory), str(directory)],
        capture_output=True, text=True, env=env, check=False, cwd=directory,
    )


def test_a_skip_fails_the_suite(tmp_path: Path) -> None:
    (tmp_path / "test_demo.py").write_text(
        "import pytest\n\ndef test_skips():\n    pytest.skip('no peer')\n\n"
        "def test_passes():\n    pass\n"
    )
    result = _pytest(tmp_path)
    assert result.returncode == 1, result.stdout
    assert "1 failed, 1 passed" in result.stdout, result.stdout
    assert "skipped (Skipped: no peer); skips fail the suite" in result.stdout


def test_a_missing_peer_fails_the_suite(tmp_path: Path) -> None:
    (tmp_path / "test_peer.py").write_text(
        "import pytest\n\npytest.importorskip('no_such_peer_module')\n\n"
        "def test_x():\n    pass\n"
    )
    result = _pytest(tmp_path)
    assert result.returncode != 0, result.stdout
    assert "could not import 'no_such_peer_module'" in result.stdout, result.stdout
    assert "skips fail the suite" in result.stdout


def test_a_non_strict_xpass_fails_the_suite(tmp_path: Path) -> None:
    (tmp_path / "test_xfail.py").write_text(
        "import pytest\n\n@pytest.mark.xfail(reason='flaky peer', strict=False)\n"
        "def test_xpasses():\n    pass\n\n"
        "@pytest.mark.xfail(reason='known bug', strict=False)\n"
        "def test_xfails():\n    assert False\n"
    )
    result = _pytest(tmp_path)
    assert result.returncode == 1, result.stdout
    assert "1 failed, 1 xfailed" in result.stdout, result.stdout
    assert "passed although marked xfail (flaky peer); every xfail is strict" in result.stdout
