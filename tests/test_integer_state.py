"""`tosa-integer-state` on TensorFlow's full-integer Keras LSTM and GRU (`unroll=True`,
tests/tflite_models/quantized): their f32 state (QUANTIZE after each read, DEQUANTIZE before
each write) becomes int8, no float op is left, and the result is bit-exact with LiteRT's
built-in kernels in our interpreter and in the TOSA reference model (the flatbuffer Vela
compiles included) over 24 steps with two resets and a set_state; Vela 5.2.0 places every
operator on the NPU of an ethos-u55-128 and an ethos-u85-256. Also: the float state equals
the values LiteRT writes to its variables, and a read at another scale than the write
(a patched model) stays bit-exact with LiteRT."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from test_tflite_quantized import MODELS, _quantized_inputs, builtin_litert
from xdsl.dialects.builtin import AnyFloat, ModuleOp, TensorType

import tosa_state as ts
from tosa_state.dtypes import dense_to_numpy
from tosa_state.frontends.tflite import import_tflite
from tosa_state.printing import print_module
from tosa_state.transforms import TosaIntegerStatePass
from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass
from tosa_state.transforms.tosa_integer_state import SCALE_ATTR, ZERO_POINT_ATTR

NAMES = ["seed_lstm_full_integer", "gru_full_integer"]
STEPS, RESETS, SET_STATE_AT = 24, {8, 16}, 12
ACCELERATORS = ["ethos-u55-128", "ethos-u85-256"]


def _converted(name: str, integer_state: bool = True) -> ModuleOp:
    module = import_tflite(MODELS / f"{name}.tflite")
    ctx = ts.make_context()
    ConvertTFLiteToTosaPass().apply(ctx, module)
    if integer_state:
        TosaIntegerStatePass().apply(ctx, module)
    return module


def _float_ops(module: ModuleOp) -> list[str]:
    """The ops with a float operand or result."""
    found = []
    for op in module.walk():
        types = [v.type for v in (*op.operands, *op.results)]
        attr = getattr(op, "element_type", None)
        if any(isinstance(t, TensorType) and isinstance(t.element_type, AnyFloat)
               for t in types) or isinstance(attr, AnyFloat):
            found.append(op.name)
    return found


def _dequantized(state: np.ndarray, quantization: dict[str, float]) -> np.ndarray:
    """LiteRT's int8 DEQUANTIZE (x86-64): 8 values at a time `q * s + f32(-z * s)` in f32,
    the last `size % 8` as the double product `s * (q - z)` rounded once (measured:
    `test_the_float_state_is_litert_s`)."""
    scale, zero = np.float32(quantization["scale"]), int(quantization["zero_point"])
    flat = state.reshape(-1)
    vectorised = flat.size // 8 * 8
    fused = flat.astype(np.float32) * scale + np.float32(-zero * np.float64(scale))
    product = ((flat.astype(np.float64) - zero) * np.float64(scale)).astype(np.float32)
    return np.where(np.arange(flat.size) < vectorised, fused, product).reshape(state.shape)


def _plan(name: str) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """24 int8 input steps (the goldens' then random ones) and the 5 steps whose final state
    is set before step `SET_STATE_AT`."""
    steps = _quantized_inputs(name, builtin_litert(MODELS / f"{name}.tflite"))
    return steps[:STEPS], steps[STEPS:STEPS + 5]


def _litert_outputs(name: str, steps: list[np.ndarray], other: list[np.ndarray]
                    ) -> list[np.ndarray]:
    """LiteRT's outputs, reset by a new interpreter; its state is set by running `other`
    on a new one (LiteRT's Python API cannot write a resource variable)."""
    litert = builtin_litert(MODELS / f"{name}.tflite")
    outputs = []
    for k, x in enumerate(steps):
        if k in RESETS:
            litert.reset_state()
        if k == SET_STATE_AT:
            litert.reset_state()
            for y in other:
                litert.infer(y)
        outputs.append(litert.infer(x))
    return outputs


@pytest.mark.parametrize("name", NAMES)
def test_the_state_becomes_int8_and_no_float_op_is_left(name: str) -> None:
    before = _float_ops(_converted(name, integer_state=False))
    assert {"tosa.variable", "tosa.floor", "tosa.ceil", "tosa.cast"} <= set(before)
    module = _converted(name)
    assert _float_ops(module) == []
    variables = [op for op in module.walk() if op.name == "tosa.variable"]
    assert variables and all(str(v.element_type) == "i8" and SCALE_ATTR in v.attributes
                             and ZERO_POINT_ATTR in v.attributes for v in variables)


@pytest.mark.parametrize("name", NAMES)
def test_int8_state_is_bit_exact_with_litert_and_carries_the_float_states_bits(
        name: str) -> None:
    """24 steps, resets before steps 8 and 16, a set_state before step 12: every output
    equals LiteRT's; `query_state()` gives the int8 state, which dequantized (with the scale
    and zero point the variable records) is the float-state model's state, bit for bit."""
    module = _converted(name)
    quantization = {v.var_name: {"scale": v.attributes[SCALE_ATTR].value.data,
                                 "zero_point": v.attributes[ZERO_POINT_ATTR].value.data}
                    for v in module.walk() if op_is_variable(v)}
    steps, other = _plan(name)
    compiled = ts.compile_model(module)
    donor = compiled.create_infer_request()
    for y in other:
        donor.infer([y])
    donated = {s.name: s.state for s in donor.query_state()}
    assert all(v.dtype == np.int8 and v.any() for v in donated.values())

    request = compiled.create_infer_request()
    float_request = ts.compile_model(MODELS / f"{name}.tflite").create_infer_request()
    theirs = _litert_outputs(name, steps, other)
    for k, x in enumerate(steps):
        if k in RESETS:
            request.reset_state()
            float_request.reset_state()
        if k == SET_STATE_AT:
            for s in request.query_state():
                s.state = donated[s.name]
            for s in float_request.query_state():
                s.state = _dequantized(donated[s.name], quantization[s.name])
        (ours,) = request.infer([x])
        np.testing.assert_array_equal(ours, theirs[k], err_msg=f"{name}: step {k}")
        np.testing.assert_array_equal(float_request.infer([x])[0], ours)
        floats = {s.name: s.state for s in float_request.query_state()}
        for s in request.query_state():
            assert s.state.dtype == np.int8
            np.testing.assert_array_equal(_dequantized(s.state, quantization[s.name]),
                                          floats[s.name], err_msg=f"{s.name}: step {k}")


def op_is_variable(op: object) -> bool:
    return getattr(op, "name", None) == "tosa.variable"


@pytest.mark.parametrize("name", NAMES)
def test_the_float_state_is_litert_s(name: str) -> None:
    """The float-state model (default pipeline, no integer state) writes to its variables
    exactly what LiteRT's DEQUANTIZE writes to its resource variables (read from LiteRT's
    tensors of the ASSIGN_VARIABLE values), step by step."""
    from ai_edge_litert import schema_py_generated as schema
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    path = MODELS / f"{name}.tflite"
    model = schema.Model.GetRootAsModel(path.read_bytes(), 0)
    graph = model.Subgraphs(0)
    handles: dict[int, str] = {}
    assigned: dict[str, int] = {}
    for i in range(graph.OperatorsLength()):
        op = graph.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        if builtin == schema.BuiltinOperator.VAR_HANDLE:
            options = schema.VarHandleOptions()
            table = op.BuiltinOptions()
            options.Init(table.Bytes, table.Pos)
            handles[op.Outputs(0)] = options.SharedName().decode()
        elif builtin == schema.BuiltinOperator.ASSIGN_VARIABLE:
            assigned[handles[op.Inputs(0)]] = op.Inputs(1)
    litert = Interpreter(model_path=str(path), experimental_preserve_all_tensors=True,
                         experimental_op_resolver_type=OpResolverType.
                         BUILTIN_WITHOUT_DEFAULT_DELEGATES)
    litert.allocate_tensors()
    (x_index,) = (d["index"] for d in litert.get_input_details())
    request = ts.compile_model(path).create_infer_request()
    steps, _ = _plan(name)
    assert assigned and len(steps) == STEPS
    for k, x in enumerate(steps):
        litert.set_tensor(x_index, x)
        litert.invoke()
        request.infer([x])
        for s in request.query_state():
            np.testing.assert_array_equal(s.state, litert.get_tensor(assigned[s.name]),
                                          err_msg=f"{s.name}: step {k}")


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
@pytest.mark.parametrize("accelerator", ACCELERATORS)
@pytest.mark.parametrize("name", NAMES)
def test_vela_places_every_operator_on_the_npu(name: str, accelerator: str,
                                               tmp_path: Path) -> None:
    """The module passes `tosa-opt --tosa-validate` for TOSA 1.0 PRO-INT level 8k (variable,
    doubleround) and Vela compiles its flatbuffer into NPU subgraphs only."""
    from peers.vela import compile_tosa, serialize

    tosa = serialize(print_module(_converted(name), spelling="upstream", generic=True),
                     tmp_path / f"{name}.tosa")
    result = compile_tosa(tosa, accelerator, tmp_path / "out")
    assert result.all_on_npu, result.operators
    assert int(result.summary["passes_after_fusing"]) > 10  # the whole model, not an init


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
def test_vela_rejects_the_float_state(tmp_path: Path) -> None:
    """Without the pass, Vela refuses the f32 variable and the float QUANTIZE / DEQUANTIZE
    ops (the issue's finding), so the test above can fail."""
    from peers.vela import VelaRejected, compile_tosa, serialize

    target = ("specification_version=1.0 level=8k profiles=pro_int,pro_fp "
              "extensions=variable,doubleround")
    text = print_module(_converted(NAMES[0], integer_state=False), spelling="upstream", generic=True)
    tosa = serialize(text, tmp_path / "float_state.tosa", target)
    with pytest.raises(VelaRejected, match="Input data type not supported"):
        compile_tosa(tosa, ACCELERATORS[0], tmp_path / "out")


@pytest.mark.peers
@pytest.mark.usefixtures("upstream_mlir_tools")
@pytest.mark.parametrize("name", NAMES)
def test_the_reference_model_is_bit_exact_with_litert(name: str, tosa_reference_tools: None,
                                                      tmp_path: Path) -> None:
    """The TOSA reference model over the same 24 steps, resets and set_state. First the
    integer-state module with the value written to each variable also returned (its variable
    dump is broken, see peers/tosa_reference.py): outputs equal to LiteRT's, states to the
    interpreter's int8 states. Then the very flatbuffer Vela compiles, one call at a time, each
    given the state the first run had before that step: outputs equal to LiteRT's."""
    from peers.tosa_reference import Artifact, run_reference
    from peers.vela import serialize

    module = _converted(name)
    text = print_module(module, spelling="upstream", generic=True)
    steps, other = _plan(name)
    donated = run_reference(text, [[y] for y in other]).state[-1]
    reference = run_reference(text, [[x] for x in steps], RESETS, {SET_STATE_AT: donated})
    theirs = _litert_outputs(name, steps, other)
    request = ts.compile_model(module).create_infer_request()
    for k, x in enumerate(steps):
        if k in RESETS:
            request.reset_state()
        if k == SET_STATE_AT:
            for s in request.query_state():
                s.state = donated[s.name]
        np.testing.assert_array_equal(reference.outputs[k][0], theirs[k], err_msg=f"step {k}")
        request.infer([x])
        for s in request.query_state():
            np.testing.assert_array_equal(reference.state[k][s.name], s.state,
                                          err_msg=f"{s.name}: step {k}")

    artifact = Artifact(serialize(text, tmp_path / f"{name}.tosa"), text, tmp_path / "run")
    initial = {v.var_name: dense_to_numpy(v.initial_value) for v in module.walk()
               if op_is_variable(v)}
    for k, x in enumerate(steps):
        before = initial if k == 0 or k in RESETS else \
            donated if k == SET_STATE_AT else reference.state[k - 1]
        (ours,) = artifact.call([x], before)
        np.testing.assert_array_equal(ours, theirs[k], err_msg=f"the file, step {k}")


def _requantizing(read: object) -> set[str]:
    """The ops a read's value reaches through reshapes and slices (the lanes' split)."""
    found: set[str] = set()
    stack = [use.operation for use in read.results[0].uses]  # type: ignore[attr-defined]
    while stack:
        op = stack.pop()
        found.add(op.name)
        if op.name in ("tosa.reshape", "tosa.slice"):
            stack.extend(use.operation for use in op.results[0].uses)
    return found


def _requantizing_model(path: Path) -> Path:
    """The full-integer LSTM with each QUANTIZE after a READ_VARIABLE given another scale
    and zero point than the DEQUANTIZE before the ASSIGN_VARIABLE (TensorFlow gives them
    the same): the reads become requantizations of the stored int8 value."""
    import struct

    from ai_edge_litert import schema_py_generated as schema

    data = bytearray((MODELS / "seed_lstm_full_integer.tflite").read_bytes())
    model = schema.Model.GetRootAsModel(bytes(data), 0)
    graph = model.Subgraphs(0)
    producers: dict[int, int] = {}
    patched = 0
    for i in range(graph.OperatorsLength()):
        op = graph.Operators(i)
        code = model.OperatorCodes(op.OpcodeIndex())
        builtin = max(code.BuiltinCode(), code.DeprecatedBuiltinCode())
        if builtin == schema.BuiltinOperator.QUANTIZE and \
                producers.get(op.Inputs(0)) == schema.BuiltinOperator.READ_VARIABLE:
            tab = graph.Tensors(op.Outputs(0)).Quantization()._tab
            scale_at = tab.Vector(tab.Offset(8))
            zero_point_at = tab.Vector(tab.Offset(10))
            (scale,) = struct.unpack_from("<f", data, scale_at)
            factor, shift = ((1.37, 9), (0.8, 0))[patched]
            struct.pack_into("<f", data, scale_at, scale * factor)
            struct.pack_into("<q", data, zero_point_at, -128 + shift)
            patched += 1
        for j in range(op.OutputsLength()):
            producers[op.Outputs(j)] = builtin
    assert patched == 2
    path.write_bytes(bytes(data))
    return path


def test_a_read_at_another_scale_is_requantized_as_litert_does(tmp_path: Path) -> None:
    """Reads quantizing with other scales and zero points than the writes (a patched
    model): each becomes a `tosa.rescale` or `tosa.table` of the int8 state, and the outputs
    stay equal to LiteRT's over 24 steps with resets and a set_state."""
    path = _requantizing_model(tmp_path / "requantizing.tflite")
    module = import_tflite(path)
    ctx = ts.make_context()
    ConvertTFLiteToTosaPass().apply(ctx, module)
    TosaIntegerStatePass().apply(ctx, module)
    assert _float_ops(module) == []
    for read in (op for op in module.walk() if op.name == "tosa.variable.read"):
        assert {"tosa.rescale", "tosa.table"} & _requantizing(read), read
    litert = builtin_litert(path)
    steps = _quantized_inputs("seed_lstm_full_integer", litert)
    other = steps[STEPS:STEPS + 5]
    request, donor = (ts.compile_model(module).create_infer_request() for _ in range(2))
    for y in other:
        donor.infer([y])
    for k, x in enumerate(steps[:STEPS]):
        if k in RESETS or k == SET_STATE_AT:
            request.reset_state()
            litert.reset_state()
        if k == SET_STATE_AT:
            for s in request.query_state():
                s.state = {d.name: d.state for d in donor.query_state()}[s.name]
            for y in other:
                litert.infer(y)
        np.testing.assert_array_equal(request.infer([x])[0], litert.infer(x),
                                      err_msg=f"step {k}")


def test_compile_model_runs_the_pass_on_request() -> None:
    """`compile_model(..., pipeline="tosa-integer-state,...")` after the TFLite conversion:
    the request's state is int8 (settable, reset to the zero point), the outputs unchanged."""
    name = NAMES[0]
    path = MODELS / f"{name}.tflite"
    request = ts.compile_model(
        path, pipeline="tosa-integer-state,convert-tosa-variables-to-memref"
    ).create_infer_request()
    float_request = ts.compile_model(path).create_infer_request()
    steps, _ = _plan(name)
    for x in steps[:6]:
        np.testing.assert_array_equal(request.infer([x])[0], float_request.infer([x])[0])
    states = request.query_state()
    assert [s.state.dtype for s in states] == [np.int8, np.int8]
    with pytest.raises(Exception, match=r"variable 'lstm/rnn_state' has shape \[1, 20\] and "
                       r"dtype float32; expected shape \[1, 20\] and dtype int8"):
        states[0].state = np.zeros((1, 20), np.float32)
    request.reset_state()
    assert all((s.state == -128).all() for s in request.query_state())


@pytest.mark.peers
@pytest.mark.parametrize("name", NAMES)
def test_the_pro_int_artifact_runs_on_the_npu_and_the_reference_device(
        name: str, tosa_reference_tools: None, tmp_path: Path) -> None:
    """`tosa-state compile MODEL --target tosa --profile pro_int` runs the pass: its manifest
    lists int8 variables with their scale and zero point, Vela places every operator of the
    file on the NPU, and the file read back on the `reference` device gives LiteRT's outputs
    over the 24 steps with resets and a set_state."""
    import json

    from peers.vela import compile_tosa
    from test_error_paths import cli

    from tosa_state.tools import main as tosa_state_main

    tosa = tmp_path / f"{name}.tosa"
    code, _, err = cli(tosa_state_main.main, "compile", str(MODELS / f"{name}.tflite"),
                       "--target", "tosa", "--profile", "pro_int",
                       "--extensions", "variable,doubleround", "-o", str(tosa))
    assert code == 0, err
    variables = json.loads(Path(f"{tosa}.json").read_text())["variables"]
    assert variables and all(v["dtype"] == "int8" and v["size_bytes"] == np.prod(v["shape"])
                             and v["quantization"]["scale"] > 0 for v in variables)
    assert compile_tosa(tosa, ACCELERATORS[0], tmp_path / "vela").all_on_npu

    compiled = ts.compile_model(tosa, device="reference")
    steps, other = _plan(name)
    donor = compiled.create_infer_request()
    for y in other:
        donor.infer([y])
    donated = {s.name: s.state for s in donor.query_state()}
    request = compiled.create_infer_request()
    for k, (x, theirs) in enumerate(zip(steps, _litert_outputs(name, steps, other),
                                        strict=True)):
        if k in RESETS:
            request.reset_state()
        if k == SET_STATE_AT:
            for s in request.query_state():
                s.state = donated[s.name]
        (ours,) = request.infer([x])
        np.testing.assert_array_equal(ours, theirs, err_msg=f"step {k}")


@pytest.mark.peers
def test_the_stateless_int8_ops_model_runs_wholly_on_the_u55(tmp_path: Path) -> None:
    """The int8 ops model's strided slice (every other element) is a slice and a reshape,
    not a `tosa.gather` (which Vela refuses on the Ethos-U55: "Non-passthrough operation
    (Gather) could not run on NPU"): its PRO-INT artifact compiles wholly to the NPU of an
    ethos-u55-128."""
    from peers.vela import compile_tosa

    artifact = ts.compile_tosa(MODELS / "int8_ops_full_integer.tflite", "pro_int",
                               "variable,doubleround")
    assert "tosa.gather" not in print_module(artifact.module)
    tosa = tmp_path / "int8_ops.tosa"
    artifact.save(tosa)
    result = compile_tosa(tosa, ACCELERATORS[0], tmp_path / "vela")
    assert result.all_on_npu, result.operators
