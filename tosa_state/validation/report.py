"""What `validate` found: per level, per output and per variable, the errors and the verdict."""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

import numpy as np


@dataclass
class Comparison:
    """One output or variable at one level, over all steps."""

    kind: str
    """"output" or "variable"."""
    name: str
    dtype: str
    shape: list[int]
    max_abs: float = 0.0
    max_abs_step: int | None = None
    max_rel: float = 0.0
    max_rel_step: int | None = None
    compared_steps: int = 0
    mismatched_steps: list[int] = field(default_factory=list)
    note: str = ""

    @property
    def ok(self) -> bool:
        return not self.mismatched_steps and not self.note

    def describe(self, value: np.ndarray) -> None:
        """Take the dtype and shape from a value when the declaration has none (variables)."""
        if not self.dtype:
            self.dtype, self.shape = str(value.dtype), list(value.shape)

    def add(self, step: int, ours: np.ndarray, theirs: np.ndarray, atol: float,
            rtol: float) -> None:
        """Compare one step: `theirs` (OpenVINO's) is the reference."""
        self.compared_steps += 1
        if ours.shape != theirs.shape:
            self.fail(step, f"shape {list(ours.shape)}, OpenVINO's {list(theirs.shape)}")
            return
        a, b = ours.astype(np.float64), theirs.astype(np.float64)
        with np.errstate(invalid="ignore", over="ignore", divide="ignore"):
            close = np.isclose(a, b, rtol=rtol, atol=atol, equal_nan=True)
            diff = np.abs(a - b)
            diff = np.where(close & ~np.isfinite(b), 0.0, diff)  # inf == inf, nan == nan
            diff = np.where(np.isnan(diff), np.inf, diff)  # a NaN on one side only
            rel = np.where(b != 0, diff / np.abs(b), 0.0)
        if diff.size and (worst := float(diff.max())) > self.max_abs:
            self.max_abs, self.max_abs_step = worst, step
        if rel.size and (worst := float(rel.max())) > self.max_rel:
            self.max_rel, self.max_rel_step = worst, step
        if not close.all():
            self.mismatched_steps.append(step)

    def fail(self, step: int | None, note: str) -> None:
        """A difference that is not numeric (a shape, a missing value)."""
        if step is not None:
            self.mismatched_steps.append(step)
            note = f"step {step}: {note}"
        self.note = self.note or note


@dataclass
class LevelReport:
    """The comparisons at one lowering level."""

    level: str
    pipeline: str
    comparisons: list[Comparison] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return all(c.ok for c in self.comparisons)


@dataclass
class ValidationReport:
    """What `validate` found: one `LevelReport` per level; `ok` when every one agrees."""

    model: str
    steps: int
    seed: int | None
    atol: float
    rtol: float
    reset_at: list[int]
    set_state_at: list[int]
    levels: list[LevelReport] = field(default_factory=list)
    caveats: list[str] = field(default_factory=list)
    """What OpenVINO is known to compute differently (its CPU plugin's quirks)."""

    @property
    def ok(self) -> bool:
        return all(level.ok for level in self.levels)

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["ok"] = self.ok
        for level, report in zip(data["levels"], self.levels, strict=True):
            level["ok"] = report.ok
            for row, comparison in zip(level["comparisons"], report.comparisons, strict=True):
                row["ok"] = comparison.ok
        return _jsonable(data)

    def to_json(self) -> str:
        return json.dumps(self.to_dict(), indent=2, allow_nan=False)

    def format(self) -> str:
        """A table per level, then the verdict."""
        lines = [f"model: {self.model}",
                 f"sequence: {self.steps} step(s)"
                 + (f" of random inputs (seed {self.seed})" if self.seed is not None else "")
                 + _steps(", reset_state before step", self.reset_at)
                 + _steps(", set_state before step", self.set_state_at),
                 f"tolerance: |tosa-state - OpenVINO| <= {self.atol:g} + {self.rtol:g} * "
                 "|OpenVINO| (OpenVINO CPU, f32)"]
        for caveat in self.caveats:
            lines.append(f"caveat: {caveat}")
        for level in self.levels:
            lines.append("")
            lines.append(f"level {level.level}" + (f" ({level.pipeline})" if level.pipeline
                                                   else " (TOSA as is)"))
            lines += _table(level.comparisons)
        failed = [level.level for level in self.levels if not level.ok]
        lines.append("")
        lines.append(f"FAILED: tosa-state differs from OpenVINO at {', '.join(failed)}"
                     if failed else "PASSED: tosa-state agrees with OpenVINO")
        return "\n".join(lines) + "\n"


def _steps(label: str, steps: list[int]) -> str:
    if not steps:
        return ""
    return f"{label}{'s' if len(steps) > 1 else ''} {', '.join(map(str, steps))}"


_HEADER = ("", "name", "dtype", "shape", "max abs err", "at step", "max rel err", "at step",
           "verdict")


def _table(rows: list[Comparison]) -> list[str]:
    cells = [_HEADER] + [
        (row.kind, row.name, row.dtype, f"[{','.join(map(str, row.shape))}]",
         f"{row.max_abs:.3g}", _step(row.max_abs_step), f"{row.max_rel:.3g}",
         _step(row.max_rel_step), _verdict(row))
        for row in rows
    ]
    widths = [max(len(line[i]) for line in cells) for i in range(len(_HEADER))]
    numeric = {4, 5, 6, 7}
    return ["  " + "  ".join(cell.rjust(w) if i in numeric else cell.ljust(w)
                             for i, (cell, w) in enumerate(zip(line, widths, strict=True))
                             ).rstrip()
            for line in cells]


def _step(step: int | None) -> str:
    return "-" if step is None else str(step)


def _verdict(row: Comparison) -> str:
    if row.ok:
        return "ok"
    detail = row.note or (f"{len(row.mismatched_steps)} of {row.compared_steps} steps, "
                          f"first {row.mismatched_steps[0]}")
    return f"MISMATCH ({detail})"


def _jsonable(data: Any) -> Any:
    """`inf` and `nan` as the strings "inf" / "nan" (JSON has no such numbers)."""
    if isinstance(data, dict):
        return {key: _jsonable(value) for key, value in data.items()}
    if isinstance(data, list):
        return [_jsonable(value) for value in data]
    if isinstance(data, float) and not np.isfinite(data):
        return str(data)
    return data
