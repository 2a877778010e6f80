"""Progress bars for long work (compiling, many-step runs), drawn by `rich` on a terminal.

A bar appears only when the work has lasted `delay` seconds (1 by default, or
`$TOSA_STATE_PROGRESS_DELAY`), only on a terminal, and goes away when the work ends;
`Progress.off()` draws nothing and costs nothing. A stage that takes long without steps
(one pass over a big model) still shows its name, a spinner and the time spent, since rich
redraws from its own thread.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from types import TracebackType
from typing import Any, TextIO

DELAY_ENV = "TOSA_STATE_PROGRESS_DELAY"
"""Environment variable: seconds of work before a bar is drawn (default `DELAY`)."""

DELAY = 1.0
"""Seconds of work before a bar is drawn: short work stays silent."""

_PUSH_INTERVAL = 0.1
"""Seconds between two updates handed to rich (steps are counted in between)."""


class Progress:
    """One bar: `with Progress.on_terminal("run", total=n) as bar: bar.advance()`."""

    def __init__(self, description: str, total: int | None, stream: TextIO | None,
                 delay: float = DELAY):
        self._description = description
        self._total = total
        self._stream = stream
        self._delay = delay
        self._count = 0
        self._pushed_at = 0.0
        self._lock = threading.Lock()
        self._rich: Any = None
        self._task: Any = None
        self._timer: threading.Timer | None = None
        self._closed = False
        self._entered_at = 0.0

    @classmethod
    def on_terminal(cls, description: str, total: int | None = None, enabled: bool = True,
                    stream: TextIO | None = None, delay: float | None = None) -> Progress:
        """A bar on `stream` (stderr) if `enabled` and `stream` is a terminal, else none."""
        stream = sys.stderr if stream is None else stream
        tty = enabled and getattr(stream, "isatty", lambda: False)()
        return cls(description, total, stream if tty else None,
                   _delay_from_env() if delay is None else delay)

    @classmethod
    def off(cls) -> Progress:
        return cls("", None, None)

    def __enter__(self) -> Progress:
        self._entered_at = time.monotonic()
        if self._stream is not None and self._delay <= 0:
            self._start()  # at once (a timer thread might fire after a short run ended)
        elif self._stream is not None:
            self._timer = threading.Timer(self._delay, self._start)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, error: BaseException | None,
                 trace: TracebackType | None) -> None:
        if self._timer is not None:
            self._timer.cancel()
        with self._lock:
            self._closed = True
            if self._rich is not None:
                self._rich.update(self._task, completed=self._count)
                self._rich.stop()

    def _start(self) -> None:
        from rich.console import Console
        from rich.progress import (
            BarColumn,
            MofNCompleteColumn,
            SpinnerColumn,
            TextColumn,
            TimeElapsedColumn,
            TimeRemainingColumn,
        )

        with self._lock:
            if self._closed:
                return
            console = Console(file=self._stream, force_terminal=True)
            columns = [SpinnerColumn(), TextColumn("{task.description}"), BarColumn(),
                       MofNCompleteColumn(), TimeElapsedColumn()]
            if self._total is not None:
                columns.append(TimeRemainingColumn())
            self._rich = _rich_progress(columns, console)
            self._task = self._rich.add_task(self._description, total=self._total,
                                             completed=self._count)
            for task in self._rich.tasks:  # count the time before the bar was drawn
                task.start_time = self._entered_at
            self._rich.start()

    @property
    def shown(self) -> bool:
        """Whether the bar is on the screen (the work has lasted long enough)."""
        return self._rich is not None

    def advance(self, steps: int = 1) -> None:
        """Count `steps` more done; rich hears of it at most every 0.1 s."""
        self._count += steps
        if self._rich is not None and (now := time.monotonic()) - self._pushed_at > \
                _PUSH_INTERVAL:
            self._pushed_at = now
            self._rich.update(self._task, completed=self._count)

    def describe(self, description: str) -> None:
        """Name what is being done now (a compile stage)."""
        self._description = description
        with self._lock:
            if self._rich is not None:
                self._rich.update(self._task, description=description, completed=self._count)


def _delay_from_env() -> float:
    try:
        return max(0.0, float(os.environ.get(DELAY_ENV, DELAY)))
    except ValueError:
        return DELAY


def _rich_progress(columns: list[Any], console: Any) -> Any:
    from rich.progress import Progress as RichProgress

    return RichProgress(*columns, console=console, transient=True, refresh_per_second=10,
                        get_time=time.monotonic)
