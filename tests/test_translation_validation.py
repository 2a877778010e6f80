"""Translation validation: every stateful program behaves bit for bit the same at every level.

Each program runs the same multi-step sequence — calls with deterministic inputs,
`reset_state()`, `VariableState.state = ...`, per-variable `reset()`, a second request
interleaved — through `tosa_state.compile_model(module, pipeline=P)` for each lowering P:
TOSA as it is, memref globals (with and without copy elision), ml_program globals, and the
printed-and-reparsed output of both lowerings. Outputs, states and error messages must be
identical, byte for byte.

The programs: every `.mlir` under `tests/programs/`, every stateful MLIR snippet (a
module-level string constant declaring a `tosa.variable`) of the other test modules that
compiles and runs at the TOSA level, and the benchmark's LSTM cell.
"""

from __future__ import annotations

import ast
import re
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp

import tosa_state as ts
from tosa_state.diagnostics import TosaStateError
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.transforms.tosa_hoist_variables import hoist_variables

TESTS = Path(__file__).resolve().parent
PROGRAMS = TESTS / "programs"

MEMREF = "convert-tosa-variables-to-memref"
MEMREF_ALWAYS_COPY = "convert-tosa-variables-to-memref{elide-copies=false}"
ML_PROGRAM = "tosa-to-mlprogram"
LEVELS = ["", MEMREF, ML_PROGRAM]
"""The three levels the issue names; the reference is the first."""

STEPS = 6
BF16 = np.dtype(ml_dtypes.bfloat16)


# -- the programs ----------------------------------------------------------------------


@dataclass(frozen=True)
class Program:
    name: str
    text: str


def _file_programs() -> list[Program]:
    return [Program(path.name, path.read_text()) for path in sorted(PROGRAMS.glob("*.mlir"))]


def _snippet_programs() -> list[Program]:
    """Module-level string constants of the other test modules that declare variables."""
    found: list[Program] = []
    for path in sorted(TESTS.glob("test_*.py")):
        if path.name == Path(__file__).name:
            continue
        try:
            tree = ast.parse(path.read_text())
        except SyntaxError:
            continue
        for node in tree.body:
            if not (isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant)):
                continue
            text = node.value.value
            if isinstance(text, str) and "tosa.variable" in text and "func.func" in text:
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        found.append(Program(f"{path.name}:{target.id}", text))
    return found


NOT_PROGRAMS = {"test_resources.py:MODEL": "a fragment with an elided constant, not a program"}
"""Snippets with variables that are not meant to run, and why (every other one must)."""

SNIPPETS = {
    "test_cli.py:ACCUMULATOR", "test_error_paths.py:ACCUMULATOR", "test_lowerings.py:ACCUMULATOR",
    "test_lowerings.py:GROWING_KV", "test_peers.py:ACCUMULATOR", "test_peers.py:COUNTERS",
    "test_plan.py:GROWING", "test_plan.py:_APPEND", "test_static_state.py:GROWING",
    "test_static_state.py:LEARNED_POSITIONS",
    "test_peers.py:WRITE_THEN_READ", "test_peers.py:READ_UNINITIALISED", "test_peers.py:SWAP",
    "test_peers.py:NO_RESULTS_UNUSED_VARIABLE", "test_pipeline.py:COUNTER",
    "test_reference_model.py:ACCUMULATOR", "test_reference_model.py:TWO_TYPES",
    "test_request_threads.py:ACCUMULATOR", "test_run_tool.py:NAMED",
    "test_runtime.py:SNAPSHOT", "test_runtime.py:UNINITIALISED",
    "test_runtime.py:DYNAMIC_STATE", "test_runtime.py:COMPUTED_INIT",
    "test_targeted_walker.py:NESTED", "test_write_order.py:APPEND", "test_write_order.py:ORDERED",
    "test_while_loop.py:CARRIED_READ",
    "test_transactions.py:WRITE_IN_A_BRANCH", "test_transactions.py:ACCUMULATE_THEN_GATHER",
}
"""The snippets of the other test modules that the suite runs: exactly these (a snippet
added, renamed or removed must be listed here, so that none is dropped silently)."""

