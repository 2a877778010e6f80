"""silero-vad as its users get it: the ONNX file shipped in the `silero-vad` package, read by
OpenVINO's ONNX frontend, made stateful with MakeStateful `{"state": "stateN"}`, saved as IR,
then streamed chunk by chunk by tosa-state and by OpenVINO (36 chunks of a synthetic voice
signal, with a reset of all state, a reset of the variable and a `set_state` in between)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import openvino  # noqa: F401  (a hard requirement: missing fails the suite)
import pytest
import silero_vad  # noqa: F401  (a hard requirement: missing fails the suite)
from peers.openvino_runtime import trusted_session
from streaming_vad import audio_chunks, silero_onnx, silero_stateful_ir
from test_openvino_differential import Scenario, run_differential

import tosa_state

pytestmark = pytest.mark.peers


@pytest.fixture(scope="module")
def silero_xml(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return silero_stateful_ir(tmp_path_factory.mktemp("silero"))


def test_silero_vad_streams_like_openvino(openvino_runtime: None, silero_xml: Path) -> None:
    chunks = audio_chunks(36, seed=1)
    scenario = Scenario(steps=36, reset_all=frozenset({12}), reset_one=frozenset({20}),
                        set_all=frozenset({28}), inputs=lambda rng, step: [chunks[step]],
                        f32_tolerance=2e-5)  # measured |ours - OV| / (1 + |OV|): 3.9e-6
    run_differential(silero_xml, scenario, "silero_vad")


def test_the_signal_drives_the_model_across_its_range(silero_xml: Path) -> None:
    """The speech probability swings from near 1 to near 0 over our signal, so that the
    differential test compares outputs that matter (not a constant)."""
    request = tosa_state.compile_model(silero_xml).create_infer_request()
    probability = [float(request.infer([c])[0][0, 0]) for c in audio_chunks(60)]
    assert max(probability) > 0.5 and min(probability) < 0.05
    assert [s.name for s in request.query_state()] == ["statestateN"]


def test_our_make_stateful_matches_openvinos(openvino_runtime: None, silero_xml: Path,
                                             tmp_path: Path) -> None:
    """The model saved without MakeStateful, made stateful by our `make-stateful` instead:
    same variable name and the same outputs as OpenVINO running its own MakeStateful's."""
    import openvino as ov

    stateless = tmp_path / "silero_stateless.xml"
    ov.save_model(ov.Core().read_model(str(silero_onnx())), str(stateless),
                  compress_to_fp16=False)
    ours = tosa_state.compile_model(
        stateless, pipeline='make-stateful{pairs="state=stateN"},'
        "convert-tosa-variables-to-memref").create_infer_request()
    theirs = trusted_session(silero_xml)
    assert [s.name for s in ours.query_state()] == sorted(theirs.variables)
    for step, chunk in enumerate(audio_chunks(12, seed=2)):
        if step == 6:
            ours.reset_state()
            theirs.reset_state()
        np.testing.assert_allclose(ours.infer([chunk])[0], theirs.infer([chunk])[0],
                                   rtol=0, atol=2e-6)  # measured 4.2e-7


def test_the_example_runs() -> None:
    """`examples/streaming_vad.py --check`: our make-stateful route, streamed, against
    onnxruntime running the ONNX file with the state fed back by hand."""
    import onnxruntime  # noqa: F401  (a hard requirement: missing fails the suite)
    example = Path(__file__).resolve().parent.parent / "examples" / "streaming_vad.py"
    result = subprocess.run([sys.executable, str(example), "--check"], capture_output=True,
                            text=True, check=False)
    assert result.returncode == 0, result.stderr
    assert "state [('statestateN', (2, 1, 128))]" in result.stdout
    assert "largest difference from onnxruntime over 187 chunks" in result.stdout


def test_silero_vad_runs_in_the_tosa_reference_model(silero_xml: Path) -> None:
    """Its TOSA artifact in the reference model (device `reference`), which refuses what
    the spec leaves unpredictable: the STFT's `Power(x, 2)` of negative values is a square,
    not a `tosa.pow`. Against the interpreter over 8 chunks with a reset and a `set_state`;
    measured 3.6e-7, allowed 2e-6."""
    artifact = tosa_state.compile_tosa(silero_xml)
    assert artifact.ok, artifact.report()
    reference = tosa_state.compile_model(silero_xml, device="reference").create_infer_request()
    interpreter = tosa_state.compile_model(silero_xml).create_infer_request()
    rng = np.random.default_rng(3)
    for step, chunk in enumerate(audio_chunks(8, seed=1)):
        if step == 4:
            reference.reset_state()
            interpreter.reset_state()
        if step == 6:
            (mine,), (theirs,) = reference.query_state(), interpreter.query_state()
            value = rng.standard_normal(mine.state.shape).astype(np.float32) * 0.1
            mine.state = theirs.state = value
        np.testing.assert_allclose(reference.infer([chunk])[0], interpreter.infer([chunk])[0],
                                   rtol=0, atol=2e-6, err_msg=f"step {step}")
