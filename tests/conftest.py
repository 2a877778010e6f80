"""Shared pytest configuration: the `peers` marker, fixtures that locate the peer tools, and
no skips: a test that skips (a missing peer, a `pytest.skip`) fails the suite, unless it is
in `ALLOWED_SKIPS` with the reason it may skip. Every xfail is strict: a test marked xfail
that passes fails the suite, whatever its `strict=` says."""

from __future__ import annotations

import importlib.util
import os
import shutil
import sys
from collections.abc import Sequence
from pathlib import Path

import background
import pytest

# `benchmarks/` holds the LSTM model builders shared by the benchmark and the tests. It is
# not importable as a package: xDSL installs a top-level `benchmarks` package of its own.
sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))

INSTALL_HINT = "install the 'test' extra: pip install -e '.[test]'"

ALLOWED_SKIPS: dict[str, str] = {}
"""Test node ids (or their prefixes) that may skip, each with why. Empty: every peer is a
hard requirement of the test extra, and a skip would hide a test that no longer runs."""


def _skip_allowed(nodeid: str) -> bool:
    return any(nodeid.startswith(prefix) for prefix in ALLOWED_SKIPS)


def _as_failure(report: pytest.TestReport | pytest.CollectReport) -> None:
    """A skipped report turned into a failure saying why."""
    reason = report.longrepr[-1] if isinstance(report.longrepr, tuple) else report.longrepr
    report.outcome = "failed"
    report.longrepr = (f"{report.nodeid} skipped ({reason}); skips fail the suite "
                       "(tests/conftest.py ALLOWED_SKIPS lists the allowed ones)")


def _xpass_as_failure(report: pytest.TestReport) -> None:
    """A non-strict xfail that passed (XPASS) turned into a failure, as a strict one is."""
    report.outcome = "failed"
    report.longrepr = (f"{report.nodeid} passed although marked xfail ({report.wasxfail}); "
                       "every xfail is strict (tests/conftest.py): remove the mark")
    del report.wasxfail


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item: pytest.Item, call: pytest.CallInfo[None]):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not hasattr(report, "wasxfail") and not _skip_allowed(item.nodeid):
        _as_failure(report)
    elif report.passed and hasattr(report, "wasxfail"):
        _xpass_as_failure(report)


@pytest.hookimpl(hookwrapper=True)
def pytest_make_collect_report(collector: pytest.Collector):
    outcome = yield
    report = outcome.get_result()
    if report.skipped and not _skip_allowed(report.nodeid):
        _as_failure(report)


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "peers: drives real peer tools (tosa-opt, iree-opt, the TOSA reference model, OpenVINO) "
        "as oracles",
    )


def _require_tools(*names: str) -> None:
    """Fail when a console script is absent (next to the interpreter or on PATH)."""
    here = Path(sys.executable).parent
    missing = [n for n in names if not (here / n).is_file() and shutil.which(n) is None]
    if missing:
        pytest.fail(f"peer tool not installed: {', '.join(missing)} ({INSTALL_HINT})")


@pytest.fixture
def upstream_mlir_tools() -> None:
    _require_tools("tosa-opt", "iree-opt")


@pytest.fixture
def tosa_reference_tools() -> None:
    _require_tools("tosa-opt", "tosa_reference_model")


EXPORTS = "exports"
"""The background lane of the exports (`background`): one torch process at a time."""


def _export_job(name: str, families: Sequence[str], root: Path, size: str = "tiny"
                ) -> background.Job | None:
    """The background job exporting those of `families` not exported yet (None: none)."""
    import llm_models

    command = llm_models.export_command(families, root, size)
    return background.Job(name, command, {**os.environ, **llm_models.EXPORT_ENV},
                          lane=EXPORTS) if command else None


def _exported(name: str, families: Sequence[str], root: Path, size: str = "tiny"
              ) -> dict[str, Path]:
    """`llm_models.export` through the background job `name` (started by
    `pytest_collection_finish`, or now)."""
    import llm_models

    def run(command: list[str], env: dict[str, str]) -> tuple[int, str]:
        job = background.SESSION.wait(background.Job(name, command, env, lane=EXPORTS))
        assert job.returncode is not None
        return job.returncode, job.output

    started = background.SESSION.started(name)
    if started is not None:
        started.done.wait()
    return llm_models.export(families, root, size, run)


def _llm_exports(config: pytest.Config) -> tuple[str, Sequence[str], Path, str]:
    import llm_models

    return "llm_exports", llm_models.FAMILIES, _exports_root(config), "tiny"


def _gqa3_llama_export(config: pytest.Config) -> tuple[str, Sequence[str], Path, str]:
    return "gqa3_llama_export", ["llama"], _exports_root(config), "gqa3"


