"""`tosa-state-run`: run a stateful model for many consecutive calls, keeping its state.

Inputs come from an `.npz` whose arrays carry a leading step axis (keyed by input name or
`arg<i>`); the output `.npz` holds `result<i>` (leading step axis) and
`state/<variable>` (the final state).
"""

from __future__ import annotations

import argparse
import io
import sys
import zipfile
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tosa_state.api import DEFAULT_PIPELINE, compile_model
from tosa_state.context import make_context
from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.runtime import CompiledModel, InferRequest, Port
from tosa_state.tools.cli import ArgumentParser, run_tool, write_atomically
from tosa_state.transforms.specialize_input_shapes import parse_shapes


def _arg_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="tosa-state-run",
        description="Run a stateful model (.mlir or OpenVINO .xml) for several calls.",
    )
    parser.add_argument("input", help="an .mlir file, an OpenVINO IR .xml, or - for stdin")
    parser.add_argument("--entry", help="the function to run (default: main, or the only one)")
    parser.add_argument(
        "--pipeline", default=None,
        help=f"lowering before running (default: '{DEFAULT_PIPELINE}'; '' runs TOSA as is)",
    )
    parser.add_argument(
        "--input-shape", default="", metavar="SHAPES",
        help="static shapes for dynamic inputs, e.g. x=1x8,mask=1x16 (as OpenVINO's reshape)",
    )
    parser.add_argument("--inputs", help=".npz of inputs, each with a leading step axis")
    parser.add_argument("--steps", type=int, help="number of calls (default: all input steps)")
    parser.add_argument(
        "--reset-at", default="", help="reset every variable before these steps, e.g. 3,7"
    )
    parser.add_argument("-o", "--output", help="write result<i> and state/<name> to this .npz")
    parser.add_argument("--print", action="store_true", help="print a readable summary")
    return parser


def _load_inputs(path: str | None) -> dict[str, np.ndarray]:
    if path is None:
        return {}
    try:
        loaded = np.load(path, allow_pickle=False)
        if not isinstance(loaded, np.lib.npyio.NpzFile):
            raise ValueError("not an .npz archive (a single .npy array?); write one with "
                             "numpy.savez(path, name=array, ...)")
        with loaded as data:
            return {key: data[key] for key in data.files}
    except (OSError, ValueError, zipfile.BadZipFile, EOFError) as error:
        raise TosaStateError(f"{path}: error: cannot read inputs: {error}") from None


def _step_inputs(compiled: CompiledModel, data: dict[str, np.ndarray]) -> list[np.ndarray]:
    """One array per model input, by name or `arg<i>`, each with a leading step axis."""
    arrays: list[np.ndarray] = []
    used: set[str] = set()
    for port in compiled.inputs:
        key = next((k for k in (port.name, f"arg{port.index}") if k in data), None)
        if key is None:
            raise InferenceError(
                f"error: no array for input '{port.name}' (arg{port.index}) in the inputs; "
                f"expected one of shape {_stepped_shape(port)} and dtype {port.dtype}"
            )
        used.add(key)
        if data[key].ndim == 0:
            raise InferenceError(
                f"error: input '{key}' is a scalar; it needs a leading step axis: shape "
                f"{_stepped_shape(port)}"
            )
        arrays.append(data[key])
    unknown = sorted(set(data) - used)
    if unknown:
        names = ", ".join(p.name for p in compiled.inputs) or "none"
        raise InferenceError(f"error: unknown input(s) {', '.join(unknown)} (inputs: {names})")
    return arrays


def _stepped_shape(port: Port) -> str:
    return f"[{', '.join(['steps', *(str(d) if d >= 0 else '?' for d in port.shape)])}]"


