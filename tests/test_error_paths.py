"""Bad input of every kind gives one clean diagnostic: `file:line:col: error: ...` (or the
OpenVINO layer), exit code 1, no traceback, no "internal error", no partial output file.

The tools run in-process here (through `run_tool`, exactly as their console scripts do), so
that the sweeps over truncated inputs stay fast; `test_cli.py` covers the real executables.
"""

from __future__ import annotations

import contextlib
import io
import re
import shutil
import signal
import sys
from collections.abc import Callable, Iterator
from pathlib import Path

import numpy as np
import pytest

import tosa_state as ts
from tosa_state.tools import opt, run
from tosa_state.tools.cli import DEBUG_ENV, run_tool

ROOT = Path(__file__).resolve().parent.parent
EXAMPLES = ROOT / "examples"

ACCUMULATOR = """\
tosa.variable @acc = dense<0.0> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tosa.variable.read @acc : tensor<2xf32>
  tosa.variable.write @acc, %x : tensor<2xf32>
  return %a : tensor<2xf32>
}
"""


@pytest.fixture(autouse=True)
def _no_debug(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(DEBUG_ENV, raising=False)


def cli(main: Callable[[list[str]], int], *args: str, stdin: str = "") -> tuple[int, str, str]:
    """Run a tool's `main` as its console script does: (exit code, stdout, stderr)."""
    out, err = io.StringIO(), io.StringIO()
    real_stdin, sys.stdin = sys.stdin, io.StringIO(stdin)
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            run_tool(lambda: main(list(args)))
    except SystemExit as exit_:
        code = exit_.code
    finally:
        sys.stdin = real_stdin
    assert isinstance(code, int)
    return code, out.getvalue(), err.getvalue()


def assert_clean_failure(code: int, stderr: str, message: str) -> None:
    assert code == 1, stderr
    assert message in stderr, stderr
    assert "Traceback" not in stderr
    assert "internal error" not in stderr, stderr


def opt_fails(text: str, message: str, *args: str) -> None:
    code, out, err = cli(opt.main, "-", *args, stdin=text)
    assert_clean_failure(code, err, message)
    assert out == ""


@contextlib.contextmanager
def time_limit(seconds: int) -> Iterator[None]:
    def expire(*_: object) -> None:
        raise TimeoutError(f"took more than {seconds} s")

    previous = signal.signal(signal.SIGALRM, expire)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


# -- truncated MLIR ------------------------------------------------------------------------

LOCATED_ERROR = re.compile(r"<stdin>:\d+:\d+: error: \S")


def _cut_points(text: str, count: int) -> list[int]:
    step = max(1, len(text) // count)
    return list(range(0, len(text), step))


@pytest.mark.parametrize(
    "path", [EXAMPLES / "lstm_cell.mlir", ROOT / "lit_tests" / "tosa" / "variables.mlir"],
    ids=lambda p: p.name,
)
def test_truncated_mlir_fails_cleanly_at_every_cut(path: Path) -> None:
    """Cut a valid module at many points: each prefix parses, or fails with one located
    error. (The LSTM's cuts fall inside its long `dense<"0x...">` literals too.)"""
    text = path.read_text()
    failures = []
    with time_limit(60):
        for cut in _cut_points(text, 120):
            code, _, err = cli(opt.main, "-", "--split-input-file", stdin=text[:cut])
            if code == 0:
                continue
            if code != 1 or not LOCATED_ERROR.match(err) or "internal error" in err:
                failures.append((cut, err))
    assert not failures, failures[:3]


def test_unterminated_long_string_fails_fast() -> None:
    """xDSL's string-literal regex backtracks exponentially on an unterminated string; ours
    does not (the cut LSTM took minutes, now milliseconds)."""
    text = 'func.func @f() {\n  %0 = "tosa.const"() <{values = dense<"0x' + "3E" * 4000
    with time_limit(10):
        opt_fails(text, "<stdin>:2:40: error: End of file reached before closing string literal")


# -- bad MLIR ---------------------------------------------------------------------------

FUNC = "func.func @f(%a: tensor<2xf32>, %b: tensor<2xi32>) -> tensor<2xf32> {{\n{}\n}}\n"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ('"tosa.variable"() <{sym_name = 3}> : () -> ()',
         "<stdin>:1:1: error: 'tosa.variable' op 3 : i64 should be of base attribute string"),
        ('"tosa.variable"() <{sym_name = "v", var_shape = dense<[2]> : tensor<1xindex>}> '
         ": () -> ()",
         "<stdin>:1:1: error: 'tosa.variable' op property 'type' expected"),
        ('"tosa.variable"() <{sym_name = "v", var_shape = 3, type = f32}> : () -> ()',
         "<stdin>:1:1: error: 'tosa.variable' op 3 : i64 should be of base attribute dense"),
        ('"tosa.variable.read"() : () -> tensor<2xf32>',
         "<stdin>:1:1: error: 'tosa.variable.read' op property 'name' expected"),
        (FUNC.format('  %0 = "tosa.add"(%a, %b) : (tensor<2xf32>, tensor<2xi32>) -> '
                     "tensor<2xf32>\n  return %0 : tensor<2xf32>"),
         "<stdin>:2:3: error: 'tosa.add' op requires the same element type"),
        # Unknown ops point at their name, not at the token after it.
        (FUNC.format("  %0 = foo.bar %a : tensor<2xf32>\n  return %0 : tensor<2xf32>"),
         "<stdin>:2:8: error: Operation foo.bar is not registered"),
        (FUNC.format('  %0 = "foo.bar"(%a) : (tensor<2xf32>) -> tensor<2xf32>\n'
                     "  return %0 : tensor<2xf32>"),
         "<stdin>:2:9: error: Operation foo.bar is not registered"),
        ("nonsense\n\n", "<stdin>:1:1: error: Operation nonsense is not registered"),
        # A value never defined: at its use (xDSL says it at the end of the input).
        (FUNC.format("  %0 = tosa.add %a, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
                     "  return %0 : tensor<2xf32>"),
         "<stdin>:2:21: error: use of undeclared SSA value %y"),
        # Constructors that reject what the text asks for, while parsing.
        ("tosa.variable @v : tensor<2x9999999999999999999xi8>",
         "<stdin>:1:51: error: integer out of range"),
        ("tosa.variable @v = dense<0.0> : tensor<1x9999999999999999999xf32>",
         "<stdin>:1:65: error: integer out of range"),
        ('%0 = "tosa.const"() <{values = dense<[1, 99999999999999999990]> : tensor<2xi64>}> '
         ": () -> tensor<2xi64>",
         "error: Integer value 99999999999999999990 is out of range for type i64"),
        (FUNC.format("  %0 = tosa.reduce_sum %a {axis = 0 : i39999999999999999999} : "
                     "(tensor<2xf32>) -> tensor<1xf32>"),
         "<stdin>:2:39: error: the value is too large to represent"),
        (FUNC.format('  %0 = "tosa.const"() <{values = dense<(2, 2]> : tensor<2xf32>}> : '
                     "() -> tensor<2xf32>"),
         "<stdin>:2:45: error: unexpected ']', expected ')'"),
        # (valid MLIR, but xDSL cannot name a block `12`)
        ("func.func @f() {\n^bb0:\n  return\n^12:\n  return\n}\n",
         "<stdin>:4:1: error: Invalid Block name format `12`."),
        ("%/", "<stdin>:1:1: error: Expected suffix identifier after '%'"),
    ],
)
def test_bad_mlir_gives_one_located_error(text: str, message: str) -> None:
    opt_fails(text, message)


