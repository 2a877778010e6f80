"""Progress bars: drawn by rich on a terminal for work over a second, never otherwise."""

from __future__ import annotations

import io
import os
import pty
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy as np
import pytest
from test_error_paths import ACCUMULATOR

import tosa_state as ts
from tosa_state import progress
from tosa_state.progress import Progress

BIN = Path(sys.executable).parent


class Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def _work(bar: Progress, steps: int, seconds: float) -> None:
    for _ in range(steps):
        time.sleep(seconds / steps)
        bar.advance()


def test_a_bar_is_drawn_on_a_terminal_once_the_work_lasts() -> None:
    stream = Terminal()
    with Progress.on_terminal("running", total=8, stream=stream, delay=0.1) as bar:
        _work(bar, 8, 0.6)
        assert bar.shown
    text = stream.getvalue()
    assert "running" in text and "8/8" in text
    assert "\x1b[" in text  # drawn in place, with terminal control sequences


@pytest.mark.parametrize(
    ("stream", "enabled", "delay"),
    [(Terminal(), True, 5.0), (io.StringIO(), True, 0.0), (Terminal(), False, 0.0)],
    ids=["short-work", "not-a-terminal", "quiet"],
)
def test_no_bar_for_short_work_pipes_or_quiet(stream: io.StringIO, enabled: bool,
                                              delay: float) -> None:
    with Progress.on_terminal("running", total=4, enabled=enabled, stream=stream,
                              delay=delay) as bar:
        _work(bar, 4, 0.3)
        assert not bar.shown
    assert stream.getvalue() == ""


def test_compile_model_shows_its_stages(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    stream = Terminal()
    monkeypatch.setattr(sys, "stderr", stream)
    monkeypatch.setattr(progress, "DELAY", 0.0)
    model = tmp_path / "acc.mlir"
    model.write_text(ACCUMULATOR)
    ts.compile_model(model)
    assert stream.getvalue() == ""  # only when asked
    ts.compile_model(model, progress=True)
    assert "compiling: planning" in stream.getvalue() and "5/5" in stream.getvalue()


def _run_on_a_terminal(*args: str) -> tuple[int, bytes]:
    """Run a tool with its stderr on a pseudo-terminal: (exit code, what the terminal got)."""
    master, slave = pty.openpty()
    env = {**os.environ, "COLUMNS": "100", "TERM": "xterm", progress.DELAY_ENV: "0"}
    process = subprocess.Popen([str(BIN / args[0]), *args[1:]], stdin=subprocess.DEVNULL,
                               stdout=subprocess.DEVNULL, stderr=slave, env=env)
    os.close(slave)
    received: list[bytes] = []

    def read() -> None:
        while True:
            try:
                data = os.read(master, 65536)
            except OSError:  # the other end closed
                return
            if not data:
                return
            received.append(data)

    reader = threading.Thread(target=read)
    reader.start()
    code = process.wait(timeout=120)
    reader.join(timeout=10)
    os.close(master)
    return code, b"".join(received)


def test_tosa_state_run_shows_progress_on_a_terminal_unless_quiet(tmp_path: Path) -> None:
    """A bar on a real (pseudo-)terminal, none with --quiet (drawn at once: delay 0)."""
    model = tmp_path / "acc.mlir"
    model.write_text(ACCUMULATOR)
    np.savez(tmp_path / "in.npz", x=np.ones((20_000, 2), np.float32))
    args = ["tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"),
            "-o", str(tmp_path / "out.npz")]
    code, seen = _run_on_a_terminal(*args)
    assert code == 0, seen
    assert b"running" in seen and b"/20000" in seen
    code, seen = _run_on_a_terminal(*args, "--quiet")
    assert (code, seen) == (0, b"")
