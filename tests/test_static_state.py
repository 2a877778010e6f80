"""`tosa-static-state` on optimum-intel's tiny decoders (`test_llm_exports.py`): the KV caches
get a capacity of 64 rows and a count each, and the static model, fed as OpenVINO GenAI feeds
its static generate model (an attention mask over the capacity: ones over the valid past
and the new rows, which the concat puts last; `llm_models.static_step_inputs`), generates as
OpenVINO runs the dynamic export:

- `llm_models.run_generation`: a prompt and 8 greedy steps, `reset_state()`, a second prompt,
  a batch of 2 with a `beam_idx` that swaps, then duplicates, the rows (and for the Llama
  then 3 tokens at once after that past, as a chunked prompt); logits within the
  tolerances of every LLM comparison (1e-4 relative, 1e-5 absolute), the same tokens, each
  cache's first `past` rows equal to OpenVINO's and its count equal to `past`;
- a call that would pass the capacity fails naming the variable, the capacity and the
  length asked for, and leaves every variable as it was: the request then goes on (a reset,
  a prompt) exactly as a fresh one.

The Llama at the default level (memref globals), at the TOSA level (the pass alone) and at
the ml_program level; each of the six families at capacities 64 and 512 (the default level),
then filled to its capacity from a prompt of `capacity - 2` tokens, batch 2 with a swap.
"""

from __future__ import annotations

from pathlib import Path

import llm_models
import numpy as np
import optimum.intel  # noqa: F401  (a hard requirement: missing fails the suite)
import pytest
from test_iree_device import artifact_cache  # noqa: F401  (autouse: IREE's artifacts in pytest's cache)

import tosa_state
from tosa_state.api import DEFAULT_PIPELINE
from tosa_state.diagnostics import InferenceError, TosaStateError

pytestmark = pytest.mark.peers

CAPACITY = 64
LEVELS = {  # compile_model's options at each level: the pass on the model as exported (one
    # entry fed the static layout; `static_state=` gives a decoder two entries fed as the
    # dynamic model: tests/test_static_entries.py)
    "memref": {"pipeline": f"tosa-static-state{{capacity={CAPACITY}}},"
                           f"{DEFAULT_PIPELINE}"},
    "tosa": {"pipeline": f"tosa-static-state{{max-prompt-len={CAPACITY - 16} "
                         f"min-response-len=16}}"},
    "ml_program": {"pipeline": f"tosa-static-state{{max-prompt-len={CAPACITY - 16} "
                               f"min-response-len=16}},tosa-to-mlprogram"},
}


@pytest.fixture(scope="module", params=sorted(LEVELS))
def static_llama(request: pytest.FixtureRequest, llm_exports: dict[str, Path]):
    return tosa_state.compile_model(llm_exports["llama"], **LEVELS[request.param])


def test_static_llama_generation_matches_openvino(llm_exports: dict[str, Path],
                                                  static_llama) -> None:
    pair = llm_models.StaticGenerationPair(llm_exports["llama"], CAPACITY, static_llama)
    assert len(pair.state_names) == 8  # key and value of two layers, and their counts
    llm_models.run_generation(pair)
    pair.call(llm_models.prompt(2, 3, seed=8))  # several new rows after a past (a chunk)
    assert pair.calls == 21


@pytest.mark.parametrize("capacity", [64, 512])
@pytest.mark.parametrize("family", llm_models.FAMILIES)
def test_static_generation_of_each_family_matches_openvino(
        llm_exports: dict[str, Path], family: str, capacity: int) -> None:
    """Llama, Qwen2, GPT-2, Phi-3, Mistral, Gemma (default level) at a small and a large
    capacity: `run_generation`, then a batch of 2 filled to the capacity (a prompt of
    `capacity - 2` tokens, a step with a swap of the rows, the last row). Largest logit
    difference measured: 3.6e-7 (Gemma, both capacities; the others 1.8e-7 to 3.0e-7),
    within `LOGITS_ATOL` 1e-5."""
    pair = llm_models.StaticGenerationPair(llm_exports[family], capacity)
    assert len(pair.static) == 4  # key and value of two layers
    llm_models.run_generation(pair)
    llm_models.run_to_capacity(pair, batch=2)
    assert (pair.calls, pair.past) == (23, capacity)


def _states(request) -> dict[str, np.ndarray]:
    return {state.name: state.state for state in request.query_state()}


def _call(request, tokens: np.ndarray, past: int) -> np.ndarray:
    inputs = llm_models.static_step_inputs(tokens, past, CAPACITY)
    return request.infer(inputs)["logits"]


