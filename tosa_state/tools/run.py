"""`tosa-state-run`: run a stateful model for many consecutive calls, keeping its state.

Inputs come from an `.npz` whose arrays carry a leading step axis (keyed by input name or
`arg<i>`), or hold one call each (`<name>@<step>`, for steps of different shapes; see
`tools/npz.py`, also for the dtype rule); the output `.npz` holds each output by
name and as `result<i>` (leading step axis), and `state/<variable>` (the final state).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tosa_state.api import DEFAULT_PIPELINE, compile_model
from tosa_state.context import make_context
from tosa_state.devices import DEVICES, INTERPRETER, IREE
from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.progress import Progress
from tosa_state.runtime import CompiledModel, InferRequest
from tosa_state.tools.cli import ArgumentParser, run_tool
from tosa_state.tools.npz import load_npz, output_arrays, port_type, save_npz, step_inputs
from tosa_state.transforms.specialize_input_shapes import parse_shapes


def _arg_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="tosa-state-run",
        description="Run a stateful model (.mlir, OpenVINO .xml or .tflite) for several calls.",
    )
    parser.add_argument("input", help="an .mlir file, an OpenVINO IR .xml, a .tflite model, or - "
                        "for stdin")
    parser.add_argument("--entry", help="the function to run (default: main, or the only one)")
    parser.add_argument(
        "--pipeline", default=None,
        help=f"lowering before running (default: '{DEFAULT_PIPELINE}'; '' runs TOSA as is)",
    )
    parser.add_argument(
        "--device", default=INTERPRETER, choices=DEVICES,
        help=f"where the model runs (default {INTERPRETER}; {IREE}: compiled by IREE, "
        "docs/runtime.md)",
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
    parser.add_argument(
        "-o", "--output",
        help="write each output (by name, and as result<i>) and state/<name> to this .npz",
    )
    parser.add_argument("--print", action="store_true", help="print a readable summary")
    parser.add_argument(
        "--print-limit", type=int, default=DEFAULT_PRINT_LIMIT, metavar="N",
        help=f"--print shows the first and last N/2 steps (default {DEFAULT_PRINT_LIMIT}; "
        "0 shows all)",
    )
    parser.add_argument(
        "-q", "--quiet", action="store_true",
        help="no progress bar and no notes on stderr (bars show on a terminal only, for work "
        "over a second)",
    )
    return parser


DEFAULT_PRINT_LIMIT = 20
"""Steps `--print` shows by default: the first and the last ten."""


def _step_count(compiled: CompiledModel, arrays: Sequence[np.ndarray | list[np.ndarray]],
                steps: int | None) -> int:
    lengths = {port.name: len(a) for port, a in zip(compiled.inputs, arrays, strict=True)}
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
    compiled: CompiledModel, arrays: Sequence[np.ndarray | list[np.ndarray]], steps: int,
    resets: set[int],
    progress: bool = False,
) -> tuple[list[list[np.ndarray]], InferRequest]:
    """Run `steps` calls on one request, resetting its state before the steps in `resets`."""
    request = compiled.create_infer_request()
    outputs: list[list[np.ndarray]] = []
    with Progress.on_terminal("running", total=steps, enabled=progress) as bar:
        for step in range(steps):
            if step in resets:
                request.reset_state()
            try:
                outputs.append(list(request.infer([a[step] for a in arrays])))
            except TosaStateError as error:
                raise type(error)(f"{error}\nnote: at step {step}") from None
            bar.advance()
    return outputs, request


def _final_state(request: InferRequest) -> dict[str, np.ndarray]:
    states: dict[str, np.ndarray] = {}
    for variable in request.query_state():
        try:
            states[variable.name] = variable.state
        except InferenceError:
            continue  # never written and no initial value: there is no state to report
    return states


def _summary(compiled: CompiledModel, outputs: list[list[np.ndarray]],
             states: dict[str, np.ndarray], resets: set[int], limit: int) -> str:
    """What ran and what came out: each output's name, dtype and shape, its value at each
    shown step (the first and last `limit // 2`; all when `limit` is 0), the final state."""
    resets_note = f", reset before step {', '.join(map(str, sorted(resets)))}" if resets else ""
    lines = [f"model: entry '{compiled.entry}', {len(outputs)} step(s){resets_note}",
             "inputs:  " + (", ".join(f"{p.name} {port_type(p)}" for p in compiled.inputs)
                            or "none"),
             "outputs: " + (", ".join(f"{p.name} {port_type(p)}" for p in compiled.outputs)
                            or "none")]
    names = [port.name for port in compiled.outputs]
    shown = range(len(outputs))
    if 0 < limit < len(outputs):
        shown = [*range((limit + 1) // 2), *range(len(outputs) - limit // 2, len(outputs))]
    with np.printoptions(precision=6, suppress=True, threshold=64, edgeitems=4,
                         linewidth=100):
        previous = -1
        for step in shown:
            if step != previous + 1:
                lines.append(f"... {step - previous - 1} step(s) not shown (--print-limit 0 "
                             "shows all) ...")
            previous = step
            lines.append(f"step {step}{' (after reset)' if step in resets else ''}:")
            lines += _aligned(names, outputs[step])
        lines.append("final state:")
        lines += _aligned([f"{n} {v.dtype}[{','.join(map(str, v.shape))}]"
                           for n, v in states.items()], list(states.values()))
    return "\n".join(lines) + "\n"


def _aligned(labels: Sequence[str], values: Sequence[np.ndarray]) -> list[str]:
    """`  label = value` rows, the `=` signs and every row of a value's text aligned."""
    width = max((len(label) for label in labels), default=0)
    lines: list[str] = []
    for label, value in zip(labels, values, strict=True):
        prefix = f"  {label:<{width}} = "
        lines.append(prefix + np.array2string(value, prefix=" " * len(prefix)))
    return lines


def main(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    resets = _reset_steps(args.reset_at)
    model: str | ModuleOp = args.input
    if args.input == "-":
        model = parse_mlir(make_context(), sys.stdin.read(), "<stdin>")
    elif not Path(args.input).exists():
        raise TosaStateError(f"{args.input}: error: no such file")
    if args.print_limit < 0:
        raise TosaStateError(f"error: --print-limit must not be negative, got {args.print_limit}")
    data = load_npz(args.inputs) if args.inputs else {}
    compiled = compile_model(model, pipeline=args.pipeline, entry=args.entry,
                             input_shapes=parse_shapes(args.input_shape),
                             progress=not args.quiet, device=args.device)
    arrays = step_inputs(compiled.inputs, data, None if args.quiet else _note)
    steps = _step_count(compiled, arrays, args.steps)
    if late := sorted(k for k in resets if k >= steps):
        raise TosaStateError(
            f"error: --reset-at {','.join(map(str, late))}: the run has only {steps} step(s), "
            "numbered from 0"
        )
    outputs, request = run(compiled, arrays, steps, resets, progress=not args.quiet)
    states = _final_state(request)
    if args.output:
        save_npz(args.output, {**output_arrays(compiled.outputs, outputs),
                               **{f"state/{name}": value for name, value in states.items()}})
    if args.print or not args.output:
        print(_summary(compiled, outputs, states, resets, args.print_limit), end="")
    return 0


def _note(message: str) -> None:
    print(message, file=sys.stderr)


def entry_point() -> None:
    run_tool(main)
