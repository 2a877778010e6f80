"""`tosa-state-run`'s inputs and outputs: input names, the dtype rule, what is not an `.npz`
or not a model, output keys and permissions, `--print`."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Iterator
from pathlib import Path

import numpy as np
import pytest
from test_error_paths import ACCUMULATOR, assert_clean_failure, cli

import tosa_state as ts
from tosa_state.tools import opt, run

NAMED = """\
tosa.variable @h = dense<0> : tensor<2x3xi32>
func.func @main(%x: tensor<2x3xi32>, %scale: tensor<i32>) -> (tensor<2x3xi32> {tosa_state.name = "h"}, tensor<2x3xi32>) {
  %old = tosa.variable.read @h : tensor<2x3xi32>
  %s = tosa.add %old, %x : (tensor<2x3xi32>, tensor<2x3xi32>) -> tensor<2x3xi32>
  tosa.variable.write @h, %s : tensor<2x3xi32>
  return %s, %old : tensor<2x3xi32>, tensor<2x3xi32>
}
"""
"""Two inputs named by their SSA names, one output named by an attribute, one not."""


@pytest.fixture
def model(tmp_path: Path) -> Path:
    path = tmp_path / "acc.mlir"
    path.write_text(ACCUMULATOR)
    return path


@pytest.fixture
def named(tmp_path: Path) -> Path:
    path = tmp_path / "named.mlir"
    path.write_text(NAMED)
    return path


def npz(tmp_path: Path, **arrays: np.ndarray) -> str:
    path = tmp_path / "in.npz"
    np.savez(path, **arrays)
    return str(path)


@pytest.mark.parametrize("keys", [("x", "scale"), ("arg0", "arg1"), ("x", "arg1")])
def test_mlir_inputs_by_ssa_name_or_position(named: Path, tmp_path: Path,
                                             keys: tuple[str, str]) -> None:
    xs = np.arange(18, dtype=np.int32).reshape(3, 2, 3)
    out = tmp_path / "out.npz"
    inputs = npz(tmp_path, **{keys[0]: xs, keys[1]: np.zeros(3, np.int32)})
    code, _, err = cli(run.main, str(named), "--inputs", inputs, "-o", str(out))
    assert code == 0, err
    with np.load(out) as data:
        assert sorted(data.files) == ["h", "result0", "result1", "state/h"]
        np.testing.assert_array_equal(data["h"], np.cumsum(xs, axis=0))
        np.testing.assert_array_equal(data["result0"], data["h"])
        np.testing.assert_array_equal(data["result1"][1:], data["h"][:-1])


def test_dtype_rule_casts_wider_floats_and_fitting_integers_with_a_note(
        named: Path, model: Path, tmp_path: Path) -> None:
    out = tmp_path / "out.npz"
    xs = np.arange(12, dtype=np.int64).reshape(2, 2, 3)
    code, _, err = cli(run.main, str(named), "-o", str(out), "--inputs",
                       npz(tmp_path, x=xs, scale=np.ones(2, np.int16)))
    assert code == 0, err
    assert err.splitlines() == ["note: input 'x' is int64; cast to the model's int32",
                                "note: input 'scale' is int16; cast to the model's int32"]
    with np.load(out) as data:
        np.testing.assert_array_equal(data["h"][-1], xs.sum(axis=0))
    values = np.array([[0.1, 1e-50], [3.0, -np.inf]])  # rounded to the nearest float32
    code, _, err = cli(run.main, str(model), "-o", str(out), "--inputs", npz(tmp_path, x=values))
    assert code == 0, err
    assert err == "note: input 'x' is float64; cast to the model's float32\n"
    with np.load(out) as data:
        np.testing.assert_array_equal(data["state/acc"], values[-1].astype(np.float32))
    code, _, err = cli(run.main, str(model), "-q", "-o", str(out), "--inputs",
                       npz(tmp_path, x=values))
    assert (code, err) == (0, "")


@pytest.mark.parametrize(
    ("arrays", "message"),
    [
        ({"x": np.full((1, 2, 3), 2**40), "scale": np.ones(1, np.int32)},
         "error: input 'x' is int64 with values outside int32's range [-2147483648, 2147483647]"),
        ({"x": np.ones((1, 2, 3)), "scale": np.ones(1, np.int32)},
         "error: input 'x' has dtype float64; expected int32 (convert it with "
         "x.astype(numpy.int32))"),
        ({"x": np.ones((1, 2, 3), np.int32), "scale": np.ones(1, bool)},
         "error: input 'scale' has dtype bool; expected int32"),
    ],
)
def test_dtype_rule_refuses_other_conversions(named: Path, tmp_path: Path, arrays: dict,
                                              message: str) -> None:
    code, _, err = cli(run.main, str(named), "--inputs", npz(tmp_path, **arrays))
    assert_clean_failure(code, err, message)


@pytest.mark.parametrize(
    ("array", "message"),
    [
        (np.ones((2, 2), np.float16), "error: input 'x' has dtype float16; expected float32"),
        (np.array([[1.0, 0.0], [-1e40, np.nan]]),
         "error: input 'x' is float64 with values beyond float32's range (largest magnitude "
         "1e+40)"),
    ],
)
def test_float_inputs_that_do_not_fit(model: Path, tmp_path: Path, array: np.ndarray,
                                      message: str) -> None:
    code, _, err = cli(run.main, str(model), "--inputs", npz(tmp_path, x=array))
    assert_clean_failure(code, err, message)


def test_the_step_axis_missing_is_named(named: Path, tmp_path: Path) -> None:
    code, _, err = cli(run.main, str(named), "--inputs",
                       npz(tmp_path, x=np.ones((2, 3), np.int32), scale=np.ones(4, np.int32)))
    assert_clean_failure(code, err, "error: input 'x' has shape [2, 3], the shape of one call: "
                         "the step axis is missing; expected [steps, 2, 3] (x[None] for one "
                         "step)")


def test_a_model_given_as_inputs(model: Path, tmp_path: Path) -> None:
    xml = tmp_path / "model.xml"
    xml.write_text('<?xml version="1.0"?>\n<net name="m" version="11"/>\n')
    for inputs, looks_like in ((xml, "XML: a model? the model is the first argument"),
                               (model, "a model file? the model is the first argument")):
        code, _, err = cli(run.main, str(model), "--inputs", str(inputs))
        assert_clean_failure(code, err, f"{inputs}: error: not an .npz archive ({looks_like}); "
                             "--inputs takes an .npz")
        assert len(err.strip().splitlines()) == 1


def _npy(header: str, data: bytes = b"") -> bytes:
    """An .npy file: magic, version 1.0, the header text padded to 64 bytes, the data."""
    text = header.encode("latin1")
    text += b" " * (63 - (10 + len(text)) % 64) + b"\n"
    return b"\x93NUMPY\x01\x00" + len(text).to_bytes(2, "little") + text + data


def _zip(path: Path, **members: bytes) -> str:
    import zipfile

    with zipfile.ZipFile(path, "w") as archive:
        for name, content in members.items():
            archive.writestr(name.replace("__", "."), content)
    return str(path)


F4_2x1 = "{'descr': '<f4', 'fortran_order': False, 'shape': (2, 1), }"


@pytest.mark.parametrize(
    ("members", "message"),
    [
        ({"x__npy": b"no header here"}, "member 'x.npy' has no valid .npy header"),
        ({"x__npy": _npy("{'descr': '<f4', 'fortran_order': False, 'shape': (2,")},
         "member 'x.npy' has no valid .npy header"),
        ({"x__npy": _npy("{'descr': 17, 'fortran_order': False, 'shape': (2, 1), }")},
         "member 'x.npy' has no valid .npy header"),
        ({"x__npy": _npy("{'descr': '<f4', 'fortran_order': False, "
                         "'shape': (8796093022208,), }")},
         "member 'x.npy' declares float32[8796093022208] (35184372088832 bytes) but holds "
         "0 bytes: truncated or corrupt"),
        ({"x__npy": _npy(F4_2x1, b"\0" * 4)},
         "member 'x.npy' declares float32[2, 1] (8 bytes) but holds 4 bytes"),
        ({"x__npy": _npy("{'descr': '|O', 'fortran_order': False, 'shape': (2, 1), }",
                         b"\x80\x04N.")},
         "member 'x.npy' holds Python objects (object); --inputs reads numeric arrays only"),
        ({"x__npy": _npy(F4_2x1, b"\0" * 8), "notes__txt": b"hi"},
         "member 'notes.txt' is not an .npy array"),
    ],
    ids=["no-header", "cut-header", "bad-descr", "32TiB", "truncated", "pickle", "not-npy"],
)
def test_corrupt_inputs_archives_fail_in_one_line(model: Path, tmp_path: Path,
                                                  members: dict[str, bytes],
                                                  message: str) -> None:
    """Every corrupt `.npz` is one line and exit 1, naming the member, before allocating
    what a header only declares (the 32 TiB array)."""
    import tracemalloc

    inputs = _zip(tmp_path / "in.npz", **members)
    tracemalloc.start()
    code, _, err = cli(run.main, str(model), "--inputs", inputs)
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    assert_clean_failure(code, err, f"{inputs}: error: cannot read inputs: {message}")
    assert len(err.strip().splitlines()) == 1, err
    assert peak < 64 * 1024 * 1024


def test_a_broken_zip_fails_in_one_line(model: Path, tmp_path: Path) -> None:
    good = Path(npz(tmp_path, x=np.ones((2, 1), np.float32)))
    for cut, name in ((len(good.read_bytes()) // 2, "half.npz"), (4, "four.npz")):
        broken = tmp_path / name
        broken.write_bytes(good.read_bytes()[:cut])
        code, _, err = cli(run.main, str(model), "--inputs", str(broken))
        assert_clean_failure(code, err, f"{broken}: error: ")
        assert len(err.strip().splitlines()) == 1, err
    data = bytearray(good.read_bytes())
    data[60] ^= 0xFF  # inside x.npy's data: a CRC error
    corrupt = tmp_path / "crc.npz"
    corrupt.write_bytes(bytes(data))
    code, _, err = cli(run.main, str(model), "--inputs", str(corrupt))
    assert_clean_failure(code, err, f"{corrupt}: error: cannot read inputs: member 'x.npy' is "
                         "corrupt (Bad CRC-32 for file 'x.npy')")


def test_fortran_order_and_every_member_are_read(model: Path, tmp_path: Path) -> None:
    """The reader gives back what numpy wrote, Fortran order included."""
    from tosa_state.tools.npz import load_npz

    path = tmp_path / "f.npz"
    want = {"x": np.asfortranarray(np.arange(12, dtype=np.float32).reshape(3, 4)),
            "y": np.arange(5, dtype=np.int64), "z": np.array(3.5)}
    np.savez_compressed(path, **want)
    got = load_npz(str(path))
    assert sorted(got) == ["x", "y", "z"]
    for key, array in want.items():
        np.testing.assert_array_equal(got[key], array)
        assert got[key].dtype == array.dtype and got[key].flags.writeable


READS = ("tosa-state reads MLIR text (.mlir), OpenVINO IR (.xml, its .bin beside it), "
         "TFLite (.tflite) and TOSA flatbuffers (.tosa)")


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("m.onnx", "m.onnx: error: this is an ONNX model, which is not read directly; "
                   f"{READS}; convert it to OpenVINO IR first: `ovc {{dir}}/m.onnx` writes "
                   "{dir}/m.xml and {dir}/m.bin"),
        ("m.pt", "m.pt: error: this is a PyTorch file, which is not read directly; "
                 f"{READS}; convert it to OpenVINO IR first: "
                 "`openvino.save_model(openvino.convert_model(model, example_input=...), "
                 "'{dir}/m.xml')`"),
        ("m.bin", "m.bin: error: this file holds the weights of an OpenVINO IR model; "
                  f"{READS}; pass its .xml instead: {{dir}}/m.xml"),
        ("m.data", "m.data: error: not a text file, so not MLIR; "
                   f"{READS}; other formats convert to OpenVINO IR with `ovc`"),
    ],
)
def test_unsupported_model_files_get_one_line(tmp_path: Path, name: str, message: str) -> None:
    path = tmp_path / name
    path.write_bytes(b"\x08\x03\x12\x04\xc4\xff" + bytes(range(256)))
    code, _, err = cli(run.main, str(path))
    assert_clean_failure(code, err, f"{tmp_path}/{message.format(dir=tmp_path)}")
    assert len(err.strip().splitlines()) == 1
    with pytest.raises(ts.TosaStateError, match=re.escape(message.format(dir=tmp_path))):
        ts.compile_model(path)


def test_a_text_model_with_another_suffix_is_read_as_mlir(tmp_path: Path) -> None:
    path = tmp_path / "model.txt"
    path.write_text(ACCUMULATOR)
    assert [p.name for p in ts.compile_model(path).inputs] == ["x"]


@pytest.fixture
def umask() -> Iterator[None]:
    old = os.umask(0o027)
    try:
        yield
    finally:
        os.umask(old)


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


@pytest.mark.usefixtures("umask")
def test_output_files_get_the_umask_permissions(model: Path, tmp_path: Path) -> None:
    """As `open(path, "w")`: 0666 less the umask for a new file, the old mode when replacing."""
    out_npz, out_mlir = tmp_path / "out.npz", tmp_path / "out.mlir"
    inputs = npz(tmp_path, x=np.ones((2, 2), np.float32))
    assert cli(run.main, str(model), "--inputs", inputs, "-o", str(out_npz))[0] == 0
    assert cli(opt.main, str(model), "-o", str(out_mlir))[0] == 0
    assert _mode(out_npz) == _mode(out_mlir) == 0o640
    out_mlir.chmod(0o604)
    assert cli(opt.main, str(model), "-o", str(out_mlir))[0] == 0
    assert _mode(out_mlir) == 0o604


def test_print_names_types_and_aligns_rows(named: Path, tmp_path: Path) -> None:
    xs = np.arange(18, dtype=np.int32).reshape(3, 2, 3) * 1000
    code, out, err = cli(run.main, str(named), "--print", "--reset-at", "2", "--inputs",
                         npz(tmp_path, x=xs, scale=np.zeros(3, np.int32)))
    assert code == 0, err
    assert out.splitlines()[:3] == ["model: entry 'main', 3 step(s), reset before step 2",
                                    "inputs:  x int32[2,3], scale int32[]",
                                    "outputs: h int32[2,3], result1 int32[2,3]"]
    step = out.split("step 1:\n", 1)[1].split("step 2", 1)[0]
    assert step.splitlines() == ["  h       = [[ 6000  8000 10000]",
                                 "             [12000 14000 16000]]",
                                 "  result1 = [[   0 1000 2000]",
                                 "             [3000 4000 5000]]"]
    assert "step 2 (after reset):\n  h       = [[12000" in out
    assert out.endswith("final state:\n  h int32[2,3] = [[12000 13000 14000]\n"
                        "                  [15000 16000 17000]]\n")


@pytest.mark.parametrize(("limit", "shown"), [(None, 20), ("5", 5), ("0", 300), ("400", 300)])
def test_print_limit(model: Path, tmp_path: Path, limit: str | None, shown: int) -> None:
    inputs = npz(tmp_path, x=np.ones((300, 2), np.float32))
    code, out, err = cli(run.main, str(model), "--inputs", inputs,
                         *(["--print-limit", limit] if limit else []))
    assert code == 0, err
    steps = [int(m) for m in re.findall(r"^step (\d+)", out, re.MULTILINE)]
    first = (shown + 1) // 2
    assert steps == [*range(first), *range(300 - (shown - first), 300)]
    skipped = re.findall(r"^\.\.\. (\d+) step\(s\) not shown \(--print-limit 0 shows all\) "
                         r"\.\.\.$", out, re.MULTILINE)
    assert skipped == ([] if shown == 300 else [str(300 - shown)])


def test_print_limit_must_not_be_negative(model: Path) -> None:
    code, _, err = cli(run.main, str(model), "--print-limit", "-1")
    assert_clean_failure(code, err, "error: --print-limit must not be negative, got -1")


def test_input_shapes_by_ssa_name_keep_the_name(tmp_path: Path) -> None:
    path = tmp_path / "dynamic.mlir"
    path.write_text("func.func @main(%x: tensor<?x2xf32>) -> tensor<?x2xf32> {\n"
                    "  %a = tosa.abs %x : (tensor<?x2xf32>) -> tensor<?x2xf32>\n"
                    "  return %a : tensor<?x2xf32>\n}\n")
    compiled = ts.compile_model(path, input_shapes={"x": [3, 2]})
    assert compiled.inputs == (ts.Port(0, "x", (3, 2), np.dtype(np.float32)),)
    assert ts.compile_model(path, input_shapes={"arg0": [3, 2]}).inputs == compiled.inputs
