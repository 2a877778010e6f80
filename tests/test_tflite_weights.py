"""`.tflite` buffers mapped, not copied (`frontends/tflite/reader.py`): a large weight is
the file's bytes through import, `convert-tflite-to-tosa` (the FULLY_CONNECTED's transposed
weight stays them) and the plan, inside the flatbuffer or after it (`offset` / `size`); at an
unaligned address it is copied once. Models written at test time (`tflite_writer`), run
against LiteRT."""

from __future__ import annotations

import json
import mmap
import os
import subprocess
import sys
import threading
from pathlib import Path

import numpy as np
import pytest
from ai_edge_litert.interpreter import Interpreter
from test_weights_mapping import _MEASURE  # the OpenVINO test's: compile, then one call
from tflite_writer import fully_connected

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError
from tosa_state.dialects.tfl.data_movement import PseudoConstOp
from tosa_state.frontends.openvino.weights import MAPPED_MIN_BYTES
from tosa_state.frontends.tflite import import_tflite
from tosa_state.resources import mapped, shared_weights

UNITS, DEPTH = 512, 1024  # a 2 MiB f32 weight
LAYOUTS = {"inside": (False, False), "after": (True, False), "after-unaligned": (True, True)}


def _model(path: Path, layout: str, units: int = UNITS, depth: int = DEPTH
           ) -> tuple[Path, np.ndarray, np.ndarray]:
    rng = np.random.default_rng(3)
    weight = rng.standard_normal((units, depth)).astype(np.float32)
    bias = rng.standard_normal(units).astype(np.float32)
    return fully_connected(path, weight, bias, *LAYOUTS[layout]), weight, bias


def _litert(path: Path, x: np.ndarray) -> np.ndarray:
    interpreter = Interpreter(model_path=str(path))
    interpreter.allocate_tensors()
    interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
    interpreter.invoke()
    return interpreter.get_tensor(interpreter.get_output_details()[0]["index"])


def _owner(array: np.ndarray) -> object:
    """What the memoryview at the bottom of an array's bases views (`.obj`)."""
    base: object = array
    while isinstance(base, np.ndarray):
        base = base.base
    assert isinstance(base, memoryview), base
    return base.obj


@pytest.mark.parametrize("layout", sorted(LAYOUTS))
def test_large_weight_is_used_in_place_and_matches_litert(tmp_path: Path, layout: str) -> None:
    path, weight, bias = _model(tmp_path / "fc.tflite", layout)
    assert weight.nbytes >= max(1 << 20, MAPPED_MIN_BYTES)
    aligned = layout != "after-unaligned"
    consts = {tuple(op.value.get_shape()): op.value for op in import_tflite(path).walk()
              if isinstance(op, PseudoConstOp)}
    assert mapped(consts[(UNITS, DEPTH)])  # over the mapping, or one aligned copy of it
    assert not mapped(consts[(UNITS,)])  # small: copied into its attribute
    view = consts[(UNITS, DEPTH)].data.data
    assert isinstance(view.obj, mmap.mmap) == aligned
    assert view.readonly and np.frombuffer(view, np.uint8).ctypes.data % 4 == 0

    compiled = ts.compile_model(path)
    # the weight, its reshapes and the transposed [1, K, N] the plan multiplies by: views
    # of the attribute's bytes (the file's mapping, or its one aligned copy), never copies
    weights = [c for c in compiled.executable.plan.constants
               if isinstance(c, np.ndarray) and c.size == weight.size]
    for array in weights:
        assert shared_weights(array) and not array.flags.writeable
        assert array.ctypes.data == weights[0].ctypes.data
        assert isinstance(_owner(array), mmap.mmap) == aligned
    (used,) = [c for c in weights if c.shape == (1, DEPTH, UNITS)]
    np.testing.assert_array_equal(used[0], weight.T)
    if aligned:  # at the weight's offset in the mapping of the file
        file_map = _owner(used)
        offset = path.read_bytes().find(weight.tobytes())
        assert used.ctypes.data - np.frombuffer(file_map, np.uint8).ctypes.data == offset

    request = compiled.create_infer_request()
    x = np.random.default_rng(4).standard_normal((1, DEPTH)).astype(np.float32)
    ours = request.infer({"x": x})[0]
    np.testing.assert_allclose(ours, x @ weight.T + bias, rtol=1e-5, atol=1e-4)
    np.testing.assert_allclose(ours, _litert(path, x), rtol=1e-5, atol=1e-4)


@pytest.mark.parametrize("layout", ["inside", "after-unaligned"])
def test_compiling_does_not_copy_the_weights(tmp_path: Path, layout: str) -> None:
    """32 MiB of weights, in a fresh process (after compiling a small model): compiling makes
    at most 0.3 N resident (the mapping is not touched) and numpy and Python allocate at most
    0.3 N (the weight is never copied into bytes or arrays); unaligned, 1.3 N (its one
    aligned copy, read from the file); after a call the weight is resident once (1.3 N).
    Before: the file read whole, every buffer copied, the weight transposed into a new
    constant (4 N measured)."""
    units, depth = 2048, 4096
    size = units * depth * 4
    bound = 0.3 if layout == "inside" else 1.3
    path, _, _ = _model(tmp_path / "big.tflite", layout, units, depth)
    small, _, _ = _model(tmp_path / "small.tflite", "inside", 4, 8)
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(path), str(depth), str(small),
                           "8"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["traced"] < bound * size, found
    assert found["compile"] < bound * size, found
    assert found["after_call"] < 1.3 * size, found


def test_buffer_past_the_end_of_the_file_is_one_clean_error(tmp_path: Path) -> None:
    """A file cut inside a buffer stored after the flatbuffer: the error names the buffer."""
    path, _, _ = _model(tmp_path / "fc.tflite", "after")
    path.write_bytes(path.read_bytes()[:-100])
    with pytest.raises(TosaStateError) as info:
        import_tflite(path)
    assert str(info.value).startswith(f"{path}: error: operator #0 (FULLY_CONNECTED) in "
                                      "subgraph 'main': buffer 2 ["), info.value
    assert "lies outside the file" in str(info.value) and "\n" not in str(info.value)


def test_a_file_that_cannot_be_mapped_is_read(tmp_path: Path) -> None:
    """A named pipe cannot be mapped: its bytes are read, and an unaligned buffer is copied
    from them (not read again from the file, which a pipe cannot give twice)."""
    source, weight, bias = _model(tmp_path / "fc.tflite", "after-unaligned")
    pipe = tmp_path / "pipe.tflite"
    os.mkfifo(pipe)
    writer = threading.Thread(target=lambda: pipe.write_bytes(source.read_bytes()))
    writer.start()
    try:
        module = import_tflite(pipe)
    finally:
        writer.join(timeout=60)
    (attr,) = [op.value for op in module.walk()
               if isinstance(op, PseudoConstOp) and op.value.get_shape() == (UNITS, DEPTH)]
    assert mapped(attr) and isinstance(attr.data.data.obj, np.ndarray)  # the aligned copy
    compiled = ts.compile_model(module)
    x = np.ones((1, DEPTH), np.float32)
    np.testing.assert_allclose(compiled.create_infer_request().infer({"x": x})[0],
                               x @ weight.T + bias, rtol=1e-5, atol=1e-4)