def test_a_call_past_the_capacity_raises_and_changes_no_state(static_llama) -> None:
    request = static_llama.create_infer_request()
    _call(request, llm_models.prompt(1, 62, seed=5), past=0)
    _call(request, np.array([[7]]), past=62)
    before = _states(request)
    assert before["past_key_values.0.keypresent.0.key__count"].tolist() == [63]
    # the first cache whose past the program computes fails (the check is where it is read)
    variable = r"past_key_values\.[01]\.(key|value)present\.[01]\.(key|value)"
    message = (f"variable '{variable}' has a static capacity of 64 rows: this call asks for "
               f"65 \\(63 held \\+ 2 new\\); nothing was changed")
    with pytest.raises(InferenceError, match=message):
        _call(request, np.array([[7, 8]]), past=63)
    after = _states(request)
    assert sorted(after) == sorted(before)
    for name, value in before.items():
        np.testing.assert_array_equal(after[name], value, err_msg=name)
    # the last row still fits, and the request goes on from where it was
    _call(request, np.array([[7]]), past=63)
    assert _states(request)["past_key_values.1.valuepresent.1.value__count"].tolist() == [64]
    with pytest.raises(InferenceError, match="asks for 65 \\(64 held \\+ 1 new\\)"):
        _call(request, np.array([[9]]), past=64)


def test_a_prompt_longer_than_the_capacity_fails_from_the_initial_state(static_llama) -> None:
    """Even the first call (the caches' init chosen, their flags unset): it fails before any
    write, so the next call starts from the initial state as a fresh request does."""
    request = static_llama.create_infer_request()
    with pytest.raises(InferenceError, match="asks for 65 \\(0 held \\+ 65 new\\)"):
        _call(request, llm_models.prompt(1, 65, seed=6), past=0)
    short = llm_models.prompt(1, 3, seed=7)
    want = _call(static_llama.create_infer_request(), short, past=0)
    np.testing.assert_array_equal(_call(request, short, past=0), want)
    request.reset_state()
    np.testing.assert_array_equal(_call(request, short, past=0), want)


GROWING = """
tosa.variable @k : tensor<1x?xf32>
func.func @main(%new: tensor<1x1xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x1xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return %all : tensor<1x?xf32>
}
"""


@pytest.mark.parametrize("static_state, message", [
    ({"max_prompt_len": 4}, "needs capacity=N or max-prompt-len=P min-response-len=R"),
    ({"max_prompt_len": 4, "min_respons_len": 2}, "static_state has no option 'min_respons_len' "
                                                  "\\(options: capacity, max_prompt_len"),
    ("64", "static_state must be a capacity \\(an int\\) or a dict"),
    (0, "capacity must be at least 1, got 0"),
])
def test_compile_model_refuses_a_static_state_that_gives_no_capacity(
        tmp_path: Path, static_state: object, message: str) -> None:
    (tmp_path / "m.mlir").write_text(GROWING)
    with pytest.raises(TosaStateError, match=message):
        tosa_state.compile_model(tmp_path / "m.mlir", static_state=static_state)  # type: ignore[arg-type]


def test_a_static_state_on_device_iree_checks_its_capacity_in_the_module(
        tmp_path: Path) -> None:
    """The capacity check is an assertion of the compiled module (tosa-runtime-checks): a
    call past it fails with the interpreter's message and changes nothing."""
    (tmp_path / "m.mlir").write_text(GROWING)
    request = tosa_state.compile_model(tmp_path / "m.mlir", static_state=3,
                                       device="iree").create_infer_request()
    for step in range(3):
        request.infer([np.full((1, 1), step, np.float32)])
    before = _states(request)
    with pytest.raises(InferenceError, match=r"m\.mlir:5:3: error: variable 'k' has a static "
                                             r"capacity of 3 rows: this call asks for 4"):
        request.infer([np.ones((1, 1), np.float32)])
    for name, value in _states(request).items():
        np.testing.assert_array_equal(value, before[name], err_msg=name)
    np.testing.assert_array_equal(before["k"], [[0, 1, 2]])


def test_rows_known_only_at_run_time_are_refused_on_device_iree(tmp_path: Path) -> None:
    (tmp_path / "m.mlir").write_text(GROWING.replace("tensor<1x1xf32>", "tensor<1x?xf32>"))
    with pytest.raises(TosaStateError, match=r"m\.mlir:5:3: error: 'tosa-lower-shape-ops' "
                                             r"cannot lower 'tosa_state\.check_capacity' with a "
                                             "shape operand computed at run time"):
        tosa_state.compile_model(tmp_path / "m.mlir", static_state=8, device="iree")


def test_compile_model_with_max_prompt_len_and_min_response_len(tmp_path: Path) -> None:
    """N = P + R rows, then a clear error; the count is listed with the state."""
    (tmp_path / "m.mlir").write_text(GROWING)
    compiled = tosa_state.compile_model(
        tmp_path / "m.mlir", static_state={"max_prompt_len": 3, "min_response_len": 2})
    request = compiled.create_infer_request()
    for step in range(5):
        request.infer([np.full((1, 1), step, np.float32)])
    states = _states(request)
    np.testing.assert_array_equal(states["k"], [[0, 1, 2, 3, 4]])
    np.testing.assert_array_equal(states["k__count"], [5])
    with pytest.raises(InferenceError, match=r"m\.mlir:5:3: error: variable 'k' has a static "
                                             r"capacity of 5 rows: this call asks for 6"):
        request.infer([np.ones((1, 1), np.float32)])


