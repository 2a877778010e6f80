"""Seeded mutation fuzzing of what users feed the tools: OpenVINO IR (`.xml` and its `.bin`),
`.tflite` files and `--inputs` archives, through the command-line entry points in process.

Every case must end with exit code 0, or 1 and one error line of readable length (never a
traceback nor an internal error), within a time and a memory bound. CI runs a few hundred cases (seeded, the
same every run); `TOSA_STATE_FUZZ_CASES=N` runs N per format instead (new seeds with
`TOSA_STATE_FUZZ_SEED`).
"""

from __future__ import annotations

import os
import random
import re
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from test_error_paths import ACCUMULATOR, cli

import tosa_state as ts
from tosa_state.tools import opt, run

ROOT = Path(__file__).resolve().parent.parent
CASES = int(os.environ.get("TOSA_STATE_FUZZ_CASES", "0"))
SEED = int(os.environ.get("TOSA_STATE_FUZZ_SEED", "19"))
SECONDS, MEGABYTES = 10.0, 512
MAX_LINE = 1000
"""The longest error line accepted: long values (shapes, arrays) must be cut short."""


def _mutate(data: bytes, rng: random.Random) -> bytes:
    """One to four byte-level edits: flips, overwrites, cuts, duplications, insertions."""
    data = bytearray(data)
    for _ in range(rng.randint(1, 4)):
        if not data:
            break
        at = rng.randrange(len(data))
        kind = rng.randrange(5)
        if kind == 0:
            data[at] ^= 1 << rng.randrange(8)
        elif kind == 1:
            data[at] = rng.choice(b"\x00\xff-9<>\"'=/ ,.e")
        elif kind == 2:
            del data[at: at + rng.randint(1, 64)]
        elif kind == 3:
            data[at:at] = data[at: at + rng.randint(1, 64)]
        else:
            data[at:at] = bytes(rng.randrange(256) for _ in range(rng.randint(1, 8)))
    return bytes(data)


_NUMBER = re.compile(rb"\b\d+\b")
_EXTREME = [b"0", b"-1", b"99999999999", b"4294967296", b"9223372036854775808", b"1e9", b"x",
            b""]


def _mutate_xml(data: bytes, rng: random.Random) -> bytes:
    """Half the time a number of the XML (a shape, an offset, a size, an id) made extreme."""
    numbers = list(_NUMBER.finditer(data))
    if numbers and rng.random() < 0.5:
        match = rng.choice(numbers)
        return data[: match.start()] + rng.choice(_EXTREME) + data[match.end():]
    return _mutate(data, rng)


def _check(what: str, call: Callable[[], tuple[int, str, str]]) -> None:
    tracemalloc.start()
    start = time.perf_counter()
    try:
        code, _, err = call()
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1] / 2**20
    finally:
        tracemalloc.stop()
    assert code in (0, 1), (what, code, err)
    assert "Traceback" not in err and "internal error" not in err, (what, err)
    if code == 1:
        lines = [line for line in err.strip().splitlines() if not line.startswith("note: ")]
        assert len(lines) == 1 or lines[0].startswith(("error", "/", "<")), (what, err)
        assert "error" in err, (what, err)
        assert max(len(line) for line in lines) <= MAX_LINE, (what, err[:MAX_LINE])
    assert seconds < SECONDS, (what, seconds)
    assert peak < MEGABYTES, (what, peak)


def _cases(default: int) -> range:
    return range(CASES or default)


def test_fuzz_openvino_ir(tmp_path: Path) -> None:
    xml, weights = (ROOT / "examples" / "lstm_cell.xml").read_bytes(), \
        (ROOT / "examples" / "lstm_cell.bin").read_bytes()
    rng = random.Random(SEED)
    for case in _cases(120):
        model = tmp_path / f"m{case}.xml"
        if rng.random() < 0.8:
            model.write_bytes(_mutate_xml(xml, rng))
            model.with_suffix(".bin").write_bytes(weights)
        else:
            model.write_bytes(xml)
            model.with_suffix(".bin").write_bytes(_mutate(weights, rng)[: rng.randrange(
                len(weights) + 1)] if rng.random() < 0.5 else _mutate(weights, rng))
        _check(f"{model} (case {case}, seed {SEED})",
               lambda m=model: cli(opt.main, str(m), "-p", "convert-openvino-to-tosa",
                                   "-o", str(tmp_path / "out.mlir")))


@pytest.mark.parametrize("name", ["dense.tflite", "seed_lstm.tflite"])
def test_fuzz_tflite(tmp_path: Path, name: str) -> None:
    data = (ROOT / "tests" / "tflite_models" / name).read_bytes()
    rng = random.Random(f"{SEED}:{name}")
    for case in _cases(60):
        model = tmp_path / f"m{case}.tflite"
        model.write_bytes(_mutate(data, rng))
        _check(f"{name} mutated (case {case}, seed {SEED})",
               lambda m=model: cli(opt.main, str(m), "-o", str(tmp_path / "out.mlir")))


@pytest.mark.parametrize("device", ["interpreter", "iree"])
def test_fuzz_inputs_archives(tmp_path: Path, device: str) -> None:
    model = tmp_path / "acc.mlir"
    model.write_text(ACCUMULATOR)
    if device == "iree":  # compiled once, outside the time bound of each case
        ts.compile_model(model, device=device)
    good = tmp_path / "good.npz"
    np.savez(good, x=np.ones((3, 1, 4), np.float32))
    small = tmp_path / "small.npz"
    np.savez_compressed(small, x=np.ones((2, 1, 4), np.float32))
    rng = random.Random(SEED)
    for case in _cases(120):
        source = (good if case % 2 else small).read_bytes()
        inputs = tmp_path / f"in{case}.npz"
        inputs.write_bytes(_mutate(source, rng))
        _check(f"{inputs} (case {case}, seed {SEED})",
               lambda i=inputs: cli(run.main, str(model), "--inputs", str(i), "-q",
                                    "--device", device, "-o", str(tmp_path / "out.npz")))
