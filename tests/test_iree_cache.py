"""The `.vmfb` cache holds native code that device `iree` loads and runs
(`tosa_state/devices/trusted_cache.py`): a cache another user could have written is refused,
a damaged artifact is compiled again (never run), and concurrent or killed compiles leave a
usable cache (real subprocesses).

The module is an accumulator at the `ml_program` level, written by hand so that each test
pays one `iree-compile` of a few ops and nothing else.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import iree.runtime as rt
import numpy as np
import pytest
from test_request_threads import ACCUMULATOR as TOSA_ACCUMULATOR

import tosa_state as ts
from tosa_state import make_context
from tosa_state.devices import iree_compile
from tosa_state.devices.iree_compile import CACHE_ENV, Artifact, compile_module_text
from tosa_state.devices.trusted_cache import UntrustedCacheError
from tosa_state.frontends.mlir import parse_mlir

pytestmark = pytest.mark.peers

ROOT = Path(__file__).resolve().parent.parent

ACCUMULATOR = """\
module {
  ml_program.global private mutable @acc(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
  func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {
    %old = ml_program.global_load @acc : tensor<4xf32>
    %new = tosa.add %old, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    ml_program.global_store @acc = %new : tensor<4xf32>
    return %new : tensor<4xf32>
  }
}
"""
OTHER = ACCUMULATOR.replace("tosa.add", "tosa.sub")
ONES = np.ones(4, np.float32)
TIMEOUT = 120.0


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv(CACHE_ENV, str(folder))
    return folder


@pytest.fixture(scope="module")
def pristine(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A cache holding the accumulator's artifact and digest, compiled once for the file."""
    folder = tmp_path_factory.mktemp("pristine") / "cache"
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv(CACHE_ENV, str(folder))
        compile_module_text(ACCUMULATOR)
    return folder


def seed(cache: Path, pristine: Path) -> Path:
    """`cache` made (0700) holding a copy of `pristine`'s artifact; the artifact's path."""
    cache.mkdir(0o700)
    for path in pristine.iterdir():
        shutil.copy2(path, cache / path.name)
    (artifact,) = cache.glob("*.vmfb")
    return artifact


def compile_logged(text: str = ACCUMULATOR) -> tuple[Artifact, list[str]]:
    """The artifact of `text` and what `compile_module_text` said it did."""
    said: list[str] = []
    return compile_module_text(text, describe=said.append), said


def run(artifact: Artifact, calls: int = 2) -> list[np.ndarray]:
    """`calls` calls of the artifact's `main` with ones, in a fresh context."""
    config = rt.Config("local-sync")
    module = rt.VmModule.copy_buffer(config.vm_instance, artifact.data)
    main = rt.SystemContext(config=config, vm_modules=[module]).modules.module["main"]
    return [np.array(main(ONES).to_host()) for _ in range(calls)]


def assert_intact(artifact: Artifact) -> None:
    """The artifact on disk matches its recorded digest and the bytes loaded, and runs."""
    digest = (artifact.path.parent / (artifact.path.name + ".sha256")).read_text().split()
    assert digest == [hashlib.sha256(artifact.path.read_bytes()).hexdigest(),
                      artifact.path.name]
    assert bytes(artifact.data) == artifact.path.read_bytes()
    assert [r.tolist() for r in run(artifact)] == [[1.0] * 4, [2.0] * 4]


def leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".partial"))


# ---------------------------------------------------------------------------------------------
# Trust: who could have written the cache
# ---------------------------------------------------------------------------------------------


def test_the_cache_is_made_private_and_reused(cache: Path) -> None:
    artifact, said = compile_logged()
    assert said == ["compiling: iree-compile"]
    assert artifact.path.parent == cache
    assert (cache.stat().st_mode & 0o777, artifact.path.stat().st_mode & 0o777) == (0o700, 0o600)
    assert_intact(artifact)
    again, said = compile_logged()
    assert (again.path, said) == (artifact.path, [])
    assert sorted(p.name for p in cache.iterdir()) == [
        artifact.path.name, artifact.path.name + ".lock", artifact.path.name + ".sha256"]


