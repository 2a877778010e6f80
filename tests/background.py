"""Work that tests wait for, run in the background while the other tests run.

The tests run one at a time in pytest's process, which leaves the second core idle much of
the run. A `Job` is a command whose result a fixture or test needs (the lit suite, model
exports, the export sweep's sample): conftest's `pytest_collection_finish` starts the jobs
the selected tests need (`SESSION.start`) and each test waits for its own (`SESSION.wait`).
The jobs of a lane run one after another, in the order given (the order the tests first
need them); lanes run side by side. Each command runs under `nice`, so that the tests keep
the core they use, in a process group of its own, so that `stop` (at the session's end,
whatever ended it: Ctrl-C, `-x`, an error) kills it with every process it started.
"""

from __future__ import annotations

import contextlib
import os
import signal
import subprocess
import tempfile
import threading
from collections.abc import Iterable
from dataclasses import dataclass, field

NICE = 10
"""The background's nice value: a test running beside it gets about 9 times its share of a
core (the scheduler's weights: 1024 for nice 0, 110 for nice 10)."""


@dataclass
class Job:
    """A command run in the background; `returncode` and `output` (stdout and stderr) are
    set once `done`."""

    name: str
    argv: list[str]
    env: dict[str, str] | None = None
    lane: str = "main"
    nice: int = NICE
    returncode: int | None = None
    output: str = ""
    process: subprocess.Popen[bytes] | None = field(default=None, repr=False)
    done: threading.Event = field(default_factory=threading.Event, repr=False)


class Jobs:
    """The background jobs of one session."""

    def __init__(self) -> None:
        self._jobs: dict[str, Job] = {}
        self._lock = threading.Lock()
        self._stopping = False

    def start(self, jobs: Iterable[Job]) -> None:
        """Run `jobs` in the background: those of one lane one after another, in the order
        given, the lanes side by side. A job whose name has started already is left out."""
        lanes: dict[str, list[Job]] = {}
        with self._lock:
            for job in jobs:
                if job.name not in self._jobs:
                    self._jobs[job.name] = job
                    lanes.setdefault(job.lane, []).append(job)
        for lane in lanes.values():
            threading.Thread(target=self._run_lane, args=(lane,), daemon=True).start()

    def started(self, name: str) -> Job | None:
        """The job of this name, if one was started."""
        return self._jobs.get(name)

    def wait(self, job: Job) -> Job:
        """The job of `job`'s name once done: the one started before, or `job`, started
        now when none was."""
        self.start([job])
        started = self._jobs[job.name]
        started.done.wait()
        return started

    def stop(self) -> None:
        """Kill every running job with its process group; no other job starts."""
        with self._lock:
            self._stopping = True
            running = [job.process for job in self._jobs.values()
                       if job.process is not None and not job.done.is_set()]
        for process in running:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, signal.SIGKILL)
            process.wait()

    def _run_lane(self, jobs: list[Job]) -> None:
        for job in jobs:
            try:
                self._run(job)
            finally:
                job.done.set()

    def _run(self, job: Job) -> None:
        with tempfile.TemporaryFile() as out:
            with self._lock:
                if self._stopping:
                    job.returncode, job.output = -signal.SIGKILL, "not run: the session stopped"
                    return
                try:
                    job.process = subprocess.Popen(
                        ["nice", "-n", str(job.nice), *job.argv], env=job.env, stdout=out,
                        stderr=subprocess.STDOUT, process_group=0)
                except OSError as error:
                    job.returncode, job.output = -1, f"cannot run {job.argv[0]}: {error}"
                    return
            job.returncode = job.process.wait()
            out.seek(0)
            job.output = out.read().decode(errors="replace")


SESSION = Jobs()
"""The test session's jobs (conftest stops them when the session ends)."""
