"""The OpenVINO IR importer and the `openvino` dialect, checked against OpenVINO itself.

Valid models are built with OpenVINO's Python API and saved as IR; invalid ones are written by
hand (`IrText`) or made by editing saved IR. OpenVINO's `Core().read_model` is the oracle for
input / output order, names and types.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

import ml_dtypes
import numpy as np
import openvino_models as om
import pytest
from openvino_models import IrText
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    Builtin,
    FileLineColLoc,
    ModuleOp,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    f32,
    i1,
    i32,
    i64,
)
from xdsl.ir import Operation
from xdsl.parser import Parser
from xdsl.printer import Printer

from tosa_state.diagnostics import ModelImportError
from tosa_state.dialects import openvino as ovd
from tosa_state.dtypes import dense_to_numpy
from tosa_state.frontends.openvino import (
    ELEMENT_TYPES,
    import_openvino_ir,
    openvino_element_name,
)

ov = om.ov


# ---------------------------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------------------------


def make_ctx() -> Context:
    ctx = Context()
    for dialect in (Builtin, func.Func, ovd.OpenVINO):
        ctx.load_dialect(dialect)
    return ctx


def load(xml: Path) -> tuple[ModuleOp, func.FuncOp]:
    module = import_openvino_ir(xml, make_ctx())
    module.verify()
    [main] = list(module.ops)
    assert isinstance(main, func.FuncOp)
    assert main.sym_name.data == "main"
    return module, main


def body_ops(function: func.FuncOp) -> list[Operation]:
    return [op for op in function.body.block.ops if not isinstance(op, func.ReturnOp)]


def ops_of(function: func.FuncOp, cls: type[Operation]) -> list[Operation]:
    return [op for op in function.walk() if isinstance(op, cls)]


def returned(function: func.FuncOp) -> list:
    ret = function.body.block.last_op
    assert isinstance(ret, func.ReturnOp)
    return list(ret.arguments)


def arg_names(function: func.FuncOp) -> list[str]:
    assert function.arg_attrs is not None
    return [d.data["openvino.name"].data for d in function.arg_attrs.data]


def result_names(function: func.FuncOp) -> list[str]:
    assert function.res_attrs is not None
    return [d.data["openvino.name"].data for d in function.res_attrs.data]


def shape_of(type_) -> tuple[int, ...] | None:
    return tuple(type_.get_shape()) if isinstance(type_, TensorType) else None


def printed(op: Operation, generic: bool = False) -> str:
    stream = io.StringIO()
    Printer(stream=stream, print_generic_format=generic).print_op(op)
    return stream.getvalue()


def openvino_ports(ports) -> list[tuple[str, str, tuple[int, ...] | None]]:
    """(any name, element type, dims with -1 for dynamic / None for dynamic rank) per port."""
    out = []
    for port in ports:
        shape = port.get_partial_shape()
        dims = (
            tuple(d.get_length() if d.is_static else -1 for d in shape)
            if shape.rank.is_static
            else None
        )
        name = min(port.get_names()) if port.get_names() else None
        out.append((name, port.get_element_type().get_type_name(), dims))
    return out


def our_ports(function: func.FuncOp, which: str) -> list[tuple[str, str, tuple[int, ...] | None]]:
    if which == "inputs":
        types, names = function.function_type.inputs.data, arg_names(function)
    else:
        types, names = function.function_type.outputs.data, result_names(function)
    out = []
    for name, type_ in zip(names, types, strict=True):
        dims = shape_of(type_)
        if dims is not None:
            dims = tuple(-1 if d == DYNAMIC_INDEX else d for d in dims)
        out.append((name, openvino_element_name(type_.element_type), dims))
    return out


def assert_matches_openvino(xml: Path, function: func.FuncOp) -> None:
    model = ov.Core().read_model(str(xml))
    for which, ports in (("inputs", model.inputs), ("outputs", model.outputs)):
        ours, theirs = our_ports(function, which), openvino_ports(ports)
        # A tensor without names: OpenVINO has no name to compare; ours is the layer name.
        assert len(ours) == len(theirs)
        theirs = [
            t if t[0] is not None else (o[0], *t[1:]) for o, t in zip(ours, theirs, strict=True)
        ]
        assert ours == theirs


def layer_position(xml: Path, layer_id: str | int) -> tuple[int, int]:
    """Line and column of `<layer id="...">` in the file (top-level layers only)."""
    for number, line in enumerate(xml.read_text().splitlines(), start=1):
        match = re.match(rf'(\s*)<layer id="{layer_id}"', line)
        if match:
            return number, len(match.group(1)) + 1
    raise AssertionError(f"layer {layer_id} not found")


def edge_line(xml: Path, fragment: str) -> int:
    return next(n for n, text in enumerate(xml.read_text().splitlines(), 1) if fragment in text)


def import_error(xml: Path) -> str:
    with pytest.raises(ModelImportError) as info:
        import_openvino_ir(xml, make_ctx())
    message = str(info.value)
    assert "\n" not in message and "Traceback" not in message
    assert message.startswith(f"{xml}:")
    return message


def layer_error(xml: Path, layer_id: int | str, name: str, type_: str, version: str) -> str:
    """The error's text after the layer prefix, checking the prefix and the location."""
    message = import_error(xml)
    line, column = layer_position(xml, layer_id)
    prefix = (
        f"{xml}:{line}:{column}: error: layer id={layer_id} name='{name}' type='{type_}' "
        f"({version}): "
    )
    assert message.startswith(prefix), message
    return message[len(prefix) :]


