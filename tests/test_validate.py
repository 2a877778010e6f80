"""`tosa-state validate` / `tosa_state.validate`: a model in tosa-state against the OpenVINO
runtime, with real OpenVINO runs (agreeing, and mismatching on purpose)."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from test_error_paths import assert_clean_failure, cli

import tosa_state as ts
from tosa_state.progress import Progress
from tosa_state.tools import main as tosa_state_main
from tosa_state.validation.sequence import CallSequence, TosaState


@pytest.fixture(scope="module")
def rnn(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """h <- tanh(x W + h U), y = sigmoid(h), plus a counter c <- c + 1: transcendental
    functions, so tosa-state and OpenVINO differ by a few ulps."""
    rng = np.random.default_rng(0)
    x = ops.parameter([1, 4], np.float32, name="x")
    h = ops.read_value(ops.constant(np.zeros((1, 8), np.float32)), "h", np.float32, [1, 8])
    count = ops.read_value(ops.constant(np.array([2], np.int32)), "count", np.int32, [1])
    w = ops.constant(rng.standard_normal((4, 8)).astype(np.float32))
    u = ops.constant((rng.standard_normal((8, 8)) * 0.5).astype(np.float32))
    new_h = ops.tanh(ops.add(ops.matmul(x, w, False, False), ops.matmul(h, u, False, False)))
    new_count = ops.add(count, ops.constant(np.array([1], np.int32)))
    model = ov.Model([ops.result(ops.sigmoid(new_h), name="y"), ops.result(count, name="n")],
                     [ops.assign(new_h, "h"), ops.assign(new_count, "count")], [x], "rnn")
    path = tmp_path_factory.mktemp("rnn") / "rnn.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    return path


def test_validate_agrees_at_every_level(rnn: Path) -> None:
    report = ts.validate(rnn, steps=9, seed=3)
    assert report.ok
    assert (report.steps, report.reset_at, report.set_state_at) == (9, [6], [3])
    assert [level.level for level in report.levels] == ["tosa", "memref", "ml_program"]
    for level in report.levels:
        rows = {(row.kind, row.name): row for row in level.comparisons}
        assert set(rows) == {("output", "y"), ("output", "n"), ("variable", "h"),
                             ("variable", "count")}
        assert all(row.compared_steps == 9 and row.ok for row in rows.values())
        assert 0 < rows["output", "y"].max_abs < 1e-6  # a few ulps of rounding: 2.4e-7 measured
        assert rows["output", "n"].max_abs == 0 and rows["variable", "count"].dtype == "int32"


def test_the_sequence_resets_and_sets_state_on_both_sides() -> None:
    """The same calls, and the same set_state values, in the same order on every runtime."""

    class Recorder:
        def __init__(self) -> None:
            self.calls: list[tuple] = []

        def infer(self, inputs):
            self.calls.append(("infer", float(inputs[0][0])))
            return [inputs[0]]

        def reset_state(self) -> None:
            self.calls.append(("reset",))

        def set_state(self, name: str, value: np.ndarray) -> None:
            self.calls.append(("set", name, value.tolist()))

        def states(self) -> dict[str, np.ndarray]:
            return {}

    sequence = CallSequence([[np.array([float(k)])] for k in range(5)], {3}, {1, 4}, seed=0)
    variables = {"v": ((2,), np.dtype(np.float32))}
    first, second = Recorder(), Recorder()
    sequence.play(first, variables, Progress.off())
    sequence.play(second, variables, Progress.off())
    assert first.calls == second.calls
    kinds = [call[0] if call[0] != "infer" else f"infer{int(call[1])}" for call in first.calls]
    assert kinds == ["infer0", "set", "infer1", "infer2", "reset", "infer3", "set", "infer4"]
    assert first.calls[1][2] != first.calls[6][2]  # fresh random values each time


def test_set_state_really_happens_on_both_sides(rnn: Path,
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    """Leaving it out on tosa-state's side only is a mismatch from that step on."""
    monkeypatch.setattr(TosaState, "set_state", lambda self, name, value: None)
    report = ts.validate(rnn, steps=6, levels=["memref"], reset_at=[], set_state_at=[2])
    rows = {row.name: row for row in report.levels[0].comparisons}
    assert not report.ok
    assert rows["h"].mismatched_steps == [2, 3, 4, 5] and rows["count"].mismatched_steps
    assert rows["y"].mismatched_steps == [2, 3, 4, 5] and rows["n"].mismatched_steps


