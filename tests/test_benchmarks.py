"""The benchmarks run as their docstrings say: each names the install it needs (an extra of
pyproject.toml, or the base install), everything it imports comes with that install (or is an
optional device it skips with a line saying so), and the check they all run before timing
(`benchmarks/agreement.py`) fails when the runtimes disagree."""

from __future__ import annotations

import ast
import functools
import importlib.metadata
import re
import subprocess
import sys
import tomllib
from pathlib import Path

import numpy as np
import pytest
from agreement import Disagreement, check_agreement, optional_device
from packaging.markers import default_environment
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

ROOT = Path(__file__).resolve().parent.parent
BENCHMARKS = sorted((ROOT / "benchmarks").glob("*.py"))
PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
EXTRA = re.compile(r"pip install -e '\.\[([\w-]+)\]'")
BASE = "pip install -e .`"


@functools.cache
def _providers() -> dict[str, list[str]]:
    return importlib.metadata.packages_distributions()


def _named_extras(path: Path) -> list[str] | None:
    """The extras the module docstring says to install ([] for the base install); None when
    it names none."""
    doc = ast.get_docstring(ast.parse(path.read_text())) or ""
    extras = EXTRA.findall(doc)
    return extras or ([] if BASE in doc else None)


def _closure(requirements: list[str]) -> set[str]:
    """The distributions `requirements` install, with theirs (as installed here)."""
    seen: set[tuple[str, str]] = set()
    todo = [(Requirement(r), "") for r in requirements]
    while todo:
        req, extra = todo.pop()
        name = canonicalize_name(req.name)
        if (name, extra) in seen or (req.marker and not req.marker.evaluate(
                {**default_environment(), "extra": extra})):
            continue
        seen.add((name, extra))
        if name == "tosa-state":  # the dev extra's tosa-state[test]
            todo += [(Requirement(r), "") for e in req.extras
                     for r in PROJECT["optional-dependencies"][e]]
            continue
        try:
            theirs = [Requirement(r) for r in importlib.metadata.requires(req.name) or []]
        except importlib.metadata.PackageNotFoundError:
            continue
        todo += [(r, e) for r in theirs for e in ("", *req.extras)]
    return {name for name, _ in seen}


def _optional_modules(tree: ast.Module) -> set[str]:
    """The top-level packages a benchmark declares optional (`optional_device(_, module, _)`)."""
    return {node.args[1].value.split(".")[0] for node in ast.walk(tree)
            if isinstance(node, ast.Call) and getattr(node.func, "id", "") == "optional_device"
            and isinstance(node.args[1], ast.Constant)}


def _imports(path: Path, seen: set[Path]) -> set[str]:
    """The top-level packages `path` imports, with those of the sibling modules (benchmarks/,
    tests/) it imports; less the optional ones it declares."""
    seen.add(path)
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    names -= _optional_modules(tree)
    found: set[str] = set()
    for name in names:
        siblings = [file for d in (ROOT / "benchmarks", ROOT / "tests")
                    for file in [d / f"{name}.py", *sorted((d / name).glob("*.py"))]
                    if file.is_file()]
        if not siblings:
            found.add(name)
        for sibling in siblings:
            if sibling not in seen:
                found |= _imports(sibling, seen)
    return found


@pytest.mark.parametrize("path", BENCHMARKS, ids=lambda p: p.name)
def test_a_benchmark_runs_with_the_install_its_docstring_names(path: Path) -> None:
    extras = _named_extras(path)
    assert extras is not None, (f"{path.name}: the docstring names no install (`pip install -e "
                                ".` or `pip install -e '.[extra]'`)")
    unknown = [e for e in extras if e not in PROJECT["optional-dependencies"]]
    assert not unknown, f"{path.name}: extra {unknown} is not in pyproject.toml"
    allowed = _closure([*PROJECT["dependencies"],
                        *(r for e in extras for r in PROJECT["optional-dependencies"][e])])
    providers = _providers()
    missing = {}
    for name in _imports(path, set()):
        if name in sys.stdlib_module_names or name in ("tosa_state", "__future__"):
            continue
        dists = {canonicalize_name(d) for d in providers.get(name, [])}
        if not dists & allowed:
            missing[name] = sorted(dists) or "not installed"
    assert not missing, (f"{path.name} imports what {extras or 'the base install'} does not "
                         f"install: {missing}")


def test_the_install_check_sees_a_missing_extra() -> None:
    """The check above is no formality: streaming_vad's `bench` extra lacks IREE, the base
    install lacks OpenVINO, and a benchmark importing them unguarded would fail it."""
    allowed = _closure([*PROJECT["dependencies"], *PROJECT["optional-dependencies"]["bench"]])
    assert "openvino" in allowed and "onnxruntime" in allowed and "numpy" in allowed
    assert not allowed & {"iree-base-runtime", "iree-base-compiler", "ai-edge-litert"}
    assert "openvino" not in _closure(PROJECT["dependencies"])
    lstm = ast.parse((ROOT / "benchmarks" / "lstm_cell.py").read_text())
    assert _optional_modules(lstm) == {"openvino", "iree"}