@pytest.fixture
def saved(tmp_path: Path):
    """`saved(builder_name)` saves one of `openvino_models`' models and returns its path."""

    def save(name: str, **kwargs) -> Path:
        return om.save(getattr(om, name)(**kwargs), tmp_path, name)

    return save


# ---------------------------------------------------------------------------------------------
# Valid stateful models
# ---------------------------------------------------------------------------------------------


def test_accumulator_structure(tmp_path: Path) -> None:
    built = om.accumulator()
    xml = om.save(built, tmp_path, "acc")
    _, main = load(xml)
    const, read, add, assign = body_ops(main)
    assert isinstance(const, ovd.ConstantOp)
    assert isinstance(read, ovd.ReadValueOp)
    assert isinstance(add, ovd.AddOp)
    assert isinstance(assign, ovd.AssignOp)
    assert read.variable_id.data == "acc" and read.version.value.data == 6
    assert read.variable_type == f32
    assert read.variable_shape == ovd.PartialShapeAttr.from_shape([1, 4])
    assert read.init is const.result
    assert read.result.type == TensorType(f32, [1, 4])
    assert add.lhs is read.result and add.rhs is main.body.block.args[0]
    assert add.auto_broadcast.data == "numpy"
    assert assign.variable_id.data == "acc" and assign.version.value.data == 6
    assert assign.value is add.result
    assert returned(main) == [add.result]
    np.testing.assert_array_equal(dense_to_numpy(const.value), built.constants["init"])
    assert dense_to_numpy(const.value).tobytes() == built.constants["init"].tobytes()
    assert main.attributes["openvino.model_name"] == StringAttr("accumulator")
    assert arg_names(main) == ["x"] and result_names(main) == ["out"]
    assert_matches_openvino(xml, main)


def test_read_value_without_init(saved) -> None:
    _, main = load(saved("no_init"))
    [read] = ops_of(main, ovd.ReadValueOp)
    assert read.init is None
    assert read.variable_shape == ovd.PartialShapeAttr.from_shape([2, 3])
    assert read.variable_type == f32
    assert read.result.type == TensorType(f32, [2, 3])
    [assign] = ops_of(main, ovd.AssignOp)
    assert assign.variable_id.data == "counter"
    assert result_names(main) == ["before"]


def test_opset3_read_value_and_assign(saved) -> None:
    xml = saved("opset3_model")
    _, main = load(xml)
    [read] = ops_of(main, ovd.ReadValueOp)
    [assign] = ops_of(main, ovd.AssignOp)
    assert read.version.value.data == 3 and assign.version.value.data == 3
    assert read.variable_type is None and read.variable_shape is None
    assert read.result.type == TensorType(i32, [1, 3])
    assert isinstance(read.init.owner, ovd.ConstantOp)
    expected = om.opset3_model().constants["init"]
    assert dense_to_numpy(read.init.owner.value).tobytes() == expected.tobytes()
    assert_matches_openvino(xml, main)


def test_several_variables_of_different_types_and_shapes(tmp_path: Path) -> None:
    built = om.multi_variable()
    xml = om.save(built, tmp_path, "multi")
    _, main = load(xml)
    reads = {op.variable_id.data: op for op in ops_of(main, ovd.ReadValueOp)}
    expected_types = {
        "s_f32": TensorType(f32, [2, 3]),
        "s_i32": TensorType(i32, []),
        "s_f16": TensorType(ELEMENT_TYPES["f16"].mlir, [4]),
        "s_bf16": TensorType(ELEMENT_TYPES["bf16"].mlir, [1, 2]),
        "s_bool": TensorType(i1, [3]),
        "s_i64": TensorType(i64, [DYNAMIC_INDEX]),
    }
    assert {k: r.result.type for k, r in reads.items()} == expected_types
    assert reads["s_i32"].variable_shape == ovd.PartialShapeAttr.from_openvino("")
    assert reads["s_i64"].init is None
    assert reads["s_i64"].variable_shape.intervals == ((0, ovd.UNBOUNDED),)
    for key, variable in (("f32", "s_f32"), ("i32", "s_i32"), ("f16", "s_f16"), ("bf16", "s_bf16")):
        init = reads[variable].init.owner
        assert dense_to_numpy(init.value).tobytes() == built.constants[key].tobytes()
    boolean = dense_to_numpy(reads["s_bool"].init.owner.value)
    np.testing.assert_array_equal(boolean, built.constants["boolean"])
    assert {op.variable_id.data for op in ops_of(main, ovd.AssignOp)} == set(expected_types)
    assert_matches_openvino(xml, main)


def test_init_computed_from_an_input(tmp_path: Path) -> None:
    built = om.init_from_input()
    xml = om.save(built, tmp_path, "init_input")
    _, main = load(xml)
    [read] = ops_of(main, ovd.ReadValueOp)
    init = read.init.owner
    assert isinstance(init, ovd.MultiplyOp)
    assert init.lhs is main.body.block.args[0]
    assert dense_to_numpy(init.rhs.owner.value).tobytes() == built.constants["two"].tobytes()
    assert read.variable_shape.to_openvino() == "[?,4]"
    assert read.result.type == TensorType(f32, [DYNAMIC_INDEX, 4])
    assert_matches_openvino(xml, main)


def test_swapping_variables(saved) -> None:
    _, main = load(saved("swap_states"))
    reads = {op.variable_id.data: op for op in ops_of(main, ovd.ReadValueOp)}
    assigns = {op.variable_id.data: op for op in ops_of(main, ovd.AssignOp)}
    assert assigns["b"].value is reads["a"].result
    assert assigns["a"].value.owner.lhs is reads["b"].result


