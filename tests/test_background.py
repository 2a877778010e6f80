"""`background`: jobs run niced in process groups of their own, a lane's jobs one after
another, and nothing left behind when the session stops (`Jobs.stop`, conftest's
`pytest_sessionfinish`), Ctrl-C included."""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace

import background

ROOT = Path(__file__).resolve().parent.parent


def _python(code: str) -> list[str]:
    return [sys.executable, "-c", code]


def _alive(pid: int) -> bool:
    """Whether `pid` runs (a zombie does not)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _group(pgid: int) -> list[int]:
    """The running processes of process group `pgid`."""
    found = []
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except (FileNotFoundError, ProcessLookupError):
            continue
        if fields[0] != "Z" and int(fields[2]) == pgid:
            found.append(int(stat.parent.name))
    return found


def _cmdline(pid: int) -> bytes:
    try:
        return Path(f"/proc/{pid}/cmdline").read_bytes()
    except FileNotFoundError:
        return b""


def _until(condition: Callable[[], bool], what: str, seconds: float = 30.0) -> None:
    deadline = time.monotonic() + seconds
    while not condition():
        assert time.monotonic() < deadline, f"no {what} within {seconds:.0f} s"
        time.sleep(0.05)


def test_a_job_runs_niced_in_a_group_of_its_own_and_reports_its_output() -> None:
    jobs = background.Jobs()
    job = jobs.wait(background.Job("probe", _python(
        "import os, sys; print(os.getpid() == os.getpgid(0), os.nice(0)); "
        "print('to stderr', file=sys.stderr); sys.exit(3)")))
    assert job.returncode == 3
    assert job.output.splitlines() == [f"True {min(19, os.nice(0) + background.NICE)}",
                                       "to stderr"]
    assert jobs.wait(background.Job("probe", ["never", "run"])) is job  # by name, once


def test_a_lanes_jobs_run_one_after_another_lanes_side_by_side(tmp_path: Path) -> None:
    log = tmp_path / "log"
    slow = f"import time; time.sleep(0.5); open({str(log)!r}, 'a').write('slow ')"
    fast = f"open({str(log)!r}, 'a').write('fast ')"
    jobs = background.Jobs()
    jobs.start([background.Job("slow", _python(slow)), background.Job("fast", _python(fast))])
    for name in ("slow", "fast"):
        jobs.wait(background.Job(name, []))
    assert log.read_text() == "slow fast "
    log.unlink()
    jobs.start([background.Job("slow 2", _python(slow), lane="a"),
                background.Job("fast 2", _python(fast), lane="b")])
    for name in ("slow 2", "fast 2"):
        jobs.wait(background.Job(name, []))
    assert log.read_text() == "fast slow "


def test_stop_kills_a_job_with_the_processes_it_started(tmp_path: Path) -> None:
    """And the jobs of its lane not started yet never start."""
    pids = tmp_path / "pids"
    parent = ("import subprocess, sys, os, time\n"
              f"child = subprocess.Popen([sys.executable, '-c', 'import time; time.sleep(60)'])\n"
              f"open({str(pids)!r}, 'w').write(f'{{os.getpid()}} {{child.pid}}')\n"
              "time.sleep(60)\n")
    jobs = background.Jobs()
    jobs.start([background.Job("parent", _python(parent)), background.Job("next", ["true"])])
    _until(lambda: pids.is_file() and len(pids.read_text().split()) == 2, "pids")
    started = [int(pid) for pid in pids.read_text().split()]
    assert all(_alive(pid) for pid in started)
    jobs.stop()
    _until(lambda: not any(_alive(pid) for pid in started), "end of the killed processes", 5)
    assert jobs.wait(background.Job("parent", [])).returncode == -signal.SIGKILL
    later = jobs.wait(background.Job("next", []))
    assert (later.returncode, later.output) == (-signal.SIGKILL, "not run: the session stopped")


def test_a_job_that_cannot_run_fails_with_the_reason() -> None:
    job = background.Jobs().wait(background.Job("missing", ["/nonexistent/tool"]))
    assert job.returncode != 0 and "/nonexistent/tool" in job.output, job


def test_ctrl_c_leaves_no_background_process(tmp_path: Path) -> None:
    """pytest interrupted (SIGINT, as Ctrl-C sends it) while the lit suite runs in the
    background (its own process group, out of the terminal's reach): none of the suite's
    processes outlives pytest."""
    session = subprocess.Popen(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
         "-p", "no:hypothesispytest", "--rootdir", str(ROOT), str(ROOT / "tests" / "test_lit.py")],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    lit: list[int] = []

    def lit_started() -> bool:
        children = [int(pid) for task in Path(f"/proc/{session.pid}/task").iterdir()
                    for pid in (task / "children").read_text().split()]  # each thread's
        lit[:] = [pid for pid in children if b"lit_tests" in _cmdline(pid)]
        return bool(lit)

    try:
        _until(lit_started, "background lit suite")
        assert os.getpgid(lit[0]) == lit[0] != os.getpgid(session.pid)  # a group of its own
        session.send_signal(signal.SIGINT)
        output, _ = session.communicate(timeout=60)
    finally:  # the test failing leaves nothing behind either
        if session.poll() is None:
            session.kill()
            session.wait()
        for pid in lit:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
    assert "KeyboardInterrupt" in output, output
    _until(lambda: not _group(lit[0]), "end of the lit suite's processes", 5)


def test_the_tests_that_wait_longest_run_last() -> None:
    """conftest's `pytest_collection_modifyitems` moves them to the end, the order otherwise
    kept."""
    from conftest import pytest_collection_modifyitems

    def item(nodeid: str, *fixtures: str) -> SimpleNamespace:
        return SimpleNamespace(nodeid=nodeid, fixturenames=["request", *fixtures])

    items = [item("tests/test_export_sweep_sample.py::test_sampled[a]", "sweeps"),
             item("tests/test_a.py::test_one"), item("tests/test_lit.py::test_lit_suite"),
             item("tests/test_export_sweep_sample.py::test_sample_covers_the_claimed_families"),
             item("tests/test_z.py::test_two", "llm_exports")]
    order = [i.nodeid for i in items]
    pytest_collection_modifyitems(items)  # type: ignore[arg-type]
    assert [i.nodeid for i in items] == [order[1], order[3], order[4], order[0], order[2]]
