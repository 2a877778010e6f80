"""What every command-line tool shares: user errors become one message and exit code 1."""

from __future__ import annotations

import argparse
import importlib.metadata
import os
import sys
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path
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


def write_atomically(path: str, data: str | bytes | Iterable[str]) -> None:
    """Write `data` (or each of its pieces, e.g. generated as written) to `path` all at
    once: a failed write leaves no partial file.

    A path that cannot be written (no such directory, a directory, no permission) is a
    `TosaStateError` naming it. The file gets the permissions a plain `open(path, "w")`
    would give: those of the file it replaces, else 0666 less the umask.
    """
    target = Path(path)
    mode = "wb" if isinstance(data, bytes) else "w"
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as error:
        raise _write_error(path, error) from None
    try:
        with os.fdopen(fd, mode) as stream:
            if isinstance(data, str | bytes):
                stream.write(data)
            else:
                stream.writelines(data)
            os.fchmod(stream.fileno(), _new_file_mode(target))
        os.replace(tmp, target)
    except BaseException as error:
        Path(tmp).unlink(missing_ok=True)
        if isinstance(error, OSError):
            raise _write_error(path, error) from None
        raise


def _new_file_mode(target: Path) -> int:
    """The mode `open(target, "w")` leaves: the existing file's, else 0666 less the umask
    (`mkstemp` makes its file 0600)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        pass
    return 0o666 & ~_umask()


def _umask() -> int:
    """The process's umask, read without changing it where Linux allows (threads may run)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("Umask:"):
                return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def _write_error(path: str, error: OSError) -> TosaStateError:
    return TosaStateError(f"{path}: error: cannot write output: {error.strerror or error}")
