"""Bad `.tflite` files: truncated, corrupted and hostile ones each give one clean error naming
what is wrong (and where: `operator #N (OP) in subgraph 'S'`), never a traceback."""

from __future__ import annotations

import struct
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
import tflite

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError
from tosa_state.frontends.tflite import import_tflite

MODELS = Path(__file__).parent / "tflite_models"
BIN = Path(sys.executable).parent


def _field(table: object, slot: int) -> int:
    """The absolute position of field `slot` (4, 6, ...) of a flatbuffer table."""
    tab = table._tab  # type: ignore[attr-defined]
    offset = tab.Offset(slot)
    assert offset, f"field {slot} is absent"
    return tab.Pos + offset


def _vector_element(table: object, slot: int, index: int, size: int = 4) -> int:
    tab = table._tab  # type: ignore[attr-defined]
    return tab.Vector(tab.Offset(slot)) + index * size


Patch = tuple[Callable[[tflite.Model], int], str, int]


def _patched(name: str, locate: Callable[[tflite.Model], int], fmt: str, value: int,
             *more: Patch) -> bytes:
    """Model `name` with the value at `locate(model)` overwritten (and `more` such patches)."""
    data = bytearray((MODELS / f"{name}.tflite").read_bytes())
    model = tflite.Model.GetRootAsModel(bytes(data), 0)
    for where, form, number in ((locate, fmt, value), *more):
        struct.pack_into(form, data, where(model), number)
    return bytes(data)


def _dense_fc(model: tflite.Model) -> object:
    return model.Subgraphs(0).Operators(0)  # FULLY_CONNECTED


def _while_op(model: tflite.Model) -> object:
    main = model.Subgraphs(0)
    return next(main.Operators(i) for i in range(main.OperatorsLength())
                if main.Operators(i).BuiltinOptionsType() == 93)  # WhileOptions


def _while_options(model: tflite.Model) -> object:
    table = _while_op(model).BuiltinOptions()
    options = tflite.WhileOptions()
    options.Init(table.Bytes, table.Pos)
    return options


def _constant_tensor(model: tflite.Model) -> object:
    main = model.Subgraphs(0)
    op = main.Operators(0)
    return main.Tensors(op.Inputs(1))  # the FULLY_CONNECTED filter


def _counter(model: tflite.Model) -> object:
    """The loop counter fed to the WHILE (an INT32 tensor)."""
    return model.Subgraphs(0).Tensors(_while_op(model).Inputs(0))


def _buffer_of_filter(model: tflite.Model) -> object:
    return model.Buffers(_constant_tensor(model).Buffer())


