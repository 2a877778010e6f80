"""`tosa-state-opt`: parse, verify, transform and print, with mlir-opt's conventions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Iterator
from pathlib import Path

from xdsl.dialects.builtin import ModuleOp

from tosa_state.context import make_context
from tosa_state.diagnostics import TosaStateError
from tosa_state.frontends import read_model_file
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import Spelling, print_module
from tosa_state.tools.cli import ArgumentParser, run_tool, write_atomically
from tosa_state.transforms import get_all_passes
from tosa_state.transforms.pipeline import apply_pipeline, parse_pipeline
from tosa_state.verification import verify_module

SPLIT_MARKER = "// -----"


_XDSL_SUMMARIES = {
    "cse": "Common subexpression elimination (xDSL's).",
    "dce": "Dead code elimination (xDSL's).",
}


def _pass_list() -> str:
    """The passes `-p` takes, each with the first line of its docstring."""
    lines = ["passes (-p, options in braces: -p 'name{option=value}'):"]
    for name, load in sorted(get_all_passes().items()):
        summary = (load().__doc__ or "").strip().split("\n")[0] or _XDSL_SUMMARIES.get(name, "")
        lines.append(f"  {name:<34} {summary}")
    return "\n".join(lines)


def _arg_parser() -> argparse.ArgumentParser:
    parser = ArgumentParser(
        prog="tosa-state-opt",
        description="Parse, verify, transform and print stateful TOSA / OpenVINO models.",
        epilog=_pass_list(),
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument(
        "input", nargs="?", default="-",
        help="an .mlir file, an OpenVINO IR .xml (its .bin beside it), or - for stdin",
    )
    parser.add_argument(
        "-p", "--passes", default="",
        help="pass pipeline, e.g. 'tosa-hoist-variables,convert-tosa-variables-to-memref'",
    )
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    parser.add_argument(
        "--split-input-file", action="store_true",
        help=f"split the input at '{SPLIT_MARKER}' lines and process each chunk alone",
    )
    parser.add_argument(
        "--verify-diagnostics", action="store_true",
        help="print diagnostics as output (exit 0) instead of failing; for lit tests",
    )
    parser.add_argument(
        "--print-op-generic", action="store_true", help="print every op in generic form"
    )
    parser.add_argument(
        "--tosa-spelling", choices=[s.value for s in Spelling], default=Spelling.DOTTED.value,
        help="'upstream' prints tosa.variable_read/_write and generic TOSA ops with "
        "properties, so that upstream MLIR tools (iree-opt, tosa-opt) parse the output",
    )
    parser.add_argument(
        "--mlir-print-debuginfo", action="store_true", help="print op locations"
    )
    return parser


def _chunks(text: str, split: bool) -> Iterator[tuple[str, int]]:
    """The input's chunks with the number of lines before each."""
    if not split:
        yield text, 0
        return
    offset = 0
    for chunk in text.split(SPLIT_MARKER):
        yield chunk, offset
        offset += chunk.count("\n")


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except (OSError, UnicodeDecodeError) as error:
        raise TosaStateError(f"{path}: error: cannot read file: {error}") from None


def main(argv: list[str] | None = None) -> int:
    args = _arg_parser().parse_args(argv)
    ctx = make_context()
    pipeline = parse_pipeline(args.passes)

    def process(module: ModuleOp) -> str:
        verify_module(module)
        apply_pipeline(ctx, module, pipeline)
        return print_module(
            module,
            spelling=args.tosa_spelling,
            generic=args.print_op_generic,
            debuginfo=args.mlir_print_debuginfo,
        )

    outputs: list[str] = []
    errors: list[str] = []
    if Path(args.input).suffix.lower() == ".xml":
        outputs.append(process(read_model_file(ctx, args.input)))
    else:
        text, name = _read_input(args.input)
        for chunk, offset in _chunks(text, args.split_input_file):
            try:
                outputs.append(process(parse_mlir(ctx, chunk, name, offset)))
            except TosaStateError as error:
                if args.verify_diagnostics:
                    outputs.append(f"{error}\n")
                else:
                    errors.append(str(error))  # as mlir-opt: report, go on with the next
    result = f"{SPLIT_MARKER}\n".join(outputs)
    if errors:
        if not args.output:  # the chunks that worked, as mlir-opt prints them; no file
            sys.stdout.write(result)
        raise TosaStateError("\n".join(errors))
    if args.output:
        write_atomically(args.output, result)
    else:
        sys.stdout.write(result)
    return 0


def entry_point() -> None:
    run_tool(main)