def test_one_token_steps_with_every_input_specialised_from_the_initial_state(
        llm_exports: dict[str, Path]) -> None:
    """`input_shapes` fixes the other dynamic dims (batch 1, one token, the mask of the
    capacity): the prompt goes in one token a call, from the initial state, and generation
    stays OpenVINO's."""
    xml = llm_exports["llama"]
    shapes = {"input_ids": [1, 1], "attention_mask": [1, CAPACITY], "position_ids": [1, 1],
              "beam_idx": [1]}
    compiled = tosa_state.compile_model(xml, static_state=CAPACITY, input_shapes=shapes)
    assert [port.shape for port in compiled.inputs] == [tuple(s) for s in shapes.values()]
    pair = llm_models.StaticGenerationPair(xml, CAPACITY, compiled)
    tokens = llm_models.prompt(1, 6, seed=3)
    for past in range(5):
        pair.call(tokens[:, past:past + 1])
    pair.generate(tokens[:, 5:], steps=5)
    assert pair.calls == 11


def test_a_count_set_out_of_range_fails_the_next_call(tmp_path: Path) -> None:
    """The count is state like any other (an f32, cast to i32 where used): set outside
    [0, capacity], the next call fails naming it and changes nothing."""
    (tmp_path / "m.mlir").write_text(GROWING)
    request = tosa_state.compile_model(tmp_path / "m.mlir", static_state=5).create_infer_request()
    count = next(state for state in request.query_state() if state.name == "k__count")
    assert count.state.dtype == np.float32
    for value, held in ((-3.0, -3), (6.0, 6)):
        count.state = np.array([value], np.float32)
        before = _states(request)
        with pytest.raises(InferenceError, match=f"variable 'k' holds {held} rows by its "
                                                 f"count, outside \\[0, 5\\]"):
            request.infer([np.ones((1, 1), np.float32)])
        for name, state in _states(request).items():
            np.testing.assert_array_equal(state, before[name], err_msg=name)


LEARNED_POSITIONS = """
tosa.variable @k : tensor<1x?x4xf32>
func.func @main(%x: tensor<1x?x4xf32>) -> (tensor<?x?xi1>, tensor<1x?x4xf32>) {
  %past = tosa.variable.read @k : tensor<1x?x4xf32>
  %p = tosa.dim %past {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %n = tosa.dim %x {axis = 1 : i32} : (tensor<1x?x4xf32>) -> !tosa.shape<1>
  %end = tosa.add_shape %p, %n : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %table = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11]> : tensor<12xi32>}> : () -> tensor<12xi32>
  %zero = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %q = tosa.slice %table, %p, %n : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %keys = tosa.slice %table, %zero, %end : (tensor<12xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
  %column = tosa.const_shape {values = dense<[-1, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %row = tosa.const_shape {values = dense<[1, -1]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %q2 = tosa.reshape %q, %column : (tensor<?xi32>, !tosa.shape<2>) -> tensor<?x1xi32>
  %k2 = tosa.reshape %keys, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %causal = tosa.greater_equal %q2, %k2 : (tensor<?x1xi32>, tensor<1x?xi32>) -> tensor<?x?xi1>
  %learned = "tosa.const"() <{values = dense<[[[0.0], [1.0], [2.0], [3.0], [4.0], [5.0], [6.0], [7.0], [8.0], [9.0], [10.0], [11.0]]]> : tensor<1x12x1xf32>}> : () -> tensor<1x12x1xf32>
  %at = tosa.reshape %q, %row : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
  %embedded = tosa.gather %learned, %at : (tensor<1x12x1xf32>, tensor<1x?xi32>) -> tensor<1x?x1xf32>
  %new = tosa.add %x, %embedded : (tensor<1x?x4xf32>, tensor<1x?x1xf32>) -> tensor<1x?x4xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?x4xf32>, tensor<1x?x4xf32>) -> tensor<1x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x?x4xf32>
  func.return %causal, %new : tensor<?x?xi1>, tensor<1x?x4xf32>
}
"""


def test_positions_computed_from_the_past_continue_from_the_count(tmp_path: Path) -> None:
    """A model with no position_ids (bart's learned positions): its Range [past, past + n)
    counts from the count, as the dynamic model's from its past; its causal mask stays in
    the layout's indices (new row i at N - n + i admits the new rows up to i)."""
    (tmp_path / "m.mlir").write_text(LEARNED_POSITIONS)
    dynamic = tosa_state.compile_model(tmp_path / "m.mlir").create_infer_request()
    static = tosa_state.compile_model(tmp_path / "m.mlir", static_state=8).create_infer_request()
    for rows in (3, 1, 2):
        x = np.zeros((1, rows, 4), np.float32)
        _, want = dynamic.infer([x])
        causal, got = static.infer([x])
        np.testing.assert_array_equal(got, want)  # positions 0..2, 3, 4..5
        assert causal.shape == (rows, 8)
        np.testing.assert_array_equal(causal[:, 8 - rows:], np.tril(np.ones((rows, rows), bool)))
    np.testing.assert_array_equal(_states(static)["k"][0, :6, 0], np.arange(6))