_NEVER_WRITTEN = "is read before it is ever written, and it has no initial value"
_OUT_OF_FOUR = "is out of range for a dimension of size 4 (valid: 0 to 3)"
EXPECTED_ERRORS: dict[str, tuple[str, ...]] = {
    "legacy.mlir": (f"variable 'calls' {_NEVER_WRITTEN}",),
    "uninitialised_read.mlir": (f"variable 'cache' {_NEVER_WRITTEN}",),
    "write_before_read.mlir": (f"variable 'last' {_NEVER_WRITTEN}",),
    "test_lowerings.py:GROWING_KV": ("'tosa.concat' op failed at run time: all the input array "
                                     "dimensions except for the concatenation axis",),
    "test_peers.py:WRITE_THEN_READ": (f"variable 'last' {_NEVER_WRITTEN}",),
    "test_peers.py:READ_UNINITIALISED": (f"variable 'prev' {_NEVER_WRITTEN}",),
    "test_runtime.py:SNAPSHOT": (f"variable 'w' {_NEVER_WRITTEN}",),
    "test_runtime.py:UNINITIALISED": (f"variable 'w' {_NEVER_WRITTEN}",),
    "static_cache.mlir": ("variable 'kv' has a static capacity of 4 rows: this call asks for",),
    "test_runtime.py:COMPUTED_INIT": ("variable 'v' has no value yet: its initial value is "
                                      "computed from the model's inputs at the next inference",),
    # a gather after the write, its indices random: the failed calls change no state
    "test_transactions.py:ACCUMULATE_THEN_GATHER": (_OUT_OF_FOUR,),
    "test_transactions.py:WRITE_IN_A_BRANCH": (_OUT_OF_FOUR,),
}
"""The negative cases: the errors each program's sequence of calls meets (every one of these,
and no other). An error in any other program fails its test, even when every level agrees."""


def parse(program: Program) -> ModuleOp:
    return parse_mlir(ts.make_context(), program.text, program.name)


def _built_programs() -> list[Program]:
    """Models built by the benchmark helpers the tests share (`benchmarks/` is on the path)."""
    from lstm_cell import LstmWeights, tosa_lstm_module

    return [Program("lstm_cell(hidden=8)", tosa_lstm_module(LstmWeights.random(8, seed=8)))]


ALL_PROGRAMS = (
    _file_programs()
    + [p for p in _snippet_programs() if p.name not in NOT_PROGRAMS]
    + _built_programs()
)


# -- one run ---------------------------------------------------------------------------

Record = list[Any]


def _array(value: np.ndarray) -> tuple[str, tuple[int, ...], bytes]:
    return (value.dtype.str, value.shape, value.tobytes())


def _random(
    rng: np.random.Generator, shape: tuple[int, ...], dtype: np.dtype, size: int | None = None
) -> np.ndarray:
    """Random values; each `?` dimension gets `size` (default: a random 1-3)."""
    size = int(rng.integers(1, 4)) if size is None else size
    shape = tuple(d if d >= 0 else size for d in shape)
    if dtype == np.bool_:
        return np.asarray(rng.random(shape) > 0.5)
    if dtype.kind in "iu":
        return np.asarray(rng.integers(-9, 10, shape), dtype=dtype)
    return np.asarray(np.asarray(rng.standard_normal(shape) * 4, np.float32), dtype=dtype)


def _infer(request: ts.InferRequest, compiled: ts.CompiledModel, rng) -> Any:
    size = int(rng.integers(1, 4))  # one length per call for the `?` dims of all inputs
    inputs = [_random(rng, port.shape, port.dtype, size) for port in compiled.inputs]
    try:
        return [_array(r) for r in request.infer(inputs)]
    except TosaStateError as error:
        return f"infer failed: {error}"


def _states(request: ts.InferRequest) -> list[Any]:
    states: list[Any] = []
    for state in request.query_state():
        try:
            states.append((state.name, _array(state.state)))
        except TosaStateError as error:
            states.append((state.name, f"state failed: {error}"))
    return states


