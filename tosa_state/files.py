"""Files written whole or not at all: a failed write leaves no partial output file."""

from __future__ import annotations

import os
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from tosa_state.diagnostics import TosaStateError


def write_atomically(path: str, data: str | bytes | Iterable[str]) -> None:
    """Write `data` (or each of its pieces, e.g. generated as written) to `path` all at
    once: a failed write leaves no partial file.

    A path that cannot be written (no such directory, a directory, no permission) is a
    `TosaStateError` naming it. The file gets the permissions a plain `open(path, "w")`
    would give: those of the file it replaces, else 0666 less the umask.
    """

    def write(tmp: Path) -> None:
        with tmp.open("wb" if isinstance(data, bytes) else "w") as stream:
            if isinstance(data, str | bytes):
                stream.write(data)
            else:
                stream.writelines(data)

    build_atomically(path, write)


def build_atomically(path: str, build: Callable[[Path], None]) -> None:
    """`write_atomically` of a file that `build(temporary)` writes (a file beside `path`,
    which `build` may replace)."""
    target = Path(path)
    try:
        fd, tmp = tempfile.mkstemp(dir=target.parent, prefix=f".{target.name}.")
    except OSError as error:
        raise _write_error(path, error) from None
    try:
        os.close(fd)
        build(Path(tmp))
        os.chmod(tmp, _new_file_mode(target))
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
