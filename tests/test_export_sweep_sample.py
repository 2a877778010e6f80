"""A sample of the export sweep (`benchmarks/export_sweep.py`, docs/openvino.md "Export sweep")
in CI: architectures whose committed sweep results match OpenVINO, exported at test time from
tiny random configs under the pinned transformers (the test extra's) and under the newest
transformers optimum-intel exports with (`NEWEST`, installed by the test into pytest's cache
dir), each compared call by call with OpenVINO as the sweep does. An architecture that no longer
exports, converts or matches fails its test.

The sample is `CORE` (one architecture per family we claim; llama, qwen2 and gpt2 are covered
under both versions by tests/test_llm_generation.py and tests/test_llm_newest_exports.py) plus
`ROTATING` more per version drawn from the committed matches by the checked-out commit, so that
successive commits cover the rest. `-k` selects architectures: only the selected are exported.
"""

from __future__ import annotations

import datetime
import importlib.metadata
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import background
import export_sweep as sweep  # benchmarks/, put on sys.path by conftest
import pytest
from packaging.requirements import Requirement

pytestmark = pytest.mark.peers

ROOT = Path(__file__).resolve().parent.parent
PINNED = importlib.metadata.version("transformers")
# The newest transformers optimum-intel 2.2.0 (the newest optimum-intel) exports with: it
# requires transformers < 5.6, and under 5.24.0 (the newest release, 2026-11-27) every export
# fails importing `VisionRotaryEmbedding` from transformers' qwen2_vl.
NEWEST = "5.5.4"

CORE: dict[str, dict[str, str]] = {  # version -> family -> architecture
    # each family once, under the version that exports it (CI's 20 minutes: an export costs
    # 10-50 s of CPU, whisper's the most)
    PINNED: {
        "gemma (exports under transformers <= 5.0 only)": "gemma2",
        "mixture of experts": "qwen3_moe",
        "state space (conv + SSM states; exports under transformers <= 5.3 only)": "mamba",
        "ALiBi (bloom)": "bloom",
    },
    NEWEST: {
        "partial rotary (phi)": "phi",
        "sliding window (mistral)": "mistral",
        "mixture of experts": "mixtral",
        "state-space hybrid (Loop-5 scan; exports under transformers >= 5.5 only)":
            "granitemoehybrid",
        "whisper's stateful decoder": "whisper",
    },
}
ROTATING = 1  # more architectures per version, chosen by the commit
TIMEOUT = 600.0  # seconds per architecture (export and comparison), the sweep's default


def _seed() -> str:
    """The checked-out commit (today's date outside a git checkout)."""
    done = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "HEAD"], capture_output=True,
                          text=True)
    return done.stdout.strip() if done.returncode == 0 else datetime.date.today().isoformat()


SEED = _seed()
SAMPLE = {version: sweep.sample(core.values(), sweep.matching(version), ROTATING, SEED)
          for version, core in CORE.items()}
CASES = [pytest.param(version, arch, id=f"{version}-{arch}")
         for version, archs in SAMPLE.items() for arch in archs]


def _chosen(items: Iterable[pytest.Item]) -> dict[str, list[str]]:
    """version -> the architectures of the cases among `items` (the session's: `-k`
    selects)."""
    chosen: dict[str, list[str]] = {}
    for item in items:
        params = getattr(item, "callspec", None)
        if "sweeps" in getattr(item, "fixturenames", ()) and params is not None \
                and "arch" in params.params:
            chosen.setdefault(params.params["version"], []).append(params.params["arch"])
    return chosen


_RESULTS: dict[str, Path] = {}  # job name -> the results JSON its sweep writes


def _job(version: str, archs: list[str], root: Path, lane: str) -> background.Job:
    """The sweep of `archs` under transformers `version` (installed under `root` once,
    exports cached there per set of exporter versions): a worker per core (niced in the
    background, they take what the other tests leave idle), `TIMEOUT` each."""
    name = f"export sweep under transformers {version}: {','.join(archs)}"
    results = _RESULTS.setdefault(name, Path(tempfile.mkdtemp(prefix="export_sweep-"))
                                  / "results.json")
    layered = [] if version == PINNED else ["--transformers", version]
    return background.Job(name, [
        sys.executable, sweep.__file__, *layered, "--only", ",".join(archs), "--cache", str(root),
        "--jobs", str(min(len(archs), os.cpu_count() or 1)), "--timeout", str(TIMEOUT),
        "-o", str(results)], lane=lane)


def sweep_jobs(session: pytest.Session, lane: str) -> list[background.Job]:
    """The sweeps the session's cases need, one job a version, for conftest to start in the
    background (none under `-p no:cacheprovider`: the fixture runs them)."""
    cache = getattr(session.config, "cache", None)
    if cache is None:
        return []
    root = cache.mkdir("export_sweep")
    return [_job(version, archs, root, lane)
            for version, archs in _chosen(session.items).items()]


