"""The two lowerings of TOSA variables, the ml_program dialect, and their interpreters.

- `convert-tosa-variables-to-memref` and `tosa-to-mlprogram` through the Python API: what
  is legal afterwards, unrelated ops untouched, the failure rule, the copy-elision rule;
- upstream MLIR (`iree-opt`) as the oracle: our output parses, and for `tosa-to-mlprogram`
  IREE's TOSA input pipeline (which runs upstream's `tosa-to-mlprogram`) produces exactly
  the same module from our output as from the TOSA input;
- the interpreter at the memref and ml_program levels: state in place, resets, specs.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from peers.upstream_mlir import iree_opt
from test_translation_validation import UPSTREAM_LESS
from xdsl.dialects.bufferization import ToTensorOp
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.dialects.memref import AllocOp, GetGlobalOp
from xdsl.dialects.memref import GlobalOp as MemRefGlobalOp
from xdsl.utils.exceptions import PassFailedException

import tosa_state as ts
from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalOp, GlobalStoreOp
from tosa_state.dialects.tosa.tensor import ConcatOp
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp, VariableWriteOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.interpreter.state import VariableStore
from tosa_state.printing import print_module
from tosa_state.runtime import collect_specs
from tosa_state.transforms import (
    ConvertTosaVariablesToMemRefPass,
    TosaToMLProgramPass,
    get_tosa_state_passes,
)
from tosa_state.transforms.convert_tosa_variables_to_memref import CopyElision
from tosa_state.transforms.tosa_hoist_variables import hoist_variables
from tosa_state.verification import verify_module

PROGRAMS = sorted((Path(__file__).resolve().parent / "programs").glob("*.mlir"))
UPSTREAM_PROGRAMS = [p for p in PROGRAMS if p.name not in UPSTREAM_LESS]
"""The programs upstream tools can read (not those holding an op of our own dialects)."""
LOWERINGS = [ConvertTosaVariablesToMemRefPass, TosaToMLProgramPass]
VARIABLE_OPS = (VariableOp, VariableReadOp, VariableWriteOp)

ACCUMULATOR = """
tosa.variable @acc = dense<[1.0, 2.0]> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %unused = "tosa.const"() <{values = dense<1.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %0 = tosa.variable.read @acc : tensor<2xf32>
  %1 = tosa.add %0, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tosa.variable.write @acc, %1 : tensor<2xf32>
  return %1 : tensor<2xf32>
}
"""


def parse(text: str, name: str = "test.mlir") -> ModuleOp:
    return parse_mlir(ts.make_context(), text, name)


def lowered(text: str, lowering: type, **options: object) -> ModuleOp:
    module = parse(text)
    lowering(**options).apply(ts.make_context(), module)
    verify_module(module)
    return module


def op_names(module: ModuleOp) -> list[str]:
    return [op.name for op in module.walk()]


# -- the passes ------------------------------------------------------------------------


def test_passes_are_registered_under_their_names() -> None:
    passes = get_tosa_state_passes()
    assert passes["convert-tosa-variables-to-memref"]() is ConvertTosaVariablesToMemRefPass
    assert passes["tosa-to-mlprogram"]() is TosaToMLProgramPass


@pytest.mark.parametrize("lowering", LOWERINGS)
@pytest.mark.parametrize("path", PROGRAMS, ids=lambda p: p.name)
def test_no_variable_op_is_left_and_other_ops_are_untouched(lowering: type, path: Path) -> None:
    before = parse(path.read_text())
    hoist_variables(ts.make_context(), before)
    module = lowered(path.read_text(), lowering)
    assert not any(isinstance(op, VARIABLE_OPS) for op in module.walk())
    others = [n for n in op_names(before) if not n.startswith("tosa.variable")]
    ours = ("memref.", "bufferization.", "ml_program.", "arith.", "scf.", "tensor.extract_slice")
    mine = [n for n in op_names(module) if not n.startswith(ours)]
    if lowering is ConvertTosaVariablesToMemRefPass:  # appends with static other dims:
        absorbed = _appends(before)                   # the concat is no longer needed
        assert mine.count("tosa.concat") == others.count("tosa.concat") - absorbed
        others = [n for n in others if n != "tosa.concat"]
        mine = [n for n in mine if n != "tosa.concat"]
    assert mine == others


def _appends(module: ModuleOp) -> int:
    """How many concats along a dynamic axis, with all other dimensions static, are written
    to a variable (appended in place without them)."""
    return sum(1 for op in module.walk() if isinstance(op, VariableWriteOp)
               and isinstance(op.input1.owner, ConcatOp)
               and all(d >= 0 for operand in op.input1.owner.operands
                       for axis, d in enumerate(operand.type.get_shape())
                       if axis != op.input1.owner.axis.value.data))


def test_memref_lowering_of_the_accumulator() -> None:
    module = lowered(ACCUMULATOR, ConvertTosaVariablesToMemRefPass)
    (global_op,) = [op for op in module.walk() if isinstance(op, MemRefGlobalOp)]
    assert global_op.sym_name.data == "acc"
    assert global_op.sym_visibility.data == "private"
    assert global_op.constant is None
    assert str(global_op.type) == "memref<2xf32>"
    # The read is consumed by tosa.add before the write: no copy.
    assert not any(isinstance(op, AllocOp) for op in module.walk())
    (to_tensor,) = [op for op in module.walk() if isinstance(op, ToTensorOp)]
    assert to_tensor.restrict is not None and isinstance(to_tensor.memref.owner, GetGlobalOp)
    # The unused constant is still there: no dead-code elimination.
    assert "tosa.const" in op_names(module)


def test_elide_copies_false_copies_every_read() -> None:
    module = lowered(ACCUMULATOR, ConvertTosaVariablesToMemRefPass, elide_copies=False)
    (to_tensor,) = [op for op in module.walk() if isinstance(op, ToTensorOp)]
    assert isinstance(to_tensor.memref.owner, AllocOp)


def test_uninitialised_variable_becomes_an_uninitialized_global() -> None:
    module = lowered(
        "tosa.variable @w : tensor<3xi8>\n", ConvertTosaVariablesToMemRefPass
    )
    (global_op,) = list(module.body.block.ops)
    assert "initial_value," in print_module(module)
    assert isinstance(global_op, MemRefGlobalOp)


def test_ml_program_lowering_is_upstreams() -> None:
    module = lowered(ACCUMULATOR, TosaToMLProgramPass)
    global_op, func = list(module.body.block.ops)
    assert isinstance(global_op, GlobalOp)
    assert global_op.mutable and global_op.visibility == "private"
    assert global_op.value is not None and str(global_op.type) == "tensor<2xf32>"
    loads = [op for op in func.walk() if isinstance(op, GlobalLoadOp)]
    stores = [op for op in func.walk() if isinstance(op, GlobalStoreOp)]
    assert [str(op.result.type) for op in loads] == ["tensor<2xf32>"]
    assert [op.global_.root_reference.data for op in stores] == ["acc"]


@pytest.mark.parametrize("lowering", LOWERINGS)
def test_a_variable_op_left_makes_the_pass_fail_with_a_located_diagnostic(
    lowering: type,
) -> None:
    # Not verified: the read names a variable nothing declares.
    module = parse(
        """
        func.func @f() -> tensor<2xf32> {
          %0 = tosa.variable.read @nope : tensor<2xf32>
          return %0 : tensor<2xf32>
        }
        """
    )
    with pytest.raises(PassFailedException) as raised:
        lowering().apply(ts.make_context(), module)
    assert str(raised.value) == (
        f"test.mlir:3:11: error: 'tosa.variable.read' op could not be lowered by "
        f"'{lowering.name}': no 'tosa.variable' in the enclosing module declares 'nope'"
    )


def test_dynamic_variables_become_a_buffer_pointer_and_sizes() -> None:
    module = lowered("tosa.variable @d : tensor<?x2x?xf32>\n", ConvertTosaVariablesToMemRefPass)
    pointer, sizes = module.body.block.ops
    assert isinstance(pointer, MemRefGlobalOp) and isinstance(sizes, MemRefGlobalOp)
    assert str(pointer.type) == "memref<memref<?x2x?xf32>>"
    assert pointer.sym_name.data == "d" and isinstance(pointer.initial_value, UnitAttr)
    assert sizes.sym_name.data == "d__sizes" and str(sizes.type) == "memref<4xindex>"
    assert str(sizes.initial_value) == "dense<0> : tensor<4xindex>"  # lengths, capacities
    assert sizes.attributes["tosa_state.sizes_of"].data == "d"
    # ml_program globals may be dynamic, as upstream's.
    module = lowered("tosa.variable @d : tensor<?x2xf32>\n", TosaToMLProgramPass)
    assert "ml_program.global private mutable @d : tensor<?x2xf32>" in print_module(module)


def test_memref_buffers_grow_by_doubling() -> None:
    """A cache growing by one row per call is reallocated O(log n) times, and the buffer
    never holds more than twice what is used."""
    text = (Path(__file__).resolve().parent / "programs" / "growing_cache.mlir").read_text()
    compiled = ts.compile_model(parse(text), pipeline="convert-tosa-variables-to-memref")
    request = compiled.create_infer_request()
    store = request.device_request.store
    buffers = set()
    for step in range(1, 101):
        request.infer([np.full((2, 1, 3), step, np.float32)])
        buffer = store.values["kv"]
        buffers.add(id(buffer))
        lengths_and_capacities = store.values["kv__sizes"].tolist()
        assert lengths_and_capacities == [step, buffer.shape[1]]
        assert step <= buffer.shape[1] < 2 * step + 1
    assert len(buffers) <= 8  # 1, 2, 4, ..., 128
    np.testing.assert_array_equal(request.query_state()[0].state[0, :, 0], np.arange(1, 101))


GROWING_KV = """
tosa.variable @kv : tensor<?x4x?x256xf32>
tosa.variable @kv__initialized = dense<false> : tensor<i1>
func.func @main(%x: tensor<?x4x1x256xf32>, %init: tensor<?x4x0x256xf32>) -> tensor<?x4x1x256xf32> {
  %read = tosa.variable.read @kv : tensor<?x4x?x256xf32>
  %ready = tosa.variable.read @kv__initialized : tensor<i1>
  %past = tosa.cond_if %ready (%a = %read, %b = %init) : tensor<i1> (tensor<?x4x?x256xf32>, tensor<?x4x0x256xf32>) -> tensor<?x4x?x256xf32> {
  ^bb0(%a: tensor<?x4x?x256xf32>, %b: tensor<?x4x0x256xf32>):
    tosa.yield %a : tensor<?x4x?x256xf32>
  } else {
  ^bb0(%a: tensor<?x4x?x256xf32>, %b: tensor<?x4x0x256xf32>):
    tosa.yield %b : tensor<?x4x0x256xf32>
  }
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x4x?x256xf32>, tensor<?x4x1x256xf32>) -> tensor<?x4x?x256xf32>
  %sum = tosa.reduce_sum %all {axis = 2 : i32} : (tensor<?x4x?x256xf32>) -> tensor<?x4x1x256xf32>
  %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  tosa.variable.write @kv__initialized, %true : tensor<i1>
  tosa.variable.write @kv, %all : tensor<?x4x?x256xf32>
  return %sum : tensor<?x4x1x256xf32>
}
"""
"""A KV cache as optimum-intel exports have it: a dynamic batch and time, a computed initial
value (here an input) through a `tosa.cond_if` on the first call, a concat along time."""


def _step(batch: int) -> list[np.ndarray]:
    return [np.ones((batch, 4, 1, 256), np.float32), np.zeros((batch, 4, 0, 256), np.float32)]


@pytest.mark.parametrize("pipeline", ["convert-tosa-variables-to-memref", "",
                                      "tosa-to-mlprogram"])
def test_a_growing_cache_peaks_at_twice_its_data(pipeline: str) -> None:
    """A cache `[1, 4, T, 256]` (dynamic batch and time) grown one step per call: at the
    memref level its buffer grows along time only (the batch keeps its capacity of 1), to
    twice the new length when it outgrows (doubling), and holds at most twice the data, and
    a call appends in place (it allocates no copy of the cache); at the TOSA and ml_program
    levels a call allocates the concat's result, which the write keeps: 2x the data with the
    old value."""
    import tracemalloc

    request = ts.compile_model(parse(GROWING_KV), pipeline=pipeline).create_infer_request()
    store = request.device_request.store
    x = _step(1)
    steps, slack = 300, 64 * 1024
    for _ in range(steps - 1):
        request.infer(x)
    data = steps * 4 * 256 * 4
    tracemalloc.start()
    tracemalloc.reset_peak()
    base = tracemalloc.get_traced_memory()[0]
    for _ in range(10):
        result = request.infer(x)
    peak = tracemalloc.get_traced_memory()[1] - base
    tracemalloc.stop()
    assert result[0][0, 0, 0, 0] == steps + 9
    held = store.values["kv"].nbytes
    if pipeline == "convert-tosa-variables-to-memref":
        buffer = store.values["kv"]
        assert buffer.shape[:2] == (1, 4) and buffer.shape[3] == 256  # only time grew
        capacity = 0  # appended along time: twice the new length whenever it outgrows
        for length in range(1, steps + 10):
            capacity = 2 * length if length > capacity else capacity
        assert capacity == 510
        assert store.values["kv__sizes"].tolist() == [1, steps + 9, 1, capacity]
        assert held <= 2 * data
        assert peak <= data // 8 + slack  # no copy of the cache per call
    else:  # the old value and the concat's result, which becomes the state
        assert peak <= 2 * data + 2 * slack, (peak, data)
    assert request.query_state()[0].state.shape == (1, 4, steps + 9, 256)


def test_memref_buffers_grow_only_along_the_axes_that_outgrow() -> None:
    """A batch that grows leaves the time capacity as it is, and the other way round."""
    request = ts.compile_model(parse(GROWING_KV)).create_infer_request()
    store = request.device_request.store
    for _ in range(5):
        request.infer(_step(1))
    assert store.values["kv__sizes"].tolist() == [1, 5, 1, 6]  # time: 2, then 2 * 3
    request.reset_state()
    request.infer(_step(3))
    assert store.values["kv__sizes"].tolist() == [3, 1, 3, 2]
    request.infer(_step(3))
    assert store.values["kv__sizes"].tolist() == [3, 2, 3, 2]
    with pytest.raises(ts.TosaStateError, match=r"'tosa\.concat' op failed at run time"):
        request.infer(_step(2))  # the batch cannot change
    assert request.query_state()[0].state.shape == (3, 4, 2, 256)


def test_compile_model_reports_a_failing_pass() -> None:
    with pytest.raises(ts.TosaStateError, match="note: in pass 'specialize-input-shapes'"):
        ts.compile_model(parse(ACCUMULATOR), pipeline='specialize-input-shapes{shapes="nope=1"}')


# -- the copy-elision rule -------------------------------------------------------------


def copy_free_reads(text: str) -> list[str]:
    """`function:result name` of every read lowered without a copy (`None`: `%0`)."""
    module = parse(text)
    hoist_variables(ts.make_context(), module)
    copy_free = CopyElision(module).copy_free
    found = []
    for op in module.walk():
        if op in copy_free:
            func = op.parent_op()
            found.append(f"{func.sym_name.data}:{op.output1.name_hint}")
    return found


@pytest.mark.parametrize(
    ("program", "expected"),
    [
        ("accumulator.mlir", ["main:None"]),
        ("counters.mlir", ["main:t", "main:c"]),
        ("swap.mlir", []),  # both values are returned after the other write
        ("read_after_write.mlir", ["main:new"]),
        ("write_before_read.mlir", ["main:r"]),
        ("view_alias.mlir", []),  # a reshape (a view) outlives the write
        ("call_escape.mlir", []),  # @peek's caller writes before using the value
        ("legacy.mlir", ["bump:s", "main:after"]),  # @before outlives a call writing @state
        ("read_twice.mlir", ["main:a"]),  # one view per global per function
        ("conditional.mlir", []),  # the cond_if writes; reads in regions are copied
    ],
)
def test_copy_elision_decisions(program: str, expected: list[str]) -> None:
    text = (Path(__file__).resolve().parent / "programs" / program).read_text()
    assert copy_free_reads(text) == expected


def test_returned_read_is_copied_only_when_the_function_has_callers() -> None:
    text = """
    tosa.variable @v = dense<1.0> : tensor<2xf32>
    func.func @peek() -> tensor<2xf32> {
      %r = tosa.variable.read @v : tensor<2xf32>
      return %r : tensor<2xf32>
    }
    """
    assert copy_free_reads(text) == ["peek:r"]
    called = text + """
    func.func @main() -> tensor<2xf32> {
      %p = func.call @peek() : () -> tensor<2xf32>
      return %p : tensor<2xf32>
    }
    """
    assert copy_free_reads(called) == []


# -- upstream MLIR as the oracle --------------------------------------------------------


def lowered_text(path: Path, pipeline: str) -> str:
    module = parse(path.read_text(), path.name)
    ctx = ts.make_context()
    hoist_variables(ctx, module)
    if pipeline:
        from tosa_state.transforms.pipeline import apply_pipeline

        apply_pipeline(ctx, module, pipeline)
    return print_module(module, spelling="upstream")


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
@pytest.mark.parametrize("pipeline", ["convert-tosa-variables-to-memref", "tosa-to-mlprogram"])
@pytest.mark.parametrize("path", UPSTREAM_PROGRAMS, ids=lambda p: p.name)
def test_output_parses_and_verifies_in_iree_opt(path: Path, pipeline: str) -> None:
    text = iree_opt(lowered_text(path, pipeline))
    if pipeline == "tosa-to-mlprogram":
        assert "ml_program.global private mutable" in text
    else:  # upstream prints memref.global in custom form
        assert 'memref.global "private" @' in text
    assert "tosa.variable" not in text


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
@pytest.mark.parametrize("path", UPSTREAM_PROGRAMS, ids=lambda p: p.name)
def test_tosa_to_mlprogram_matches_upstream(path: Path) -> None:
    """IREE's TOSA input pipeline runs upstream's `tosa-to-mlprogram` (iree-opt does not
    expose the pass alone): from the TOSA input and from our ml_program output, it must
    produce the very same module."""
    pipeline = "--iree-tosa-input-transformation-pipeline"
    from_tosa = iree_opt(lowered_text(path, ""), pipeline)
    from_ours = iree_opt(lowered_text(path, "tosa-to-mlprogram"), pipeline)
    assert "ml_program.global" in from_tosa
    assert from_ours == from_tosa


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
def test_ml_program_ops_round_trip_through_iree_opt() -> None:
    text = """
    ml_program.global private mutable @x(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
    ml_program.global private mutable @y : tensor<4xi32>
    ml_program.global public @c(dense<3> : tensor<i8>) : tensor<i8> {note = "kept"}
    func.func @f(%a: tensor<2xf32>) -> (tensor<2xf32>, tensor<i8>) {
      %0 = ml_program.global_load @x : tensor<2xf32>
      ml_program.global_store @x = %a : tensor<2xf32>
      %1 = ml_program.global_load_const @c : tensor<i8>
      return %0, %1 : tensor<2xf32>, tensor<i8>
    }
    """
    ours = print_module(parse(text))
    upstream = iree_opt(ours, "--mlir-print-op-generic")
    assert "ml_program.global_load_const" in upstream

    def ml_program_ops(module: ModuleOp) -> list[tuple[object, ...]]:
        return [
            (op.name, dict(op.properties), dict(op.attributes), [r.type for r in op.results])
            for op in module.walk()
            if op.name.startswith("ml_program.")
        ]

    assert ml_program_ops(parse(upstream)) == ml_program_ops(parse(ours))


# -- the interpreter -------------------------------------------------------------------

LEVELS = ["", "convert-tosa-variables-to-memref", "tosa-to-mlprogram"]


@pytest.mark.parametrize("pipeline", LEVELS)
def test_state_is_queried_set_and_reset_alike_at_every_level(pipeline: str) -> None:
    compiled = ts.compile_model(parse(ACCUMULATOR), pipeline=pipeline)
    request = compiled.create_infer_request()
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [2, 3])
    (state,) = request.query_state()
    assert state.name == "acc"
    np.testing.assert_array_equal(state.state, [2, 3])
    new = np.array([10, 20], np.float32)
    state.state = new
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [11, 21])
    np.testing.assert_array_equal(new, [10, 20])  # the user's array is not the state
    request.reset_state()
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [2, 3])
    state.reset()
    np.testing.assert_array_equal(state.state, [1, 2])


@pytest.mark.parametrize("pipeline", LEVELS)
def test_results_and_states_never_alias_each_other(pipeline: str) -> None:
    compiled = ts.compile_model(parse(ACCUMULATOR), pipeline=pipeline)
    request = compiled.create_infer_request()
    first = request.infer([np.ones(2, np.float32)])[0]
    snapshot = request.query_state()[0].state
    request.infer([np.ones(2, np.float32)])
    np.testing.assert_array_equal(first, [2, 3])
    np.testing.assert_array_equal(snapshot, [2, 3])


@pytest.mark.parametrize("pipeline", LEVELS)
def test_requests_have_their_own_state(pipeline: str) -> None:
    compiled = ts.compile_model(parse(ACCUMULATOR), pipeline=pipeline)
    a, b = compiled.create_infer_request(), compiled.create_infer_request()
    a.infer([np.ones(2, np.float32)])
    a.infer([np.ones(2, np.float32)])
    np.testing.assert_array_equal(b.infer([np.ones(2, np.float32)])[0], [2, 3])
    np.testing.assert_array_equal(a.query_state()[0].state, [3, 4])


def test_memref_writes_go_in_place_into_the_current_buffer() -> None:
    compiled = ts.compile_model(parse(ACCUMULATOR), pipeline="convert-tosa-variables-to-memref")
    request = compiled.create_infer_request()
    store: VariableStore = request.device_request.store
    buffer = store.values["acc"]
    request.infer([np.ones(2, np.float32)])
    assert store.values["acc"] is buffer  # written in place
    request.reset_state()  # a new buffer: the next get_global must see it
    fresh = store.values["acc"]
    assert fresh is not buffer
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [2, 3])
    assert store.values["acc"] is fresh
    np.testing.assert_array_equal(compiled.variables[0].initial, [1, 2])


def test_variable_store_write_in_place() -> None:
    (spec,) = collect_specs(parse("tosa.variable @w : tensor<2xi32>\n"))
    store = VariableStore([spec])
    assert store.values["w"] is None
    value = np.array([1, 2], np.int32)
    store.write_in_place("w", value)
    first = store.values["w"]
    assert first is not value
    store.write_in_place("w", np.array([3, 4], np.int32))
    assert store.values["w"] is first
    np.testing.assert_array_equal(first, [3, 4])


def test_specs_of_memref_and_ml_program_globals() -> None:
    module = parse(
        """
        "memref.global"() <{initial_value = dense<[1, 2]> : tensor<2xi32>, sym_name = "a", sym_visibility = "private", type = memref<2xi32>}> : () -> ()
        "memref.global"() <{initial_value, sym_name = "b", sym_visibility = "private", type = memref<f16>}> : () -> ()
        "memref.global"() <{constant, initial_value = dense<1> : tensor<i8>, sym_name = "k", sym_visibility = "private", type = memref<i8>}> : () -> ()
        ml_program.global private mutable @c(dense<true> : tensor<2xi1>) : tensor<2xi1>
        ml_program.global private mutable @d : tensor<3xbf16>
        ml_program.global private @e(dense<0> : tensor<i8>) : tensor<i8>
        """
    )
    import tosa_state.interpreter.functions as functions

    functions.all_functions()  # registers the spec builders
    specs = {spec.name: spec for spec in collect_specs(module)}
    assert list(specs) == ["a", "b", "c", "d"]  # constants are not state
    np.testing.assert_array_equal(specs["a"].initial, [1, 2])
    assert specs["b"].initial is None and specs["b"].dtype == np.float16
    assert specs["c"].initial.dtype == np.bool_
    assert specs["d"].initial is None and specs["d"].shape == (3,)


@pytest.mark.parametrize(
    "declaration",
    [
        "ml_program.global private mutable @v : tensor<?xf32>",
        '"memref.global"() <{initial_value, sym_name = "v", sym_visibility = "private", '
        "type = memref<memref<?xf32>>}> : () -> ()",
    ],
)
def test_dynamic_globals_start_empty(declaration: str) -> None:
    module = parse(declaration + "\nfunc.func @main() {\n  return\n}\n")
    (state,) = ts.compile_model(module, pipeline="").create_infer_request().query_state()
    assert state.state.shape == (0,) and state.state.dtype == np.float32


def test_hand_written_ml_program_module_runs() -> None:
    module = parse(
        """
        ml_program.global private @step(dense<2> : tensor<i32>) : tensor<i32>
        ml_program.global private mutable @n(dense<0> : tensor<i32>) : tensor<i32>
        func.func @main() -> tensor<i32> {
          %s = ml_program.global_load_const @step : tensor<i32>
          %n = ml_program.global_load @n : tensor<i32>
          %m = tosa.add %n, %s : (tensor<i32>, tensor<i32>) -> tensor<i32>
          ml_program.global_store @n = %m : tensor<i32>
          return %m : tensor<i32>
        }
        """
    )
    request = ts.compile_model(module, pipeline="").create_infer_request()
    assert [int(request.infer()[0]) for _ in range(3)] == [2, 4, 6]
    assert [s.name for s in request.query_state()] == ["n"]


def test_hand_written_memref_module_runs() -> None:
    """Upstream-style IR: copies between allocations and globals, a dealloc."""
    module = parse(
        """
        "memref.global"() <{initial_value = dense<[1.0, 2.0]> : tensor<2xf32>, sym_name = "g", sym_visibility = "private", type = memref<2xf32>}> : () -> ()
        func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
          %g = memref.get_global @g : memref<2xf32>
          %b = memref.alloc() : memref<2xf32>
          "memref.copy"(%g, %b) : (memref<2xf32>, memref<2xf32>) -> ()
          %old = bufferization.to_tensor %b restrict : memref<2xf32> to tensor<2xf32>
          %xb = bufferization.to_buffer %x read_only : tensor<2xf32> to memref<2xf32>
          "memref.copy"(%xb, %g) : (memref<2xf32>, memref<2xf32>) -> ()
          %c = memref.alloc() : memref<2xf32>
          "memref.copy"(%b, %c) : (memref<2xf32>, memref<2xf32>) -> ()
          memref.dealloc %c : memref<2xf32>
          return %old : tensor<2xf32>
        }
        """
    )
    request = ts.compile_model(module, pipeline="").create_infer_request()
    np.testing.assert_array_equal(request.infer([np.zeros(2, np.float32)])[0], [1, 2])
    np.testing.assert_array_equal(request.infer([np.ones(2, np.float32)])[0], [0, 0])
    np.testing.assert_array_equal(request.query_state()[0].state, [1, 1])


def test_lowered_ops_keep_the_source_location() -> None:
    for lowering in LOWERINGS:
        module = lowered(ACCUMULATOR, lowering)
        located = [op for op in module.walk() if op.name.startswith(("memref.", "ml_program."))]
        assert located and all("test.mlir" in str(op.location) for op in located)


def test_copy_elision_ignores_shape_reads_after_the_write() -> None:
    """A `tosa.dim` of a read after the variable's write reads only its shape, which the
    write does not change: the read stays copy-free; a use of its elements there does not."""
    text = """
tosa.variable @kv : tensor<2x?xf32>
func.func @main(%x: tensor<2x?xf32>) -> (!tosa.shape<1>, tensor<2x?xf32>) {
  %past = tosa.variable.read @kv : tensor<2x?xf32>
  %all = tosa.concat %past, %x {axis = 1 : i32} : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  tosa.variable.write @kv, %all : tensor<2x?xf32>
  %n = tosa.dim %past {axis = 1 : i32} : (tensor<2x?xf32>) -> !tosa.shape<1>
  return %n, %all : !tosa.shape<1>, tensor<2x?xf32>
}
"""
    assert copy_free_reads(text) == ["main:past"]
    used = text.replace("return %n, %all", "%e = tosa.abs %past : (tensor<2x?xf32>) -> "
                        "tensor<2x?xf32>\n  return %n, %e")
    assert copy_free_reads(used) == []
