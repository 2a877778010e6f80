"""A directory of native code we load and run: only from where no other user could write,
each file checked against the SHA-256 digest recorded beside it.

- **Trust** (as OpenSSH's `StrictModes` checks `~/.ssh`). The directory's canonical path
  (symbolic links resolved) is checked component by component from the directory up to
  `/`: each must be a directory owned by the current user or root, writable by neither its
  group nor others. One exception, for `/tmp`: an *ancestor* owned by root with the sticky
  bit may be world-writable (there others cannot rename or remove what we own). A file is
  opened without following a symbolic link and must be a regular file owned by the user or
  root, writable by neither group nor others. Otherwise `UntrustedCacheError`: nothing is
  read from there. Directories the cache creates are made mode 0700.
- **Digests.** An artifact `NAME` is published with `NAME.sha256` beside it (`sha256sum`'s
  format). A file is loaded only when its bytes, mapped once, match the digest; the mapping
  that was checked is what is loaded. A missing digest, or a file truncated or replaced
  since, reads as "not cached": the caller rebuilds it.
- **Crash-safe publishing.** The file is built under a temporary name in the same
  directory, fsynced, renamed over `NAME` (atomic), then the digest is written the same way,
  then the directory is fsynced. A process killed at any point leaves either nothing, or an
  artifact without a digest (rebuilt), or both. Builders of one name take turns on an
  advisory lock (`NAME.lock`, `flock`, released by the kernel when a holder dies): the
  second one waits and then loads what the first one built.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import mmap
import os
import pwd
import stat
import tempfile
from collections.abc import Callable, Iterator
from pathlib import Path

from tosa_state.diagnostics import TosaStateError

DIGEST_SUFFIX = ".sha256"
PARTIAL_SUFFIX = ".partial"
LOCK_SUFFIX = ".lock"


class UntrustedCacheError(TosaStateError):
    """A cache directory or file that another user could have written."""


def _who(uid: int) -> str:
    try:
        return f"uid {uid} ({pwd.getpwuid(uid).pw_name})"
    except KeyError:
        return f"uid {uid}"


def _refuse(cache: Path, what: str, path: Path, problem: str) -> UntrustedCacheError:
    return UntrustedCacheError(
        f"error: refusing the cache of native code {cache}: {what} {path} {problem}, so "
        "another user could have written what it holds; make every directory of its path "
        "writable only by you (as ssh requires of ~/.ssh), or point TOSA_STATE_IREE_CACHE "
        "at a directory of your own"
    )


def _check(cache: Path, path: Path, st: os.stat_result, what: str, sticky_ok: bool) -> None:
    """Raise unless `st` (of `path`) is owned by the user or root and writable by no one
    else (a root-owned sticky directory may be, when `sticky_ok`)."""
    uid = os.geteuid()
    if st.st_uid not in (uid, 0):
        raise _refuse(cache, what, path, f"is owned by {_who(st.st_uid)}, not by you "
                      f"({_who(uid)}) or root")
    loose = st.st_mode & (stat.S_IWGRP | stat.S_IWOTH)
    if loose and not (sticky_ok and st.st_uid == 0 and st.st_mode & stat.S_ISVTX):
        whom = " and ".join(w for bit, w in ((stat.S_IWGRP, "its group"),
                                             (stat.S_IWOTH, "others")) if loose & bit)
        raise _refuse(cache, what, path, f"is writable by {whom} (mode "
                      f"{stat.S_IMODE(st.st_mode):04o}; chmod go-w {path})")


def trusted_directory(folder: Path) -> Path:
    """The canonical path of `folder`, made (mode 0700) where missing, after checking it
    and every directory above it, from `/` down (the module's docstring)."""
    canonical = Path(os.path.realpath(folder))
    for path in (*reversed(canonical.parents), canonical):
        if not os.path.lexists(path):
            try:
                os.mkdir(path, 0o700)
            except FileExistsError:
                pass
            except OSError as error:
                raise TosaStateError(f"error: cannot create the cache directory {path}: "
                                     f"{error.strerror}") from None
        try:
            st = os.lstat(path)
        except OSError as error:
            raise _refuse(folder, "its path", path, f"cannot be checked ({error.strerror})"
                          ) from None
        if not stat.S_ISDIR(st.st_mode):
            raise _refuse(folder, "its path", path, "is not a directory")
        _check(folder, path, st, "directory", sticky_ok=path != canonical)
    return canonical


def _open_trusted(path: Path) -> int | None:
    """A read-only descriptor of the regular file `path`, checked; None if it is absent."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except FileNotFoundError:
        return None
    except OSError as error:  # ELOOP: a symbolic link
        raise _refuse(path.parent, "file", path, f"cannot be opened safely ({error.strerror})"
                      ) from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):
            raise _refuse(path.parent, "file", path, "is not a regular file")
        _check(path.parent, path, st, "file", sticky_ok=False)
    except BaseException:
        os.close(fd)
        raise
    return fd


def recorded_digest(path: Path) -> str | None:
    """The SHA-256 recorded beside `path` (hex), or None if there is none readable."""
    fd = _open_trusted(path.with_name(path.name + DIGEST_SUFFIX))
    if fd is None:
        return None
    with os.fdopen(fd, "rb") as stream:
        words = stream.read(256).split()
    digest = words[0].decode("ascii", "replace").lower() if words else ""
    if len(digest) != 64 or any(c not in "0123456789abcdef" for c in digest):
        return None
    return digest


def load_verified(path: Path) -> mmap.mmap | None:
    """`path`'s bytes, mapped read-only, if they match the digest recorded beside it;
    None if either is missing or they differ (the caller rebuilds the file)."""
    expected = recorded_digest(path)
    if expected is None:
        return None
    fd = _open_trusted(path)
    if fd is None:
        return None
    try:
        if os.fstat(fd).st_size == 0:
            return None
        data = mmap.mmap(fd, 0, access=mmap.ACCESS_READ)
    finally:
        os.close(fd)
    if hashlib.sha256(data).hexdigest() != expected:
        data.close()
        return None
    return data


def _fsync_directory(folder: Path) -> None:
    fd = os.open(folder, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


def _seal(partial: Path) -> str:
    """Make the file built at `partial` the user's only (0600), flush it to disk; its
    SHA-256."""
    fd = os.open(partial, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
    try:
        os.fchmod(fd, 0o600)
        os.fsync(fd)
        digest = hashlib.sha256()
        with os.fdopen(os.dup(fd), "rb") as stream:
            while chunk := stream.read(1 << 20):
                digest.update(chunk)
        return digest.hexdigest()
    finally:
        os.close(fd)


def publish(path: Path, build: Callable[[Path], None]) -> None:
    """Build `path` by `build(temporary)` (a file in the same directory), then rename it
    into place and record its digest, each step durable before the next."""
    folder = path.parent
    handle, name = tempfile.mkstemp(prefix=path.name + ".", suffix=PARTIAL_SUFFIX, dir=folder)
    os.close(handle)
    partial = Path(name)
    try:
        build(partial)
        digest = _seal(partial)
        os.replace(partial, path)
        handle, name = tempfile.mkstemp(prefix=path.name + ".", suffix=PARTIAL_SUFFIX,
                                        dir=folder)
        partial = Path(name)
        with os.fdopen(handle, "w") as stream:
            stream.write(f"{digest}  {path.name}\n")
            stream.flush()
            os.fsync(stream.fileno())
        os.replace(partial, path.with_name(path.name + DIGEST_SUFFIX))
        _fsync_directory(folder)
    finally:
        partial.unlink(missing_ok=True)


@contextlib.contextmanager
def build_lock(path: Path, waiting: Callable[[], None] | None = None) -> Iterator[None]:
    """Hold `path`'s builder lock (`NAME.lock`); `waiting()` is called first if another
    process holds it. Leftover temporaries of `NAME` (from a builder that was killed) are
    removed once the lock is held."""
    lock = path.with_name(path.name + LOCK_SUFFIX)
    try:
        fd = os.open(lock, os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
    except OSError as error:  # ELOOP: a symbolic link
        raise _refuse(path.parent, "file", lock, f"cannot be opened safely "
                      f"({error.strerror})") from None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            if waiting is not None:
                waiting()
            fcntl.flock(fd, fcntl.LOCK_EX)
        for stale in path.parent.glob(f"{path.name}.*{PARTIAL_SUFFIX}"):
            stale.unlink(missing_ok=True)
        yield
    finally:
        os.close(fd)  # releases the lock


def remove(folder: Path, suffix: str) -> int:
    """Remove every `*suffix` file of `folder` with its digest, lock and temporaries; the
    number of `*suffix` files removed."""
    if not folder.is_dir():
        return 0
    removed = 0
    for path in folder.iterdir():
        if path.name.endswith(suffix):
            removed += 1
        elif not path.name.endswith((DIGEST_SUFFIX, LOCK_SUFFIX, PARTIAL_SUFFIX)):
            continue
        path.unlink(missing_ok=True)
    return removed


__all__ = ["UntrustedCacheError", "build_lock", "load_verified", "publish", "recorded_digest",
           "remove", "trusted_directory"]
