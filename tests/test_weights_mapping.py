"""Weights mapped, not copied (`frontends/openvino/weights.py`): an OpenVINO model's large
constants are used in place in the mapped `.bin` (or, at an unaligned offset, in one
aligned copy), through import, conversion (a transposed weight stays the file's bytes) and
the plan; compiling a model of N bytes of weights stays far below the 2-3 N it took when
they were read, copied into attributes, transposed and copied again."""

from __future__ import annotations

import json
import mmap
import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import openvino.opset13 as ops
import pytest
from openvino_models import edit_xml, save

import tosa_state
from tosa_state.dialects import openvino as ov_dialect
from tosa_state.file_slices import file_slice
from tosa_state.frontends.openvino.weights import MAPPED_MIN_BYTES
from tosa_state.resources import mapped


def _matmul_model(directory: Path, rows: int, cols: int, misaligned: bool = False) -> Path:
    """`y = x @ W^T + b` (OpenVINO's MatMul with transpose_b, as an LLM export's), W f32
    [rows, cols] random, b small; `misaligned`: every offset in the `.bin` moved by one byte
    (as an export whose first constant is one byte long)."""
    import openvino as ov

    rng = np.random.default_rng(0)
    weights = rng.standard_normal((rows, cols)).astype(np.float32)
    bias = rng.standard_normal((1, rows)).astype(np.float32)
    x = ops.parameter([1, cols], np.float32, name="x")
    y = ops.add(ops.matmul(x, ops.constant(weights), False, True), ops.constant(bias))
    xml = save(ov.Model([y], [x], "matmul"), directory, "aligned")
    if misaligned:
        xml = edit_xml(xml, directory, name="misaligned",
                       text=lambda s: re.sub(r'offset="(\d+)"',
                                             lambda m: f'offset="{int(m[1]) + 1}"', s),
                       weights=lambda data: b"\0" + data)
    return xml


@pytest.mark.parametrize("misaligned", [False, True])
def test_large_constants_are_mapped_and_run(tmp_path: Path, misaligned: bool) -> None:
    xml = _matmul_model(tmp_path, 256, 128, misaligned)
    module = tosa_state.read_model(xml)
    constants = {
        tuple(op.value.get_shape()): op.value
        for op in module.walk() if isinstance(op, ov_dialect.ConstantOp)
    }
    assert MAPPED_MIN_BYTES <= 256 * 128 * 4
    assert mapped(constants[(256, 128)])
    assert not mapped(constants[(1, 256)])  # small: copied into its attribute
    view = constants[(256, 128)].data.data
    assert isinstance(view.obj, mmap.mmap)
    # where its bytes are in the file (device iree's compile record maps them from there)
    source = file_slice(view)
    assert source is not None and source[0] == xml.with_suffix(".bin").resolve()
    assert source[1] % 4 == (1 if misaligned else 0)
    assert xml.with_suffix(".bin").read_bytes()[source[1]:source[1] + view.nbytes] == view
    assert file_slice(memoryview(bytes(view))) is None  # a copy is no file's
    rng = np.random.default_rng(0)
    weights = rng.standard_normal((256, 128)).astype(np.float32)
    bias = rng.standard_normal((1, 256)).astype(np.float32)
    x = rng.standard_normal((1, 128)).astype(np.float32)
    got = tosa_state.compile_model(xml).create_infer_request().infer({"x": x})[0]
    np.testing.assert_allclose(got, x @ weights.T + bias, rtol=1e-5, atol=1e-5)


_MEASURE = """
import json, resource, sys, tracemalloc
import numpy as np
import tosa_state

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

# a small model first: what compiling imports and caches is not the weights
tosa_state.compile_model(sys.argv[3]).create_infer_request().infer(
    {"x": np.ones((1, int(sys.argv[4])), np.float32)})
before = rss()
tracemalloc.start()
compiled = tosa_state.compile_model(sys.argv[1])
request = compiled.create_infer_request()
traced = tracemalloc.get_traced_memory()[1]
tracemalloc.stop()
compiled_rss = rss()
request.infer({"x": np.ones((1, int(sys.argv[2])), np.float32)})
print(json.dumps({"compile": compiled_rss - before, "traced": traced,
                  "after_call": rss() - before}))
"""


@pytest.mark.parametrize("misaligned", [False, True])
def test_compiling_does_not_copy_the_weights(tmp_path: Path, misaligned: bool) -> None:
    """48 MiB of weights, in a fresh process (after compiling a small model): compiling adds at most 0.3 N resident (the
    mapping is not touched; an unaligned file: 1.3 N, its one aligned copy), numpy and
    Python allocate at most 0.3 N (the constant is never copied into bytes or arrays), and
    after a call the weights are resident once (1.3 N). Before: 3 N and more."""
    rows, cols = 3072, 4096
    size = rows * cols * 4
    xml = _matmul_model(tmp_path, rows, cols, misaligned)
    (tmp_path / "small").mkdir()
    small = _matmul_model(tmp_path / "small", 4, 8)
    done = subprocess.run([sys.executable, "-c", _MEASURE, str(xml), str(cols), str(small), "8"],
                          capture_output=True, text=True, check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-3000:]
    found = json.loads(done.stdout.strip().splitlines()[-1])
    assert found["traced"] < 0.3 * size, found
    assert found["compile"] < (1.3 if misaligned else 0.3) * size, found
    assert found["after_call"] < 1.3 * size, found


def test_a_weights_file_ending_while_its_unaligned_constants_are_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The aligned copies are read on a thread of their own while the import goes on; a read
    that comes back short (the file cut meanwhile) or fails is an import error naming the
    file, not a model computing on zeros."""
    from tosa_state.diagnostics import ModelImportError
    from tosa_state.frontends.openvino import weights

    xml = _matmul_model(tmp_path, 256, 128, misaligned=True)
    monkeypatch.setattr(weights, "read_into", lambda path, offset, view: len(view) - 1)
    with pytest.raises(ModelImportError, match=r"misaligned\.xml: error: the weights file "
                                               r"'.*misaligned\.bin' ended while reading it"):
        tosa_state.read_model(xml)

    def failing(path: object, offset: int, view: memoryview) -> int:
        raise OSError(5, "Input/output error")

    monkeypatch.setattr(weights, "read_into", failing)
    with pytest.raises(ModelImportError, match=r"cannot read the weights file "
                                               r"'.*misaligned\.bin': Input/output error"):
        tosa_state.read_model(xml)
