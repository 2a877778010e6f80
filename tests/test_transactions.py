"""A call is a transaction: if it raises, every variable holds what it held before (values,
shapes, the length of a cache appended in place) and the next correct call returns what it
would have returned without the failed one. At each level of the interpreter (TOSA, memref,
ml_program), for each way a call can fail after a state write: a run-time broadcast
mismatch, an out-of-range gather, a dynamic dimension that disagrees, and a
`KeyboardInterrupt` raised at every line the call runs; on a growing cache, a streaming
model and optimum-intel's tiny Llama (the mask-one-short step of issue 27)."""

from __future__ import annotations

import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import llm_models
import numpy as np
import openvino as ov
import openvino.opset13 as ops
import pytest
from test_openvino_dynamic import empty_cache

import tosa_state as ts
from tosa_state.devices import OPTIMIZATIONS

LEVELS = {"memref": None, "tosa": "", "ml_program": f"{OPTIMIZATIONS},tosa-to-mlprogram"}
"""The default pipeline (memref), TOSA as it is, and ml_program after the optimisations."""
DEVICES = [*LEVELS, "iree"]
"""The interpreter's levels and device `iree` (its default pipeline: ml_program)."""

_INTERPRETER = str(Path(ts.__file__).parent / "interpreter")


def _i64(*values: int) -> object:
    return ops.constant(np.array(values, np.int64))


def growing_model() -> object:
    """A cache `kv: [?, 2, ?, 4]` reordered by `beam` (a Gather on the batch: at the memref
    level the reordered past is copied over the buffer's used corner), grown by `x` along
    time and written; after the write, three ops that fail on bad inputs: `both * m` (a
    run-time broadcast), a gather of `both` along time at `idx` (out of range) and a concat of
    `both` with `z` along heads (time must agree: a dynamic dimension)."""
    x = ops.parameter([-1, 2, -1, 4], np.float32, name="x")
    beam = ops.parameter([-1], np.int32, name="beam")
    m = ops.parameter([-1, 2, -1, 4], np.float32, name="m")
    idx = ops.parameter([-1], np.int32, name="idx")
    z = ops.parameter([-1, 1, -1, 4], np.float32, name="z")
    both = ops.concat([ops.gather(empty_cache(x), beam, ops.constant(np.int64(0))), x], 2)
    scaled = ops.multiply(both, m)
    scaled.set_friendly_name("scale")
    picked = ops.gather(both, idx, ops.constant(np.int64(2)))
    picked.set_friendly_name("pick")
    joined = ops.concat([both, z], 1)
    joined.set_friendly_name("join")
    return ov.Model([ops.result(scaled, name="scaled"), ops.result(picked, name="picked"),
                     ops.result(joined, name="joined")], [ops.assign(both, "kv")],
                    [x, beam, m, idx, z], "growing")


def streaming_model() -> object:
    """A filter keeping its last 3 frames `h: [1, 4, 3]`: `window = concat(h, x)`, `h` takes
    its last 3 frames, and the output `window * g` fails when `g`'s length is not 4."""
    x = ops.parameter([1, 4, 1], np.float32, name="x")
    g = ops.parameter([1, 4, -1], np.float32, name="g")
    history = ops.read_value(ops.constant(np.zeros((1, 4, 3), np.float32)), "h",
                             np.float32, ov.PartialShape([1, 4, 3]))
    window = ops.concat([history, x], 2)
    kept = ops.slice(window, _i64(1), _i64(4), _i64(1), _i64(2))
    out = ops.multiply(window, g)
    out.set_friendly_name("gain")
    return ov.Model([ops.result(out, name="out")], [ops.assign(kept, "h")], [x, g],
                    "streaming")


