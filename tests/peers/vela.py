"""Arm's Ethos-U compiler, Vela (`ethos-u-vela`, pinned in the test extra), on a TOSA
flatbuffer: which operators it placed on the NPU.

Vela 5.2.0 takes TOSA 1.0 PRO-INT level 8k (+ INT16, INT4, DOUBLEROUND); a `.tosa` goes to its
C++ compiler (regor) on every accelerator, and one operator it cannot run rejects the file
(`RuntimeError: Compilation failed: Validation error:` then a line per op): for TOSA input
there is no CPU fallback on ethos-u55/u65. The placement is read from the `.tflite` it
writes, where each NPU subgraph is a custom operator `ethos-u` (its console summary can
describe an init subgraph only); cycles and memory are in the summary CSV.
"""

from __future__ import annotations

import csv
import subprocess
from dataclasses import dataclass
from pathlib import Path

from npu import vela_operators  # benchmarks/, put on sys.path by conftest

from .upstream_mlir import tool_path, tosa_opt

TIMEOUT_SECONDS = 300
PRO_INT = "specification_version=1.0 level=8k profiles=pro_int extensions=variable,doubleround"


@dataclass
class VelaResult:
    """`operators`: the output `.tflite`'s operators (`ethos-u` for an NPU subgraph, the
    builtin's name otherwise); `summary`: the summary CSV's one row."""

    operators: list[str]
    summary: dict[str, str]

    @property
    def all_on_npu(self) -> bool:
        return bool(self.operators) and all(op == "ethos-u" for op in self.operators)


class VelaRejected(Exception):
    """Vela refused the file; the message is its validation report."""


def serialize(upstream_mlir: str, path: Path, target: str = PRO_INT) -> Path:
    """`upstream_mlir` checked for `target` (`tosa-opt --tosa-validate`) and written as a
    TOSA flatbuffer at `path`."""
    tosa_opt(upstream_mlir, f"--tosa-attach-target={target}",
             "--tosa-validate=strict-op-spec-alignment",
             f"--tosa-serialize=tosa-flatbuffer-filename={path}",
             "-o", str(path.with_suffix(".mlir")))  # never /dev/null: tosa_state/tosa_tools.py
    return path


def compile_tosa(tosa: Path, accelerator: str, output_dir: Path) -> VelaResult:
    """`vela --accelerator-config ACCELERATOR --output-dir OUTPUT_DIR TOSA`."""
    vela = tool_path("vela")
    assert vela is not None, "vela is not installed (ethos-u-vela, the test extra)"
    result = subprocess.run(
        [vela, "--accelerator-config", accelerator, "--output-dir", str(output_dir), str(tosa)],
        capture_output=True, text=True, timeout=TIMEOUT_SECONDS, check=False)
    if result.returncode != 0:
        raise VelaRejected(result.stdout + result.stderr)
    (summary_csv,) = output_dir.glob(f"{tosa.stem}_summary_*.csv")
    with summary_csv.open() as file:
        (summary,) = list(csv.DictReader(file))
    return VelaResult(vela_operators(output_dir / f"{tosa.stem}_vela.tflite"), summary)