def _compressed_llm_exports(config: pytest.Config) -> tuple[str, Sequence[str], Path, str]:
    import llm_models

    return ("compressed_llm_exports", [f"llama-{c}" for c in llm_models.COMPRESSIONS],
            _exports_root(config, "nncf"), "tiny")


EXPORT_FIXTURES = {"llm_exports": _llm_exports, "gqa3_llama_export": _gqa3_llama_export,
                   "compressed_llm_exports": _compressed_llm_exports}
"""The session fixtures of exports: their name, families, folder and size."""


@pytest.fixture(scope="session")
def llm_exports(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The tiny decoder LLMs of `benchmarks/llm_models.py`, exported by optimum-intel once and
    kept in pytest's cache dir (one folder per set of exporter versions)."""
    return _exported(*_llm_exports(request.config))


@pytest.fixture(scope="session")
def gqa3_llama_export(request: pytest.FixtureRequest) -> Path:
    """A one-layer Llama of 9 query heads in 3 groups (`llm_models.SIZES["gqa3"]`), exported
    and kept like `llm_exports`."""
    return _exported(*_gqa3_llama_export(request.config))["llama"]


def _has_exporter() -> bool:
    """Whether optimum-intel imports (a fixture that needs it fails otherwise)."""
    try:
        import optimum.intel  # noqa: F401
    except ImportError:
        return False
    return True


def _exports_root(config: pytest.Config, *packages: str) -> Path:
    """The folder of exports in pytest's cache dir for this set of exporter versions
    (`packages`: those besides torch, transformers, optimum, optimum-intel and openvino)."""
    import importlib.metadata
    import re

    import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)

    versions = "-".join(importlib.metadata.version(name) for name in (
        "torch", "transformers", "optimum", "optimum-intel", "openvino", *packages))
    return config.cache.mkdir("llm_exports") / re.sub(r"[^A-Za-z0-9.]+", "_", versions)


@pytest.fixture(scope="session")
def compressed_llm_exports(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The tiny Llama exported by optimum-intel with int8 and int4 weights (`llama-int8`,
    `llama-int4`: `llm_models.COMPRESSIONS`), kept in pytest's cache dir like `llm_exports`."""
    return _exported(*_compressed_llm_exports(request.config))


@pytest.fixture
def openvino_runtime() -> None:
    if importlib.util.find_spec("openvino") is None:
        pytest.fail(f"peer package not installed: openvino ({INSTALL_HINT})")


def _waits_longest(item: pytest.Item) -> bool:
    """Whether `item` waits for the longest background jobs: the lit suite, the export
    sweep's sample."""
    return item.nodeid.endswith("test_lit.py::test_lit_suite") or "sweeps" in item.fixturenames


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """The tests that wait for the longest background jobs run last, so that those jobs have
    the whole session beside the other tests."""
    items.sort(key=_waits_longest)  # stable: the order is kept within each part


def _background_jobs(session: pytest.Session) -> list[background.Job]:
    """The background jobs the selected tests need, in the order they first need them."""
    items = session.items
    jobs: dict[str, background.Job | None] = {}
    for item in items:
        if item.nodeid.endswith("test_lit.py::test_lit_suite") and "lit" not in jobs:
            from test_lit import lit_job

            # every core: niced, it takes what the tests (one at a time) leave idle
            jobs["lit"] = lit_job()
        for fixture, arguments in EXPORT_FIXTURES.items():
            if fixture in item.fixturenames and fixture not in jobs:
                jobs[fixture] = None
                if getattr(session.config, "cache", None) is not None and _has_exporter():
                    jobs[fixture] = _export_job(*arguments(session.config))
        if "sweeps" in item.fixturenames and "sweeps" not in jobs:
            from test_export_sweep_sample import sweep_jobs

            jobs["sweeps"] = None
            jobs.update((job.name, job) for job in sweep_jobs(session, lane=EXPORTS))
    return [job for job in jobs.values() if job is not None]


def pytest_collection_finish(session: pytest.Session) -> None:
    """The work the selected tests wait for starts in the background (`background`)."""
    if not session.config.option.collectonly:
        background.SESSION.start(_background_jobs(session))


def pytest_sessionfinish() -> None:
    """No background job outlives the session (Ctrl-C, `-x`, an error)."""
    background.SESSION.stop()


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The largest differences from OpenVINO the differential tests saw, per model."""
    from peers.openvino_runtime import MAX_ERRORS

    if MAX_ERRORS:
        terminalreporter.section("largest |tosa-state - OpenVINO| per model")
        for key, value in sorted(MAX_ERRORS.items()):
            terminalreporter.write_line(f"{key}: {value:.3g}")