def test_cli_table_and_json_report(rnn: Path, tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    code, stdout, err = cli(tosa_state_main.main, "validate", str(rnn), "--steps", "6",
                            "--levels", "memref,ml_program", "-o", str(out))
    assert code == 0, err
    lines = stdout.splitlines()
    assert lines[1] == ("sequence: 6 step(s) of random inputs (seed 0), reset_state before "
                        "step 4, set_state before step 2")
    header = next(line for line in lines if "max abs err" in line)
    assert header.split() == ["name", "dtype", "shape", "max", "abs", "err", "at", "step",
                              "max", "rel", "err", "at", "step", "verdict"]
    assert any(line.split()[:4] == ["variable", "h", "float32", "[1,8]"]
               and line.endswith(" ok") for line in lines)
    assert lines[-1] == "PASSED: tosa-state agrees with OpenVINO"
    report = json.loads(out.read_text())
    assert report["ok"] is True and [lv["level"] for lv in report["levels"]] == [
        "memref", "ml_program"]
    assert {row["name"] for row in report["levels"][0]["comparisons"]} == {"y", "n", "h",
                                                                            "count"}


def test_a_mismatch_exits_1_and_says_where(rnn: Path, tmp_path: Path) -> None:
    """With no tolerance at all, OpenVINO's and numpy's tanh / sigmoid rounding differ."""
    out = tmp_path / "report.json"
    code, stdout, _ = cli(tosa_state_main.main, "validate", str(rnn), "--steps", "5",
                          "--levels", "tosa", "--atol", "0", "--rtol", "0", "-o", str(out))
    assert code == 1
    row = next(line for line in stdout.splitlines() if line.split()[:2] == ["output", "y"])
    assert "MISMATCH (" in row and "of 5 steps, first" in row
    assert next(line for line in stdout.splitlines()
                if line.split()[:2] == ["output", "n"]).endswith(" ok")  # integers agree
    assert stdout.splitlines()[-1] == "FAILED: tosa-state differs from OpenVINO at tosa"
    report = json.loads(out.read_text())
    assert report["ok"] is False and report["levels"][0]["ok"] is False
    y = next(r for r in report["levels"][0]["comparisons"] if r["name"] == "y")
    assert y["ok"] is False and y["mismatched_steps"] and y["max_abs"] > 0
    code, stdout, _ = cli(tosa_state_main.main, "validate", str(rnn), "--steps", "5",
                          "--levels", "tosa", "--atol", "0", "--rtol", "0", "--quiet")
    assert (code, stdout) == (1, "FAILED: tosa-state differs from OpenVINO at tosa\n")


def test_given_inputs_follow_the_run_tools_rules(rnn: Path, tmp_path: Path) -> None:
    inputs = tmp_path / "in.npz"
    np.savez(inputs, x=np.random.default_rng(5).standard_normal((4, 1, 4)))  # float64
    code, stdout, err = cli(tosa_state_main.main, "validate", str(rnn), "--inputs",
                            str(inputs), "--levels", "memref", "--reset-at", "",
                            "--set-state-at", "0,2")
    assert code == 0, err
    assert err == "note: input 'x' is float64; cast to the model's float32\n"
    assert stdout.splitlines()[1] == "sequence: 4 step(s), set_state before steps 0, 2"
    report = ts.validate(rnn, inputs={"x": np.ones((3, 1, 4), np.float32)}, levels=["tosa"])
    assert report.ok and report.steps == 3 and report.seed is None


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--levels", "llvm"], "error: unknown level(s) llvm; the levels are tosa, memref, "
                               "ml_program"),
        (["--steps", "0"], "error: validate needs at least one step, got 0"),
        (["--reset-at", "12"], "error: --reset-at 12: the sequence has 12 step(s), numbered "
                               "from 0"),
        (["--set-state-at", "a"], "error: --set-state-at expects step numbers like 3,7, got "
                                  "'a'"),
    ],
)
def test_bad_arguments(rnn: Path, args: list[str], message: str) -> None:
    code, _, err = cli(tosa_state_main.main, "validate", str(rnn), *args)
    assert_clean_failure(code, err, message)