def test_empty_input_is_an_empty_module() -> None:
    """As with mlir-opt: only whitespace and comments parse to an empty module."""
    for text in ("", "// nothing here\n"):
        code, out, err = cli(opt.main, "-", stdin=text)
        assert (code, out, err) == (0, "builtin.module {\n}\n", "")


SPLIT = (
    ACCUMULATOR
    + "// -----\n"
    + "func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {\n"
    "  %0 = tosa.add %x, %y : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
    "  return %0 : tensor<2xf32>\n}\n"
    + "// -----\n"
    + "func.func @g(%x: tensor<2xf32>) -> tensor<3xf32> {\n"
    '  %0 = "tosa.add"(%x, %x) : (tensor<2xf32>, tensor<2xf32>) -> tensor<3xf32>\n'
    "  return %0 : tensor<3xf32>\n}\n"
    + "// -----\n"
)


def test_split_input_file_errors_carry_whole_file_lines(tmp_path: Path) -> None:
    out = tmp_path / "out.mlir"
    code, _, err = cli(opt.main, "-", "--split-input-file", "-o", str(out), stdin=SPLIT)
    assert_clean_failure(code, err, "<stdin>:9:21: error: use of undeclared SSA value %y")
    assert "<stdin>:14:3: error: 'tosa.add' op result type" in err  # every chunk is checked
    assert not out.exists()
    # As mlir-opt: the chunks that work are still printed (on stdout, never to a file).
    code, out_text, err = cli(opt.main, "-", "--split-input-file", stdin=SPLIT)
    assert code == 1
    assert "tosa.variable.read @acc" in out_text
    assert err.count(": error: ") == 2, err
    code, out_text, err = cli(opt.main, "-", "--split-input-file", "--verify-diagnostics",
                              stdin=SPLIT)
    assert code == 1  # nothing expects these errors
    assert "<stdin>:9:21: error: unexpected error: use of undeclared SSA value %y\n" in err
    assert "<stdin>:14:3: error: unexpected error: 'tosa.add' op result type" in err
    # The chunk after the last marker is empty: an empty module, as with mlir-opt.
    assert out_text.endswith("// -----\nbuiltin.module {\n}\n")


