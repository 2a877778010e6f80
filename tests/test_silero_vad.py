"""silero-vad as its users get it: the ONNX file shipped in the `silero-vad` package, read by
OpenVINO's ONNX frontend, made stateful with MakeStateful `{"state": "stateN"}`, saved as IR,
then streamed chunk by chunk by tosa-state and by OpenVINO (36 chunks of a synthetic voice
signal, with a reset of all state, a reset of the variable and a `set_state` in between)."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("silero_vad", reason="silero-vad ships the model (the 'test' extra)")
pytest.importorskip("openvino", reason="OpenVINO converts the model and is the oracle")

from streaming_vad import audio_chunks, silero_stateful_ir
from test_openvino_differential import Scenario, run_differential

import tosa_state

pytestmark = pytest.mark.peers


@pytest.fixture(scope="module")
def silero_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return silero_stateful_ir(tmp_path_factory.mktemp("silero"))


def test_silero_vad_streams_like_openvino(openvino_runtime: None, silero_xml: Path) -> None:
    chunks = audio_chunks(36, seed=1)
    scenario = Scenario(steps=36, reset_all=frozenset({12}), reset_one=frozenset({20}),
                        set_all=frozenset({28}), inputs=lambda rng, step: [chunks[step]])
    run_differential(silero_xml, scenario, "silero_vad")


def test_the_signal_drives_the_model_across_its_range(silero_xml: Path) -> None:
    """The speech probability swings from near 1 to near 0 over our signal, so that the
    differential test compares outputs that matter (not a constant)."""
    request = tosa_state.compile_model(silero_xml).create_infer_request()
    probability = [float(request.infer([c])[0][0, 0]) for c in audio_chunks(60)]
    assert max(probability) > 0.5 and min(probability) < 0.05
    assert [s.name for s in request.query_state()] == ["statestateN"]