def test_only_openvino_models_validate(tmp_path: Path) -> None:
    model = tmp_path / "m.mlir"
    model.write_text("func.func @main() {\n  return\n}\n")
    code, _, err = cli(tosa_state_main.main, "validate", str(model))
    assert_clean_failure(code, err, f"{model}: error: validate compares with the OpenVINO "
                         "runtime, so it needs an OpenVINO IR model (.xml, its .bin beside it)")


def test_a_model_openvino_cannot_run(tmp_path: Path) -> None:
    """A ReadValue-6 of dynamic rank: read by both, refused by OpenVINO's CPU plugin."""
    x = ops.parameter([2], np.float32, name="x")
    read = ops.read_value(x, "v", np.float32, ov.PartialShape.dynamic())
    model = ov.Model([ops.result(ops.add(read, x), name="y")],
                     [ops.assign(ops.add(read, x), "v")], [x], "m")
    path = tmp_path / "m.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    code, _, err = cli(tosa_state_main.main, "validate", str(path), "--levels", "tosa")
    assert_clean_failure(code, err, f"{path}: error: the OpenVINO runtime cannot run this "
                         "model: Unexpected: CPU plug-in doesn't support ReadValue operation "
                         "with dynamic rank")
    assert len(err.strip().splitlines()) == 1


def test_without_openvino_one_clear_line(rnn: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "openvino", None)  # `import openvino` now fails
    monkeypatch.delitem(sys.modules, "tosa_state.validation.openvino_session", raising=False)
    code, _, err = cli(tosa_state_main.main, "validate", str(rnn))
    assert_clean_failure(code, err, "error: validate needs the OpenVINO runtime: pip install "
                         "'tosa-state[validate]'")
    assert len(err.strip().splitlines()) == 1


def test_dynamic_inputs_need_their_shapes(tmp_path: Path) -> None:
    """A dynamic batch: random inputs need `--input-shape`, which both runtimes then use."""
    x = ops.parameter([-1, 3], np.float32, name="x")
    zeros = ops.broadcast(ops.constant(np.float32(0.0)), ops.shape_of(x))
    read = ops.read_value(zeros, "acc", np.float32, ov.PartialShape([-1, 3]))
    total = ops.add(read, ops.tanh(x))
    model = ov.Model([ops.result(total, name="sum")], [ops.assign(total, "acc")], [x], "dyn")
    path = tmp_path / "dyn.xml"
    ov.save_model(model, str(path), compress_to_fp16=False)
    code, _, err = cli(tosa_state_main.main, "validate", str(path))
    assert_clean_failure(code, err, "--input-shape")  # compiling, or drawing random inputs
    code, stdout, err = cli(tosa_state_main.main, "validate", str(path), "--input-shape",
                            "x=2x3", "--steps", "5")
    assert code == 0, err + stdout
    assert any(line.split()[:4] == ["variable", "acc", "float32", "[2,3]"]
               for line in stdout.splitlines())
    report = ts.validate(path, input_shapes={"arg0": [4, 3]}, steps=3, levels=["tosa"])
    assert report.ok and report.levels[0].comparisons[0].shape == [4, 3]


def test_openvino_failing_at_run_time_is_one_line(rnn: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from tosa_state.validation.openvino_session import OpenVINOSession

    calls = []

    def infer(self, inputs):
        calls.append(len(calls))
        if len(calls) == 3:
            raise RuntimeError("Exception from src/a.cpp:1:\nCheck 'x' failed at b.cpp:2:\n"
                               "[CPU] Add node: shapes mismatch\n\n")
        return [np.zeros((1, 8), np.float32), np.zeros(1, np.int32)]

    monkeypatch.setattr(OpenVINOSession, "infer", infer)
    code, _, err = cli(tosa_state_main.main, "validate", str(rnn))
    assert_clean_failure(code, err, f"{rnn}: error: the OpenVINO runtime cannot run this model "
                         "at step 2: [CPU] Add node: shapes mismatch")
    assert len(err.strip().splitlines()) == 1