# -- running what cannot run --------------------------------------------------------------


def run_fails(tmp_path: Path, text: str, message: str, *args: str) -> None:
    path = tmp_path / "m.mlir"
    path.write_text(text)
    code, _, err = cli(run.main, str(path), "--pipeline", "", *args)
    assert_clean_failure(code, err, message.replace("FILE", str(path)))


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("func.func @main(%a: tensor<2xf32>) -> tensor<2xf32> {\n"
         "  %0 = arith.addf %a, %a : tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n",
         "FILE:2:3: error: 'arith.addf' op cannot be executed: no interpreter implementation"),
        # ... also inside a region (found when planning, not when the branch runs)
        ("func.func @main(%c: tensor<i1>, %x: tensor<3xf32>) -> tensor<3xf32> {\n"
         "  %r = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<3xf32>) -> tensor<3xf32> {\n"
         "  ^bb0(%a: tensor<3xf32>):\n    %s = arith.addf %a, %a : tensor<3xf32>\n"
         "    tosa.yield %s : tensor<3xf32>\n  } else {\n  ^bb0(%a: tensor<3xf32>):\n"
         "    tosa.yield %a : tensor<3xf32>\n  }\n  return %r : tensor<3xf32>\n}\n",
         "FILE:4:5: error: 'arith.addf' op cannot be executed: no interpreter implementation"),
        ("func.func @main() -> tensor<2xf32>\n",
         "FILE:1:1: error: function 'main' is only declared (it has no body)"),
        ("func.func @f() -> tensor<2xf32>\nfunc.func @main() -> tensor<2xf32> {\n"
         "  %0 = func.call @f() : () -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n",
         "FILE:1:1: error: function 'f' is only declared (it has no body)"),
        ("func.func @main() -> tensor<2xf32> {\n  %0 = func.call @g() : () -> tensor<2xf32>\n"
         "  return %0 : tensor<2xf32>\n}\nfunc.func @g() -> tensor<2xf32> {\n"
         "  %0 = func.call @main() : () -> tensor<2xf32>\n  return %0 : tensor<2xf32>\n}\n",
         "FILE:6:3: error: function 'main' is called recursively (main -> g -> main)"),
        ('func.func @main() -> tensor<2xf32> {\n  %0 = "tosa.const"() <{values = dense<1.0> : '
         'tensor<2xf32>}> : () -> tensor<2xf32>\n  "func.return"(%0) : (tensor<2xf32>) -> ()\n'
         '^bb1:\n  "func.return"(%0) : (tensor<2xf32>) -> ()\n}\n',
         "FILE:1:1: error: function 'main' has several blocks"),
        ("func.func @main() -> i32 {\n  %0 = arith.constant 1 : i32\n  return %0 : i32\n}\n",
         "FILE:2:3: error: 'arith.constant' op cannot be executed: only dense tensor constants "
         "are supported"),
        ("func.func @main(%a: tensor<2xcomplex<f32>>) -> tensor<2xcomplex<f32>> {\n"
         "  return %a : tensor<2xcomplex<f32>>\n}\n",
         "FILE:1:1: error: arg 0 of 'main' has type 'tensor<2xcomplex<f32>>': element type "
         "'complex<f32>' is not supported"),
        ("ml_program.global private mutable @v(dense<1> : tensor<2xi4>) : tensor<2xi4>\n"
         "func.func @main() {\n  return\n}\n",
         "FILE:1:1: error: 'ml_program.global' op element type 'i4' is not supported"),
    ],
)
def test_what_cannot_run_is_named_with_its_location(tmp_path: Path, text: str,
                                                     message: str) -> None:
    run_fails(tmp_path, text, message)