def _growing_inputs(length: int, rng: np.random.Generator, **bad: Any) -> dict[str, Any]:
    """A correct call appending 2 steps to a cache of `length` (batch 2, its rows swapped),
    but for `bad`."""
    inputs = {
        "x": rng.standard_normal((2, 2, 2, 4)).astype(np.float32),
        "beam": np.array([1, 0], np.int32),
        "m": rng.standard_normal((2, 2, length + 2, 4)).astype(np.float32),
        "idx": np.array([0, length + 1], np.int32),
        "z": rng.standard_normal((2, 1, length + 2, 4)).astype(np.float32),
    }
    return {**inputs, **bad}


def _streaming_inputs(rng: np.random.Generator, **bad: Any) -> dict[str, Any]:
    inputs = {"x": rng.standard_normal((1, 4, 1)).astype(np.float32),
              "g": rng.standard_normal((1, 4, 4)).astype(np.float32)}
    return {**inputs, **bad}


def snapshot(request: ts.InferRequest) -> dict[str, np.ndarray]:
    return {state.name: state.state for state in request.query_state()}


def assert_same_state(before: dict[str, np.ndarray], after: dict[str, np.ndarray]) -> None:
    assert before.keys() == after.keys()
    for name, value in before.items():
        assert after[name].shape == value.shape, name
        assert after[name].dtype == value.dtype, name
        np.testing.assert_array_equal(after[name], value, err_msg=name)


def assert_no_op(request: ts.InferRequest, twin: ts.InferRequest, bad: Callable[[], object],
                 good: dict[str, Any], error: type[BaseException] = ts.TosaStateError
                 ) -> None:
    """`bad()` raises `error` on `request` and changes none of its state; then `good` gives
    on `request` exactly what it gives on `twin`, which never saw the failed call."""
    before = snapshot(request)
    with pytest.raises(error):
        bad()
    assert_same_state(before, snapshot(request))
    for ours, theirs in zip(request.infer(good), twin.infer(good), strict=True):
        np.testing.assert_array_equal(ours, theirs)
    assert_same_state(snapshot(twin), snapshot(request))


@pytest.fixture(scope="module")
def growing_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    xml = tmp_path_factory.mktemp("growing") / "growing.xml"
    ov.save_model(growing_model(), str(xml), compress_to_fp16=False)
    return xml


@pytest.fixture(scope="module")
def streaming_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    xml = tmp_path_factory.mktemp("streaming") / "streaming.xml"
    ov.save_model(streaming_model(), str(xml), compress_to_fp16=False)
    return xml


def _pair(xml: Path, level: str) -> tuple[ts.InferRequest, ts.InferRequest]:
    """Two requests of `xml` at `level` (or on device `iree`)."""
    if level == "iree":
        compiled = ts.compile_model(xml, device="iree")
    else:
        compiled = ts.compile_model(xml, pipeline=LEVELS[level])
    return compiled.create_infer_request(), compiled.create_infer_request()


def _refused(request: ts.InferRequest, inputs: dict[str, Any]) -> str:
    """The message of the error `inputs` raise."""
    with pytest.raises(ts.TosaStateError) as caught:
        request.infer(inputs)
    return str(caught.value)


@pytest.mark.parametrize("level", DEVICES)
@pytest.mark.parametrize("failure, bad, message", [
    ("broadcast", lambda n, rng: {"m": np.ones((2, 2, n + 1, 4), np.float32)}, "'scale'"),
    ("gather", lambda n, rng: {"idx": np.array([n + 2], np.int32)}, "'pick'"),
    ("dynamic dim", lambda n, rng: {"z": np.ones((2, 1, n + 3, 4), np.float32)}, "'join'"),
])
def test_a_failure_after_the_write_leaves_the_growing_cache(
    growing_xml: Path, level: str, failure: str, bad: Callable, message: str
) -> None:
    """Refused, with the interpreter's (default level's) message on every level and device."""
    request, twin = _pair(growing_xml, level)
    interpreter = _pair(growing_xml, "memref")[0] if level != "memref" else None
    rng = np.random.default_rng(0)
    length = 0
    for _ in range(6):  # past several regrowths of the memref level's buffer
        inputs = _growing_inputs(length, rng)
        for each in (request, twin, interpreter):
            if each is not None:
                each.infer(inputs)
        length += 2
        # each failure at every length: the buffer full and with room to spare
        wrong = _growing_inputs(length, rng, **bad(length, rng))
        refused = _refused(request, wrong)
        assert message in refused
        if interpreter is not None:
            assert refused == _refused(interpreter, wrong)
        assert request.query_state()[0].state.shape == (2, 2, length, 4)
    assert_no_op(request, twin, lambda: request.infer(
        _growing_inputs(length, rng, **bad(length, rng))), _growing_inputs(length, rng))