CASES: dict[str, tuple[bytes, str]] = {
    "empty": (b"", "file too short (0 bytes)"),
    "text": (b"func.func @main() { return }\n",
             "not a TFLite model (file identifier b'.fun'"),
    "truncated": ((MODELS / "dense.tflite").read_bytes()[:600], "malformed flatbuffer"),
    "truncated-header": ((MODELS / "dense.tflite").read_bytes()[:12], "malformed flatbuffer"),
    "root-offset": (b"\xff\xff\xff\x7fTFL3" + (MODELS / "dense.tflite").read_bytes()[8:],
                    "malformed flatbuffer while reading"),
    "schema-version": (_patched("dense", lambda m: _field(m, 4), "<I", 2),
                       "schema version 2 (only version 3 is supported)"),
    "tensor-index": (_patched("dense", lambda m: _vector_element(_dense_fc(m), 6, 1), "<i", 999),
                     "operator #0 (FULLY_CONNECTED) in subgraph 'main': inputs: tensor index "
                     "999 is out of range"),
    "output-index": (_patched("dense", lambda m: _vector_element(_dense_fc(m), 8, 0), "<i", -1),
                     "operator #0 (FULLY_CONNECTED) in subgraph 'main': outputs: tensor index -1"),
    "opcode-index": (_patched("dense", lambda m: _field(m.Subgraphs(0).Operators(1), 4), "<I",
                              77),
                     "operator #1: opcode index 77 is out of range [0, 2)"),
    "buffer-index": (_patched("dense", lambda m: _field(_constant_tensor(m), 8), "<I", 4096),
                     "buffer index 4096 is out of range"),
    "buffer-size": (_patched("dense", lambda m: _vector_element(_constant_tensor(m), 4, 0), "<i",
                             6),
                    "needs 168 bytes but its buffer"),
    "buffer-length": (_patched("dense", lambda m: _vector_element(_buffer_of_filter(m), 4, -1),
                               "<I", 1 << 30),
                      "buffer"),
    "negative-dim": (_patched("dense", lambda m: _vector_element(_constant_tensor(m), 4, 0), "<i",
                              -7),
                     "dims >= 0"),
    "tensor-type": (_patched("seed_lstm", lambda m: _field(_counter(m), 6), "<b", 5),
                    "has element type STRING, which tosa-state does not support"),
    "subgraph-count": (_patched("dense", lambda m: _vector_element(m, 8, -1), "<I", 1 << 31),
                       "malformed flatbuffer: subgraphs claims"),
    "while-body": (_patched("seed_lstm", lambda m: _field(_while_options(m), 6), "<i", 99),
                   "operator #5 (WHILE) in subgraph 'main': body subgraph index 99 is out of "
                   "range [0, 4)"),
    "while-recursion": (_patched("seed_lstm", lambda m: _field(_while_options(m), 6), "<i", 0),
                        "operator #5 (WHILE) in subgraph 'main': the body subgraph is the entry "
                        "subgraph (recursion)"),
    "while-swapped": (_patched("seed_lstm", lambda m: _field(_while_options(m), 4), "<i", 3),
                      "operator #5 (WHILE) in subgraph 'main': invalid operator: tfl.while: cond "
                      "@functional_1/lstm_1/while_body must take the loop values and return"),
    "unsupported-op": (_patched("dense", lambda m: _field(m.OperatorCodes(1), 10), "<i", 25,
                                (lambda m: _field(m.OperatorCodes(1), 4), "<b", 25)),
                       "operator #1 (SOFTMAX) in subgraph 'main': the builtin operator SOFTMAX is "
                       "not supported (supported: ADD, ASSIGN_VARIABLE"),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_bad_file_gives_one_clean_error(tmp_path: Path, case: str) -> None:
    data, message = CASES[case]
    path = tmp_path / "model.tflite"
    path.write_bytes(data)
    with pytest.raises(TosaStateError) as info:
        import_tflite(path)
    assert str(info.value).startswith(f"{path}: error: "), info.value
    assert message in str(info.value), info.value


def test_cli_reports_without_traceback_or_output(tmp_path: Path) -> None:
    data, message = CASES["tensor-index"]
    (tmp_path / "model.tflite").write_bytes(data)
    np.savez(tmp_path / "in.npz", arg0=np.zeros((2, 1, 7), np.float32))
    for tool, args in (("tosa-state-run", ["--inputs", "in.npz", "-o", "out.npz"]),
                       ("tosa-state-opt", ["-o", "out.mlir"])):
        result = subprocess.run([str(BIN / tool), "model.tflite", *args], cwd=tmp_path,
                                capture_output=True, text=True, check=False)
        assert result.returncode == 1, result
        assert message in result.stderr and "Traceback" not in result.stderr + result.stdout
        assert not (tmp_path / "out.npz").exists() and not (tmp_path / "out.mlir").exists()


def test_random_corruption_never_escapes(tmp_path: Path) -> None:
    """Byte flips anywhere in a model: it imports (the flip was harmless) or fails cleanly."""
    original = (MODELS / "simple_rnn.tflite").read_bytes()
    rng = np.random.default_rng(11)
    path = tmp_path / "model.tflite"
    failures = 0
    for _ in range(300):
        data = bytearray(original)
        for position in rng.integers(0, len(original), size=3):
            data[position] = int(rng.integers(0, 256))
        path.write_bytes(bytes(data))
        try:
            import_tflite(path)
        except TosaStateError as error:
            assert str(error).startswith(f"{path}: error: "), error
            failures += 1
    assert failures > 0


def test_non_constant_trip_count_is_refused(tmp_path: Path) -> None:
    """A WHILE whose condition depends on a model input cannot be unrolled: the error names
    the WHILE and says why."""
    data = _patched("seed_lstm", lambda m: _vector_element(_while_op(m), 6, 0), "<i", 0)
    path = tmp_path / "model.tflite"
    path.write_bytes(data)
    with pytest.raises(TosaStateError) as info:
        ts.compile_model(path)
    assert "operator #5 (WHILE) in subgraph 'main'" in str(info.value)
