"""`tosa-state`: the umbrella command; `tosa-state validate MODEL` checks a model against
OpenVINO (see `tosa_state.validation`)."""

from __future__ import annotations

import argparse
import sys

from tosa_state.diagnostics import TosaStateError
from tosa_state.tools.cli import ArgumentParser, package_version, run_tool, write_atomically
from tosa_state.tools.npz import load_npz
from tosa_state.transforms.specialize_input_shapes import parse_shapes
from tosa_state.validation import ATOL, LEVELS, RTOL, validate


def _arg_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="tosa-state",
        description="tosa-state: a compiler and runtime for stateful models. Also: "
        "tosa-state-opt (mlir-opt-like), tosa-state-run (run many steps).",
    )
    parser.add_argument("--version", action="version", version=f"tosa-state {package_version()}")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND",
                                     parser_class=ArgumentParser)
    check = commands.add_parser(
        "validate", help="run a model in tosa-state and in OpenVINO and compare them",
        description="Run an OpenVINO IR model in tosa-state and in the OpenVINO runtime (CPU, "
        "f32) for several steps, with reset_state and set_state in the sequence, at each "
        "lowering level, and compare every output and every variable after every step. Exit "
        "code 1 on a mismatch.",
    )
    check.add_argument("model", help="an OpenVINO IR .xml (its .bin beside it)")
    check.add_argument("--inputs", help=".npz of inputs with a leading step axis, keyed by "
                       "input name or arg<i> (default: seeded random inputs)")
    check.add_argument("--steps", type=int, help="number of calls (default: 12, or all the "
                       "inputs hold)")
    check.add_argument("--seed", type=int, default=0, help="seed of the random inputs and "
                       "set_state values (default 0)")
    check.add_argument("--levels", default=",".join(LEVELS),
                       help=f"lowering levels to check, comma-separated (default: all: "
                       f"{','.join(LEVELS)})")
    check.add_argument("--atol", type=float, default=ATOL, help=f"absolute tolerance (default "
                       f"{ATOL:g})")
    check.add_argument("--rtol", type=float, default=RTOL, help=f"relative tolerance (default "
                       f"{RTOL:g}); an element agrees when |ours - OpenVINO| <= atol + rtol * "
                       "|OpenVINO|")
    check.add_argument("--reset-at", metavar="K[,K...]", help="reset_state before these steps "
                       "(default: two thirds of the way; '' for none)")
    check.add_argument("--set-state-at", metavar="K[,K...]", help="set every variable to "
                       "random values before these steps (default: a third of the way; '' for "
                       "none)")
    check.add_argument("--input-shape", default="", metavar="SHAPES",
                       help="static shapes for dynamic inputs, e.g. x=1x8 (both runtimes)")
    check.add_argument("-o", "--output", metavar="REPORT.json", help="also write the report "
                       "as JSON")
    check.add_argument("-q", "--quiet", action="store_true",
                       help="print only the verdict line; no progress bar, no notes")
    return parser


def _steps(option: str, spec: str | None) -> list[int] | None:
    if spec is None:
        return None
    try:
        steps = [int(k) for k in spec.split(",") if k.strip()]
    except ValueError:
        raise TosaStateError(f"error: {option} expects step numbers like 3,7, got {spec!r}"
                             ) from None
    return steps


def _validate(args: argparse.Namespace) -> int:
    report = validate(
        args.model,
        inputs=load_npz(args.inputs) if args.inputs else None,
        steps=args.steps,
        seed=args.seed,
        levels=[level.strip() for level in args.levels.split(",") if level.strip()],
        atol=args.atol,
        rtol=args.rtol,
        reset_at=_steps("--reset-at", args.reset_at),
        set_state_at=_steps("--set-state-at", args.set_state_at),
        input_shapes=parse_shapes(args.input_shape),
        progress=not args.quiet,
        note=None if args.quiet else _note,
    )
    text = report.format()
    if args.output:
        write_atomically(args.output, report.to_json() + "\n")
    sys.stdout.write(text.splitlines()[-1] + "\n" if args.quiet else text)
    return 0 if report.ok else 1


def _note(message: str) -> None:
    print(message, file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    if args.command == "validate":
        return _validate(args)
    raise AssertionError(args.command)  # argparse accepts no other command


def entry_point() -> None:
    run_tool(main)
