"""Run-time failures name what the user controls: the OpenVINO layer (id, name, type) of
the failing op, whatever failed, and the model input when the bad values come straight
from one; long values are capped. Checked through the Python API and `tosa-state-run`, on
OpenVINO models built at test time."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
import tflite
from test_openvino_dynamic import empty_cache
from test_tflite_errors import MODELS, _constant_tensor, _patched, _vector_element

import tosa_state as ts
from tosa_state.diagnostics import brief
from tosa_state.frontends.tflite import import_tflite

BIN = Path(sys.executable).parent
LEVELS = [None, ""]
"""The default pipeline (memref) and TOSA as it is."""
DEVICES = [*LEVELS, "iree"]
"""Those, and device `iree` (which replays a failed call on the interpreter for its message)."""


def _compile(xml: Path, level: str | None) -> ts.CompiledModel:
    """`xml` at a level of the interpreter, or on device `iree`."""
    if level == "iree":
        return ts.compile_model(xml, device="iree")
    return ts.compile_model(xml, pipeline=level)


def _i64(*values: int) -> object:
    return ops.constant(np.array(values, np.int64))


def beam_model() -> object:
    """A cache `kv: [?, 2, ?, 4]` reordered by `beam_idx` (a Gather on axis 0, as an
    optimum-intel decoder's), grown by `x` along time; output: the sum over time."""
    x = ops.parameter([-1, 2, -1, 4], np.float32, name="x")
    beam_idx = ops.parameter([-1], np.int32, name="beam_idx")
    reordered = ops.gather(empty_cache(x), beam_idx, ops.constant(np.int64(0)))
    reordered.set_friendly_name("reorder_kv")
    both = ops.concat([reordered, x], 2)
    total = ops.reduce_sum(both, _i64(2), False)
    return ov.Model([ops.result(total, name="sum")], [ops.assign(both, "kv")],
                    [x, beam_idx], "beam")


VOCABULARY = 11


def embedding_model() -> object:
    """An embedding lookup of `input_ids: [?, ?]` in a table of `VOCABULARY` rows."""
    ids = ops.parameter([-1, -1], np.int64, name="input_ids")
    table = np.random.default_rng(1).standard_normal((VOCABULARY, 6)).astype(np.float32)
    embedded = ops.gather(ops.constant(table), ids, ops.constant(np.int64(0)))
    embedded.set_friendly_name("embed_tokens")
    return ov.Model([ops.result(ops.softmax(embedded, -1), name="out")], [ids], "embedding")


def _save(model: object, directory: Path, name: str) -> Path:
    xml = directory / f"{name}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _layer(xml: Path, name: str) -> str:
    """`xml:line:3: error: layer id=N name='name' type='Gather' (opset8): ` of layer `name`."""
    for number, line in enumerate(xml.read_text().splitlines(), 1):
        if (found := re.match(rf'(\s*)<layer id="(\d+)" name="{name}" type="(\w+)" '
                              rf'version="(\w+)"', line)) is not None:
            indent, layer_id, type_, version = found.groups()
            return (f"{xml}:{number}:{len(indent) + 1}: error: layer id={layer_id} "
                    f"name='{name}' type='{type_}' ({version}): ")
    raise AssertionError(f"no layer named {name}")


def _cache(batch: int, length: int) -> np.ndarray:
    return np.ones((batch, 2, length, 4), np.float32)


@pytest.mark.parametrize("pipeline", DEVICES)
def test_beam_idx_out_of_range_names_the_layer_and_the_input(
    tmp_path: Path, pipeline: str | None
) -> None:
    xml = _save(beam_model(), tmp_path, "beam")
    request = _compile(xml, pipeline).create_infer_request()
    request.infer([_cache(1, 3), np.zeros(1, np.int32)])
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([_cache(1, 1), np.array([5], np.int32)])
    assert str(caught.value) == _layer(xml, "reorder_kv") + (
        "input 'beam_idx' [5] is out of range for a dimension of size 1 (valid: -1 to 0)")
    # The request keeps its state and stays usable.
    assert request.query_state()[0].state.shape == (1, 2, 3, 4)
    np.testing.assert_array_equal(request.infer([_cache(1, 1), np.zeros(1, np.int32)])[0],
                                  np.full((1, 2, 4), 4, np.float32))


@pytest.mark.parametrize("pipeline", DEVICES)
def test_token_beyond_the_vocabulary_names_the_layer_and_the_input(
    tmp_path: Path, pipeline: str | None
) -> None:
    xml = _save(embedding_model(), tmp_path, "embedding")
    request = _compile(xml, pipeline).create_infer_request()
    layer = _layer(xml, "embed_tokens")
    for ids, bad in (([[1, 50000, 2, 50000]], "[50000]"), ([[1, -12, 3]], "[-12]")):
        with pytest.raises(ts.TosaStateError) as caught:
            request.infer([np.array(ids, np.int64)])
        assert str(caught.value) == layer + (
            f"input 'input_ids' {bad} is out of range for a dimension of size {VOCABULARY} "
            f"(valid: -{VOCABULARY} to {VOCABULARY - 1})")
    # Many bad ids: the message shows the first ones and how many there are.
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.arange(100, 1100, dtype=np.int64).reshape(2, 500)])
    message = str(caught.value)
    assert message.startswith(layer + "input 'input_ids' [100, 101, 102, ")
    assert "... (1000 in all)] is out of range" in message and len(message) < len(layer) + 200
    # Negative ids count from the end, as OpenVINO's Gather-8.
    assert request.infer([np.array([[-1, VOCABULARY - 1]], np.int64)])[0].shape == (1, 2, 6)