@pytest.mark.parametrize("level", DEVICES)
def test_a_failure_after_the_write_leaves_the_streaming_state(streaming_xml: Path,
                                                              level: str) -> None:
    request, twin = _pair(streaming_xml, level)
    rng = np.random.default_rng(1)
    for _ in range(4):
        inputs = _streaming_inputs(rng)
        request.infer(inputs)
        twin.infer(inputs)
        assert_no_op(request, twin, lambda: request.infer(
            _streaming_inputs(rng, g=np.ones((1, 4, 3), np.float32))), _streaming_inputs(rng))


class _Interrupt:
    """A tracer raising `KeyboardInterrupt` at the `at`-th line the interpreter runs inside a
    call's plan (its generated code and the interpreter's functions it calls: the state's
    kernels and journal included); `lines` counts them."""

    def __init__(self, at: int | None = None):
        self.at, self.lines = at, 0

    def __enter__(self) -> _Interrupt:
        sys.settrace(self._call)
        return self

    def __exit__(self, *exc: object) -> None:
        sys.settrace(None)

    def _call(self, frame: Any, event: str, arg: object) -> Any:
        if not frame.f_code.co_filename.startswith((_INTERPRETER, "<plan ")):
            return None
        inside = frame  # a plan's frame or a frame the plan called
        while inside is not None and not inside.f_code.co_filename.startswith("<plan "):
            inside = inside.f_back
        return None if inside is None else self._line

    def _line(self, frame: Any, event: str, arg: object) -> Any:
        if event == "line":
            self.lines += 1
            if self.lines == self.at:
                raise KeyboardInterrupt
        return self._line


def _interrupted_everywhere(request: ts.InferRequest, twin: ts.InferRequest,
                            inputs: Callable[[], dict[str, Any]], every: int = 1) -> int:
    """Interrupt a call at each `every`-th line it runs: each time the state is unchanged
    and the next call equals the twin's. Returns the number of lines of a call."""
    with _Interrupt() as counting:
        given = inputs()
        request.infer(given)
    twin.infer(given)
    lines = counting.lines
    assert lines > 10
    for at in range(1, lines + 1, every):
        given = inputs()

        def interrupted(at: int = at, given: dict[str, Any] = given) -> None:
            with _Interrupt(at):
                request.infer(given)

        assert_no_op(request, twin, interrupted, given, KeyboardInterrupt)
    return lines


@pytest.mark.parametrize("level", LEVELS)
def test_an_interrupted_call_leaves_the_growing_cache(growing_xml: Path, level: str) -> None:
    request, twin = _pair(growing_xml, level)
    rng = np.random.default_rng(2)
    length = [0]

    def inputs() -> dict[str, Any]:  # every correct call appends 2 steps
        given = _growing_inputs(length[0], rng)
        length[0] += 2
        return given

    for _ in range(3):
        given = inputs()
        request.infer(given)
        twin.infer(given)
    # a stride co-prime with a call's lines: over the calls, each point is hit
    _interrupted_everywhere(request, twin, inputs, every=1 if level != "memref" else 3)


@pytest.mark.parametrize("level", LEVELS)
def test_an_interrupted_call_leaves_the_streaming_state(streaming_xml: Path,
                                                        level: str) -> None:
    request, twin = _pair(streaming_xml, level)
    rng = np.random.default_rng(3)
    _interrupted_everywhere(request, twin, lambda: _streaming_inputs(rng))


