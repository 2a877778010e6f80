"""Shared pytest configuration: the `peers` marker, fixtures that locate the peer tools, and
no skips: a test that skips (a missing peer, a `pytest.skip`) fails the suite, unless it is
in `ALLOWED_SKIPS` with the reason it may skip. Every xfail is strict: a test marked xfail
that passes fails the suite, whatever its `strict=` says."""

from __future__ import annotations

import importlib.util
import shutil
import sys
from pathlib import Path

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


@pytest.fixture(scope="session")
def llm_exports(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The tiny decoder LLMs of `benchmarks/llm_models.py`, exported by optimum-intel once and
    kept in pytest's cache dir (one folder per set of exporter versions)."""
    import llm_models

    return llm_models.export(llm_models.FAMILIES, _exports_root(request))


@pytest.fixture(scope="session")
def gqa3_llama_export(request: pytest.FixtureRequest) -> Path:
    """A one-layer Llama of 9 query heads in 3 groups (`llm_models.SIZES["gqa3"]`), exported
    and kept like `llm_exports`."""
    import llm_models

    return llm_models.export(["llama"], _exports_root(request), size="gqa3")["llama"]


def _exports_root(request: pytest.FixtureRequest, *packages: str) -> Path:
    """The folder of exports in pytest's cache dir for this set of exporter versions
    (`packages`: those besides torch, transformers, optimum, optimum-intel and openvino)."""
    import importlib.metadata
    import re

    import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)

    versions = "-".join(importlib.metadata.version(name) for name in (
        "torch", "transformers", "optimum", "optimum-intel", "openvino", *packages))
    return request.config.cache.mkdir("llm_exports") / re.sub(r"[^A-Za-z0-9.]+", "_", versions)


@pytest.fixture(scope="session")
def compressed_llm_exports(request: pytest.FixtureRequest) -> dict[str, Path]:
    """The tiny Llama exported by optimum-intel with int8 and int4 weights (`llama-int8`,
    `llama-int4`: `llm_models.COMPRESSIONS`), kept in pytest's cache dir like `llm_exports`."""
    import llm_models

    return llm_models.export([f"llama-{c}" for c in llm_models.COMPRESSIONS],
                             _exports_root(request, "nncf"))


@pytest.fixture
def openvino_runtime() -> None:
    if importlib.util.find_spec("openvino") is None:
        pytest.fail(f"peer package not installed: openvino ({INSTALL_HINT})")


def pytest_collection_finish(session: pytest.Session) -> None:
    """The lit suite starts in the background as soon as it is known to run
    (`tests/test_lit.py`)."""
    lit = [item for item in session.items if item.nodeid.endswith("test_lit.py::test_lit_suite")]
    if lit:
        from test_lit import start_lit_suite

        # one worker beside the other tests (which run one at a time); every core alone
        start_lit_suite(workers=1 if len(session.items) > 1 else 0)


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The largest differences from OpenVINO the differential tests saw, per model."""
    from peers.openvino_runtime import MAX_ERRORS

    if MAX_ERRORS:
        terminalreporter.section("largest |tosa-state - OpenVINO| per model")
        for key, value in sorted(MAX_ERRORS.items()):
            terminalreporter.write_line(f"{key}: {value:.3g}")