def test_dynamic_shapes_intervals_and_rank(saved) -> None:
    xml = saved("dynamic_shapes")
    _, main = load(xml)
    x, y = main.body.block.args
    assert x.type == TensorType(f32, [DYNAMIC_INDEX, DYNAMIC_INDEX, 4])
    assert y.type == UnrankedTensorType(f32)
    [read] = ops_of(main, ovd.ReadValueOp)
    assert read.variable_shape.intervals == ((1, 8), (0, ovd.UNBOUNDED), (4, 4))
    assert read.variable_shape.to_openvino() == "[1..8,?,4]"
    [relu] = ops_of(main, ovd.ReluOp)
    assert relu.result.type == UnrankedTensorType(f32)
    assert_matches_openvino(xml, main)


def test_lstm_sequence_after_low_latency2(tmp_path: Path) -> None:
    built = om.lstm_low_latency()
    xml = om.save(built, tmp_path, "lstm")
    _, main = load(xml)
    [cell] = ops_of(main, ovd.LSTMCellOp)
    assert cell.hidden_size.value.data == 4
    assert [a.data for a in cell.activations.data] == ["sigmoid", "tanh", "tanh"]
    assert cell.w.type == TensorType(f32, [16, 3])
    assert cell.hidden_state.type == TensorType(f32, [1, 4])
    reads = ops_of(main, ovd.ReadValueOp)
    assigns = ops_of(main, ovd.AssignOp)
    assert len(reads) == 2 and len(assigns) == 2
    assert {r.variable_id.data for r in reads} == {a.variable_id.data for a in assigns}
    for read in reads:
        assert isinstance(read.init.owner, ovd.BroadcastOp)
        assert isinstance(read.init.owner.target_shape.owner, ovd.ShapeOfOp)
    squeezed_w = cell.w.owner
    assert isinstance(squeezed_w, ovd.SqueezeOp)
    weights = dense_to_numpy(squeezed_w.input.owner.value)
    assert weights.tobytes() == built.constants["W"].tobytes()
    assert_matches_openvino(xml, main)


def test_gru_tensor_iterator_after_low_latency2(tmp_path: Path) -> None:
    built = om.gru_tensor_iterator_low_latency(steps=2)
    xml = om.save(built, tmp_path, "gru_ti")
    _, main = load(xml)
    [loop] = ops_of(main, ovd.TensorIteratorOp)
    block = loop.body.block
    assert [a.type for a in block.args[:2]] == [
        TensorType(f32, [1, 1, 3]),
        TensorType(f32, [1, 4]),
    ]
    [cell] = [op for op in block.walk() if isinstance(op, ovd.GRUCellOp)]
    assert cell.initial_hidden_state is block.args[1]
    assert cell.linear_before_reset.value.data is False or cell.linear_before_reset.value.data == 0
    inputs = loop.input_port_map.data
    assert inputs[0] == ovd.PortMapAttr.make(0, 0, axis=1, start=0, end=-1, stride=1, part_size=1)
    assert inputs[1] == ovd.PortMapAttr.make(1, 1)
    assert loop.output_port_map.data[0].sliced_axis == 1
    yield_op = block.last_op
    assert isinstance(yield_op, ovd.YieldOp)
    [edge] = loop.back_edges.data
    assert yield_op.values[edge.from_result.data].owner is cell
    assert edge.to_param.data == 1
    [read] = ops_of(main, ovd.ReadValueOp)
    assert loop.inputs[1] is read.result
    [assign] = ops_of(main, ovd.AssignOp)
    assert assign.value.owner is loop
    assert [r.type for r in loop.outputs] == [
        TensorType(f32, [1, 2, 4]),
        TensorType(f32, [1, 4]),
    ]
    assert_matches_openvino(xml, main)


def test_make_stateful(saved) -> None:
    xml = saved("make_stateful")
    _, main = load(xml)
    [read] = ops_of(main, ovd.ReadValueOp)
    [assign] = ops_of(main, ovd.AssignOp)
    # MakeStateful names the variable after the Parameter and the Result it replaces.
    assert read.variable_id.data == assign.variable_id.data == "state_instate_out"
    assert read.init is None
    assert arg_names(main) == ["x"] and result_names(main) == ["out"]
    assert_matches_openvino(xml, main)


# ---------------------------------------------------------------------------------------------
# Ops, constants, order, names, versions
# ---------------------------------------------------------------------------------------------


EXPECTED_MANY_OPS = {
    "openvino.subtract",
    "openvino.multiply",
    "openvino.divide",
    "openvino.mod",
    "openvino.floor_mod",
    "openvino.power",
    "openvino.maximum",
    "openvino.minimum",
    "openvino.matmul",
    "openvino.relu",
    "openvino.sigmoid",
    "openvino.tanh",
    "openvino.exp",
    "openvino.clamp",
    "openvino.convert",
    "openvino.split",
    "openvino.variadic_split",
    "openvino.strided_slice",
    "openvino.slice",
    "openvino.concat",
    "openvino.reshape",
    "openvino.squeeze",
    "openvino.unsqueeze",
    "openvino.transpose",
    "openvino.shape_of",
    "openvino.gather",
    "openvino.broadcast",
    "openvino.greater",
    "openvino.less",
    "openvino.equal",
    "openvino.select",
    "openvino.logical_not",
    "openvino.logical_and",
    "openvino.logical_or",
    "openvino.reduce_sum",
    "openvino.reduce_mean",
    "openvino.reduce_max",
    "openvino.constant",
}