def test_run_entry_naming_nothing(tmp_path: Path) -> None:
    run_fails(tmp_path, ACCUMULATOR, "error: no function named 'nope' in the module "
              "(functions: main)", "--entry", "nope")


def test_run_reads_stdin() -> None:
    code, out, err = cli(run.main, "-", "--pipeline", "", stdin="func.func @main() {\n  "
                         "return\n}\n")
    assert code == 0, err
    assert "model: entry 'main', 1 step(s)" in out
    code, _, err = cli(run.main, "-", stdin=ACCUMULATOR.replace("read @acc", "read @nope"))
    assert_clean_failure(code, err, "<stdin>:3:3: error: 'tosa.variable.read' op 'nope'")


# -- tosa-state-run options, inputs and outputs --------------------------------------------


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "acc.mlir"
    path.write_text(ACCUMULATOR)
    return path


def _inputs(tmp_path: Path, **arrays: object) -> str:
    path = tmp_path / "in.npz"
    np.savez(path, **arrays)  # type: ignore[arg-type]
    return str(path)


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--steps", "-1"], "error: --steps must not be negative, got -1"),
        (["--steps", "x"], "tosa-state-run: error: argument --steps: invalid int value: 'x'"),
        (["--reset-at", "x"], "error: --reset-at expects step numbers (0, 1, ...) like 3,7, "
                              "got 'x'"),
        (["--reset-at=-1"], "error: --reset-at expects step numbers"),
        (["--reset-at", "1,3"], "error: --reset-at 3: the run has only 3 step(s), numbered "
                                "from 0"),
        (["--nope"], "tosa-state-run: error: unrecognized arguments: --nope"),
    ],
)
def test_run_bad_options(model: Path, tmp_path: Path, args: list[str], message: str) -> None:
    out = tmp_path / "out.npz"
    inputs = _inputs(tmp_path, arg0=np.ones((3, 2), np.float32))
    code, _, err = cli(run.main, str(model), "--pipeline", "", "--inputs", inputs,
                       "-o", str(out), *args)
    assert_clean_failure(code, err, message)
    assert not out.exists()


