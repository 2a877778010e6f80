"""`validate`: run a user's OpenVINO model in tosa-state and in the OpenVINO runtime, side by side.

Both run the same sequence of calls on one request each: the given (or seeded random) inputs,
`reset_state()` before some steps and `set_state(...)` of every variable (to the same seeded
random values) before others. After every step each output and each variable's state is
compared, at every lowering level asked for (`tosa`, `memref`, `ml_program`; and `iree`, the
`ml_program` level compiled by IREE, with `devices=[..., 'iree']`). OpenVINO runs
on its CPU plugin in f32 (`INFERENCE_PRECISION_HINT`), as the oracle.

An element agrees when `|ours - openvino| <= atol + rtol * |openvino|` (`numpy.isclose`; NaNs
agree with NaNs). The report gives, per output and per variable, the largest absolute error,
the largest relative error (`|ours - openvino| / |openvino|`, over elements where OpenVINO's
value is not 0), the step where each is largest, and the verdict.
"""

from __future__ import annotations

import os
from collections.abc import Mapping, Sequence

import numpy as np

from tosa_state.api import compile_model
from tosa_state.devices import DEVICES, INTERPRETER, IREE, REFERENCE, check_device
from tosa_state.diagnostics import TosaStateError
from tosa_state.progress import Progress
from tosa_state.runtime import CompiledModel
from tosa_state.tools.npz import Note
from tosa_state.transforms.specialize_input_shapes import InputShapes
from tosa_state.validation.report import Comparison, LevelReport, ValidationReport
from tosa_state.validation.sequence import TosaState, compare, make_sequence

LEVELS: dict[str, str] = {
    "tosa": "",
    "memref": "convert-tosa-variables-to-memref",
    "ml_program": "tosa-to-mlprogram",
}
"""The lowering levels `validate` runs at, with the pipeline that reaches each from TOSA."""

ATOL = 1e-4
RTOL = 1e-3
INSTALL_HINT = "pip install 'tosa-state[validate]'"


class ValidationError(TosaStateError):
    """The model or the arguments cannot be validated (a mismatch is not an error: it is in
    the report)."""