def test_compute_ops(saved) -> None:
    xml = saved("many_ops")
    _, main = load(xml)
    assert {op.name for op in body_ops(main)} == EXPECTED_MANY_OPS
    by_name: dict[str, list[Operation]] = {}
    for op in body_ops(main):
        by_name.setdefault(op.name, []).append(op)
    [matmul] = by_name["openvino.matmul"]
    assert matmul.transpose_b.value.data and not matmul.transpose_a.value.data
    [clamp] = by_name["openvino.clamp"]
    assert (clamp.min.value.data, clamp.max.value.data) == (-1.5, 2.0)
    [split] = by_name["openvino.split"]
    assert split.num_splits.value.data == 2 and len(split.outputs) == 2
    [strided] = by_name["openvino.strided_slice"]
    assert strided.begin_mask.get_values() == (0, 1)
    assert strided.end_mask.get_values() == (1, 0)
    assert strided.shrink_axis_mask.get_values() == ()
    [concat] = by_name["openvino.concat"]
    assert concat.axis.value.data == 1
    [reshape] = by_name["openvino.reshape"]
    assert reshape.special_zero.value.data
    shape_ofs = {str(op.result.type) for op in by_name["openvino.shape_of"]}
    assert shape_ofs == {"tensor<2xi64>", "tensor<2xi32>"}
    [gather] = by_name["openvino.gather"]
    assert gather.batch_dims.value.data == 0
    reductions = {
        op.name: bool(op.keep_dims.value.data) for op in body_ops(main) if "reduce" in op.name
    }
    assert reductions == {
        "openvino.reduce_sum": True,
        "openvino.reduce_mean": False,
        "openvino.reduce_max": False,
    }
    for comparison in ("openvino.greater", "openvino.less", "openvino.equal"):
        assert by_name[comparison][0].result.type == TensorType(i1, [2, 6])
    assert_matches_openvino(xml, main)


def test_constants_of_every_element_type_are_bit_exact(tmp_path: Path) -> None:
    built = om.all_element_types()
    xml = om.save(built, tmp_path, "constants")
    _, main = load(xml)
    names = result_names(main)
    values = returned(main)
    for name, value in zip(names, values, strict=True):
        key = name.removeprefix("c_")
        expected = built.constants[key]
        got = dense_to_numpy(value.owner.value)
        assert got.shape == expected.shape, key
        if expected.dtype == np.bool_:
            np.testing.assert_array_equal(got, expected)
        else:
            assert got.dtype == expected.dtype, key
            assert got.tobytes() == expected.tobytes(), key
    # Identical payloads share an offset in the .bin, and payloads are not aligned.
    text = xml.read_text()
    offsets = re.findall(r'element_type="f32" shape="5" offset="(\d+)"', text)
    assert len(offsets) == 2 and offsets[0] == offsets[1]
    assert any(int(o) % 2 for o in re.findall(r'offset="(\d+)"', text))
    assert_matches_openvino(xml, main)


@pytest.mark.parametrize(
    ("element", "mlir"),
    [
        ("f32", "f32"),
        ("f16", "f16"),
        ("bf16", "bf16"),
        ("f64", "f64"),
        ("i8", "i8"),
        ("u8", "ui8"),
        ("i16", "i16"),
        ("u16", "ui16"),
        ("i32", "i32"),
        ("u32", "ui32"),
        ("i64", "i64"),
        ("u64", "ui64"),
        ("boolean", "i1"),
    ],
)
def test_element_type_mapping(element: str, mlir: str) -> None:
    assert str(ELEMENT_TYPES[element].mlir) == mlir
    assert openvino_element_name(ELEMENT_TYPES[element].mlir) == element


def test_input_and_output_order_follow_openvino(tmp_path: Path) -> None:
    xml = om.save(om.ordering(), tmp_path, "ordering")
    _, main = load(xml)
    assert arg_names(main) == ["c", "a", "b"]
    assert result_names(main) == ["r3", "r1", "r2"]
    assert_matches_openvino(xml, main)


def _reorder_layers(text: str, order) -> str:
    head, rest = text.split("<layers>", 1)
    body, tail = rest.split("</layers>", 1)
    blocks = re.findall(r"\t\t<layer .*?</layer>\n", body, re.S)
    return head + "<layers>\n" + "".join(order(blocks)) + "\t</layers>" + tail


@pytest.mark.parametrize(
    "order",
    [
        pytest.param(lambda blocks: blocks[::-1], id="reversed"),
        pytest.param(
            lambda blocks: (
                [b for b in blocks if 'type="Result"' in b][::-1]
                + [b for b in blocks if 'type="Result"' not in b]
            ),
            id="results-first-reversed",
        ),
        pytest.param(
            lambda blocks: sorted(blocks, key=lambda b: 'type="Parameter"' in b),
            id="parameters-last",
        ),
    ],
)
@pytest.mark.parametrize("ir_version", ["", "IR_V10"])
def test_io_order_is_layer_order_in_the_xml(tmp_path: Path, order, ir_version: str) -> None:
    xml = om.save(om.ordering(), tmp_path, "ordering", version=ir_version)
    edited = om.edit_xml(xml, tmp_path, text=lambda t: _reorder_layers(t, order))
    _, main = load(edited)
    assert_matches_openvino(edited, main)


def test_ir_v10(tmp_path: Path) -> None:
    xml = om.save(om.ordering(), tmp_path, "ordering", version="IR_V10")
    assert 'version="10"' in xml.read_text()
    _, main = load(xml)
    assert arg_names(main) == ["c", "a", "b"]
    assert_matches_openvino(xml, main)


def test_stateful_model_declared_as_ir_v10(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, [('version="11"', 'version="10"')])
    _, main = load(edited)
    assert len(ops_of(main, ovd.ReadValueOp)) == 1