def test_run_zero_steps_writes_empty_results(model: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    inputs = _inputs(tmp_path, arg0=np.ones((3, 2), np.float32))
    code, _, err = cli(run.main, str(model), "--pipeline", "", "--inputs", inputs,
                       "--steps", "0", "-o", str(out))
    assert code == 0, err
    with np.load(out) as data:
        assert data["result0"].shape == (0, 2)
        np.testing.assert_array_equal(data["state/acc"], np.zeros(2, np.float32))


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"arg0": np.array([{"a": 1}, None], dtype=object)},
         "in.npz: error: cannot read inputs: member 'arg0.npy' holds Python objects (object); "
         "--inputs reads numeric arrays only (no pickles)"),
        ({"arg0": np.float32(1.0)},
         "error: input 'arg0' is a scalar; it needs a leading step axis: shape [steps, 2]"),
        ({"arg0": np.array([["a", "b"]])}, "error: input 'arg0' has dtype <U1; expected float32"),
        ({"y": np.ones((3, 2), np.float32)},
         "error: no array for input 'x' (arg0) in the inputs; expected one of shape [steps, 2] "
         "and dtype float32; the inputs hold: y float32[3,2]"),
    ],
)
def test_run_bad_npz(model: Path, tmp_path: Path, arrays: dict, message: str) -> None:
    out = tmp_path / "out.npz"
    code, _, err = cli(run.main, str(model), "--pipeline", "", "--inputs",
                       _inputs(tmp_path, **arrays), "-o", str(out))
    assert_clean_failure(code, err, message)
    assert not out.exists()


def test_run_npy_instead_of_npz(model: Path, tmp_path: Path) -> None:
    path = tmp_path / "in.npz"
    with path.open("wb") as stream:
        np.save(stream, np.ones((3, 2), np.float32))
    code, _, err = cli(run.main, str(model), "--inputs", str(path))
    assert_clean_failure(code, err, f"{path}: error: not an .npz archive (a single .npy array: "
                         "numpy.savez('in.npz', x=numpy.load('in.npy')) makes one); --inputs "
                         "takes an .npz with one array per model input")


@pytest.mark.parametrize("tool", ["opt", "run"])
def test_output_that_cannot_be_written(model: Path, tmp_path: Path, tool: str) -> None:
    main, args = (opt.main, []) if tool == "opt" else (run.main, ["--pipeline", ""])
    if tool == "run":
        args += ["--inputs", _inputs(tmp_path, arg0=np.ones((3, 2), np.float32))]
    before = sorted(tmp_path.iterdir())
    for target, reason in ((tmp_path / "missing" / "out", "No such file or directory"),
                           (tmp_path, "Is a directory")):
        code, _, err = cli(main, str(model), *args, "-o", str(target))
        assert_clean_failure(code, err, f"{target}: error: cannot write output: {reason}")
    assert sorted(tmp_path.iterdir()) == before  # no temporary file left behind


@pytest.mark.parametrize(
    ("pipeline", "message"),
    [
        ("nope", "error: unknown pass 'nope' in pipeline 'nope'; available passes: canonicalize,"),
        ("cse{foo=1}", "error: pass 'cse' has no option 'foo' (its options: none)"),
        ("cse,,", "error: bad pipeline 'cse,,': empty pass name"),
        ("cse{", "error: bad pipeline 'cse{': unbalanced braces or quotes"),
        ("cse{a b}", "error: pass 'cse' has no option 'a'"),
        ("cse{=}", "error: bad pipeline 'cse{=}': Error parsing pass pipeline specification"),
    ],
)
def test_bad_pipeline(model: Path, pipeline: str, message: str) -> None:
    code, _, err = cli(opt.main, str(model), "-p", pipeline)
    assert_clean_failure(code, err, message)
    code, _, err = cli(run.main, str(model), "--pipeline", pipeline)
    assert_clean_failure(code, err, message)
    with pytest.raises(ts.TosaStateError, match=re.escape(message)):
        ts.compile_model(model, pipeline=pipeline)