def _results(job: background.Job, version: str) -> dict[str, dict[str, Any]]:
    """architecture -> the sweep's result, from the finished `job`."""
    print(job.output, file=sys.stderr)  # the sweep's progress, shown with a failure
    if job.returncode != 0:
        raise RuntimeError(f"the export sweep under transformers {version} failed (exit "
                           f"{job.returncode}):\n{job.output[-4000:]}")
    results = _RESULTS[job.name]
    run = json.loads(results.read_text())
    shutil.rmtree(results.parent)
    assert run["versions"]["transformers"] == version, run["versions"]
    return {result["arch"]: result for result in run["results"]}


@pytest.fixture(scope="module")
def sweeps(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory
           ) -> dict[str, dict[str, dict[str, Any]]]:
    """version -> architecture -> the sweep's result, for the selected cases: the jobs
    conftest started in the background when the session began (`sweep_jobs`), or, when it
    did not, run now side by side. The installed transformers stay in pytest's cache
    between runs (a fresh directory under `-p no:cacheprovider`)."""
    chosen = _chosen(request.session.items)
    cache = getattr(request.config, "cache", None)
    root = (cache.mkdir("export_sweep") if cache is not None
            else tmp_path_factory.mktemp("export_sweep"))
    jobs = {version: _job(version, archs, root, lane=f"export sweep {version}")
            for version, archs in chosen.items()}
    background.SESSION.start(jobs.values())  # those not started yet, each version in a lane
    return {version: _results(background.SESSION.wait(job), version)
            for version, job in jobs.items()}


@pytest.mark.parametrize(("version", "arch"), CASES)
def test_sampled_architecture_matches_openvino(
        sweeps: dict[str, dict[str, dict[str, Any]]], version: str, arch: str) -> None:
    result = sweeps[version][arch]
    layered = "" if version == PINNED else f" --transformers {version}"
    assert sweep.status(result) == "matches", (
        f"{arch} under transformers {version} matched OpenVINO in the committed sweep, now: "
        f"{sweep.status(result)}: {sweep.reason(result)} (rerun: python "
        f"benchmarks/export_sweep.py{layered} --only {arch})")
    assert result["calls"] == 20  # the sweep's whole generation (llm_models.run_generation)


def test_sample_covers_the_claimed_families() -> None:
    """Every core architecture is one the committed results claim; the rotation adds others."""
    for version, core in CORE.items():
        claimed = sweep.matching(version)
        assert set(core.values()) <= set(claimed), (version, set(core.values()) - set(claimed))
        assert len(SAMPLE[version]) == len(core) + min(ROTATING, len(claimed) - len(core))
        assert set(SAMPLE[version]) <= set(claimed)
    assert sweep.sample(["a"], "abcdefg", 2, "x") == sweep.sample(["a"], "gfedcba", 2, "x")
    assert len({tuple(sweep.sample([], "abcdefgh", 3, str(s))) for s in range(8)}) > 1


def test_newest_is_the_newest_optimum_intel_exports_with() -> None:
    """The optimum-intel of the test extra accepts `NEWEST` (its own requirement) and nothing
    from 5.6 on (5.5.4 is the last 5.5 release): a newer optimum-intel fails this test."""
    needed = [Requirement(text) for text in importlib.metadata.requires("optimum-intel") or []]
    pin = next(r for r in needed if r.name == "transformers" and not r.marker)
    assert pin.specifier.contains(NEWEST), (str(pin), NEWEST)
    assert not pin.specifier.contains("5.6.0"), (
        f"optimum-intel now requires {pin}: raise NEWEST to the newest transformers it accepts "
        "(pip index versions transformers) and commit a sweep under it")


def test_readme_figures_are_the_committed_results() -> None:
    """README's "all N that export under the pinned transformers V and all M under the newest W"
    counts the committed results."""
    text = " ".join((ROOT / "README.md").read_text().split())
    found = re.search(r"all (\d+) that export under the pinned transformers (\S+) and all (\d+) "
                      r"under the newest (\S+?) ", text)
    assert found, "README no longer states the sweep's figures"
    for count, version in ((found.group(1), found.group(2)), (found.group(3), found.group(4))):
        results = json.loads((sweep.RESULTS / f"export_sweep_transformers-{version}.json")
                             .read_text())["results"]
        exported = [r for r in results if r.get("exported")]
        assert int(count) == len(exported) == len(sweep.matching(version)), version
    assert (found.group(2), found.group(4)) == (PINNED, NEWEST)


def test_refusals_of_the_sample_tools(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No results for a version; a transformers pip cannot install (the sweep's CLI: exit 1, a
    message, no traceback, nothing left behind)."""
    with pytest.raises(FileNotFoundError, match=r"no committed sweep results for transformers "
                                                r"0\.0\.0 \(export_sweep_transformers-0\.0\.0"):
        sweep.matching("0.0.0")
    assert sweep.main(["--transformers", "0.0.0", "--cache", str(tmp_path)]) == 1
    error = capsys.readouterr().err
    assert error.startswith("error: pip could not install transformers==0.0.0 into "), error
    assert "No matching distribution" in error and "Traceback" not in error
    assert list((tmp_path / "site").iterdir()) == []