def test_tensor_names(tmp_path: Path) -> None:
    a = om.ops.parameter([2], np.float32, name="a")
    a.output(0).get_tensor().set_names({"zz", "a_name", "m"})
    relu = om.ops.relu(a)
    relu.output(0).get_tensor().set_names({"out_b", "out_a", "x,y"})
    model = ov.Model([om.ops.result(relu, name="res")], [a], "names")
    xml = om.save(model, tmp_path, "names")
    _, main = load(xml)
    assert arg_names(main) == ["a_name"] and result_names(main) == ["out_a"]
    assert_matches_openvino(xml, main)


def test_ir_v10_legacy_tensor_names(tmp_path: Path) -> None:
    """IR v10 also names outputs after their producer (`layer.N` for multi-output layers) and
    inputs after their Parameter layer; `get_any_name()` is the smallest name."""
    a = om.ops.parameter([2, 4], np.float32, name="pa")
    a.output(0).get_tensor().set_names({"tensor_a"})
    split = om.ops.split(a, 1, 2, name="sp")
    relu = om.ops.relu(a, name="rl")
    results = [
        om.ops.result(split.output(0), name="r0"),
        om.ops.result(split.output(1), name="r1"),
        om.ops.result(relu, name="rr"),
    ]
    xml = om.save(ov.Model(results, [a], "legacy"), tmp_path, "legacy", version="IR_V10")
    _, main = load(xml)
    assert arg_names(main) == ["pa"] and result_names(main) == ["r0", "r1", "rl"]
    assert_matches_openvino(xml, main)


def test_dialects_are_loaded_into_the_context(saved) -> None:
    ctx = Context()
    module = import_openvino_ir(saved("accumulator"), ctx)
    assert Parser(ctx, printed(module)).parse_module().is_structurally_equivalent(module)


def test_ops_are_located_at_their_layers(saved) -> None:
    xml = saved("accumulator")
    _, main = load(xml)
    text = xml.read_text().splitlines()
    for op in body_ops(main):
        loc = op.location
        assert isinstance(loc, FileLineColLoc) and loc.filename.data == str(xml)
        assert text[loc.line.data - 1][loc.column.data - 1 :].startswith("<layer id=")


def test_divide_python_division_flag(saved, tmp_path: Path) -> None:
    xml = saved("many_ops")
    edited = om.edit_xml(xml, tmp_path, [('m_pythondiv="true"', 'm_pythondiv="false"')])
    _, main = load(edited)
    divides = ops_of(main, ovd.DivideOp)
    assert divides and all(not d.m_pythondiv.value.data for d in divides)


MODELS = [
    "accumulator",
    "no_init",
    "opset3_model",
    "init_from_input",
    "dynamic_shapes",
    "swap_states",
    "lstm_low_latency",
    "gru_tensor_iterator_low_latency",
    "make_stateful",
    "many_ops",
    "ordering",
    "multi_variable",
    "all_element_types",
]
HAS_NON_FINITE_CONSTANTS = {"multi_variable", "all_element_types"}


@pytest.mark.parametrize("name", MODELS)
def test_imported_module_round_trips(saved, name: str) -> None:
    module, _ = load(saved(name))
    text = printed(module)
    reparsed = Parser(make_ctx(), text).parse_module()
    reparsed.verify()
    assert printed(reparsed) == text
    if name in HAS_NON_FINITE_CONSTANTS:
        return  # xDSL's generic printer writes NaN / Inf in a form its parser misreads
    generic = printed(module, generic=True)
    from_generic = Parser(make_ctx(), generic).parse_module()
    assert printed(from_generic) == text
    assert printed(from_generic, generic=True) == generic


# ---------------------------------------------------------------------------------------------
# The partial-shape attribute
# ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("openvino", "mlir"),
    [
        ("1,4", "[1, 4]"),
        ("", "[]"),
        ("?,4", "[?, 4]"),
        ("-1,4", "[?, 4]"),
        ("1..8,4", "[1:8, 4]"),
        ("2..", "[2:?]"),
        ("..5", "[0:5]"),
        ("...", "*"),
    ],
)
def test_partial_shape_spellings(openvino: str, mlir: str) -> None:
    attr = ovd.PartialShapeAttr.from_openvino(openvino)
    text = f"#openvino.partial_shape<{mlir}>"
    assert str(attr) == text
    assert Parser(make_ctx(), text).parse_attribute() == attr


def test_partial_shape_relaxes_and_compatible() -> None:
    declared = ovd.PartialShapeAttr.from_openvino("?,2..4,3")
    assert declared.relaxes([1, 2, 3]) and declared.relaxes([DYNAMIC_INDEX, 4, 3])
    assert not declared.relaxes([1, 5, 3]) and not declared.relaxes([1, DYNAMIC_INDEX, 3])
    assert not declared.relaxes([1, 2]) and not declared.relaxes(None)
    assert declared.compatible([1, DYNAMIC_INDEX, 3]) and not declared.compatible([1, 1, 3])
    assert ovd.PartialShapeAttr.from_openvino("...").relaxes(None)


# ---------------------------------------------------------------------------------------------
# Invalid input: every problem is a ModelImportError naming the file, line and layer
# ---------------------------------------------------------------------------------------------