def test_agreeing_runtimes_pass_and_give_the_largest_error() -> None:
    ref = np.array([1.0, -2.0, 4.0], np.float32)
    outputs = {"ref": ref, "a": ref + np.float32(1e-6), "b": ref.copy()}
    assert check_agreement("x", outputs, "ref", 2e-6) == pytest.approx(1e-6, rel=0.5)
    assert check_agreement("x", {"ref": ref, "b": ref.copy()}, "ref", 0.0) == 0.0
    assert check_agreement("x", {"ref": ref, "a": ref * np.float32(1.25)}, "ref", 0.25,
                           relative=True) == pytest.approx(0.25)


@pytest.mark.parametrize(("outputs", "kwargs", "message"), [
    ({"ref": np.ones(3), "iree": np.array([1, 1, 1.01])}, {"atol": 1e-3},
     r"^logits: iree differs from ref by 0\.01 \(tolerance 0\.001\): not timed$"),
    ({"ref": np.full(3, 100.0), "ov": np.array([100, 100, 101.0])},
     {"atol": 1e-3, "relative": True},
     r"^logits: ov differs from ref by 0\.01 relative to its largest value \(tolerance"),
    ({"ref": np.ones(3), "ours": np.array([1, np.nan, 1])}, {"atol": 1.0},
     r"^logits: ours differs from ref by nan"),
    ({"ref": np.zeros(3, np.int8), "ours": np.array([0, 0, 1], np.int8)}, {"atol": 0.0},
     r"^logits: ours differs from ref by 1 \(tolerance 0\)"),
    ({"ref": np.ones(3), "ours": np.ones(4)}, {"atol": 1.0},
     r"^logits: ours gives shape \(4,\), ref \(3,\)$"),
])
def test_disagreeing_runtimes_fail(outputs: dict, kwargs: dict, message: str) -> None:
    with pytest.raises(Disagreement, match=message):
        check_agreement("logits", outputs, "ref", **kwargs)


def test_a_missing_device_is_skipped_with_a_line(capsys: pytest.CaptureFixture[str]) -> None:
    assert optional_device("numpy", "numpy", "test")
    assert capsys.readouterr().out == ""
    assert not optional_device("npu", "no_such_runtime_module", "npu")
    assert capsys.readouterr().out == (
        "skipped: device npu (no_such_runtime_module is not installed: "
        "pip install -e '.[npu]')\n")


def test_streaming_vad_runs_with_its_extra_alone() -> None:
    """benchmarks/streaming_vad.py with IREE absent (the `bench` extra has none): device iree
    is skipped with a line, the other runtimes are checked and timed."""
    code = ("import sys; sys.modules['iree'] = sys.modules['iree.runtime'] = None; "
            "sys.path.insert(0, 'benchmarks'); import streaming_vad; "
            "sys.argv = ['streaming_vad.py', '--chunks', '4', '--repeats', '1']; "
            "sys.exit(streaming_vad.main())")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr[-3000:]
    lines = result.stdout.splitlines()
    assert lines[0] == ("skipped: device iree (iree.runtime is not installed: "
                        "pip install -e '.[iree]')")
    rows = {line.split()[0] for line in lines[3:]}
    assert rows == {"tosa-state", "onnxruntime", "openvino"}, result.stdout


def test_the_transaction_cost_is_within_the_noise_only_inside_the_a_a_band(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """`llm_decode.py --ab`'s verdict: the median A/B difference over the rounds against the
    largest A/A difference (the same configuration in both arms), and a one-sided rank-sum
    test of the A/B rounds against the A/A rounds."""
    import os

    # importing the benchmark sets OPENBLAS_NUM_THREADS if unset: undone after the test
    monkeypatch.setenv("OPENBLAS_NUM_THREADS", os.environ.get("OPENBLAS_NUM_THREADS", "1"))
    from llm_decode import rank_p, within_noise

    assert within_noise([1.0, 2.0, 3.0], [-2.5, 0.1, 1.0])
    assert not within_noise([2.0, 3.0, 4.0], [-2.5, 0.1, 1.0])
    assert within_noise([-2.0, -1.0, 5.0], [2.0, 0.0, 0.0])
    assert not within_noise([-3.0, -2.5, 1.0], [2.0, 0.0, -1.0])
    # the rank-sum test: six rounds each, all A/B above all A/A is p = 1/924; interleaved
    # rounds are not; one wild A/A round does not hide a consistent cost
    assert rank_p([2, 3, 4, 5, 6, 7], [-1, 0, 0.5, 1, 1.5, 1.9]) == pytest.approx(1 / 924)
    assert rank_p([1, 3, 5, 7, 9, 11], [2, 4, 6, 8, 10, 12]) > 0.5
    assert rank_p([-2, -3, -4, -5, -6, -7], [-1, 0, 0.5, 1, 1.5, 1.9]) == 1.0  # no cost
    consistent, wild = [1.0, 1.3, 2.1, 1.1, 2.5, 2.4], [0.7, -0.3, -0.6, 0.3, 0.0, 9.0]
    assert within_noise(consistent, wild) and rank_p(consistent, wild) < 0.05