def run_sequence(compiled: ts.CompiledModel, seed: str) -> Record:
    """The same calls and state manipulations, whatever the level; everything observed."""
    rng = np.random.default_rng(zlib.crc32(seed.encode()))
    request = compiled.create_infer_request()
    other = compiled.create_infer_request()
    specs = compiled.variables
    record: Record = [[s.name for s in specs], _states(request)]
    for step in range(STEPS):
        states = request.query_state()
        if step == 2:
            request.reset_state()
            record.append("reset_state")
        elif step == 3 and states:
            value = _random(rng, specs[0].shape, specs[0].dtype)
            states[0].state = value
            value[...] = 0  # the state is a copy: changing the array afterwards is harmless
            record.append(("set", specs[0].name))
        elif step == 4 and states:
            states[-1].reset()
            record.append(("reset", specs[-1].name))
        elif step == 5:
            for spec, state in zip(specs, states, strict=True):
                state.state = _random(rng, spec.shape, spec.dtype)
            record.append("set all")
        record.append(_infer(request, compiled, rng))
        record.append(_states(request))
        if step % 2 == 1:  # another request, with its own state, in between
            record.append(("other", _infer(other, compiled, rng), _states(other)))
    return record


def compile_at(program: Program, pipeline: str) -> ts.CompiledModel:
    return ts.compile_model(parse(program), pipeline=pipeline)


def compile_reparsed(program: Program, pipeline: str) -> ts.CompiledModel:
    """Lower, print (in upstream spelling), parse the text back, run it as it is."""
    ctx = ts.make_context()
    module = parse(program)
    hoist_variables(ctx, module)
    apply_pipeline(ctx, module, pipeline)
    text = print_module(module, spelling="upstream")
    return ts.compile_model(parse_mlir(ctx, text, f"{program.name}.reparsed"), pipeline="")


def _first_difference(expected: Record, actual: Record) -> str:
    for i, (e, a) in enumerate(zip(expected, actual, strict=False)):
        if e != a:
            return f"entry {i}:\n  expected {e!r}\n  actual   {a!r}"
    return f"lengths differ: {len(expected)} vs {len(actual)}"


# -- the tests -------------------------------------------------------------------------

VARIANTS: dict[str, Callable[[Program], ts.CompiledModel]] = {
    "memref": lambda p: compile_at(p, MEMREF),
    "memref-always-copy": lambda p: compile_at(p, MEMREF_ALWAYS_COPY),
    "ml_program": lambda p: compile_at(p, ML_PROGRAM),
    "memref-reparsed": lambda p: compile_reparsed(p, MEMREF),
    "ml_program-reparsed": lambda p: compile_reparsed(p, ML_PROGRAM),
}


def test_the_suite_has_the_programs_the_issue_names() -> None:
    names = {p.name for p in ALL_PROGRAMS}
    for required in (
        "accumulator.mlir",
        "counters.mlir",
        "half_types.mlir",
        "write_before_read.mlir",
        "swap.mlir",
        "read_after_write.mlir",
        "legacy.mlir",
        "uninitialised_read.mlir",
        "growing_cache.mlir",
    ):
        assert required in names
    snippets = {p.name for p in _snippet_programs()}
    assert snippets - set(NOT_PROGRAMS) == SNIPPETS
    assert len(ALL_PROGRAMS) == len(_file_programs()) + len(SNIPPETS) + 1  # + the LSTM cell


def _errors(value: Any) -> list[str]:
    """Every error message a record holds."""
    if isinstance(value, str):
        return [value] if " failed: " in value else []
    if isinstance(value, list | tuple):
        return [error for item in value for error in _errors(item)]
    return []


_LOCATION = re.compile(r"(?<=: )\S+:\d+:\d+: (?=error: )")


def _without_locations(value: Any) -> Any:
    """Error messages without their `file:line:col: ` (a reparsed module has other ones)."""
    if isinstance(value, str):
        return _LOCATION.sub("", value)
    if isinstance(value, list | tuple):
        return type(value)(_without_locations(v) for v in value)
    return value

UPSTREAM_LESS = {
    "static_cache.mlir": "'tosa_state.check_capacity' op has no upstream MLIR spelling: it is",
}
"""Programs holding ops of our own dialects, which the upstream spelling refuses to print."""


