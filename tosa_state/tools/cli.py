"""What every command-line tool shares: user errors become one message and exit code 1."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
from collections.abc import Callable
from typing import NoReturn

from xdsl.utils.exceptions import ArgSpecParseError, DiagnosticException

from tosa_state.diagnostics import TosaStateError

DEBUG_ENV = "TOSA_STATE_DEBUG"
"""Set to 1 to get Python tracebacks for internal errors (for developers)."""


def run_tool(main: Callable[[], int]) -> None:
    """Run `main`, turning every error into a message on stderr and exit code 1."""
    try:
        code = main()
    except TosaStateError as error:
        code = _fail(str(error))
    except (DiagnosticException, ArgSpecParseError) as error:
        code = _fail(_as_error(str(error)))
    except KeyboardInterrupt:
        code = _fail("error: interrupted")
    except BrokenPipeError:  # the reader went away (`| head`): stop quietly, as Unix tools do
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())
        code = 1
    except Exception as error:
        if os.environ.get(DEBUG_ENV):
            raise
        code = _fail(
            f"error: internal error ({type(error).__name__}): {error}\n"
            f"note: set {DEBUG_ENV}=1 for a traceback, and please report this"
        )
    sys.exit(code)


def _as_error(message: str) -> str:
    return message if "error:" in message.split("\n", 1)[0] else f"error: {message}"


def _fail(message: str) -> int:
    sys.stdout.flush()
    print(message, file=sys.stderr)
    return 1


class ArgumentParser(argparse.ArgumentParser):
    """argparse, but a bad command line exits with code 1 like every other user error."""

    def error(self, message: str) -> NoReturn:
        self.print_usage(sys.stderr)
        self.exit(1, f"{self.prog}: error: {message}\n")


def package_version(distribution: str = "tosa-state") -> str:
    """The installed version of `distribution`, for `--version`."""
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "unknown"


