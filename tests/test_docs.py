"""What README.md and docs/*.md name exists: every file path, every command (the project's
tools with each option they are shown with, the benchmark and example scripts with theirs,
the other programs), every pass name and pipeline; and the README's prose repeats its tables'
figures as they are."""

from __future__ import annotations

import functools
import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

import pytest

from tosa_state.transforms import get_all_passes, get_tosa_state_passes
from tosa_state.transforms.pipeline import parse_pipeline

ROOT = Path(__file__).resolve().parent.parent
DOCS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
BIN = Path(sys.executable).parent
SCRIPTS = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["scripts"]

PATH_BASES = [ROOT, *(ROOT / d for d in ("tosa_state", "tests", "tosa_state/transforms",
                                          "tosa_state/interpreter", "tosa_state/frontends",
                                          "tosa_state/dialects"))]
"""Where a path the docs name may start: the repository, or (for short forms such as
`interpreter/scf.py`, `transforms/tosa_builder/`, `peers/openvino_runtime.py`) a package."""

EXTERNAL_PATHS = {
    "mlir/test/Dialect/Tosa/variables.mlir": "upstream MLIR's test, quoted in docs/dialect.md",
}
"""Paths outside this repository (each with where it is)."""

NOT_PASSES = {
    "tosa-opt": "upstream MLIR's tool (tosa-tools)",
    "tosa-tools": "the package of tosa-opt and the TOSA reference model",
    "tosa-state": "our CLI",
    "tosa-state-opt": "our CLI",
    "tosa-state-run": "our CLI",
    "tosa-to-linalg": "upstream MLIR's pass, compared with ours",
    "convert-assign-read-value": "OpenVINO's NPU compiler's pass, compared with ours",
}
"""Names that look like pass names (`tosa-...`, `convert-...`) but are not ours."""

PROGRAMS = {"python", "python3", "pip", "cd", ".", "source"}
"""Commands of the shell and the environment itself."""


def _text(path: Path) -> str:
    return path.read_text()


def _where(path: Path) -> str:
    return str(path.relative_to(ROOT))


# ---------------------------------------------------------------------------------------------
# Paths
# ---------------------------------------------------------------------------------------------

_PATH = re.compile(
    r"(?<![\w./<-])((?:[\w.-]+/)+[\w.*-]*\.(?:py|md|mlir|xml|npz|tflite|json|toml|onnx|sh)"
    r"|(?:tosa_state|tests|benchmarks|docs|examples|lit_tests|\.ci)/[\w./*-]*)")
_DIRECTORY = re.compile(r"`((?:[\w.-]+/)+)`")


def _paths(text: str) -> set[str]:
    return ({m.group(1).rstrip(".") for m in _PATH.finditer(text)}
            | {m.group(1) for m in _DIRECTORY.finditer(text)})


def _exists(path: str) -> bool:
    for base in PATH_BASES:
        if "*" in path:
            if any(base.glob(path)):
                return True
        elif (base / path).exists():
            return True
    return False


def test_the_path_finder_sees_every_kind_of_path() -> None:
    text = ("`tosa_state/interpreter/plan.py`, `transforms/tosa_builder/`, run "
            "`python benchmarks/lstm_cell.py`, `lit_tests/iree/lower-shape-ops*.mlir`, "
            "`frontends/openvino/<family>.py`, `tosa.variable.read`, .ci/run and 1.2/3.4.")
    assert _paths(text) == {"tosa_state/interpreter/plan.py", "transforms/tosa_builder/",
                            "benchmarks/lstm_cell.py", "lit_tests/iree/lower-shape-ops*.mlir",
                            ".ci/run"}
    assert not _exists("transforms/no_such_module.py") and _exists("interpreter/scf.py")


@pytest.mark.parametrize("doc", DOCS, ids=_where)
def test_every_path_the_docs_name_exists(doc: Path) -> None:
    missing = sorted(p for p in _paths(_text(doc)) if p not in EXTERNAL_PATHS and not _exists(p)
                     and not p.startswith("silero_vad/"))
    assert not missing, f"{_where(doc)} names paths that do not exist: {missing}"


def test_the_silero_vad_file_the_docs_name_is_in_its_package() -> None:
    import importlib.resources

    text = _text(ROOT / "docs" / "streaming.md")
    assert "silero_vad/data/silero_vad_openvino_16k.onnx" in text
    assert (importlib.resources.files("silero_vad") / "data" /
            "silero_vad_openvino_16k.onnx").is_file()


# ---------------------------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------------------------


