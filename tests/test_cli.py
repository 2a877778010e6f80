"""The command-line tools: mlir-opt conventions, and errors without tracebacks."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

BIN = Path(sys.executable).parent

ACCUMULATOR = """\
tosa.variable @acc = dense<0.0> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tosa.variable.read @acc : tensor<2xf32>
  tosa.variable.write @acc, %x : tensor<2xf32>
  return %a : tensor<2xf32>
}
"""


def tool(name: str, *args: str, stdin: str | None = None, cwd: Path | None = None):
    env = {k: v for k, v in os.environ.items() if k != "TOSA_STATE_DEBUG"}
    return subprocess.run(
        [str(BIN / name), *args], input=stdin, capture_output=True, text=True, cwd=cwd,
        env=env, check=False,
    )


def assert_clean_failure(result: subprocess.CompletedProcess[str], message: str) -> None:
    assert result.returncode == 1, result
    assert message in result.stderr, result.stderr
    assert "Traceback" not in result.stderr + result.stdout


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "acc.mlir"
    path.write_text(ACCUMULATOR)
    return path


def test_opt_reads_stdin_and_writes_output_file(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    result = tool("tosa-state-opt", "-", "-o", str(out), stdin=ACCUMULATOR)
    assert result.returncode == 0, result.stderr
    assert "tosa.variable.read @acc" in out.read_text()


def test_opt_parse_error_has_location_and_no_partial_output(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(ACCUMULATOR.replace("tensor<2xf32> {", "tensor<2xf32 {", 1))
    out = tmp_path / "out.mlir"
    result = tool("tosa-state-opt", str(bad), "-o", str(out))
    assert_clean_failure(result, f"{bad}:2:")
    assert ": error: " in result.stderr
    assert not out.exists()
    assert list(tmp_path.iterdir()) == [bad]


def test_opt_verifier_error_has_location(tmp_path: Path) -> None:
    bad = tmp_path / "bad.mlir"
    bad.write_text(ACCUMULATOR.replace("read @acc", "read @nope"))
    result = tool("tosa-state-opt", str(bad))
    assert_clean_failure(
        result, f"{bad}:3:3: error: 'tosa.variable.read' op 'nope' has not been declared"
    )
    assert result.stdout == ""


def test_opt_missing_file() -> None:
    assert_clean_failure(tool("tosa-state-opt", "/nonexistent.mlir"), "cannot read file")


def test_opt_unknown_pass(model: Path) -> None:
    assert_clean_failure(tool("tosa-state-opt", str(model), "-p", "nope"), "unknown pass 'nope'")


def test_opt_bad_pipeline_syntax(model: Path) -> None:
    result = tool("tosa-state-opt", str(model), "-p", "cse{")
    assert result.returncode == 1
    assert "Traceback" not in result.stderr


def test_opt_verify_diagnostics_checks_the_annotations(model: Path) -> None:
    bad = ACCUMULATOR.replace("read @acc", "read @nope")
    annotated = bad.replace(
        "read @nope : tensor<2xf32>", "read @nope : tensor<2xf32> // expected-error {{'nope'}}"
    )
    result = tool("tosa-state-opt", "-", "--split-input-file", "--verify-diagnostics",
                  stdin=ACCUMULATOR + "// -----\n" + annotated)
    assert result.returncode == 0, result.stderr
    assert result.stderr == ""
    assert "tosa.variable.read @acc" in result.stdout  # the good chunk is still printed
    # Unexpected: exit 1 and a report, as mlir-opt (xdsl-opt's verify mode would exit 0).
    result = tool("tosa-state-opt", "-", "--verify-diagnostics", stdin=bad)
    assert result.returncode == 1
    assert result.stderr.startswith(
        "<stdin>:3:3: error: unexpected error: 'tosa.variable.read' op 'nope' has not been"
    )


def test_opt_help_lists_the_options() -> None:
    result = tool("tosa-state-opt", "--help")
    for option in ("--split-input-file", "--verify-diagnostics", "--print-op-generic",
                   "--tosa-spelling", "-p", "-o"):
        assert option in result.stdout


def test_opt_help_lists_every_pass_with_a_summary() -> None:
    from tosa_state.transforms import get_all_passes

    listed = {line.split()[0]: line for line in tool("tosa-state-opt", "--help").stdout
              .split("passes (-p", 1)[1].splitlines()[1:]
              if line.strip() and not line.strip().startswith("--")}  # options follow passes
    assert set(listed) == set(get_all_passes())
    assert all(len(line.split()) > 2 for line in listed.values())  # a name and a summary
    # Whole sentences: the first of each docstring, not its first line.
    assert all(line.endswith(".") for line in listed.values()), [
        line for line in listed.values() if not line.endswith(".")]
    assert listed["export-state-control"].endswith(
        "`state_reset_all` (and `state_initialized.<v>` for computed inits) for every mutable "
        "`ml_program` global.")
    assert listed["make-stateful"].endswith(
        "argument/result pairs into `tosa.variable`s (as OpenVINO's MakeStateful).")


def test_run_multi_step_with_reset(model: Path, tmp_path: Path) -> None:
    xs = np.arange(10, dtype=np.float32).reshape(5, 2)
    np.savez(tmp_path / "in.npz", arg0=xs)
    out = tmp_path / "out.npz"
    result = tool("tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"),
                  "--reset-at", "3", "-o", str(out), "--pipeline", "")
    assert result.returncode == 0, result.stderr
    with np.load(out) as data:
        expected = np.stack([np.zeros(2), xs[0], xs[1], np.zeros(2), xs[3]]).astype(np.float32)
        np.testing.assert_array_equal(data["result0"], expected)
        np.testing.assert_array_equal(data["state/acc"], xs[4])


def test_run_steps_and_print(model: Path, tmp_path: Path) -> None:
    np.savez(tmp_path / "in.npz", arg0=np.ones((4, 2), np.float32))
    result = tool("tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"),
                  "--steps", "2", "--print", "--pipeline", "")
    assert result.returncode == 0, result.stderr
    assert "step 1:" in result.stdout and "step 2:" not in result.stdout
    assert "  acc float32[2] = [1. 1.]" in result.stdout


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({}, "no array for input 'x' (arg0) in the inputs; expected one of shape "
             "[steps, 2] and dtype float32; the inputs hold: no arrays"),
        ({"arg0": np.ones((3, 4), np.float32)}, "input 'arg0' has shape [3, 4]; expected "
         "[steps, 2] (a leading step axis, then the input's shape float32[2])"),
        ({"x": np.ones(2, np.float32)}, "input 'x' has shape [2], the shape of one call: the "
         "step axis is missing; expected [steps, 2] (x[None] for one step)"),
        ({"arg0": np.ones((3, 2), np.int32)}, "input 'arg0' has dtype int32; expected float32"),
        ({"arg0": np.ones((3, 2), np.float32), "extra": np.ones(3)}, "unknown input(s) extra"),
    ],
)
def test_run_bad_inputs(model: Path, tmp_path: Path, arrays, message: str) -> None:
    np.savez(tmp_path / "in.npz", **arrays)
    out = tmp_path / "out.npz"
    result = tool("tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"),
                  "-o", str(out), "--pipeline", "")
    assert_clean_failure(result, message)
    assert not out.exists()


def test_run_unreadable_inputs(model: Path, tmp_path: Path) -> None:
    (tmp_path / "in.npz").write_bytes(b"not a zip")
    result = tool("tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"))
    assert_clean_failure(result, "in.npz: error: not an .npz archive (not a zip file); --inputs "
                         "takes an .npz with one array per model input, keyed by input name or "
                         "arg<i>, each with a leading step axis: numpy.savez('in.npz', x=xs)")


def test_run_too_many_steps(model: Path, tmp_path: Path) -> None:
    np.savez(tmp_path / "in.npz", arg0=np.ones((2, 2), np.float32))
    result = tool("tosa-state-run", str(model), "--inputs", str(tmp_path / "in.npz"),
                  "--steps", "3")
    assert_clean_failure(result, "--steps 3 but the inputs hold 2 steps")


def test_run_uninitialised_read_names_variable_and_step(tmp_path: Path) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(ACCUMULATOR.replace(" = dense<0.0> : tensor<2xf32>", " : tensor<2xf32>"))
    np.savez(tmp_path / "in.npz", arg0=np.ones((2, 2), np.float32))
    result = tool("tosa-state-run", str(path), "--inputs", str(tmp_path / "in.npz"))
    assert_clean_failure(result, "variable 'acc' is read before it is ever written")
    assert "at step 0" in result.stderr


def test_xdsl_opt_plugin_adds_our_passes_and_openvino_dialect(tmp_path: Path) -> None:
    """The `xdsl.universe` entry point registers what does not clash with xDSL's own
    dialects (not our merged `tosa`), so plain `xdsl-opt` keeps working and gains ours."""
    path = tmp_path / "m.mlir"
    path.write_text(
        "func.func @f() {\n"
        '  %0 = "openvino.constant"() <{value = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>\n'
        "  return\n}\n"
    )
    result = tool("xdsl-opt", str(path), "-p", "tosa-hoist-variables")
    assert result.returncode == 0, result.stderr
    assert "openvino.constant dense<1.000000e+00> : tensor<2xf32>" in result.stdout
    for name in ("convert-tosa-variables-to-memref", "tosa-to-mlprogram"):
        assert tool("xdsl-opt", str(path), "-p", name).returncode == 0


DYNAMIC_BATCH = """\
func.func @main(%x: tensor<?x2xf32> {openvino.name = "x"}) -> tensor<?x2xf32> {
  %shape = openvino.shape_of %x : (tensor<?x2xf32>) -> tensor<2xi64>
  %zero = openvino.constant dense<0.0> : tensor<f32>
  %init = openvino.broadcast %zero, %shape : (tensor<f32>, tensor<2xi64>) -> tensor<?x2xf32>
  %acc = openvino.read_value "acc"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 2]>} : (tensor<?x2xf32>) -> tensor<?x2xf32>
  %sum = openvino.add %acc, %x : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
  openvino.assign "acc", %sum {version = 6 : i64} : tensor<?x2xf32>
  func.return %sum : tensor<?x2xf32>
}
"""


def test_run_input_shape_fixes_a_dynamic_batch(tmp_path: Path) -> None:
    """A dynamic batch runs as it is; `--input-shape` specialises it, and then refuses
    another batch."""
    model = tmp_path / "dynamic.mlir"
    model.write_text(DYNAMIC_BATCH)
    xs = np.arange(12, dtype=np.float32).reshape(2, 3, 2)
    np.savez(tmp_path / "in.npz", x=xs)
    out = tmp_path / "out.npz"
    args = [str(model), "--inputs", str(tmp_path / "in.npz"), "-o", str(out)]
    for extra in ([], ["--input-shape", "x=3x2"]):
        result = tool("tosa-state-run", *args, *extra)
        assert result.returncode == 0, result.stderr
        with np.load(out) as data:
            np.testing.assert_array_equal(data["result0"], np.cumsum(xs, axis=0))
            np.testing.assert_array_equal(data["state/acc"], xs.sum(axis=0))
        out.unlink()
    assert_clean_failure(tool("tosa-state-run", *args, "--input-shape", "x=4x2"),
                         "input 'x' has shape [2, 3, 2]; expected [steps, 4, 2]")
    assert not out.exists()
    assert_clean_failure(tool("tosa-state-run", *args, "--input-shape", "x=3x5"),
                         "input 'x' cannot take the shape 3x5: it is declared ?x2")