def test_a_computed_index_out_of_range_names_the_layer_not_an_input(tmp_path: Path) -> None:
    """An index computed from an input (ids + 7) is not the input's value: the kernel's
    message, with the layer."""
    ids = ops.parameter([1, 3], np.int64, name="input_ids")
    shifted = ops.add(ids, _i64(7))
    table = np.zeros((VOCABULARY, 2), np.float32)
    embedded = ops.gather(ops.constant(table), shifted, ops.constant(np.int64(0)))
    embedded.set_friendly_name("lookup")
    xml = _save(ov.Model([ops.result(embedded, name="out")], [ids], "shifted"), tmp_path,
                "shifted")
    request = ts.compile_model(xml).create_infer_request()
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.array([[0, 3, 5]], np.int64)])
    assert str(caught.value) == _layer(xml, "lookup") + (
        "'tosa.gather' op index out of range: indices must be in [0, 11), got values from 7 "
        "to 12")


def test_run_tool_prints_one_line_and_no_output(tmp_path: Path) -> None:
    xml = _save(beam_model(), tmp_path, "beam")
    np.savez(tmp_path / "in.npz", **{"x@0": _cache(1, 2), "beam_idx@0": np.zeros(1, np.int32),
                                     "x@1": _cache(1, 1), "beam_idx@1": np.array([0, 3], np.int32)})
    result = subprocess.run([str(BIN / "tosa-state-run"), str(xml), "--inputs", "in.npz",
                             "-o", "out.npz", "-q"],
                            cwd=tmp_path, capture_output=True, text=True, check=False)
    assert result.returncode == 1, result
    assert result.stdout == ""
    # One line, and the tool's note saying which step failed.
    assert result.stderr.splitlines() == [_layer(xml, "reorder_kv") + (
        "input 'beam_idx' [3] is out of range for a dimension of size 1 (valid: -1 to 0)"),
        "note: at step 1"]
    assert not (tmp_path / "out.npz").exists()


@pytest.mark.parametrize(("value", "text"), [
    ([1, 2, 3], "[1, 2, 3]"),
    ((5,), "(5,)"),
    (np.arange(3), "[0, 1, 2]"),
    (list(range(3000)), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ... "
                        "(3000 in all)]"),
    (np.arange(10**6), "[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, ... "
                       "(1000000 in all)]"),
    ("x" * 500, "x" * 37 + " ... " + "x" * 37),
])
def test_brief_caps_long_values(value: object, text: str) -> None:
    assert brief(value) == text
    assert len(brief(value)) <= 85


def test_a_corrupt_tflite_shape_is_capped(tmp_path: Path) -> None:
    """A tensor whose shape vector claims every int left in the file (59 of them, garbage
    from offset 1256 on): the message shows the first dims and how many there are."""
    original = (MODELS / "dense.tflite").read_bytes()
    start = _vector_element(_constant_tensor(tflite.Model.GetRootAsModel(original, 0)), 4, 0)
    rank = (len(original) - start) // 4
    path = tmp_path / "model.tflite"
    path.write_bytes(_patched("dense", lambda m: _vector_element(_constant_tensor(m), 4, -1),
                              "<I", rank))
    with pytest.raises(ts.TosaStateError) as caught:
        import_tflite(path)
    message = str(caught.value)
    assert message.startswith(f"{path}: error: subgraph 'main': tensor #2 "), message
    assert "has shape [5, 7, -78, " in message and f", ... ({rank} in all)]: tosa-state " \
        "takes ranks <= 8" in message, message
    assert len(message) < len(str(path)) + 250, message