def test_opt_bad_command_line_exits_1() -> None:
    code, _, err = cli(opt.main, "--nope")
    assert_clean_failure(code, err, "tosa-state-opt: error: unrecognized arguments: --nope")


# -- OpenVINO IR ----------------------------------------------------------------------------


@pytest.fixture
def lstm(tmp_path: Path) -> Path:
    xml = tmp_path / "m.xml"
    shutil.copy(EXAMPLES / "lstm_cell.xml", xml)
    shutil.copy(EXAMPLES / "lstm_cell.bin", tmp_path / "m.bin")
    return xml


def opt_xml_fails(xml: Path, message: str, *args: str) -> None:
    out = xml.parent / "out.mlir"
    code, _, err = cli(opt.main, str(xml), "-o", str(out), *args)
    assert_clean_failure(code, err, message.replace("@XML@", str(xml)))
    assert not out.exists()


def test_openvino_xml_truncated_at_every_cut(lstm: Path) -> None:
    text = lstm.read_text()
    failures = []
    for cut in _cut_points(text, 60):
        lstm.write_text(text[:cut])
        code, _, err = cli(opt.main, str(lstm))
        if code != 1 or not err.startswith(f"{lstm}:") or "internal error" in err:
            failures.append((cut, err))
    assert not failures, failures[:3]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("garbage", "@XML@:1:1: error: malformed XML: syntax error"),
        ("", "@XML@:1:1: error: malformed XML: no element found"),
        ('<?xml version="1.0"?>\n<!DOCTYPE net [<!ENTITY x "y">]>\n<net version="11"/>',
         "@XML@:2:15: error: forbidden XML construct (DTDForbidden)"),
        ("<foo><layers/></foo>", "@XML@:1:1: error: expected a <net> root element, got <foo>"),
    ],
)
def test_openvino_bad_xml(lstm: Path, text: str, message: str) -> None:
    lstm.write_text(text)
    opt_xml_fails(lstm, message)


def test_openvino_weights_missing_truncated_or_unreadable(lstm: Path) -> None:
    weights = lstm.with_suffix(".bin")
    data = weights.read_bytes()
    const = "@XML@:13:3: error: layer id=1 name='Constant_3' type='Const' (opset1): "
    weights.unlink()
    opt_xml_fails(lstm, const + f"the weights file '{weights}' does not exist")
    weights.write_bytes(data[:20])
    opt_xml_fails(lstm, const + "data at offset=0 size=32 runs past the end of 'm.bin' "
                  "(20 bytes)")
    weights.unlink()
    weights.mkdir()
    opt_xml_fails(lstm, const + f"cannot read the weights file '{weights}': Is a directory")


def _edit(xml: Path, old: str, new: str) -> None:
    text = xml.read_text()
    assert old in text
    xml.write_text(text.replace(old, new, 1))


def test_openvino_attribute_out_of_range_names_the_layer(lstm: Path) -> None:
    _edit(lstm, 'hidden_size="8"', 'hidden_size="99999999999999999999"')
    opt_xml_fails(lstm, "@XML@:78:3: error: layer id=7 name='cell' type='LSTMCell' (opset4): "
                  "Integer value 99999999999999999999 is out of range")


def test_openvino_lstm_input_of_wrong_rank_names_the_layer(lstm: Path) -> None:
    """Was an IndexError in the conversion: the verifier now checks X's rank."""
    _edit(lstm, 'shape="1,8"', 'shape=""')
    opt_xml_fails(lstm, "@XML@:78:3: error: layer id=7 name='cell' type='LSTMCell' (opset4): "
                  "X must have shape [?,?], got []", "-p", "convert-openvino-to-tosa")


