"""`tosa-state-opt`: parse, verify, transform and print, with mlir-opt's conventions."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tosa_state.context import make_context
from tosa_state.diagnostics import TosaStateError
from tosa_state.files import write_atomically
from tosa_state.frontends import read_model_file
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import LargeConstants, Spelling, module_pieces
from tosa_state.tools.cli import ArgumentParser, run_tool
from tosa_state.tools.cli import package_version as _version
from tosa_state.tools.verify_diagnostics import DiagnosticVerifier
from tosa_state.transforms import get_all_passes
from tosa_state.transforms.pipeline import apply_pipeline, describe_options, parse_pipeline
from tosa_state.verification import verify_module

SPLIT_MARKER = "// -----"


_XDSL_SUMMARIES = {
    "cse": "Common subexpression elimination (xDSL's).",
    "dce": "Dead code elimination (xDSL's).",
}


def _pass_list() -> str:
    """The passes `-p` takes, each with the first line of its docstring and its options."""
    lines = [
        "passes (-p / --pass-pipeline, as mlir-opt: "
        "'builtin.module(func.func(cse), pass{option=value})', or xDSL's 'pass-a,pass-b'):"
    ]
    for name, load in sorted(get_all_passes().items()):
        pass_type = load()
        summary = (pass_type.__doc__ or "").strip().split("\n")[0] or _XDSL_SUMMARIES.get(name, "")
        lines.append(f"  {name:<34} {summary}")
        lines.extend(f"    --{option}" for option in describe_options(pass_type))
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
        help="an .mlir file, an OpenVINO IR .xml (its .bin beside it), a .tflite model, "
        "or - for stdin",
    )
    parser.add_argument(
        "-p", "--pass-pipeline", "--passes", dest="passes", default="",
        help="pass pipeline, e.g. 'builtin.module(tosa-hoist-variables,"
        "convert-tosa-variables-to-memref{elide-copies=false})' or "
        "'tosa-hoist-variables,convert-tosa-variables-to-memref'",
    )
    parser.add_argument(
        "--version", action="version",
        version=f"tosa-state-opt (tosa-state {_version()}, xDSL {_version('xdsl')})",
    )
    parser.add_argument("-o", "--output", help="output file (default: stdout)")
    parser.add_argument(
        "--split-input-file", action="store_true",
        help=f"split the input at '{SPLIT_MARKER}' lines and process each chunk alone",
    )
    parser.add_argument(
        "--verify-diagnostics", action="store_const", const="all",
        help="check the diagnostics against the input's 'expected-error {{...}}' (-warning, "
        "-note, -remark; @+N, @-N, @above, @below, @unknown; -re for {{regex}} parts) "
        "annotations, as mlir-opt: exit 1 on a missing or unexpected diagnostic "
        "('--verify-diagnostics=only-expected': ignore unexpected ones)",
    )
    parser.add_argument(  # the `=value` spelling, see _split_optional_values
        _VERIFY_MODE, dest="verify_diagnostics", choices=["all", "only-expected"],
        help=argparse.SUPPRESS,
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
    parser.add_argument(
        "--elide-large-constants", "--mlir-elide-elementsattrs-if-larger", type=_count,
        metavar="N", help="print constants of more than N elements as "
        "'dense_resource<__elided__>' (as mlir-opt; the output then holds no weights)",
    )
    parser.add_argument(
        "--dense-resources-if-larger", type=_count, metavar="N",
        help="print constants of more than N elements as 'dense_resource<key>' blobs in a "
        "'{-# dialect_resources: ... #-}' section at the end, as upstream MLIR does "
        "(iree-opt and tosa-state read it back)",
    )
    return parser


def _count(text: str) -> int:
    try:
        value = int(text)
    except ValueError:
        value = -1
    if value < 0:
        raise argparse.ArgumentTypeError(f"expected a number of elements >= 0, got '{text}'")
    return value


@dataclass(frozen=True)
class _Chunk:
    text: str
    first_line: int
    """The file line number of the chunk's first line."""


def _chunks(text: str, split: bool) -> Iterator[_Chunk]:
    """The input's chunks (the whole input unless `split`)."""
    if not split:
        yield _Chunk(text, 1)
        return
    offset = 0
    for chunk in text.split(SPLIT_MARKER):
        yield _Chunk(chunk, offset + 1)
        offset += chunk.count("\n")


def _inputs(
    ctx: Context, path: str, split: bool
) -> Iterator[tuple[_Chunk, str, Callable[[], ModuleOp]]]:
    """Each chunk of the input, its file name, and how to parse it into a module."""
    if Path(path).suffix.lower() in (".xml", ".tflite"):
        yield _Chunk("", 1), path, lambda: read_model_file(ctx, path)
        return
    text, name = _read_input(path)
    for chunk in _chunks(text, split):
        yield chunk, name, lambda c=chunk: parse_mlir(ctx, c.text, name, c.first_line - 1)


def _read_input(path: str) -> tuple[str, str]:
    if path == "-":
        return sys.stdin.read(), "<stdin>"
    try:
        return Path(path).read_text(encoding="utf-8"), path
    except (OSError, UnicodeDecodeError) as error:
        raise TosaStateError(f"{path}: error: cannot read file: {error}") from None


_VERIFY_MODE = "--verify-diagnostics-mode"


def _split_optional_values(argv: list[str]) -> list[str]:
    """mlir-opt's `--verify-diagnostics` takes a value only as `=value`, so a following
    argument (the input file) is never taken for it; argparse's optional values would be."""
    prefix = "--verify-diagnostics="
    return [
        f"{_VERIFY_MODE}={arg.removeprefix(prefix)}" if arg.startswith(prefix) else arg
        for arg in argv
    ]


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    args = _arg_parser().parse_args(_split_optional_values(argv))
    ctx = make_context()
    pipeline = parse_pipeline(args.passes)

    large = LargeConstants(args.elide_large_constants, args.dense_resources_if_larger)

    def process(module: ModuleOp) -> Iterator[str]:
        verify_module(module)
        apply_pipeline(ctx, module, pipeline)
        return module_pieces(
            module,
            spelling=args.tosa_spelling,
            generic=args.print_op_generic,
            debuginfo=args.mlir_print_debuginfo,
            large=large,
        )

    outputs: list[Iterator[str]] = []
    errors: list[str] = []
    for chunk, name, load in _inputs(ctx, args.input, args.split_input_file):
        verifier = None
        if args.verify_diagnostics:
            verifier = DiagnosticVerifier(
                chunk.text, name, chunk.first_line,
                only_expected=args.verify_diagnostics == "only-expected",
            )
        try:
            outputs.append(process(load()))
        except TosaStateError as error:
            if verifier is None:
                errors.append(str(error))  # as mlir-opt: report, go on with the next
            else:
                verifier.process_text(str(error))
        if verifier is not None:
            errors.extend(verifier.finish())
    result = _joined(outputs)  # written piece by piece: blobs are hex-encoded as written
    if errors:
        if not args.output:  # the chunks that worked, as mlir-opt prints them; no file
            sys.stdout.writelines(result)
        raise TosaStateError("\n".join(errors))
    if args.output:
        write_atomically(args.output, result)
    else:
        sys.stdout.writelines(result)
    return 0


def _joined(outputs: list[Iterator[str]]) -> Iterator[str]:
    for index, pieces in enumerate(outputs):
        if index:
            yield f"{SPLIT_MARKER}\n"
        yield from pieces


def entry_point() -> None:
    run_tool(main)