@pytest.fixture(scope="module")
def llama(llm_exports: dict[str, Path]) -> Path:
    return llm_exports["llama"]


def _prompted(xml: Path, level: str) -> tuple[ts.InferRequest, ts.InferRequest]:
    """Two requests of the tiny Llama after the same prompt of 5 tokens."""
    request, twin = _pair(xml, level)
    first = llm_models.step_inputs(llm_models.prompt(1, 5, seed=5), 0)
    request.infer(first)
    twin.infer(first)
    return request, twin


@pytest.mark.parametrize("level", DEVICES)
def test_a_decode_step_with_the_mask_one_short_changes_nothing(llama: Path,
                                                               level: str) -> None:
    """Issue 27's scenario: refused with the Gather layer and the input named (on device
    `iree` as on the interpreter, word for word); the cache keeps its 5 positions and the
    next correct step equals a run without the bad one."""
    request, twin = _prompted(llama, level)
    bad = llm_models.step_inputs(np.array([[7]]), 5)
    bad["attention_mask"] = bad["attention_mask"][:, :-1]
    before = snapshot(request)
    refused = _refused(request, bad)
    assert re.search(r"type='Gather'.*input 'attention_mask' \(shape \[1, 5\]\) is indexed "
                     r"out of range: indices must be in \[0, 5\), got values from 0 to 5$",
                     refused), refused
    assert_same_state(before, snapshot(request))
    assert all(value.shape[2] == 5 for value in before.values())
    good = llm_models.step_inputs(np.array([[7]]), 5)
    np.testing.assert_array_equal(request.infer(good)["logits"], twin.infer(good)["logits"])
    assert_same_state(snapshot(twin), snapshot(request))