def test_openvino_dynamic_batch_the_state_cannot_take_names_the_layer(lstm: Path) -> None:
    """A dynamic batch converts (the module is shape-polymorphic); the cell's state has a
    static batch of 1, so another batch fails at run time, naming op, layer and line."""
    _edit(lstm, 'shape="1,8"', 'shape="?,8"')
    request = ts.compile_model(lstm).create_infer_request()
    assert request.infer([np.ones((1, 8), np.float32)])[0].shape == (1, 8)
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.ones((2, 8), np.float32)])
    assert re.match(rf"{re.escape(str(lstm))}:\d+:3: error: layer id=\d+ name='\w+' type='\w+' "
                    r"\(opset\d\): 'tosa.concat' op failed at run time: .*along dimension 0, the "
                    r"array at index 0 has size 2 and the array at index 1 has size 1$",
                    str(caught.value)), str(caught.value)
    assert request.infer([np.ones((1, 8), np.float32)])[0].shape == (1, 8)


# -- the Python API -----------------------------------------------------------------------


def test_api_errors_are_tosa_state_errors(model: Path, tmp_path: Path) -> None:
    with pytest.raises(ts.TosaStateError, match="cannot read file"):
        ts.read_model(tmp_path / "missing.mlir")
    bad = tmp_path / "bad.mlir"
    bad.write_text('"tosa.variable"() <{sym_name = 3}> : () -> ()')
    with pytest.raises(ts.TosaStateError, match=f"{bad}:1:1: error: 'tosa.variable' op"):
        ts.compile_model(bad)
    with pytest.raises(ts.TosaStateError, match="unknown pass"):
        ts.compile_model(model, pipeline="nope")
    with pytest.raises(ts.TosaStateError, match="no function named 'nope'"):
        ts.compile_model(model, entry="nope")
    request = ts.compile_model(model).create_infer_request()
    with pytest.raises(ts.TosaStateError, match=r"has shape \[3\]; expected \[2\]"):
        request.infer([np.ones(3, np.float32)])
    state = request.query_state()[0]
    with pytest.raises(ts.TosaStateError, match="the new state for variable 'acc'"):
        state.state = "ab"


def test_infer_takes_one_array_for_a_one_input_model(model: Path, tmp_path: Path) -> None:
    """As OpenVINO's `infer(array)`; it used to be split into a list along its first axis."""
    request = ts.compile_model(model).create_infer_request()
    request.infer(np.ones(2, np.float32))
    np.testing.assert_array_equal(request.infer(np.zeros(2, np.float32))[0], np.ones(2))
    two = tmp_path / "two.mlir"
    two.write_text("func.func @main(%a: tensor<2xf32>, %b: tensor<2xf32>) -> tensor<2xf32> {\n"
                   "  return %a : tensor<2xf32>\n}\n")
    with pytest.raises(ts.TosaStateError, match="one array given, but the model has 2 inputs"):
        ts.compile_model(two).create_infer_request().infer(np.ones((2, 2), np.float32))


def test_unknown_ports_raise_a_lookup_error_that_is_ours(model: Path) -> None:
    compiled = ts.compile_model(model)
    result = compiled.create_infer_request().infer([np.ones(2, np.float32)])
    for lookup, message in (
        (lambda: compiled.input("nope"), "no input named 'nope' (inputs: x)"),
        (lambda: compiled.input(7), "no input 7 (inputs: x)"),
        (lambda: compiled.output("nope"), "no output named 'nope' (outputs: result0)"),
        (lambda: result["nope"], "no output named 'nope' (outputs: result0)"),
        (lambda: result[3], "no output 3 (outputs: result0)"),
        (lambda: result[np.int64(3)], "no output 3 (outputs: result0)"),
    ):
        with pytest.raises(ts.TosaStateError, match=re.escape(message)) as caught:
            lookup()
        assert isinstance(caught.value, KeyError | IndexError)
    assert result[-1] is result[0] is result[np.int64(0)] is result["result0"]
    assert compiled.input(np.int32(0)) is compiled.input("arg0")