def _step_count(compiled: CompiledModel, arrays: list[np.ndarray], steps: int | None) -> int:
    lengths = {port.name: a.shape[0] for port, a in zip(compiled.inputs, arrays, strict=True)}
    if len(set(lengths.values())) > 1:
        raise InferenceError(f"error: inputs have different numbers of steps: {lengths}")
    available = next(iter(lengths.values()), None)
    if steps is None:
        return 1 if available is None else available
    if steps < 0:
        raise InferenceError(f"error: --steps must not be negative, got {steps}")
    if available is not None and steps > available:
        raise InferenceError(f"error: --steps {steps} but the inputs hold {available} steps")
    return steps


def _reset_steps(spec: str) -> set[int]:
    bad = TosaStateError(f"error: --reset-at expects step numbers (0, 1, ...) like 3,7, got "
                         f"{spec!r}")
    try:
        steps = {int(k) for k in spec.split(",") if k.strip()}
    except ValueError:
        raise bad from None
    if any(k < 0 for k in steps):
        raise bad
    return steps


def run(
    compiled: CompiledModel, arrays: list[np.ndarray], steps: int, resets: set[int]
) -> tuple[list[list[np.ndarray]], InferRequest]:
    request = compiled.create_infer_request()
    outputs: list[list[np.ndarray]] = []
    for step in range(steps):
        if step in resets:
            request.reset_state()
        try:
            outputs.append(list(request.infer([a[step] for a in arrays])))
        except TosaStateError as error:
            raise type(error)(f"{error}\nnote: at step {step}") from None
    return outputs, request


def _final_state(request: InferRequest) -> dict[str, np.ndarray]:
    states: dict[str, np.ndarray] = {}
    for variable in request.query_state():
        try:
            states[variable.name] = variable.state
        except InferenceError:
            continue  # never written and no initial value: there is no state to report
    return states


def _save(path: str, compiled: CompiledModel, outputs: list[list[np.ndarray]],
          states: dict[str, np.ndarray]) -> None:
    arrays: dict[str, Any] = {}
    for port in compiled.outputs:
        arrays[f"result{port.index}"] = np.stack([step[port.index] for step in outputs]) if \
            outputs else np.zeros((0, *[max(d, 0) for d in port.shape]), port.dtype)
    for name, value in states.items():
        arrays[f"state/{name}"] = value
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())


def _summary(compiled: CompiledModel, outputs: list[list[np.ndarray]],
             states: dict[str, np.ndarray], resets: set[int]) -> str:
    lines = [f"model: entry '{compiled.entry}', {len(outputs)} step(s)"]
    with np.printoptions(precision=6, suppress=True, threshold=64, edgeitems=4):
        for step, values in enumerate(outputs):
            lines.append(f"step {step}{' (after reset)' if step in resets else ''}:")
            for port, value in zip(compiled.outputs, values, strict=True):
                lines.append(f"  {port.name} = {np.array2string(value, prefix='    ')}")
        lines.append("final state:")
        for name, value in states.items():
            lines.append(f"  {name} = {np.array2string(value, prefix='    ')}")
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    resets = _reset_steps(args.reset_at)
    model: str | ModuleOp = args.input
    if args.input == "-":
        model = parse_mlir(make_context(), sys.stdin.read(), "<stdin>")
    elif not Path(args.input).exists():
        raise TosaStateError(f"{args.input}: error: no such file")
    compiled = compile_model(model, pipeline=args.pipeline, entry=args.entry,
                             input_shapes=parse_shapes(args.input_shape))
    arrays = _step_inputs(compiled, _load_inputs(args.inputs))
    steps = _step_count(compiled, arrays, args.steps)
    if late := sorted(k for k in resets if k >= steps):
        raise TosaStateError(
            f"error: --reset-at {','.join(map(str, late))}: the run has only {steps} step(s), "
            "numbered from 0"
        )
    outputs, request = run(compiled, arrays, steps, resets)
    states = _final_state(request)
    if args.output:
        _save(args.output, compiled, outputs, states)
    if args.print or not args.output:
        print(_summary(compiled, outputs, states, resets), end="")
    return 0


def entry_point() -> None:
    run_tool(main)