def validate(
    model: str | os.PathLike[str],
    inputs: Mapping[str, np.ndarray] | None = None,
    steps: int | None = None,
    seed: int = 0,
    levels: Sequence[str] = tuple(LEVELS),
    atol: float = ATOL,
    rtol: float = RTOL,
    reset_at: Sequence[int] | None = None,
    set_state_at: Sequence[int] | None = None,
    input_shapes: InputShapes | None = None,
    progress: bool = False,
    note: Note | None = None,
    devices: Sequence[str] = (INTERPRETER,),
) -> ValidationReport:
    """Run the OpenVINO IR `model` in tosa-state and in OpenVINO and compare them.

    `inputs` maps input names (or `arg<i>`) to arrays with a leading step axis (as
    `tosa-state-run --inputs`, with its dtype rule; `note` hears of the casts); without
    it, `steps` (default 12) calls get random inputs drawn from `seed`. `reset_at` /
    `set_state_at` are the steps before which every variable is reset / set to random values
    (default: a `set_state` a third of the way, a reset two thirds of the way). `report.ok`
    is the verdict against `atol` and `rtol`; `report.format()` the table,
    `report.to_json()` the same for machines. `devices`: the interpreter runs every level
    asked for; device `iree` adds a level `iree` (the `ml_program` level compiled by IREE),
    device `reference` a level `reference` (the model's TOSA artifact in the TOSA reference
    model).
    """
    session_type = _openvino_session()
    path = os.fspath(model)
    if not path.lower().endswith(".xml"):
        raise ValidationError(f"{path}: error: validate compares with the OpenVINO runtime, so "
                              "it needs an OpenVINO IR model (.xml, its .bin beside it)")
    unknown = [level for level in levels if level not in LEVELS]
    if unknown or not levels:
        raise ValidationError(f"error: unknown level(s) {', '.join(unknown) or '(none given)'}"
                              f"; the levels are {', '.join(LEVELS)}")
    runs = _runs(levels, devices)
    with Progress.on_terminal("compiling: TOSA", total=len(runs) + 1, enabled=progress) as bar:
        tosa = compile_model(path, pipeline="", input_shapes=input_shapes)
        compiled: dict[str, CompiledModel] = {}
        for level, (pipeline, device) in runs.items():
            bar.advance()
            bar.describe(f"compiling: {level}")
            compiled[level] = tosa if level == "tosa" else compile_model(
                tosa.module, pipeline=pipeline, entry=tosa.entry, device=device)
        bar.advance()
    sequence = make_sequence(tosa, inputs, steps, seed, reset_at, set_state_at, note)
    try:
        oracle = session_type(path)
    except Exception as error:  # OpenVINO raises RuntimeErrors of its own, many lines long
        raise _openvino_failed(path, error, "") from None
    report = ValidationReport(path, sequence.steps, None if inputs is not None else seed, atol,
                              rtol, sorted(sequence.resets), sorted(sequence.set_states),
                              caveats=list(oracle.caveats))
    variables = {spec.name: (spec.shape, spec.dtype) for spec in tosa.variables}
    names = [*variables, *(name for name in oracle.variables if name not in variables)]
    with Progress.on_terminal("validating", total=sequence.steps * (len(runs) + 1),
                              enabled=progress) as bar:
        try:
            expected = sequence.play(oracle, variables, bar)
        except Exception as error:
            raise _openvino_failed(path, error, f" at step {sequence.current}") from None
        for level, (pipeline, _) in runs.items():
            bar.describe(f"validating: {level}")
            ours = sequence.play(TosaState(compiled[level].create_infer_request()), variables,
                                 bar)
            rows = compare(compiled[level].outputs, names, ours, expected, atol, rtol)
            for row in rows:
                _missing(row, variables, oracle.variables)
            report.levels.append(LevelReport(level, pipeline, rows))
    return report


def _runs(levels: Sequence[str], devices: Sequence[str]) -> dict[str, tuple[str, str]]:
    """Each level to run: its pipeline from TOSA and its device."""
    for device in devices:
        check_device(device)
    if not devices:
        raise ValidationError(f"error: no device given; the devices are {', '.join(DEVICES)}")
    runs = {}
    if INTERPRETER in devices:
        runs = {level: (LEVELS[level], INTERPRETER) for level in levels}
    if IREE in devices:
        runs[IREE] = (LEVELS["ml_program"], IREE)
    if REFERENCE in devices:
        runs[REFERENCE] = (LEVELS["tosa"], REFERENCE)
    return runs


def _openvino_failed(path: str, error: Exception, where: str) -> ValidationError:
    """OpenVINO's exception (many lines, most of them source locations) as one line."""
    lines = [line.strip() for line in str(error).splitlines() if line.strip()]
    reason = next((line for line in lines if not line.startswith(("Exception from", "Check '"))),
                  lines[0] if lines else type(error).__name__)
    return ValidationError(f"{path}: error: the OpenVINO runtime cannot run this model{where}: "
                           f"{reason}")


def _missing(row: Comparison, ours: Mapping[str, object], theirs: Mapping[str, object]) -> None:
    if row.kind != "variable":
        return
    if row.name not in ours:
        row.fail(None, "a variable of OpenVINO's that tosa-state does not have")
    elif row.name not in theirs:
        row.fail(None, "not a variable in OpenVINO")


def _openvino_session() -> type:
    try:
        from tosa_state.validation.openvino_session import OpenVINOSession
    except ImportError:
        raise ValidationError(f"error: validate needs the OpenVINO runtime: {INSTALL_HINT}"
                              ) from None
    return OpenVINOSession


__all__ = ["LEVELS", "Comparison", "LevelReport", "ValidationError", "ValidationReport",
           "validate"]