def _small_openvino_model(tmp_path: Path, build) -> Path:
    """`build(x)` on a [2, 3] f32 parameter, saved as IR; the path of its .xml."""
    import openvino as ov
    import openvino.opset13 as ops
    x = ops.parameter([2, 3], np.float32, name="x")
    xml = tmp_path / "m.xml"
    ov.save_model(ov.Model([ops.result(build(x))], [x], "m"), xml)
    return xml


@pytest.mark.parametrize(
    ("op", "old", "new", "message"),
    [
        ("gelu", 'approximation_mode="ERF"', 'approximation_mode="CUBIC"',
         "type='Gelu' (opset7): approximation_mode 'cubic' is not 'erf' or 'tanh'"),
        ("mvn", 'eps_mode="INSIDE_SQRT"', 'eps_mode="BESIDE_SQRT"',
         "type='MVN' (opset6): eps_mode 'beside_sqrt' is not 'inside_sqrt' or 'outside_sqrt'"),
        ("pad", 'pad_mode="constant"', 'pad_mode="wrap"',
         "type='Pad' (opset12): pad_mode 'wrap' is not one of constant, edge, reflect, "
         "symmetric"),
        ("convolution", 'auto_pad="explicit"', 'auto_pad="reflect"',
         "type='Convolution' (opset1): auto_pad 'reflect' is not one of explicit, valid, "
         "same_upper, same_lower"),
        ("add", 'type="Add" version="opset1"', 'type="Identity" version="opset16"',
         "type='Identity' (opset16): expects 1 inputs, got 2"),
        ("identity", 'precision="FP32" names="Result', 'precision="FP16" names="Result',
         "type='Identity' (opset16): result type tensor<2x3xf16> differs from the input type "
         "tensor<2x3xf32>"),
        ("identity", 'type="Identity" version="opset16"', 'type="Identity" version="opset15"',
         "type='Identity' (opset15): version opset15 of Identity is not supported "
         "(supported: opset16)"),
    ],
)
def test_openvino_bad_layers_name_the_layer(
    tmp_path: Path, op: str, old: str, new: str, message: str
) -> None:
    """Bad attributes, port counts, port types and versions."""
    import openvino.opset13 as ops
    import openvino.opset16 as opset16
    build = {
        "add": lambda x: ops.add(x, x, name="layer"),
        "identity": lambda x: opset16.identity(x, name="layer"),
        "gelu": lambda x: ops.gelu(x, "erf", name="layer"),
        "mvn": lambda x: ops.mvn(x, ops.constant(np.array([1], np.int64)), True, 1e-5,
                                 "inside_sqrt", name="layer"),
        "pad": lambda x: ops.pad(x, ops.constant(np.array([0, 1], np.int64)),
                                 ops.constant(np.array([0, 1], np.int64)), "constant",
                                 name="layer"),
        "convolution": lambda x: ops.convolution(
            ops.reshape(x, ops.constant(np.array([1, 2, 3], np.int64)), False),
            ops.constant(np.ones((1, 2, 2), np.float32)), [1], [0], [0], [1], name="layer"),
    }[op]
    xml = _small_openvino_model(tmp_path, build)
    _edit(xml, old, new)
    opt_xml_fails(xml, f"name='layer' {message}")


def test_openvino_softmax1_negative_axis_names_the_layer(tmp_path: Path) -> None:
    import openvino as ov
    import openvino.opset1 as opset1
    x = opset1.parameter([2, 3], np.float32, name="x")
    model = ov.Model([opset1.result(opset1.softmax(x, 1, name="probabilities"))], [x], "m")
    xml = tmp_path / "m.xml"
    ov.save_model(model, xml)
    _edit(xml, 'axis="1"', 'axis="-1"')
    opt_xml_fails(xml, "name='probabilities' type='SoftMax' (opset1): axis -1 is negative "
                  "(Softmax-1 takes a non-negative axis)")

