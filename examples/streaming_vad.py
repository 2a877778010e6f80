"""Streaming voice activity detection with silero-vad on tosa-state.

The route from an ONNX (or PyTorch) model whose state is an input/output pair to a stateful
tosa-state model, end to end:

1. the ONNX file shipped in the installed `silero-vad` package
   (`silero_vad/data/silero_vad_openvino_16k.onnx`: input `input` [1, 576], state `state`
   [2, 1, 128] in and `stateN` out, output `output` [1, 1], the speech probability);
2. read by OpenVINO's ONNX frontend and saved as OpenVINO IR, as it is (stateless);
3. compiled by tosa-state with our `make-stateful{pairs="state=stateN"}` in the pipeline:
   the state pair becomes the variable `statestateN` (OpenVINO's MakeStateful would name it
   the same), so each call takes only a chunk of audio;
4. streamed: 512 new samples (32 ms at 16 kHz) per call, with the last 64 of the previous
   chunk in front, as silero-vad's own iterator does; speech segments printed.

    pip install -e '.[bench]'                 # openvino, silero-vad (and torch), onnxruntime
    python examples/streaming_vad.py          # a synthetic signal
    python examples/streaming_vad.py --wav speech16k.wav --check

`--check` also runs the ONNX file in onnxruntime, feeding the state back by hand, and
prints the largest difference of the probabilities.
"""

from __future__ import annotations

import argparse
import importlib.resources
import sys
import tempfile
import wave
from pathlib import Path

import numpy as np

RATE = 16_000
CONTEXT, STEP = 64, 512


def stateless_ir(directory: Path) -> Path:
    """silero-vad's ONNX file read by OpenVINO and saved as IR (`ovc` would do the same)."""
    import openvino as ov

    onnx = importlib.resources.files("silero_vad") / "data" / "silero_vad_openvino_16k.onnx"
    xml = directory / "silero_vad.xml"
    ov.save_model(ov.Core().read_model(str(onnx)), str(xml), compress_to_fp16=False)
    return xml


def read_wav(path: Path) -> np.ndarray:
    """A 16 kHz mono 16-bit WAV file as float32 samples in [-1, 1]."""
    with wave.open(str(path)) as wav:
        if wav.getframerate() != RATE or wav.getnchannels() != 1 or wav.getsampwidth() != 2:
            raise SystemExit(f"error: {path}: expected 16 kHz mono 16-bit PCM")
        frames = wav.readframes(wav.getnframes())
    return np.frombuffer(frames, "<i2").astype(np.float32) / 32768.0


def synthetic_signal(seconds: float = 6.0) -> np.ndarray:
    """Noise with bursts of a voiced-like harmonic tone."""
    t = np.arange(int(seconds * RATE)) / RATE
    voiced = sum(np.sin(2 * np.pi * 150 * k * t) / k for k in range(1, 12))
    bursts = np.sin(2 * np.pi * 0.7 * t) > 0.3
    noise = 0.02 * np.random.default_rng(0).standard_normal(t.shape)
    return (0.3 * voiced * bursts + noise).astype(np.float32)


def chunks(audio: np.ndarray) -> list[np.ndarray]:
    """[1, 576] chunks: 64 samples of context (zeros at first), then 512 new ones."""
    padded = np.concatenate([np.zeros(CONTEXT, np.float32), audio])
    count = len(audio) // STEP
    return [padded[i * STEP : i * STEP + CONTEXT + STEP].reshape(1, -1) for i in range(count)]


def segments(probabilities: list[float], threshold: float = 0.5) -> list[tuple[float, float]]:
    """(start, end) seconds of the runs of chunks whose speech probability passes
    `threshold`."""
    found: list[tuple[float, float]] = []
    start: int | None = None
    for i, p in enumerate([*probabilities, 0.0]):
        if p >= threshold and start is None:
            start = i
        elif p < threshold and start is not None:
            found.append((start * STEP / RATE, i * STEP / RATE))
            start = None
    return found


def onnxruntime_probabilities(pieces: list[np.ndarray]) -> list[float]:
    import onnxruntime

    onnx = importlib.resources.files("silero_vad") / "data" / "silero_vad_openvino_16k.onnx"
    session = onnxruntime.InferenceSession(str(onnx), providers=["CPUExecutionProvider"])
    state, out = np.zeros((2, 1, 128), np.float32), []
    for piece in pieces:
        probability, state = session.run(None, {"input": piece, "state": state})
        out.append(float(probability[0, 0]))
    return out


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--wav", type=Path, help="16 kHz mono 16-bit WAV (default: synthetic)")
    parser.add_argument("--check", action="store_true", help="compare with onnxruntime")
    args = parser.parse_args()
    import tosa_state

    audio = read_wav(args.wav) if args.wav else synthetic_signal()
    with tempfile.TemporaryDirectory() as directory:
        compiled = tosa_state.compile_model(
            stateless_ir(Path(directory)),
            pipeline='make-stateful{pairs="state=stateN"},convert-tosa-variables-to-memref',
        )
    request = compiled.create_infer_request()
    print(f"inputs {[p.name for p in compiled.inputs]}, outputs "
          f"{[p.name for p in compiled.outputs]}, state "
          f"{[(s.name, s.state.shape) for s in request.query_state()]}")
    pieces = chunks(audio)
    probabilities = [float(request.infer([piece])["output"][0, 0]) for piece in pieces]
    for start, end in segments(probabilities):
        print(f"speech {start:6.2f} s - {end:6.2f} s")
    request.reset_state()  # ready for the next stream
    if args.check:
        reference = onnxruntime_probabilities(pieces)
        worst = max(abs(a - b) for a, b in zip(probabilities, reference, strict=True))
        print(f"largest difference from onnxruntime over {len(pieces)} chunks: {worst:.1e}")
        return 0 if worst < 1e-4 else 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
