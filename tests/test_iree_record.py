"""Device `iree`'s compile record (`devices/iree_record.py`): a second `compile_model` of the
same files and options reads neither the model nor converts it, runs the same `.vmfb` with
the same weights (mapped from the `.bin`), and keeps every runtime feature; a changed
weight, a changed option, a damaged or foreign record is a miss, compiled as before."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import llm_models
import numpy as np
import pytest
from test_iree_device import artifact_cache  # noqa: F401  (autouse: IREE's artifacts in pytest's cache)
from test_iree_parameters import accumulator, steps
from xdsl.dialects.builtin import ModuleOp

import tosa_state as ts
import tosa_state.api
from tosa_state.devices import iree_record
from tosa_state.devices.trusted_cache import publish

pytestmark = pytest.mark.peers

STATIC = {"capacity": 64, "prefill_chunk": 8, "batch": 2}
"""`tests/test_static_entries.py`'s device `iree` Llama: one `.vmfb` for both files."""


class Reads:
    """Counts the models `compile_model` reads (a hit reads none)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch):
        self.count = 0
        original = tosa_state.api.read_model_file

        def counted(*args: Any) -> Any:
            self.count += 1
            return original(*args)

        monkeypatch.setattr(tosa_state.api, "read_model_file", counted)


def _key(xml: Path, static_state: Any = None) -> str:
    """The record key `compile_model(xml, device="iree", static_state=...)` uses."""
    from tosa_state.devices.iree_compile import DECODER_FLAGS, DEFAULT_FLAGS
    from tosa_state.transforms.static_entries import StaticEntries

    sizes = None if static_state is None else StaticEntries.of(static_state)
    key = iree_record.record_key(xml, {
        "pipeline": ts.devices.DEFAULT_PIPELINES["iree"], "entry": None, "input_shapes": None,
        "static_state": sizes, "portable": False, "inline_weights": False,
        "flags": DEFAULT_FLAGS, "decoder_flags": DECODER_FLAGS})
    assert key is not None
    return key


def _record(key: str) -> Path:
    return iree_record._path(key)


def _forget(key: str) -> None:
    """No record of `key` (the `.vmfb` stays: a miss compiles nothing new)."""
    path = _record(key)
    for file in (path, path.with_name(path.name + ".sha256")):
        file.unlink(missing_ok=True)


def _generate(compiled: ts.CompiledModel) -> list[np.ndarray]:
    """Logits of a 5-token prompt (a padded prefill chunk) and two decode steps; the same
    after `reset_state()`; then the state read, set back and a step from it."""
    request = compiled.create_infer_request()
    tokens = llm_models.prompt(2, 5, seed=3)
    logits = []
    for _ in range(2):
        request.reset_state()
        past = 0
        for step in (tokens, np.array([[7], [9]]), np.array([[11], [4]])):
            logits.append(request.infer(llm_models.step_inputs(step, past))["logits"])
            past += step.shape[1]
    saved = {s.name: s.state for s in request.query_state()}
    request.reset_state()
    for state in request.query_state():
        state.state = saved[state.name]
    logits.append(request.infer(llm_models.step_inputs(np.array([[5], [6]]), past))["logits"])
    return logits


def test_a_hit_runs_the_static_decoder_without_converting_it(
        llm_exports: dict[str, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    xml = llm_exports["llama"]
    _forget(_key(xml, STATIC))
    reads = Reads(monkeypatch)
    missed = ts.compile_model(xml, device="iree", static_state=STATIC)
    assert reads.count == 1 and _record(_key(xml, STATIC)).is_file()
    hit = ts.compile_model(xml, device="iree", static_state=STATIC)
    assert reads.count == 1  # neither read nor converted
    assert hit.executable.vmfb == missed.executable.vmfb
    assert (hit.inputs, hit.outputs, hit.static) == (missed.inputs, missed.outputs,
                                                     missed.static)
    assert [(s.name, s.shape, s.dtype) for s in hit.variables] == [
        (s.name, s.shape, s.dtype) for s in missed.variables]
    for got, want in zip(_generate(hit), _generate(missed), strict=True):
        np.testing.assert_array_equal(got, want)  # the same .vmfb on the same inputs
    assert reads.count == 1
    assert isinstance(hit.module, ModuleOp) and reads.count == 2  # made again on demand


def test_weights_come_from_the_bin_and_a_changed_byte_misses(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xml = accumulator(tmp_path, seed=5)
    key = _key(xml)
    _forget(key)  # from an earlier run (the cache is pytest's)
    reads = Reads(monkeypatch)
    want = steps(ts.compile_model(xml))
    first = ts.compile_model(xml, device="iree")
    hit = ts.compile_model(xml, device="iree")
    assert reads.count == 2  # the interpreter's and the miss
    record = _record(key).read_bytes()
    assert record.count(b'"file": 0') == 0 and record.count(b'"file": 1') == 2  # both weights
    assert len(record) < 16 << 10  # their 512 KiB are the .bin's, not the record's
    np.testing.assert_array_equal(steps(hit), steps(first))
    np.testing.assert_allclose(steps(hit)[-1], want[-1], rtol=1e-5, atol=1e-5)
    weights = xml.with_suffix(".bin")
    data = bytearray(weights.read_bytes())
    data[len(data) // 2] ^= 0x40  # one byte of W1 or W2
    (tmp_path / "new.bin").write_bytes(bytes(data))
    (tmp_path / "new.bin").replace(weights)  # a new file (the old one stays mapped)
    assert _key(xml) != key
    _forget(_key(xml))
    changed = ts.compile_model(xml, device="iree")
    assert reads.count == 3  # a miss: converted again (and the same .vmfb reused)
    assert changed.executable.vmfb == first.executable.vmfb
    assert not np.array_equal(steps(changed)[-1], steps(first)[-1])
    np.testing.assert_allclose(steps(changed)[-1], steps(ts.compile_model(xml))[-1],
                               rtol=1e-5, atol=1e-5)


def test_every_option_and_file_is_in_the_key(tmp_path: Path) -> None:
    xml = accumulator(tmp_path, seed=6)
    key = _key(xml, 64)
    assert key == _key(xml, 64)
    assert len({key, _key(xml), _key(xml, 65), _key(xml, {"capacity": 64, "batch": 2}),
                _key(xml, {"capacity": 64, "prefill_chunk": 8})}) == 5
    options = {"pipeline": "p", "entry": None, "input_shapes": None}
    keys = {iree_record.record_key(xml, {**options, **change}) for change in (
        {}, {"pipeline": "q"}, {"entry": "main"}, {"input_shapes": {"x": [1, 256]}},
        {"flags": ["--x"]})}
    assert len(keys) == 5
    shutil.copy(xml, tmp_path / "copy.xml")
    shutil.copy(xml.with_suffix(".bin"), tmp_path / "copy.bin")
    assert _key(tmp_path / "copy.xml", 64) == key  # the files' bytes, not their names
    with (tmp_path / "copy.xml").open("a") as stream:
        stream.write(" ")
    assert _key(tmp_path / "copy.xml", 64) != key
    assert iree_record.record_key(tmp_path / "model.onnx", options) is None


@pytest.mark.parametrize("damage", ["byte", "foreign", "garbled", "no vmfb"])
def test_a_damaged_or_foreign_record_is_compiled_again(
        damage: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    xml = accumulator(tmp_path / "a", seed=7)
    _forget(_key(xml))
    first = steps(ts.compile_model(xml, device="iree"))
    path = _record(_key(xml))
    if damage == "byte":  # its digest no longer matches
        data = bytearray(path.read_bytes())
        data[len(data) // 2] ^= 1
        path.write_bytes(bytes(data))
    elif damage == "foreign":  # another model's record, with its right digest, under this key
        other = accumulator(tmp_path / "b", seed=8)
        ts.compile_model(other, device="iree")
        shutil.copy(_record(_key(other)), path)
        shutil.copy(_record(_key(other)).with_suffix(".record.sha256"),
                    path.with_suffix(".record.sha256"))
    elif damage == "garbled":  # checked by its digest, but not JSON nor a record
        publish(path, lambda partial: partial.write_bytes(
            iree_record.MAGIC + (4).to_bytes(8, "little") + b"{]}\0"))
    else:
        vmfb = ts.compile_model(xml, device="iree").executable.vmfb
        vmfb.with_name(vmfb.name + ".sha256").unlink()
    reads = Reads(monkeypatch)
    again = ts.compile_model(xml, device="iree")
    assert reads.count == 1  # a miss, compiled as without a record
    np.testing.assert_array_equal(steps(again), first)
    assert reads.count == 1 and ts.compile_model(xml, device="iree") is not None
    assert reads.count == 1  # the record written again: a hit