@pytest.mark.parametrize(("where", "mode", "problem"), [
    ("cache", 0o770, r"is writable by its group \(mode 0770; chmod go-w "),
    ("cache", 0o757, r"is writable by others \(mode 0757; chmod go-w "),
    ("cache", 0o1777, r"is writable by its group and others \(mode 1777; chmod go-w "),
    ("parent", 0o775, r"is writable by its group \(mode 0775; chmod go-w "),
])
def test_a_cache_writable_by_others_is_refused(cache: Path, where: str, mode: int,
                                               problem: str) -> None:
    """Any directory of the path writable by group or others: refused, nothing compiled or
    loaded (a sticky root-owned ancestor such as /tmp is allowed: this test's own path
    has one)."""
    cache.mkdir(0o700)
    loose = cache if where == "cache" else cache.parent
    loose.chmod(mode)
    with pytest.raises(UntrustedCacheError) as caught:
        compile_logged()
    message = str(caught.value)
    assert message.startswith(f"error: refusing the cache of native code {cache}: "
                              f"directory {loose} ")
    assert re.search(problem + re.escape(str(loose)), message), message
    assert "point TOSA_STATE_IREE_CACHE at a directory of your own" in message
    assert list(cache.iterdir()) == []


def test_a_symbolic_link_to_a_loose_directory_is_refused(cache: Path, tmp_path: Path) -> None:
    """The path is checked where it leads (`realpath`), not where the link is."""
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o777)
    cache.symlink_to(shared)
    with pytest.raises(UntrustedCacheError, match=rf"^error: refusing the cache of native "
                       rf"code {re.escape(str(cache))}: directory {re.escape(str(shared))} is "
                       r"writable by its group and others \(mode 0777"):
        compile_logged()
    assert list(shared.iterdir()) == []


