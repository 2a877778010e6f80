"""`tosa-state`: the umbrella command; `tosa-state validate MODEL` checks a model against
OpenVINO (see `tosa_state.validation`); `tosa-state compile MODEL -o X.vmfb` compiles it with
IREE, `--target tosa -o X.tosa` writes a TOSA artifact for a target; `tosa-state check MODEL`
lists what the target refuses; `tosa-state cache [--clear]` shows (or empties) the cache of
IREE artifacts."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from tosa_state.api import _compile_model, compile_tosa
from tosa_state.devices import DEFAULT_PIPELINES, DEVICES, INTERPRETER, IREE, REFERENCE
from tosa_state.devices.iree_compile import CACHE_ENV, cache_dir, clear_cache
from tosa_state.diagnostics import TosaStateError
from tosa_state.emitters.tosa_artifact import TosaArtifact
from tosa_state.files import build_atomically, write_atomically
from tosa_state.tools.cli import ArgumentParser, package_version, run_tool
from tosa_state.tools.npz import load_npz
from tosa_state.transforms.specialize_input_shapes import parse_shapes
from tosa_state.transforms.tosa_static_state import StaticState
from tosa_state.transforms.tosa_validation import EXTENSIONS, PROFILES
from tosa_state.transforms.tosa_validation import LEVELS as TOSA_LEVELS
from tosa_state.validation import ATOL, LEVELS, RTOL, validate

TARGETS = ("iree", "tosa")


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
    check.add_argument("--devices", default=INTERPRETER, metavar="D[,D...]",
                       help=f"devices to check, comma-separated: {', '.join(DEVICES)} (default "
                       f"{INTERPRETER}; {IREE} adds the level '{IREE}', the ml_program level "
                       f"compiled by IREE; {REFERENCE} the level '{REFERENCE}', the model's "
                       "TOSA artifact in the TOSA reference model)")
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
    build = commands.add_parser(
        "compile", help="compile a model with IREE to a .vmfb, or to a TOSA artifact (.tosa)",
        description="Compile a model (.mlir, OpenVINO .xml, .tflite or .tosa) with IREE to a "
        ".vmfb that any IREE runtime loads, with exported state-control functions "
        "(docs/runtime.md; the artifact is also cached), its weights inline (or, with "
        "--parameters, in an IREE parameter archive beside it); or, with --target tosa, to a TOSA "
        "1.0 flatbuffer checked for its target (profiles, extensions, level) and a JSON "
        "state manifest beside it (docs/targets.md). A model the target does not admit "
        "exits 1 listing every violation, and nothing is written.",
    )
    build.add_argument("model", help="an .mlir file, an OpenVINO IR .xml, a .tflite or a "
                       ".tosa model")
    build.add_argument("-o", "--output", required=True, metavar="MODEL.vmfb|MODEL.tosa")
    build.add_argument("--target", choices=TARGETS, default="iree",
                       help="what to write: an IREE .vmfb (default) or a TOSA flatbuffer")
    build.add_argument("--entry", help="the function to run (default: main, or the only one)")
    build.add_argument("--pipeline", default=None, help="lowering to the ml_program level "
                       f"(default: '{DEFAULT_PIPELINES[IREE]}'; --target iree only)")
    build.add_argument("--input-shape", default="", metavar="SHAPES",
                       help="static shapes for dynamic inputs, e.g. x=1x8")
    build.add_argument("--parameters", metavar="MODEL.irpa",
                       help="write the model's weights (constants of 64 KiB or more) to this "
                       "IREE parameter archive instead of into the .vmfb, which then needs it: "
                       "iree-run-module --parameters=model=MODEL.irpa (as iree-compile's "
                       "--iree-opt-export-parameters; --target iree only)")
    _add_target_options(build)
    build.add_argument("-q", "--quiet", action="store_true", help="no progress bar")
    check_target = commands.add_parser(
        "check", help="check a model against a TOSA target without writing anything",
        description="Lower a model as `compile --target tosa` does and print every "
        "violation of the target (op, location or layer, rule), or that it is legal. Exit "
        "code 1 when the target does not admit the model.",
    )
    check_target.add_argument("model", help="an .mlir file, an OpenVINO IR .xml, a .tflite or "
                              "a .tosa model")
    check_target.add_argument("--target", choices=("tosa",), default="tosa",
                              help="the target kind (tosa)")
    check_target.add_argument("--entry", help="the function to run (default: main, or the "
                              "only one)")
    check_target.add_argument("--input-shape", default="", metavar="SHAPES",
                              help="static shapes for dynamic inputs, e.g. x=1x8")
    _add_target_options(check_target)
    cache = commands.add_parser(
        "cache", help="the cache of IREE artifacts: where it is, or --clear it",
        description=f"Print the directory of cached IREE artifacts (${CACHE_ENV} overrides "
        "it); --clear removes them.",
    )
    cache.add_argument("--clear", action="store_true", help="remove every cached artifact")
    return parser


def _static_state(text: str | None) -> StaticState | None:
    """`--static-state 64` or `--static-state max_prompt_len=48,min_response_len=16`."""
    if text is None:
        return None
    if text.strip().isdigit():
        return int(text)
    options: dict[str, int] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, _, value = item.partition("=")
        if not value.strip().isdigit():
            raise TosaStateError(f"error: --static-state expects N or name=N[,name=N], got "
                                 f"{text!r}")
        options[name.strip()] = int(value)
    return options


def _add_target_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--static-state", metavar="N|max_prompt_len=P,min_response_len=R",
                        help="give every variable that grows by a concat a fixed capacity "
                        "(tosa-static-state; a decoder's .vmfb gets prefill and decode entries: "
                        "prefill_chunk=C, batch=B)")
    parser.add_argument("--profile", "--profiles", dest="profiles", default="pro_fp",
                        metavar="P[,P]", help=f"TOSA profiles: {', '.join(PROFILES)} or both "
                        "(default pro_fp)")
    parser.add_argument("--level", default="8k", choices=tuple(TOSA_LEVELS),
                        help="TOSA level (default 8k)")
    parser.add_argument("--extensions", default="variable", metavar="E[,E...]",
                        help=f"TOSA extensions ({', '.join(EXTENSIONS)}; default variable; "
                        "'' for none)")
    parser.add_argument("--spec-version", default="1.0", help="TOSA specification version "
                        "(default 1.0)")


def _tosa_artifact(args: argparse.Namespace, progress: bool) -> TosaArtifact:
    return compile_tosa(args.model, args.profiles, args.extensions, args.level,
                        args.spec_version, entry=args.entry,
                        input_shapes=parse_shapes(args.input_shape), progress=progress,
                        static_state=_static_state(args.static_state))


def _check(args: argparse.Namespace) -> int:
    artifact = _tosa_artifact(args, progress=False)
    print(artifact.report())
    return 0 if artifact.ok else 1


def _compile(args: argparse.Namespace) -> int:
    if args.target == "tosa":
        for option, value in (("--pipeline", args.pipeline), ("--parameters", args.parameters)):
            if value is not None:
                raise TosaStateError(f"error: {option} is for --target iree; --target tosa "
                                     "lowers for its target (docs/targets.md)")
        artifact = _tosa_artifact(args, progress=not args.quiet)
        artifact.check()  # the report, exit 1, nothing written
        artifact.save(args.output)
        return 0
    from tosa_state.devices.iree import InlineWeightsError
    from tosa_state.devices.iree_parameters import save_archive

    try:
        compiled = _compile_model(args.model, pipeline=args.pipeline, entry=args.entry,
                                  input_shapes=parse_shapes(args.input_shape),
                                  progress=not args.quiet, device=IREE,
                                  static_state=_static_state(args.static_state),
                                  portable=True, inline_weights=args.parameters is None)
    except InlineWeightsError as error:
        raise InlineWeightsError(error.nbytes, error.limit, "write them to a parameter "
                                 "archive beside it with --parameters MODEL.irpa") from None
    executable = compiled.executable
    vmfb = bytes(executable.artifact.data)  # type: ignore[attr-defined]
    if args.parameters is None:
        write_atomically(args.output, vmfb)
        return 0
    parameters = executable.parameters  # type: ignore[attr-defined]

    def archive_then_vmfb(archive: Path) -> None:  # both written whole, or neither
        save_archive(parameters, archive)
        write_atomically(args.output, vmfb)

    build_atomically(args.parameters, archive_then_vmfb)
    return 0


def _cache(args: argparse.Namespace) -> int:
    if args.clear:
        print(f"removed {clear_cache()} artifact(s) from {cache_dir()}")
    else:
        print(cache_dir())
    return 0


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
        devices=[device.strip() for device in args.devices.split(",") if device.strip()],
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
    if args.command == "compile":
        return _compile(args)
    if args.command == "check":
        return _check(args)
    if args.command == "cache":
        return _cache(args)
    raise AssertionError(args.command)  # argparse accepts no other command


def entry_point() -> None:
    run_tool(main)