def test_after_a_cache_hit_the_mask_one_short_keeps_its_message(
        llama: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Device `iree` from its compile record (`devices/iree_record.py`: the model neither
    read nor converted) converts it on the first failed call, to name the layer as without
    the record (word for word, the interpreter's message); the state is unchanged."""
    import tosa_state.api

    ts.compile_model(llama, device="iree")  # its record written, if it was not there
    reads = []
    read = tosa_state.api.read_model_file
    monkeypatch.setattr(tosa_state.api, "read_model_file",
                        lambda *args: reads.append(args) or read(*args))
    request, twin = _prompted(llama, "iree")
    assert not reads  # a hit
    bad = llm_models.step_inputs(np.array([[7]]), 5)
    bad["attention_mask"] = bad["attention_mask"][:, :-1]
    before = snapshot(request)
    refused = _refused(request, bad)
    assert len(reads) == 1  # converted for the message, once
    interpreter, _ = _prompted(llama, "memref")
    assert refused == _refused(interpreter, bad)
    assert "type='Gather'" in refused and "input 'attention_mask' (shape [1, 5])" in refused
    assert_same_state(before, snapshot(request))
    good = llm_models.step_inputs(np.array([[7]]), 5)
    np.testing.assert_array_equal(request.infer(good)["logits"], twin.infer(good)["logits"])
    assert_same_state(snapshot(twin), snapshot(request))


@pytest.mark.parametrize("level", DEVICES)
def test_bad_decode_steps_change_nothing(llama: Path, level: str) -> None:
    """A `beam_idx` out of range, a token beyond the vocabulary, a step interrupted at
    every 997th line (on the interpreter): each leaves the cache as it was."""
    request, twin = _prompted(llama, level)
    past = 5
    for bad in ({"beam_idx": np.array([1], np.int32)},
                {"input_ids": np.array([[1000]], np.int64)}):
        good = llm_models.step_inputs(np.array([[9]]), past)
        assert_no_op(request, twin, lambda bad=bad, good=good: request.infer({**good, **bad}),
                     good)
        past += 1
    if level == "iree":
        return  # a compiled call cannot be interrupted inside: IREE runs it to its end
    past = [past]

    def step() -> dict[str, Any]:
        given = llm_models.step_inputs(np.array([[past[0] % 100 + 3]]), past[0])
        past[0] += 1
        return given

    _interrupted_everywhere(request, twin, step, every=997)


@pytest.mark.parametrize("level", DEVICES)
def test_a_position_past_what_the_state_holds_changes_nothing(llama: Path, level: str) -> None:
    """A mask longer than the cache and the new token, a position past them: the model's
    graph would accept both (as OpenVINO does); the request refuses them (on device `iree`
    the module asserts it, `tosa-runtime-checks`) with the interpreter's message naming the
    input and the layer reading it, and the cache keeps its 5 positions."""
    request, twin = _prompted(llama, level)
    good = llm_models.step_inputs(np.array([[7]]), 5)
    longer = {**good, "attention_mask": np.ones((1, 7), np.int64)}
    assert re.search(r"error: layer id=\d+ name='[^']*' type='Convert' \(opset1\): input "
                     r"'attention_mask' \(shape \[1, 7\]\) is longer than the state holds "
                     r"with the new tokens: 5 cached and 1 new positions, 6 in all$",
                     _refused(request, longer))
    past = {**good, "position_ids": np.array([[6]], np.int64)}
    assert re.search(r"error: layer id=\d+ name='[^']*' type='Unsqueeze' \(opset1\): input "
                     r"'position_ids' has position 6, past what the state holds with the new "
                     r"tokens: 5 cached and 1 new positions, 0 to 5$", _refused(request, past))
    assert all(value.shape[2] == 5 for value in snapshot(request).values())
    assert_no_op(request, twin, lambda: request.infer(
        {**good, "position_ids": np.array([[1000]], np.int64)}), good)


def test_a_failure_the_interpreter_does_not_reproduce_keeps_the_module_message() -> None:
    """Device `iree`'s failed call, explained (`devices/iree_checks.py`): a failed assertion
    that the interpreter's replay does not reproduce keeps the module's own message; any
    other IREE error is reported as such."""
    from tosa_state.devices.iree_checks import FailureExplainer
    from tosa_state.frontends.mlir import parse_mlir
    from tosa_state.runtime.variables import collect_specs

    module = parse_mlir(ts.make_context(), """
ml_program.global private mutable @acc(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = ml_program.global_load @acc : tensor<2xf32>
  %s = tosa.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ml_program.global_store @acc = %s : tensor<2xf32>
  return %s : tensor<2xf32>
}""", "acc.mlir")
    explain = FailureExplainer(module, "main")
    states = [(spec, np.ones(2, np.float32)) for spec in collect_specs(module)]
    args = [np.ones(2, np.float32)]
    failed = RuntimeError("Error invoking function: <vm>:0: FAILED_PRECONDITION; acc.mlir:5:3: "
                          "error: 'tosa.add' op operands do not broadcast to one shape; ")
    assert str(explain(failed, states, args)) == (
        "acc.mlir:5:3: error: 'tosa.add' op operands do not broadcast to one shape")
    assert str(explain(RuntimeError("out of memory"), states, args)) == (
        "error: IREE failed to run 'main': out of memory")


ACCUMULATE_THEN_GATHER = """
tosa.variable @acc = dense<0.0> : tensor<1x4x2xf32>
func.func @main(%x: tensor<1x4x2xf32>, %i: tensor<1x3xi32>) -> tensor<1x3x2xf32> {
  %a = tosa.variable.read @acc : tensor<1x4x2xf32>
  %s = tosa.add %a, %x : (tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  tosa.variable.write @acc, %s : tensor<1x4x2xf32>
  %g = tosa.gather %s, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %g : tensor<1x3x2xf32>
}
"""


@pytest.mark.peers
def test_a_call_failing_in_the_reference_model_changes_nothing(tosa_reference_tools: None,
                                                               tmp_path: Path) -> None:
    """Device `reference`: a gather index out of range fails inside the TOSA reference model
    (its REQUIRE, in the graph after the variable's write); the error says so, and the state
    is as before: the next call equals a twin's that never saw the failed one."""
    path = tmp_path / "acc.mlir"
    path.write_text(ACCUMULATE_THEN_GATHER)
    compiled = ts.compile_model(path, device="reference")
    request, twin = compiled.create_infer_request(), compiled.create_infer_request()
    rng = np.random.default_rng(4)

    def inputs(*indices: int) -> list[np.ndarray]:
        return [rng.standard_normal((1, 4, 2)).astype(np.float32),
                np.array([indices], np.int32)]

    for call in (inputs(0, 1, 3), inputs(3, 2, 1)):
        request.infer(call)
        twin.infer(call)
    before = snapshot(request)
    message = _refused(request, inputs(0, 4, 1))
    assert message.startswith("error: the TOSA reference model failed on 'main'"), message
    assert "OpGather: index(0, 1)=4 exceed valid range" in message, message
    assert_same_state(before, snapshot(request))
    assert_no_op(request, twin, lambda: request.infer(inputs(-1, 0, 0)), inputs(2, 2, 0))


def test_a_portable_vmfb_checks_indices_without_the_extents(tmp_path: Path) -> None:
    """Device `iree` passes a gather's input indices' smallest and largest element to the
    module after the inputs (no read-back in the module); the `.vmfb` of `tosa-state
    compile` keeps the model's signature for any other host and reads them back itself:
    both refuse an index out of range, keep the state, and agree."""
    import iree.runtime as rt

    from tosa_state.tools.main import main as tosa_state_main

    path = tmp_path / "acc.mlir"
    path.write_text(ACCUMULATE_THEN_GATHER)
    device = ts.compile_model(path, device="iree")
    request = device.create_infer_request()
    assert "tosa_state.max_of" in device.executable.vm_module.lookup_function(
        "main").reflection["iree.abi.declaration"]
    vmfb = tmp_path / "acc.vmfb"
    assert tosa_state_main(["compile", str(path), "-o", str(vmfb), "-q"]) == 0
    config = rt.Config("local-sync")
    module = rt.VmModule.copy_buffer(config.vm_instance, vmfb.read_bytes())
    plain = rt.SystemContext(config=config, vm_modules=[module]).modules.module
    declaration = module.lookup_function("main").reflection["iree.abi.declaration"]
    assert declaration.endswith("(%input0: tensor<1x4x2xf32>, %input1: tensor<1x3xi32>) -> "
                                "(%output0: tensor<1x3x2xf32>)"), declaration  # no extents
    rng = np.random.default_rng(6)
    for indices in ((0, 1, 3), (3, 2, 1), (0, 4, 1), (-1, 0, 0), (2, 2, 0)):
        x = rng.standard_normal((1, 4, 2)).astype(np.float32)
        i = np.array([indices], np.int32)
        before = (snapshot(request)["acc"], np.array(plain["state_get.acc"]().to_host()))
        if max(indices) > 3 or min(indices) < 0:
            message = _refused(request, [x, i])
            assert "'tosa.gather' op: input 'i' [" in message, message
            with pytest.raises(RuntimeError, match=r"'tosa\.gather' op index out of range"):
                plain["main"](x, i)
            np.testing.assert_array_equal(snapshot(request)["acc"], before[0])
            np.testing.assert_array_equal(plain["state_get.acc"]().to_host(), before[1])
        else:
            np.testing.assert_array_equal(request.infer([x, i])[0],
                                          np.array(plain["main"](x, i).to_host()))


WRITE_IN_A_BRANCH = """
tosa.variable @acc = dense<0.0> : tensor<1x4x2xf32>
func.func @main(%x: tensor<1x4x2xf32>, %n: tensor<i32>, %i: tensor<1x3xi32>)
    -> tensor<1x3x2xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<i32>}> : () -> tensor<i32>
  %c = tosa.greater %n, %zero : (tensor<i32>, tensor<i32>) -> tensor<i1>
  %a = tosa.variable.read @acc : tensor<1x4x2xf32>
  %s = tosa.add %a, %x : (tensor<1x4x2xf32>, tensor<1x4x2xf32>) -> tensor<1x4x2xf32>
  %r = tosa.cond_if %c (%v = %s) : tensor<i1> (tensor<1x4x2xf32>) -> tensor<1x4x2xf32> {
  ^bb0(%v: tensor<1x4x2xf32>):
    tosa.variable.write @acc, %v : tensor<1x4x2xf32>
    tosa.yield %v : tensor<1x4x2xf32>
  } else {
  ^bb0(%v: tensor<1x4x2xf32>):
    tosa.yield %v : tensor<1x4x2xf32>
  }
  %g = tosa.gather %r, %i : (tensor<1x4x2xf32>, tensor<1x3xi32>) -> tensor<1x3x2xf32>
  return %g : tensor<1x3x2xf32>
}
"""


@pytest.mark.parametrize("level", DEVICES)
def test_a_failure_after_a_write_in_a_branch_changes_nothing(level: str, tmp_path: Path) -> None:
    """A variable written inside a `tosa.cond_if` branch, then a gather out of range: the
    call is refused and the variable keeps its value (on device `iree` the branch's store is
    made a result of the `cond_if` and moved last, `mlprogram-stores-last`)."""
    path = tmp_path / "branch.mlir"
    path.write_text(WRITE_IN_A_BRANCH)
    request, twin = _pair(path, level)
    rng = np.random.default_rng(5)

    def inputs(write: bool, *indices: int) -> list[np.ndarray]:
        return [rng.standard_normal((1, 4, 2)).astype(np.float32),
                np.array(1 if write else 0, np.int32), np.array([indices], np.int32)]

    for call in (inputs(True, 0, 1, 3), inputs(False, 3, 2, 1), inputs(True, 2, 2, 0)):
        request.infer(call)
        twin.infer(call)
    before = snapshot(request)
    message = _refused(request, inputs(True, 0, 4, 1))
    assert "'tosa.gather' op: input 'i' [4] is out of range" in message, message
    assert_same_state(before, snapshot(request))
    assert_no_op(request, twin, lambda: request.infer(inputs(True, 1, -1, 0)),
                 inputs(True, 3, 0, 0))


def rolling_model() -> object:
    """A cache `kv: [?, 2, ?, 4]` that keeps all but its last step and appends `x`: at the
    memref level the kept prefix is the buffer's corner itself (nothing copied) and `x` is
    copied over the old last step, inside the old value (the journal must save it), then
    `both * m` fails on a run-time broadcast."""
    x = ops.parameter([-1, 2, -1, 4], np.float32, name="x")
    m = ops.parameter([-1, 2, -1, 4], np.float32, name="m")
    kept = ops.slice(empty_cache(x), _i64(0), _i64(-1), _i64(1), _i64(2))
    both = ops.concat([kept, x], 2)
    scaled = ops.multiply(both, m)
    scaled.set_friendly_name("scale")
    return ov.Model([ops.result(scaled, name="scaled")], [ops.assign(both, "kv")], [x, m],
                    "rolling")


@pytest.mark.parametrize("level", LEVELS)
def test_a_failure_after_a_write_over_the_old_value_changes_nothing(level: str,
                                                                   tmp_path: Path) -> None:
    xml = tmp_path / "rolling.xml"
    ov.save_model(rolling_model(), str(xml), compress_to_fp16=False)
    request, twin = _pair(xml, level)
    rng = np.random.default_rng(3)

    def inputs(length: int, m_length: int | None = None) -> dict[str, Any]:
        """A call on a cache of `length` steps (it keeps `length - 1`, then 2 more)."""
        new = max(length - 1, 0) + 2
        return {"x": rng.standard_normal((1, 2, 2, 4)).astype(np.float32),
                "m": rng.standard_normal((1, 2, m_length or new, 4)).astype(np.float32)}

    length = 0
    for _ in range(6):  # the buffer full and with room to spare
        given = inputs(length)
        request.infer(given)
        twin.infer(given)
        length = max(length - 1, 0) + 2
        assert request.query_state()[0].state.shape == (1, 2, length, 4)
        assert_no_op(request, twin, lambda n=length: request.infer(inputs(n, n + 5)),
                     inputs(length))
        length += 1


def positions_model() -> object:
    """A cache `kv: [?, 2, ?, 4]` grown by `x`, then the positions of the grown cache added
    to it: a Range whose length is known only at run time (a `tosa.slice` of the
    `RANGE_CAPACITY`-entry table, docs/openvino.md), after the write."""
    x = ops.parameter([-1, 2, -1, 4], np.float32, name="x")
    both = ops.concat([empty_cache(x), x], 2)
    length = ops.gather(ops.shape_of(both), ops.constant(np.int64(2)), ops.constant(np.int64(0)))
    positions = ops.range(ops.constant(np.int64(0)), length, ops.constant(np.int64(1)), "f32")
    positions.set_friendly_name("positions")
    out = ops.add(both, ops.reshape(positions, _i64(1, 1, -1, 1), False))
    return ov.Model([ops.result(out, name="out")], [ops.assign(both, "kv")], [x], "positions")


@pytest.mark.parametrize("level", DEVICES)
def test_positions_past_the_range_table_change_nothing(level: str, tmp_path: Path) -> None:
    """A cache grown past the 8192 positions a run-time Range can give: refused on every
    level and on device `iree` with the interpreter's message (device `iree` used to read
    past the table: nan and 1.8e31 in the output, the cache grown), the cache as it was."""
    from tosa_state.transforms.openvino_to_tosa.sizes import RANGE_CAPACITY

    xml = tmp_path / "positions.xml"
    ov.save_model(positions_model(), str(xml), compress_to_fp16=False)
    request, twin = _pair(xml, level)

    def steps(n: int) -> dict[str, np.ndarray]:
        return {"x": np.full((1, 2, n, 4), 0.5, np.float32)}

    for call in (steps(RANGE_CAPACITY - 200), steps(150)):
        for r in (request, twin):
            (out,) = r.infer(call)
        np.testing.assert_array_equal(out[0, 0, :, 0], np.arange(out.shape[2]) + 0.5)
    before = snapshot(request)
    message = _refused(request, steps(51))
    assert (f"layer id=22 name='positions' type='Range' (opset4): 'tosa.slice' op slice "
            f"[0, {RANGE_CAPACITY + 1}) is out of bounds of dimension 0 (size "
            f"{RANGE_CAPACITY})") in message, message
    assert_same_state(before, snapshot(request))
    assert_no_op(request, twin, lambda: request.infer(steps(60)), steps(50))


def test_an_append_asks_the_journal_nothing(llama: Path, tmp_path: Path,
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    """At the memref level a copy into a cache's buffer at or past its length as the call
    started (a `memref.load` of its sizes global, `interpreter/memref.py` `_old_length`)
    is an append: the tiny Llama's decode step asks the journal nothing (it used to ask
    once a cache, ~3 µs each of a ~1 ms step). The rolling cache, whose new step lands
    inside its old value, still asks, and its old value is saved (the test above)."""
    from tosa_state.interpreter.state import VariableStore

    asked: list[int] = []
    guard_window = VariableStore.guard_window
    monkeypatch.setattr(VariableStore, "guard_window", lambda self, *args: (
        asked.append(1), guard_window(self, *args))[1])
    request, _ = _prompted(llama, "memref")
    asked.clear()
    request.infer(llm_models.step_inputs(np.array([[3]]), 5))
    assert asked == []
    xml = tmp_path / "rolling.xml"
    ov.save_model(rolling_model(), str(xml), compress_to_fp16=False)
    rolling = ts.compile_model(xml).create_infer_request()
    for length in (2, 3):
        asked.clear()
        rolling.infer({"x": np.ones((1, 2, 2, 4), np.float32),
                       "m": np.ones((1, 2, length, 4), np.float32)})
    assert len(asked) == 1  # the second call: its steps over the old value's last