def _pretend_another_user(path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Make `path` owned by uid 4242: chown it when root may, else make `os.lstat` and
    `os.fstat` say so for its inode."""
    if os.geteuid() == 0:
        os.chown(path, 4242, -1, follow_symlinks=False)
        return
    inode = path.lstat().st_ino

    def pretend(real: Callable[..., os.stat_result]) -> Callable[..., os.stat_result]:
        def stat(*args: Any, **kwargs: Any) -> os.stat_result:
            result = real(*args, **kwargs)
            if result.st_ino != inode:
                return result
            fields = list(result)
            fields[4] = 4242  # st_uid
            return os.stat_result(fields)
        return stat

    monkeypatch.setattr(os, "lstat", pretend(os.lstat))
    monkeypatch.setattr(os, "fstat", pretend(os.fstat))


def test_a_cache_directory_of_another_user_is_refused(cache: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    cache.mkdir(0o700)
    _pretend_another_user(cache, monkeypatch)
    with pytest.raises(UntrustedCacheError, match=rf"^error: refusing the cache of native "
                       rf"code {re.escape(str(cache))}: directory {re.escape(str(cache))} is owned by uid 4242, "
                       "not by you "):
        compile_logged()
    assert list(cache.iterdir()) == []


@pytest.mark.parametrize("damage", ["group-writable", "another user's", "a symbolic link"])
def test_an_artifact_another_user_could_have_written_is_refused(
        cache: Path, pristine: Path, monkeypatch: pytest.MonkeyPatch, damage: str) -> None:
    """The artifact itself: refused, not compiled over nor loaded."""
    path = seed(cache, pristine)
    if damage == "group-writable":
        path.chmod(0o620)
        problem = r"is writable by its group \(mode 0620"
    elif damage == "another user's":
        _pretend_another_user(path, monkeypatch)
        problem = "is owned by uid 4242, not by you"
    else:
        target = path.with_name("elsewhere.vmfb")
        path.rename(target)
        path.symlink_to(target)
        problem = r"cannot be opened safely \(Too many levels of symbolic links\)"
    with pytest.raises(UntrustedCacheError, match=rf"^error: refusing the cache of native "
                       rf"code {re.escape(str(cache))}: file {re.escape(str(path))} {problem}"):
        compile_logged()


def test_compile_model_and_the_cli_refuse_a_loose_cache(cache: Path, tmp_path: Path) -> None:
    from test_error_paths import cli

    from tosa_state.tools import main as tosa_state_main

    cache.mkdir()
    cache.chmod(0o777)
    source = ROOT / "examples" / "lstm_cell.mlir"
    with pytest.raises(UntrustedCacheError, match=f"directory {re.escape(str(cache))} is "
                       "writable by its group and others"):
        ts.compile_model(source, device="iree")
    output = tmp_path / "model.vmfb"
    code, out, err = cli(tosa_state_main.main, "compile", str(source), "-o", str(output), "-q")
    assert (code, out) == (1, "") and "Traceback" not in err
    assert err.startswith(f"error: refusing the cache of native code {cache}: directory "
                          f"{cache} is writable by its group and others (mode 0777"), err
    assert not output.exists() and list(cache.iterdir()) == []


# ---------------------------------------------------------------------------------------------
# Digests: a damaged artifact is compiled again, never run
# ---------------------------------------------------------------------------------------------


def _damage(path: Path, how: str) -> None:
    data = path.read_bytes()
    digest = path.with_name(path.name + ".sha256")
    if how == "truncated":
        path.write_bytes(data[: len(data) // 2])
    elif how == "emptied":
        path.write_bytes(b"")
    elif how == "one byte changed":
        middle = len(data) // 2
        path.write_bytes(data[:middle] + bytes([data[middle] ^ 1]) + data[middle + 1:])
    elif how == "replaced by another module":
        path.write_bytes(compile_module_text(OTHER).path.read_bytes())
    elif how == "digest missing":
        digest.unlink()
    elif how == "digest garbled":
        digest.write_text("not a digest\n")


@pytest.mark.parametrize("how", ["truncated", "emptied", "one byte changed",
                                 "replaced by another module", "digest missing",
                                 "digest garbled"])
def test_a_damaged_artifact_is_compiled_again(cache: Path, pristine: Path, how: str) -> None:
    path = seed(cache, pristine)
    _damage(path, how)
    again, said = compile_logged()
    assert said == ["compiling: iree-compile"]
    assert again.path == path
    assert_intact(again)
    assert leftovers(cache) == []


def test_a_loaded_module_runs_the_bytes_checked_not_what_the_file_holds_later(
        cache: Path) -> None:
    """The module runs a copy of the bytes checked against the digest: an artifact written
    over in place afterwards (same inode) changes nothing that is loaded. (Wrapping the
    file's mapping, the next call ran the zeros: 'input list and function mismatch'.)"""
    tosa = parse_mlir(make_context(), TOSA_ACCUMULATOR, "acc.mlir")
    model = ts.compile_model(tosa, device="iree")
    request = model.create_infer_request()
    np.testing.assert_array_equal(request.infer([ONES])[0], ONES)
    path = model.executable.vmfb
    with open(path, "r+b") as file:
        file.write(bytes(path.stat().st_size))
    np.testing.assert_array_equal(request.infer([ONES])[0], ONES * 2)
    np.testing.assert_array_equal(model.create_infer_request().infer([ONES])[0], ONES)


# ---------------------------------------------------------------------------------------------
# Concurrent and killed compiles (real subprocesses)
# ---------------------------------------------------------------------------------------------

CHILD = textwrap.dedent("""\
    import os, sys, time
    from pathlib import Path
    from tosa_state.devices import iree_compile, trusted_cache

    text, go, kill_at = Path(sys.argv[1]).read_text(), Path(sys.argv[2]), sys.argv[3]

    def announce(what):
        print(what, flush=True)
        if what == kill_at:
            time.sleep(600)  # killed here by the test

    compile_ = iree_compile._iree_compile
    def hooked_compile(tool, text, flags, output):
        announce("compiling")
        compile_(tool, text, flags, output)
        if kill_at == "compiled half":  # half written when killed
            with open(output, "r+b") as f:
                f.truncate(os.path.getsize(output) // 2)
            announce("compiled half")
    replace = os.replace
    def hooked_replace(source, target):
        kind = "digest" if str(target).endswith(".sha256") else "artifact"
        announce(f"renaming the {kind}")
        replace(source, target)
        announce(f"renamed the {kind}")

    if kill_at:
        iree_compile._iree_compile = hooked_compile
        trusted_cache.os.replace = hooked_replace
    print("ready", flush=True)
    while not go.exists():
        time.sleep(0.01)
    artifact = iree_compile.compile_module_text(text, describe=announce)
    print("done", artifact.path, flush=True)
""")


class Child:
    """`compile_module_text` in a subprocess of its own session, told when to start and
    optionally stopped forever at one of its announcements (`kill_at`)."""

    def __init__(self, tmp_path: Path, go: Path, kill_at: str = "") -> None:
        source = tmp_path / "module.mlir"
        source.write_text(ACCUMULATOR)
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(
            [str(ROOT), os.environ.get("PYTHONPATH", "")])}
        self.process = subprocess.Popen(
            [sys.executable, "-c", CHILD, str(source), str(go), kill_at], env=env,
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
        self.said: list[str] = []

    def wait_for(self, line: str) -> None:
        assert self.process.stdout is not None
        while line not in self.said:
            got = self.process.stdout.readline()
            assert got, f"the child ended before '{line}': {self.process.stderr.read()}"
            self.said.append(got.strip())

    def kill(self) -> None:
        """SIGKILL the child and everything it started (iree-compile too)."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(TIMEOUT)

    def finish(self) -> list[str]:
        out, err = self.process.communicate(timeout=TIMEOUT)
        assert self.process.returncode == 0, err
        return self.said + out.splitlines()


@pytest.fixture
def children() -> Iterator[list[Child]]:
    started: list[Child] = []
    yield started
    for child in started:
        if child.process.poll() is None:
            child.kill()


def test_two_processes_compiling_at_once(cache: Path, tmp_path: Path,
                                         children: list[Child]) -> None:
    """Both get the artifact; one compiles it, the other waits for it and loads it."""
    go = tmp_path / "go"
    children += [Child(tmp_path, go), Child(tmp_path, go)]
    for child in children:
        child.wait_for("ready")
    go.touch()
    said = [child.finish() for child in children]
    compiled = [s for s in said if "compiling: iree-compile" in s]
    waited = [s for s in said if "waiting: another process compiles this module" in s]
    assert len(compiled) == 1, said
    paths = {line for s in said for line in s if line.startswith("done ")}
    assert len(paths) == 1, said
    artifact, again = compile_logged()
    assert again == [] and f"done {artifact.path}" in paths
    assert_intact(artifact)
    assert leftovers(cache) == []
    # which one waited depends on timing: the second may also start after the first is done
    assert len(waited) <= 1


@pytest.mark.parametrize("kill_at", [
    "compiling",  # iree-compile running (killed with it)
    "compiled half",  # the temporary artifact half written
    "renamed the artifact",  # the artifact in place, its digest not written yet
    "renaming the digest",  # the digest in its temporary file
])
def test_a_compile_killed_midway_leaves_a_usable_cache(cache: Path, tmp_path: Path,
                                                       children: list[Child],
                                                       kill_at: str) -> None:
    go = tmp_path / "go"
    go.touch()
    children.append(Child(tmp_path, go, kill_at))
    children[0].wait_for(kill_at)
    if kill_at == "compiling":
        time.sleep(0.3)  # iree-compile under way
    children[0].kill()
    artifacts = sorted(p.name for p in cache.glob("*.vmfb"))
    assert len(artifacts) == (0 if kill_at in ("compiling", "compiled half") else 1)
    assert not list(cache.glob("*.sha256"))  # never a digest without its artifact
    artifact, said = compile_logged()
    assert said == ["compiling: iree-compile"]  # no digest: compiled again, never loaded
    assert_intact(artifact)
    assert leftovers(cache) == []


def test_compile_module_text_reports_iree_compile_errors(cache: Path) -> None:
    with pytest.raises(iree_compile.IreeCompileError, match=r"(?s)^error: iree-compile failed "
                       r"on the module:\n.*error:"):
        compile_module_text(ACCUMULATOR.replace("tosa.add", "tosa.no_such_op"))
    assert list(cache.glob("*.vmfb")) == [] and leftovers(cache) == []