def _commands(text: str) -> list[str]:
    """The command lines of the shell blocks (`$ ` lines of console blocks) and the inline
    commands of our tools and scripts; each piped or chained part on its own."""
    lines: list[str] = []
    for kind, body in re.findall(r"```(sh|console|bash)\n(.*?)```", text, re.S):
        for line in body.splitlines():
            line = line.strip()
            if kind == "console":
                if not line.startswith("$ "):
                    continue
                line = line[2:]
            if line and not line.startswith(("#", "-", "[")):  # not a continuation line
                lines.append(line)
    lines += re.findall(r"`((?:tosa-state(?:-opt|-run)?|python3? (?:benchmarks|examples)/)"
                        r"[^`]*)`", text)
    parts = [part.split("#")[0].strip().rstrip("\\").strip()
             for line in lines for part in re.split(r"\s*(?:\||&&)\s*", line)]
    return [part for part in parts if part]


@functools.cache
def _help(tool: str, sub: str | None) -> str:
    args = [str(BIN / tool), *([sub] if sub else []), "--help"]
    result = subprocess.run(args, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"{' '.join(args)}: {result.stderr}"
    return result.stdout


def _options(command: str) -> list[str]:
    unquoted = re.sub(r"'[^']*'|\"[^\"]*\"", "''", command)
    return re.findall(r"(?:^|\s)(--[a-z][\w-]*)", unquoted)


def _pipelines(command: str) -> list[str]:
    found = re.findall(r"(?:^|\s)(?:-p|--pass-pipeline|--pipeline)[ =]('[^']*'|\"[^\"]*\"|\S+)",
                       command)
    return [p.strip("'\"") for p in found if "..." not in p and p.strip("'\"")]


def _problems(command: str) -> list[str]:
    words = command.split()
    program = words[0]
    if program in SCRIPTS:
        sub = words[1] if program == "tosa-state" and len(words) > 1 and \
            not words[1].startswith("-") else None
        if sub is not None and sub not in _help(program, None):
            return [f"'{program} {sub}': no such subcommand"]
        text = _help(program, sub)
        problems = [f"'{program}{f' {sub}' if sub else ''}' has no option {option}"
                    for option in _options(command) if option not in text]
        for pipeline in _pipelines(command):
            try:
                parse_pipeline(pipeline)
            except Exception as error:  # PipelineError, or an option's
                problems.append(f"pipeline '{pipeline}': {error}")
        return problems
    if program in ("python", "python3") and len(words) > 1 and words[1].endswith(".py"):
        script = ROOT / words[1]
        if not script.is_file():
            return [f"{words[1]}: no such script"]
        source = script.read_text()
        return [f"{words[1]} has no option {option}" for option in _options(command)
                if f'"{option}"' not in source]
    if program in PROGRAMS or (BIN / program).is_file() or shutil.which(program):
        return []
    return [f"{program}: no such program here"]


@pytest.mark.parametrize("doc", DOCS, ids=_where)
def test_every_command_the_docs_show_exists_with_its_options(doc: Path) -> None:
    problems = [f"`{c}`: {p}" for c in _commands(_text(doc)) for p in _problems(c)]
    assert not problems, f"{_where(doc)}:\n" + "\n".join(problems)


def test_the_command_check_sees_a_wrong_option_pass_and_script() -> None:
    assert _problems("tosa-state-run model.mlir --inputs in.npz --reset-at 3") == []
    assert _problems("tosa-state-run model.mlir --no-such-flag") == [
        "'tosa-state-run' has no option --no-such-flag"]
    assert _problems("tosa-state validate m.xml --steps 4 --levels memref") == []
    assert _problems("tosa-state frobnicate m.xml") == ["'tosa-state frobnicate': no such "
                                                        "subcommand"]
    (problem,) = _problems("tosa-state-opt m.mlir -p 'cse,tosa-no-such-pass'")
    assert problem.startswith("pipeline 'cse,tosa-no-such-pass': ")
    assert _problems("python benchmarks/lstm_cell.py --sizes 16") == []
    assert _problems("python benchmarks/lstm_cell.py --nope") == [
        "benchmarks/lstm_cell.py has no option --nope"]
    assert _problems("python benchmarks/gone.py") == ["benchmarks/gone.py: no such script"]
    assert _problems("no-such-program-anywhere x") == [
        "no-such-program-anywhere: no such program here"]
    assert _commands("```sh\n$ x\ntosa-state-opt a.mlir | iree-opt  # note\n```\n"
                     "`tosa-state-run m.xml --print`") == [
        "$ x", "tosa-state-opt a.mlir", "iree-opt", "tosa-state-run m.xml --print"]


# ---------------------------------------------------------------------------------------------
# Pass names
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("doc", DOCS, ids=_where)
def test_every_pass_the_docs_name_exists(doc: Path) -> None:
    text = _text(doc)
    named = set(re.findall(r"`((?:tosa|convert|make|externalize|export|specialize)-[a-z0-9-]+)"
                           r"(?:\{[^`]*\})?`", text))
    unknown = sorted(named - set(get_all_passes()) - set(NOT_PASSES))
    assert not unknown, f"{_where(doc)} names passes that do not exist: {unknown}"
    for pipeline in re.findall(r"pipeline=(?:'([^']*)'|\"([^\"]*)\")", text):
        spec = next((p for p in pipeline if p), "")
        if spec and "..." not in spec:
            parse_pipeline(spec)  # raises naming the unknown pass or option


def test_every_pass_of_ours_has_its_section_in_docs_passes() -> None:
    headings = " ".join(re.findall(r"^##+ .*$", _text(ROOT / "docs" / "passes.md"), re.M))
    undocumented = sorted(n for n in get_tosa_state_passes() if f"`{n}`" not in headings)
    assert not undocumented, f"docs/passes.md has no section for {undocumented}"


# ---------------------------------------------------------------------------------------------
# The README's prose figures and its tables
# ---------------------------------------------------------------------------------------------


README_RANGES = [
    # (prose, with the range as (?P<range>...); the table's first header cell; the column;
    #  the first cell of the rows the prose sums up)
    (r"A decode step of this tiny model costs (?P<range>\S+) OpenVINO's on the interpreter",
     "call", "interpreter / OV", "decode"),
    (r"On device `iree` the module as exported takes (?P<range>\S+) \(goal",
     "call", "iree / OV", "decode"),
    (r"the same model compiled for a one-token step runs in (?P<range>\S+) of OpenVINO's",
     "call", "iree-2 / OV", "decode"),
    (r"silero-vad ≤ 0\.6\u00d7 onnxruntime — met \((?P<range>[^)]+)\)",
     "benchmark", "iree / reference", "silero-vad"),
    (r"LSTM cell H = 512 ≤ 1\.0\u00d7 numpy — not met \((?P<range>[^)]+)\)",
     "benchmark", "iree / reference", "LSTM cell H = 512"),
]
"""Ranges the README's prose repeats from its tables: each must be the span of the cells."""


def _table(text: str, first_header: str) -> list[dict[str, str]]:
    """The rows of the markdown table whose header row starts with `first_header`."""
    lines = text.splitlines()
    start = next(i for i, line in enumerate(lines)
                 if re.match(rf"\|\s*{re.escape(first_header)}\s*\|", line))
    header = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (c.strip() for c in line.strip("|").split("|")),
                             strict=True)))
    return rows