def test_malformed_xml(saved, tmp_path: Path) -> None:
    xml = saved("accumulator")
    edited = om.edit_xml(xml, tmp_path, text=lambda t: t[: len(t) // 2])
    assert re.match(
        rf"{re.escape(str(edited))}:\d+:\d+: error: malformed XML", import_error(edited)
    )


def test_mismatched_tag(tmp_path: Path) -> None:
    xml = tmp_path / "bad.xml"
    xml.write_text('<?xml version="1.0"?>\n<net name="x" version="11">\n  <layers>\n</net>\n')
    message = import_error(xml)
    assert message.startswith(f"{xml}:4:3: error: malformed XML: mismatched tag"), message


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE net [
  <!ENTITY lol "lol">
  <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
  <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
  <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
]>
<net name="&lol3;" version="11"><layers/><edges/></net>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE net [<!ENTITY secret SYSTEM "file:///etc/passwd">]>
<net name="&secret;" version="11"><layers/><edges/></net>
"""

DTD_ONLY = """<?xml version="1.0"?>
<!DOCTYPE net SYSTEM "http://example.com/net.dtd">
<net name="x" version="11"><layers/><edges/></net>
"""


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL_ENTITY, DTD_ONLY])
def test_dtd_and_entities_are_rejected(tmp_path: Path, text: str) -> None:
    xml = tmp_path / "evil.xml"
    xml.write_text(text)
    message = import_error(xml)
    assert message.startswith(f"{xml}:2:"), message
    assert "forbidden XML construct" in message and "DOCTYPE" in message


def test_missing_xml_file(tmp_path: Path) -> None:
    with pytest.raises(ModelImportError, match=r"missing\.xml: error: cannot read file"):
        import_openvino_ir(tmp_path / "missing.xml", make_ctx())


def test_missing_bin(saved) -> None:
    xml = saved("accumulator")
    xml.with_suffix(".bin").unlink()
    rest = layer_error(xml, 1, *_const_layer(xml))
    assert rest == f"the weights file '{xml.with_suffix('.bin')}' does not exist"


def _const_layer(xml: Path, layer_id: int = 1) -> tuple[str, str, str]:
    match = re.search(
        rf'<layer id="{layer_id}" name="([^"]*)" type="Const" version="(\w+)"', xml.read_text()
    )
    assert match is not None
    return match.group(1), "Const", match.group(2)


def test_truncated_bin(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, weights=lambda data: data[:-4])
    rest = layer_error(edited, 1, *_const_layer(edited))
    assert rest == "data at offset=0 size=16 runs past the end of 'edited.bin' (12 bytes)"


def test_const_size_does_not_match_shape(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, [('size="16"', 'size="12"')])
    rest = layer_error(edited, 1, *_const_layer(edited))
    assert rest == "size=12 does not match shape [1,4] x f32 (16 bytes)"


def test_unknown_op_type(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, [('type="Add"', 'type="FancyAdd"')])
    rest = layer_error(edited, 3, "acc_add", "FancyAdd", "opset1")
    assert rest == "operation 'FancyAdd' is not supported by tosa-state"


def test_unsupported_op_version(saved, tmp_path: Path) -> None:
    edits = [('type="ReadValue" version="opset6"', 'type="ReadValue" version="opset5"')]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    rest = layer_error(edited, 2, "acc_read", "ReadValue", "opset5")
    assert rest == "version opset5 of ReadValue is not supported (supported: opset3, opset6)"


@pytest.mark.parametrize(
    ("element", "problem"),
    [
        ("f7", "unknown element type 'f7'"),
        ("u2", "element type 'u2' is not supported"),
        ("string", "element type 'string' is not supported"),
    ],
)
def test_const_element_type(saved, tmp_path: Path, element: str, problem: str) -> None:
    edits = [
        ('<data element_type="f32" shape="1, 4"', f'<data element_type="{element}" shape="1, 4"')
    ]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    rest = layer_error(edited, 1, *_const_layer(edited))
    assert rest == f"attribute element_type: {problem}"


def test_parameter_element_type(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(
        saved("accumulator"), tmp_path, [('element_type="f32" />', 'element_type="q8" />')]
    )
    rest = layer_error(edited, 0, "x", "Parameter", "opset1")
    assert rest == "attribute element_type: unknown element type 'q8'"


def test_dynamic_element_type_is_rejected(tmp_path: Path) -> None:
    ir = IrText()
    x = ir.parameter("x", [2], element="dynamic")
    ir.result(x, 0, "dynamic", [2])
    xml = ir.write(tmp_path)
    rest = layer_error(xml, 0, "x", "Parameter", "opset1")
    assert rest == (
        "attribute element_type: dynamic element types are not supported; the type must be static"
    )


def test_missing_variable_id(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(
        saved("accumulator"),
        tmp_path,
        [('<data variable_id="acc" variable_type', "<data variable_type")],
    )
    rest = layer_error(edited, 2, "acc_read", "ReadValue", "opset6")
    assert rest == "missing attribute 'variable_id'"


def _assign_layer(xml: Path) -> tuple[str, str]:
    match = re.search(r'<layer id="(\d+)" name="([^"]*)" type="Assign"', xml.read_text())
    assert match is not None
    return match.group(1), match.group(2)


def test_assign_without_read_value(saved, tmp_path: Path) -> None:
    edits = [('<data variable_id="acc" />', '<data variable_id="other" />')]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    layer_id, name = _assign_layer(edited)
    rest = layer_error(edited, layer_id, name, "Assign", "opset6")
    assert rest == "no ReadValue declares variable 'other' that this Assign writes"


def test_read_value_without_assign(saved, tmp_path: Path) -> None:
    xml = saved("accumulator")
    layer_id, _ = _assign_layer(xml)

    def drop_assign(text: str) -> str:
        text = re.sub(
            rf'\t\t<layer id="{layer_id}" [^>]*type="Assign".*?</layer>\n', "", text, flags=re.S
        )
        return re.sub(rf'\t\t<edge [^>]*to-layer="{layer_id}"[^>]*/>\n', "", text)

    edited = om.edit_xml(xml, tmp_path, text=drop_assign)
    rest = layer_error(edited, 2, "acc_read", "ReadValue", "opset6")
    assert rest == (
        "variable 'acc' is read but never assigned: it needs an Assign with the same variable_id"
    )


def test_two_read_values_for_one_variable(saved, tmp_path: Path) -> None:
    xml = saved("swap_states")
    edited = om.edit_xml(
        xml, tmp_path, [('variable_id="b" variable_type', 'variable_id="a" variable_type')]
    )
    message = import_error(edited)
    assert re.search(
        r"type='ReadValue' \(opset6\): variable 'a' is also read by layer id=\d+ name='[^']*' "
        r"type='ReadValue' \(opset6\); a variable has exactly one ReadValue and one Assign$",
        message,
    ), message


def test_two_assigns_for_one_variable(saved, tmp_path: Path) -> None:
    xml = saved("swap_states")
    edited = om.edit_xml(xml, tmp_path, [('<data variable_id="b" />', '<data variable_id="a" />')])
    message = import_error(edited)
    assert re.search(
        r"type='Assign' \(opset6\): variable 'a' is also assigned by layer id=\d+ name='[^']*' "
        r"type='Assign' \(opset6\); a variable has exactly one ReadValue and one Assign$",
        message,
    ), message


def _variable_ir(
    value_dims: list[int], value_element: str, variable_shape: str, variable_type: str
) -> IrText:
    """x -> Assign("v"); ReadValue-6("v", no init) -> Result."""
    ir = IrText()
    x = ir.parameter("x", value_dims, element=value_element)
    ir.layer(
        "Assign",
        version="opset6",
        name="v_write",
        data={"variable_id": "v"},
        inputs=[(value_element, value_dims)],
        outputs=[(value_element, value_dims)],
    )
    ir.edge(x, 0, 1, 0)
    dims = [int(d) for d in variable_shape.split(",")]
    read = ir.layer(
        "ReadValue",
        version="opset6",
        name="v_read",
        data={"variable_id": "v", "variable_type": variable_type, "variable_shape": variable_shape},
        outputs=[(variable_type, dims)],
    )
    ir.result(read, 0, variable_type, dims)
    return ir


def test_valid_hand_written_variable(tmp_path: Path) -> None:
    xml = _variable_ir([1, 4], "f32", "1,4", "f32").write(tmp_path)
    _, main = load(xml)
    assert_matches_openvino(xml, main)


def test_assign_value_shape_does_not_match_variable(tmp_path: Path) -> None:
    xml = _variable_ir([2, 4], "f32", "1,4", "f32").write(tmp_path)
    rest = layer_error(xml, 1, "v_write", "Assign", "opset6")
    assert rest == "the value's shape [2,4] does not match variable 'v' of shape [1,4]"


def test_assign_value_type_does_not_match_variable(tmp_path: Path) -> None:
    xml = _variable_ir([1, 4], "i32", "1,4", "f32").write(tmp_path)
    rest = layer_error(xml, 1, "v_write", "Assign", "opset6")
    assert rest == "the value's element type i32 does not match variable 'v' of type f32"


def _init_ir(init: np.ndarray, element: str, variable_shape: str, variable_type: str) -> IrText:
    """Const init -> ReadValue-6("v") -> Assign("v") and Result."""
    ir = IrText()
    const = ir.const(init, element)
    dims = [int(d) for d in variable_shape.split(",")]
    out = variable_type if variable_type != "dynamic" else element
    read = ir.layer(
        "ReadValue",
        version="opset6",
        name="v_read",
        data={"variable_id": "v", "variable_type": variable_type, "variable_shape": variable_shape},
        inputs=[(element, init.shape)],
        outputs=[(out, dims)],
    )
    ir.edge(const, 0, read, 0)
    ir.layer(
        "Assign",
        version="opset6",
        data={"variable_id": "v"},
        inputs=[(out, dims)],
        outputs=[(out, dims)],
    )
    ir.edge(read, 1, 2, 0)
    ir.result(read, 1, out, dims)
    return ir


def test_read_value_shape_does_not_relax_init(tmp_path: Path) -> None:
    xml = _init_ir(np.zeros((1, 4), np.float32), "f32", "2,4", "f32").write(tmp_path)
    rest = layer_error(xml, 1, "v_read", "ReadValue", "opset6")
    assert rest == "variable_shape [2,4] does not relax the init value's shape [1,4]"


def test_read_value_type_does_not_relax_init(tmp_path: Path) -> None:
    xml = _init_ir(np.zeros((1, 4), np.int32), "i32", "1,4", "f32").write(tmp_path)
    rest = layer_error(xml, 1, "v_read", "ReadValue", "opset6")
    assert rest == (
        "variable_type f32 does not relax the init value's element type i32 "
        "(it must be equal, or dynamic)"
    )


def test_read_value_dynamic_declaration_relaxes_init(tmp_path: Path) -> None:
    xml = _init_ir(np.zeros((1, 4), np.int32), "i32", "1,4", "dynamic").write(tmp_path)
    _, main = load(xml)
    [read] = ops_of(main, ovd.ReadValueOp)
    assert read.variable_type is None and read.result.type == TensorType(i32, [1, 4])


def test_edge_to_a_missing_layer(saved, tmp_path: Path) -> None:
    edits = [
        (
            '<edge from-layer="3" from-port="2" to-layer="5" to-port="0" />',
            '<edge from-layer="3" from-port="2" to-layer="99" to-port="0" />',
        )
    ]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    message = import_error(edited)
    line = next(
        n for n, text in enumerate(edited.read_text().splitlines(), 1) if 'to-layer="99"' in text
    )
    layer_line, column = layer_position(edited, 3)
    assert message == (
        f"{edited}:{layer_line}:{column}: error: layer id=3 name='acc_add' type='Add' (opset1): "
        f"output port 2 feeds layer id=99, which does not exist (line {line})"
    )


def test_edge_from_a_missing_port(saved, tmp_path: Path) -> None:
    edits = [
        ('from-layer="3" from-port="2" to-layer="5"', 'from-layer="3" from-port="7" to-layer="5"')
    ]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    message = import_error(edited)
    line = edge_line(edited, 'from-port="7"')
    assert message.endswith(
        "error: layer id=3 name='acc_add' type='Add' (opset1): has no output port 7 "
        f"(edge to layer id=5 port 0) (line {line})"
    ), message


def test_unconnected_input(saved, tmp_path: Path) -> None:
    edits = [('\t\t<edge from-layer="0" from-port="0" to-layer="3" to-port="1" />\n', "")]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    message = import_error(edited)
    line, column = layer_position(edited, 3)
    assert message.startswith(
        f"{edited}:{line}:{column}: error: layer id=3 name='acc_add' type='Add' (opset1): "
        "input port 1 is not connected (line "
    ), message


def test_cycle(tmp_path: Path) -> None:
    ir = IrText()
    x = ir.parameter("x", [2])
    a = ir.layer(
        "Add",
        name="a",
        data={"auto_broadcast": "numpy"},
        inputs=[("f32", [2])] * 2,
        outputs=[("f32", [2])],
    )
    b = ir.layer(
        "Add",
        name="b",
        data={"auto_broadcast": "numpy"},
        inputs=[("f32", [2])] * 2,
        outputs=[("f32", [2])],
    )
    ir.edge(x, 0, a, 0)
    ir.edge(b, 2, a, 1)
    ir.edge(x, 0, b, 0)
    ir.edge(a, 2, b, 1)
    ir.result(b, 2, "f32", [2])
    xml = ir.write(tmp_path)
    rest = layer_error(xml, a, "a", "Add", "opset1")
    assert rest == "the graph has a cycle: id=1 -> id=2 -> id=1"


def test_assign3_must_follow_its_read_value(tmp_path: Path) -> None:
    ir = IrText()
    x = ir.parameter("x", [2])
    const = ir.const(np.zeros(2, np.float32))
    read = ir.layer(
        "ReadValue",
        version="opset3",
        name="r",
        data={"variable_id": "v"},
        inputs=[("f32", [2])],
        outputs=[("f32", [2])],
    )
    ir.edge(const, 0, read, 0)
    write = ir.layer(
        "Assign",
        version="opset3",
        name="w",
        data={"variable_id": "v"},
        inputs=[("f32", [2])],
        outputs=[("f32", [2])],
    )
    ir.edge(x, 0, write, 0)
    ir.result(read, 1, "f32", [2])
    xml = ir.write(tmp_path)
    rest = layer_error(xml, write, "w", "Assign", "opset3")
    assert rest == (
        "the value of an Assign-3 must be computed from its ReadValue-3 "
        "(layer id=2 name='r' type='ReadValue' (opset3))"
    )


def test_assign_output_must_be_unused(tmp_path: Path) -> None:
    ir = _variable_ir([1, 4], "f32", "1,4", "f32")
    ir.result(1, 1, "f32", [1, 4])
    xml = ir.write(tmp_path)
    rest = layer_error(xml, 1, "v_write", "Assign", "opset6")
    assert rest.startswith("the output of an Assign is used (by layer id=4 name='Result_4'")


def test_duplicate_layer_ids(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, [('<layer id="4"', '<layer id="3"')])
    message = import_error(edited)
    assert "layer id 3 is already used by layer id=3 name='acc_add'" in message


def test_wrong_number_of_inputs(saved, tmp_path: Path) -> None:
    edits = [('type="Add" version="opset1"', 'type="Relu" version="opset1"')]
    edited = om.edit_xml(saved("accumulator"), tmp_path, edits)
    rest = layer_error(edited, 3, "acc_add", "Relu", "opset1")
    assert rest == "expects 1 inputs, got 2"


def test_unsupported_ir_version(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(saved("accumulator"), tmp_path, [('version="11"', 'version="7"')])
    assert (
        import_error(edited)
        == f"{edited}:2:1: error: unsupported IR version '7' (supported: 10, 11)"
    )


def test_not_an_openvino_model(tmp_path: Path) -> None:
    xml = tmp_path / "other.xml"
    xml.write_text('<?xml version="1.0"?>\n<svg/>\n')
    assert import_error(xml) == f"{xml}:2:1: error: expected a <net> root element, got <svg>"


def test_body_layer_errors_name_the_tensor_iterator(saved, tmp_path: Path) -> None:
    xml = saved("gru_tensor_iterator_low_latency")
    edited = om.edit_xml(
        xml, tmp_path, [('type="GRUCell" version="opset3"', 'type="GRUCell" version="opset9"')]
    )
    message = import_error(edited)
    assert re.search(
        r"error: layer id=\d+ name='[^']*' type='GRUCell' \(opset9\) in the body of layer "
        r"id=\d+ name='[^']*' type='TensorIterator' \(opset1\): version opset9 of GRUCell is not "
        r"supported \(supported: opset3\)$",
        message,
    ), message


def test_error_messages_stay_short(saved, tmp_path: Path) -> None:
    edited = om.edit_xml(
        saved("lstm_low_latency"), tmp_path, [('type="LSTMCell"', 'type="LSTMCellX"')]
    )
    message = import_error(edited)
    assert len(message) < 250 and "not supported" in message


def test_bf16_element_names() -> None:
    assert np.dtype(ELEMENT_TYPES["bf16"].dtype) == np.dtype(ml_dtypes.bfloat16)
