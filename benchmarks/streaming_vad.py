"""silero-vad, streamed chunk by chunk: tosa-state (interpreter and device `iree`) against
onnxruntime and OpenVINO.

The model is the one silero-vad users run: `silero_vad/data/silero_vad_openvino_16k.onnx`
from the installed `silero-vad` package (input `input` [1, 576]: 64 samples of context and a
512-sample chunk at 16 kHz; recurrent state `state` [2, 1, 128] in, `stateN` out). For
tosa-state and OpenVINO it is read by OpenVINO's ONNX frontend, made stateful with
MakeStateful `{"state": "stateN"}` and saved as IR; onnxruntime runs the ONNX file and
feeds the state back by hand, as silero-vad's own `OnnxWrapper` does.

Every runtime runs single-threaded (silero-vad's wrapper sets onnxruntime's intra- and
inter-op threads to 1; OpenVINO gets `INFERENCE_NUM_THREADS=1`, f32 precision; IREE runs
`local-sync`, compiled with tosa-state's default flags (docs/runtime.md); numpy's
OpenBLAS `OPENBLAS_NUM_THREADS=1` unless the environment says otherwise), batches of
chunks interleave so that a busy machine slows each alike. Before anything is timed, every
runtime's speech probabilities over the chunks must be within `TOLERANCE` of onnxruntime's,
or the benchmark fails (`agreement.Disagreement`).

Run `python benchmarks/streaming_vad.py` after `pip install -e '.[bench]'` (silero-vad,
onnxruntime, OpenVINO); device `iree` runs when the `iree` extra is installed too, and is
skipped with a line saying so otherwise.
"""

from __future__ import annotations

import os

if __name__ == "__main__":  # one BLAS thread for numpy too, set before numpy is imported
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import importlib.resources
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from agreement import check_agreement, optional_device
from lstm_cell import median_step_seconds

CHUNK = 576
"""Samples per call: 64 of context and 512 new ones (32 ms at 16 kHz)."""

TOLERANCE = 5e-6
"""Largest |probability - onnxruntime's| allowed: 5x the largest measured over the 200 chunks
of `audio_chunks(200)` (tosa-state 6.3e-7, iree 9.5e-7, OpenVINO 9.8e-7)."""


def silero_onnx() -> Path:
    """The ONNX file shipped in the installed silero-vad package."""
    data = importlib.resources.files("silero_vad") / "data" / "silero_vad_openvino_16k.onnx"
    return Path(str(data))


def silero_stateful_ir(directory: Path) -> Path:
    """silero-vad read by OpenVINO, made stateful (`state` -> `stateN`), saved as IR."""
    import openvino as ov
    from openvino._offline_transformations import apply_make_stateful_transformation

    model = ov.Core().read_model(str(silero_onnx()))
    apply_make_stateful_transformation(model, {"state": "stateN"})
    xml = directory / "silero_vad.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def audio_chunks(count: int, seed: int = 0) -> list[np.ndarray]:
    """`count` overlapping [1, 576] chunks of a synthetic 16 kHz signal: noise with bursts of
    a voiced-like tone (a 150 Hz pulse train through its harmonics), as silero-vad's own
    iterator cuts them (each chunk starts with the last 64 samples of the previous one)."""
    rng = np.random.default_rng(seed)
    t = np.arange(512 * count + 64) / 16000.0
    voiced = sum(np.sin(2 * np.pi * 150 * k * t) / k for k in range(1, 12))
    bursts = (np.sin(2 * np.pi * 0.7 * t) > 0.3).astype(np.float64)
    signal = 0.3 * voiced * bursts + 0.02 * rng.standard_normal(t.shape)
    return [signal[i * 512 : i * 512 + CHUNK].astype(np.float32).reshape(1, CHUNK)
            for i in range(count)]


def runners(xml: Path, iree: bool = True) -> dict[str, Callable[[np.ndarray], np.ndarray]]:
    """One streaming step per runtime (device `iree` when `iree`): a chunk in, the speech
    probability out."""
    import onnxruntime
    import openvino as ov

    import tosa_state

    request = tosa_state.compile_model(xml).create_infer_request()
    options = onnxruntime.SessionOptions()
    options.intra_op_num_threads = options.inter_op_num_threads = 1
    session = onnxruntime.InferenceSession(str(silero_onnx()), options,
                                           providers=["CPUExecutionProvider"])
    state = [np.zeros((2, 1, 128), np.float32)]

    def onnxruntime_step(chunk: np.ndarray) -> np.ndarray:
        output, state[0] = session.run(None, {"input": chunk, "state": state[0]})
        return output

    compiled = ov.Core().compile_model(str(xml), "CPU", {"INFERENCE_NUM_THREADS": 1,
                                                        "INFERENCE_PRECISION_HINT": "f32"})
    ov_request = compiled.create_infer_request()
    steps = {
        "tosa-state": lambda chunk: request.infer([chunk])[0],
        "onnxruntime": onnxruntime_step,
        "openvino": lambda chunk: ov_request.infer([chunk])[0].copy(),
    }
    if iree:
        iree_request = tosa_state.compile_model(xml, device="iree").create_infer_request()
        steps["iree"] = lambda chunk: iree_request.infer([chunk])[0]
    return steps


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--chunks", type=int, default=200, help="chunks per timed batch")
    parser.add_argument("--repeats", type=int, default=15, help="timed batches per runtime")
    args = parser.parse_args()
    try:
        import onnxruntime  # noqa: F401
        import openvino  # noqa: F401
        import silero_vad  # noqa: F401
    except ImportError as error:
        print(f"error: {error.name} is not installed (pip install -e '.[bench]')",
              file=sys.stderr)
        return 1
    iree = optional_device("iree", "iree.runtime", "iree")
    chunks = audio_chunks(args.chunks)
    with tempfile.TemporaryDirectory() as directory:
        steps = runners(silero_stateful_ir(Path(directory)), iree)
        outputs = {name: np.concatenate([step(c) for c in chunks]) for name, step in
                   steps.items()}  # also the warm-up
        worst = check_agreement("silero-vad speech probabilities", outputs, "onnxruntime",
                                TOLERANCE)
        seconds = median_step_seconds(steps, chunks, args.repeats)
    ort = seconds["onnxruntime"]
    print(f"silero-vad v6 (16 kHz, {CHUNK}-sample chunks), single thread, median µs per chunk "
          f"(outputs agree within {worst:.1e})")
    print(f"{'runtime':>12} {'µs/chunk':>9} {'vs onnxruntime':>15}")
    for name, value in seconds.items():
        print(f"{name:>12} {value * 1e6:9.1f} {value / ort:14.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