def _numbers(text: str) -> list[float]:
    return [float(n) for n in re.findall(r"\d+(?:\.\d+)?", text)]


def _span(rows: list[dict[str, str]], column: str, row_prefix: str) -> tuple[float, float]:
    cells = [n for row in rows if next(iter(row.values())).startswith(row_prefix)
             for n in _numbers(row[column])]
    assert cells, f"no rows starting '{row_prefix}' with a '{column}'"
    return min(cells), max(cells)


@pytest.mark.parametrize(("prose", "table", "column", "rows"), README_RANGES,
                         ids=[c[2] + ", " + c[3] for c in README_RANGES])
def test_the_readme_prose_repeats_its_tables(prose: str, table: str, column: str,
                                             rows: str) -> None:
    text = _text(ROOT / "README.md")
    flat = " ".join(text.split())
    found = re.search(prose, flat)
    assert found, f"README no longer says /{prose}/: update README_RANGES"
    said = tuple(_numbers(found["range"]))
    span = _span(_table(text, table), column, rows)
    assert said == span, (f"README says {found['range']} where its table's {column} column "
                          f"spans {span[0]:g} to {span[1]:g} over the '{rows}' rows")


def test_a_prose_range_that_left_its_table_is_caught() -> None:
    table = ("| call | x / OV |\n|---|--:|\n| decode, 64 | 1.21\u20131.39\u00d7 |\n"
             "| decode, 128 | 1.45\u20131.56\u00d7 |\n| prefill | 0.8\u00d7 |\n")
    assert _span(_table(table, "call"), "x / OV", "decode") == (1.21, 1.56)
    assert _numbers("1.2\u20131.7\u00d7") != list(_span(_table(table, "call"), "x / OV", "decode"))
