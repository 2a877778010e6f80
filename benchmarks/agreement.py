"""What the benchmarks share before they time anything: the runtimes must agree (a benchmark
fails, it does not print, when one leaves the reference beyond the benchmark's stated
tolerance), and an optional device that is not installed is skipped with a line saying so.

Needs only the base install (`pip install -e .`).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Mapping

import numpy as np


class Disagreement(AssertionError):
    """A runtime's outputs differ from the reference's beyond the stated tolerance."""


def check_agreement(what: str, outputs: Mapping[str, np.ndarray], reference: str,
                    atol: float, relative: bool = False) -> float:
    """The largest |output - reference| over the runtimes of `outputs` (divided by the
    reference's largest magnitude when `relative`); raises `Disagreement` naming the runtime
    when it exceeds `atol` (0: equal bit for bit)."""
    want = np.asarray(outputs[reference], np.float64)
    scale = float(np.max(np.abs(want), initial=0.0)) if relative else 1.0
    worst = 0.0
    for name, got in outputs.items():
        got = np.asarray(got, np.float64)
        if got.shape != want.shape:
            raise Disagreement(f"{what}: {name} gives shape {got.shape}, {reference} "
                               f"{want.shape}")
        error = float(np.max(np.abs(got - want), initial=0.0)) / (scale or 1.0)
        if not error <= atol:  # NaN fails too
            kind = "relative to its largest value " if relative else ""
            raise Disagreement(f"{what}: {name} differs from {reference} by {error:.3g} "
                               f"{kind}(tolerance {atol:.3g}): not timed")
        worst = max(worst, error)
    return worst


def optional_device(device: str, module: str, extra: str) -> bool:
    """Whether `module` (what `device` needs) is installed; prints that the device is skipped
    otherwise."""
    if importlib.util.find_spec(module) is not None:
        return True
    print(f"skipped: device {device} ({module} is not installed: pip install -e '.[{extra}]')")
    return False