@pytest.mark.parametrize("program", ALL_PROGRAMS, ids=lambda p: p.name)
@pytest.mark.parametrize("variant", sorted(VARIANTS))
def test_levels_agree_bit_for_bit(program: Program, variant: str) -> None:
    """Same outputs, states and errors; errors at the same source location, except
    for the reparsed modules, whose ops come from another text."""
    expected = run_sequence(compile_at(program, ""), program.name)
    wanted = EXPECTED_ERRORS.get(program.name, ())
    errors = _errors(expected)
    unexpected = [e for e in errors if not any(w in e for w in wanted)]
    assert not unexpected, f"the reference run failed: {unexpected[0]}"
    assert all(any(w in e for e in errors) for w in wanted), (wanted, errors)
    if variant.endswith("reparsed") and program.name in UPSTREAM_LESS:
        with pytest.raises(TosaStateError, match=UPSTREAM_LESS[program.name]):
            VARIANTS[variant](program)  # upstream tools could not parse the text
        return
    actual = run_sequence(VARIANTS[variant](program), program.name)
    if variant.endswith("reparsed"):
        expected, actual = _without_locations(expected), _without_locations(actual)
    assert actual == expected, _first_difference(expected, actual)


@pytest.mark.parametrize("pipeline", LEVELS)
def test_uninitialised_reads_fail_identically_at_every_level(pipeline: str) -> None:
    program = Program("uninitialised_read.mlir", (PROGRAMS / "uninitialised_read.mlir").read_text())
    compiled = compile_at(program, pipeline)
    request = compiled.create_infer_request()
    message = (
        "uninitialised_read.mlir:5:3: error: variable 'cache' is read before it is ever "
        "written, and it has no initial value"
    )
    with pytest.raises(ts.TosaStateError) as raised:
        request.infer([np.ones(2, np.float32)])
    assert str(raised.value) == message
    (state,) = request.query_state()
    with pytest.raises(ts.TosaStateError) as raised:
        _ = state.state  # no op to point at
    assert str(raised.value) == message.split(": ", 1)[1]
    state.state = np.array([1.0, 2.0], np.float32)
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [2.0, 3.0])
    state.reset()  # back to "never written"
    with pytest.raises(ts.TosaStateError, match="read before it is ever written"):
        request.infer([np.ones(2, np.float32)])


def test_an_unused_read_of_an_uninitialised_variable_fails_at_every_level() -> None:
    program = Program(
        "unused_read.mlir",
        """
        tosa.variable @never : tensor<3xi32>
        func.func @main(%x: tensor<3xi32>) -> tensor<3xi32> {
          %unused = tosa.variable.read @never : tensor<3xi32>
          return %x : tensor<3xi32>
        }
        """,
    )
    messages = set()
    for pipeline in [*LEVELS, MEMREF_ALWAYS_COPY]:
        request = compile_at(program, pipeline).create_infer_request()
        with pytest.raises(ts.TosaStateError) as raised:
            request.infer([np.zeros(3, np.int32)])
        messages.add(str(raised.value))
    assert messages == {
        "unused_read.mlir:4:11: error: variable 'never' is read before it is ever written, "
        "and it has no initial value"
    }


ALIASING_PROGRAMS = ["swap.mlir", "read_after_write.mlir", "view_alias.mlir", "call_escape.mlir"]


@pytest.mark.parametrize("name", ALIASING_PROGRAMS)
def test_the_validation_catches_a_wrong_copy_elision(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Eliding every copy must change what these programs compute: the memref level
    really writes globals in place, so the validation above checks the elision rule."""
    from tosa_state.transforms.convert_tosa_variables_to_memref import CopyElision

    program = Program(name, (PROGRAMS / name).read_text())
    expected = run_sequence(compile_at(program, ""), name)
    monkeypatch.setattr(CopyElision, "_find", _every_read)
    assert run_sequence(compile_at(program, MEMREF), name) != expected


def _every_read(self: Any, root: ModuleOp) -> Any:
    from tosa_state.dialects.tosa.variables import VariableReadOp

    return (op for op in root.walk() if isinstance(op, VariableReadOp))


def test_the_elided_path_is_exercised() -> None:
    """Some programs of the suite do lower reads without a copy (`to_tensor` of the
    global itself), so the in-place semantics meet elided reads above."""
    from xdsl.dialects.bufferization import ToTensorOp
    from xdsl.dialects.memref import GetGlobalOp

    elided = 0
    for program in ALL_PROGRAMS:
        ctx = ts.make_context()
        module = parse(program)
        hoist_variables(ctx, module)
        apply_pipeline(ctx, module, MEMREF)
        elided += sum(
            isinstance(op, ToTensorOp) and isinstance(op.memref.owner, GetGlobalOp)
            for op in module.walk()
        )
    assert elided >= 5
