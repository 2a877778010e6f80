"""Shared pytest configuration: the `peers` marker and fixtures that locate the peer tools."""

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


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line(
        "markers",
        "peers: drives real peer tools (tosa-opt, iree-opt, the TOSA reference model, OpenVINO) "
        "as oracles",
    )


def _require_tools(*names: str) -> None:
    """Skip when a console script is genuinely absent (next to the interpreter or on PATH)."""
    here = Path(sys.executable).parent
    missing = [n for n in names if not (here / n).is_file() and shutil.which(n) is None]
    if missing:
        pytest.skip(f"peer tool not installed: {', '.join(missing)} ({INSTALL_HINT})")


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
    pytest.importorskip("optimum.intel", reason=f"optimum-intel exports the models ({INSTALL_HINT})")
    import importlib.metadata
    import re

    import llm_models

    versions = "-".join(importlib.metadata.version(name) for name in
                        ("torch", "transformers", "optimum", "optimum-intel", "openvino"))
    root = request.config.cache.mkdir("llm_exports") / re.sub(r"[^A-Za-z0-9.]+", "_", versions)
    return llm_models.export(llm_models.FAMILIES, root)


@pytest.fixture
def openvino_runtime() -> None:
    if importlib.util.find_spec("openvino") is None:
        pytest.skip(f"peer package not installed: openvino ({INSTALL_HINT})")


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """The largest differences from OpenVINO the differential tests saw, per model."""
    from peers.openvino_runtime import MAX_ERRORS

    if MAX_ERRORS:
        terminalreporter.section("largest |tosa-state - OpenVINO| per model")
        for key, value in sorted(MAX_ERRORS.items()):
            terminalreporter.write_line(f"{key}: {value:.3g}")