def test_our_own_kernel_errors_name_the_layer_too(tmp_path: Path) -> None:
    """An integer Divide by a zero input: the kernel's own error, with the layer."""
    a, b = (ops.parameter([3], np.int32, name=n) for n in "ab")
    ratio = ops.divide(a, b)
    ratio.set_friendly_name("ratio")
    xml = _save(ov.Model([ops.result(ratio, name="out")], [a, b], "div"), tmp_path, "div")
    request = ts.compile_model(xml).create_infer_request()
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.array([1, 2, 3], np.int32), np.array([1, 0, 1], np.int32)])
    assert str(caught.value) == _layer(xml, "ratio") + "'tosa.intdiv' op division by zero"


CALLS = """\
func.func @lookup(%t: tensor<1x4x2xf32>, %i: tensor<1x3xi32>) -> tensor<1x3x2xf32> {
  %r = tosa.gather %t, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %r : tensor<1x3x2xf32>
}
func.func @main(%t: tensor<1x4x2xf32>, %ids: tensor<1x3xi32>) -> tensor<1x3x2xf32> {
  %r = func.call @lookup(%t, %ids) : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %r : tensor<1x3x2xf32>
}
"""


def test_a_called_function_reports_its_op_once(tmp_path: Path) -> None:
    """The failing op is in a called function: its location, once; the callee's argument
    is not a model input (only the entry's arguments are named)."""
    path = tmp_path / "calls.mlir"
    path.write_text(CALLS)
    request = ts.compile_model(path, entry="main").create_infer_request()
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.zeros((1, 4, 2), np.float32), np.array([[0, 9, 1]], np.int32)])
    assert str(caught.value) == (
        f"{path}:2:3: error: 'tosa.gather' op index out of range: indices must be in [0, 4), "
        "got values from 0 to 9")


CAST_INDICES = """\
func.func @main(%t: tensor<1x4x2xf32>, %ids: tensor<3xi8>) -> tensor<1x3x2xf32> {
  %wide = tosa.cast %ids : (tensor<3xi8>) -> tensor<3xi32>
  %s = tosa.const_shape {values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %i = tosa.reshape %wide, %s : (tensor<3xi32>, !tosa.shape<2>) -> tensor<1x3xi32>
  %r = tosa.gather %t, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %r : tensor<1x3x2xf32>
}
"""


def test_indices_through_a_cast_and_a_reshape_name_the_input(tmp_path: Path) -> None:
    path = tmp_path / "cast.mlir"
    path.write_text(CAST_INDICES)
    request = ts.compile_model(path).create_infer_request()
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.zeros((1, 4, 2), np.float32), np.array([7, 0, -3], np.int8)])
    assert str(caught.value) == (
        f"{path}:5:3: error: 'tosa.gather' op: input 'ids' [-3, 7] is out of range for a "
        "dimension of size 4 (valid: 0 to 3)")


def test_data_from_an_input_indexed_out_of_range_names_that_input(tmp_path: Path) -> None:
    """A mask shorter than the positions that index it (as an LLM's `attention_mask`
    shorter than its cache): the indices are computed, the data is the input's."""
    mask = ops.parameter([1, -1], np.int64, name="attention_mask")
    positions = ops.parameter([-1], np.int64, name="position_ids")
    picked = ops.gather(ops.convert(mask, np.float32), ops.add(positions, _i64(1)),
                        ops.constant(np.int64(1)))
    picked.set_friendly_name("pick")
    xml = _save(ov.Model([ops.result(picked, name="out")], [mask, positions], "mask"),
                tmp_path, "mask")
    request = ts.compile_model(xml).create_infer_request()
    np.testing.assert_array_equal(
        request.infer([np.array([[1, 0, 1]], np.int64), np.array([1, 0], np.int64)])[0],
        np.array([[1, 0]], np.float32))
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer([np.ones((1, 3), np.int64), np.arange(5, dtype=np.int64)])
    assert str(caught.value) == _layer(xml, "pick") + (
        "input 'attention_mask' (shape [1, 3]) is indexed out of range: indices must be in "
        "[0, 3), got values from 1 to 5")
