"""OpenVINO IR (`model.xml` + `model.bin`, IR v10 / v11) to the `openvino` dialect.

`import_openvino_ir(xml_path, ctx)` returns a `builtin.module` holding one `func.func @main`:
its arguments are the model's Parameters and its results the model's Results, both in the order
of OpenVINO's `Core().read_model(xml).inputs` / `.outputs` (the order of the Parameter / Result
layers in the XML), named by `{openvino.name = "..."}` argument / result attributes. The other
layers become `openvino.*` ops in topological order, each located (`loc("model.xml":L:C)`) at
its `<layer>` element.

The XML is read with `defusedxml` (no DTD, no entities, no external references). Every problem
with the input raises `ModelImportError` with a message
`model.xml:LINE:COL: error: layer id=12 name='h_rv' type='ReadValue' (opset6): <what is wrong>`.
"""

from __future__ import annotations

import os
from collections.abc import Hashable, Iterator, Sequence
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    ArrayAttr,
    Builtin,
    DictionaryAttr,
    FileLineColLoc,
    IntAttr,
    ModuleOp,
    StringAttr,
    UnrankedTensorType,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.activation import ACTIVATION_LAYERS
from tosa_state.frontends.openvino.attention import ATTENTION_LAYERS
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec
from tosa_state.frontends.openvino.compression import const_size, packed_constant
from tosa_state.frontends.openvino.convolution import CONVOLUTION_LAYERS
from tosa_state.frontends.openvino.cumulative import CUMULATIVE_LAYERS
from tosa_state.frontends.openvino.data_movement import DATA_MOVEMENT_LAYERS
from tosa_state.frontends.openvino.einsum import EINSUM_LAYERS
from tosa_state.frontends.openvino.element_types import (
    DYNAMIC_ELEMENT_TYPES,
    ELEMENT_TYPES,
    ElementTypeError,
    openvino_element_name,
    parse_element_type,
    tensor_type,
)
from tosa_state.frontends.openvino.elementwise import ELEMENTWISE_LAYERS
from tosa_state.frontends.openvino.graph import (
    Diagnostics,
    Graph,
    Layer,
    Port,
    parse_graph,
    split_names,
    topological_order,
)
from tosa_state.frontends.openvino.indexing import INDEXING_LAYERS
from tosa_state.frontends.openvino.matrix import MATRIX_LAYERS
from tosa_state.frontends.openvino.quantization import QUANTIZATION_LAYERS
from tosa_state.frontends.openvino.rnn_cells import RNN_CELL_LAYERS
from tosa_state.frontends.openvino.scatter import SCATTER_LAYERS
from tosa_state.frontends.openvino.sorting import SORTING_LAYERS
from tosa_state.frontends.openvino.state import STATE_LAYERS, depends_on, variable_declaration
from tosa_state.frontends.openvino.tensor_iterator import TENSOR_ITERATOR_LAYERS
from tosa_state.frontends.openvino.weights import Weights
from tosa_state.frontends.openvino.xml_reader import XmlElement, parse_xml_file
from tosa_state.verification import verification_signature

SUPPORTED_OPS: dict[str, OpSpec] = {
    **ELEMENTWISE_LAYERS,
    **DATA_MOVEMENT_LAYERS,
    **MATRIX_LAYERS,
    **CONVOLUTION_LAYERS,
    **RNN_CELL_LAYERS,
    **TENSOR_ITERATOR_LAYERS,
    **ATTENTION_LAYERS,
    **STATE_LAYERS,
    **ACTIVATION_LAYERS,
    **CUMULATIVE_LAYERS,
    **INDEXING_LAYERS,
    **SCATTER_LAYERS,
    **SORTING_LAYERS,
    **EINSUM_LAYERS,
    **QUANTIZATION_LAYERS,
}
"""Layer types the importer understands (besides Parameter, Result and Const)."""


_BOOLEAN_RESULT_TYPES = frozenset(
    {
        "Greater", "Less", "Equal", "GreaterEqual", "LessEqual", "NotEqual",
        "LogicalAnd", "LogicalOr", "LogicalNot", "LogicalXor",
    }
)


class Importer:
    """Imports one model; `values` maps (layer id, output port id) to SSA values per graph."""

    def __init__(self, xml_path: Path) -> None:
        self.diag = Diagnostics(str(xml_path))
        self.weights = Weights(xml_path.with_suffix(".bin"))
        self.xml_path = xml_path
        self.layer_of: dict[Operation, Layer] = {}
        self.verified: set[Hashable] = set()

    # -- the model ------------------------------------------------------------------------

    def import_model(self) -> ModuleOp:
        root = parse_xml_file(self.xml_path)
        self._check_root(root)
        graph = parse_graph(root, self.diag, None)
        legacy = root.attrib.get("version") == "10"
        parameters, results = graph.layers_of_type("Parameter"), graph.layers_of_type("Result")
        block = Block(arg_types=[self._parameter_type(p) for p in parameters])
        for arg, parameter in zip(block.args, parameters, strict=True):
            _set_name_hint(arg, _input_name(parameter, legacy))
        outputs = self.import_graph(
            graph, block, dict(zip((p.id for p in parameters), block.args, strict=True))
        )
        block.add_op(ret := func.ReturnOp(*outputs))
        self._check_variables(block)
        function = func.FuncOp(
            "main",
            ([a.type for a in block.args], [v.type for v in outputs]),
            Region(block),
            arg_attrs=_name_attrs(_input_name(p, legacy) for p in parameters),
            res_attrs=_name_attrs(_output_name(r, graph, legacy) for r in results),
        )
        function.attributes["openvino.model_name"] = StringAttr(root.attrib.get("name", ""))
        # Diagnostics about the model as a whole (e.g. dynamic inputs) point at <net>.
        function.location = FileLineColLoc(
            StringAttr(self.diag.path), IntAttr(root.line), IntAttr(root.column)
        )
        module = ModuleOp([function])
        try:
            # each layer's op was verified as it was built (`_verify`, naming the layer):
            # what is left to verify is what holds them
            for op in (ret, function, module):
                op.verify(verify_nested_ops=False)
        except VerifyException as error:
            raise self.diag.at(root, f"the imported module does not verify: {error}") from None
        return module

    def _check_root(self, root: XmlElement) -> None:
        if root.tag != "net":
            raise self.diag.at(root, f"expected a <net> root element, got <{root.tag}>")
        version = root.attrib.get("version")
        if version not in ("10", "11"):
            raise self.diag.at(root, f"unsupported IR version {version!r} (supported: 10, 11)")

    def _parameter_type(self, layer: Layer) -> Attribute:
        """From the Parameter's `element_type` / `shape` (the port's, where they are missing)."""
        if len(layer.outputs) != 1 or layer.inputs:
            raise self.diag.layer(layer, "a Parameter has no inputs and exactly one output port")
        b = OpBuilder(layer, [], [], self)
        port = layer.outputs[0]
        if "element_type" in layer.data:
            element = b.data_element("element_type").mlir
        else:
            element = ELEMENT_TYPES[self._port_element(layer, port, [])].mlir
        if "shape" not in layer.data:
            return tensor_type(element, port.dims)
        try:
            shape = ov.PartialShapeAttr.from_openvino(layer.data["shape"]).to_shape()
        except ValueError as error:
            b.fail(f"bad shape='{layer.data['shape']}': {error}")
        return tensor_type(element, shape)

    # -- a graph --------------------------------------------------------------------------

    def import_graph(
        self, graph: Graph, block: Block, parameters: dict[str, SSAValue]
    ) -> list[SSAValue]:
        """Adds the ops of `graph` to `block`; returns the values of its Results in IR order."""
        values: dict[tuple[str, str], SSAValue] = {}
        outputs: dict[str, SSAValue] = {}
        for layer in topological_order(graph, self.diag):
            operands = [values[graph.sources[(layer.id, p.id)]] for p in layer.inputs]
            if layer.type == "Parameter":
                values[(layer.id, layer.outputs[0].id)] = parameters[layer.id]
            elif layer.type == "Result":
                if len(layer.inputs) != 1 or layer.outputs:
                    raise self.diag.layer(layer, "a Result has exactly one input and no outputs")
                outputs[layer.id] = operands[0]
            else:
                op = self._convert_layer(layer, operands)
                self._check_outputs_unused_if_assign(layer, graph, op)
                block.add_op(op)
                for port, result in zip(layer.outputs, op.results, strict=False):
                    values[(layer.id, port.id)] = result
        return [outputs[layer.id] for layer in graph.layers_of_type("Result")]

    def _check_outputs_unused_if_assign(self, layer: Layer, graph: Graph, op: Operation) -> None:
        if not isinstance(op, ov.AssignOp):
            return
        if (user := graph.first_users.get(layer.id)) is not None:
            raise self.diag.layer(layer, f"the output of an Assign is used (by {user.describe()})")

    def _convert_layer(self, layer: Layer, operands: list[SSAValue]) -> Operation:
        try:
            if layer.type == "Const":
                op: Operation = self._convert_const(layer, operands)
            else:
                spec = self._spec(layer)
                self._check_port_counts(layer, spec)
                builder = OpBuilder(layer, operands, self._result_types(layer, operands), self)
                op = spec.build(builder)
        except VerifyException as error:
            # An attribute that cannot be built, e.g. hidden_size="99999999999999999999".
            raise self.diag.layer(layer, str(error)) from None
        op.location = FileLineColLoc(
            StringAttr(self.diag.path), IntAttr(layer.node.line), IntAttr(layer.node.column)
        )
        self.layer_of[op] = layer
        self._verify(layer, op)
        return op

    def _spec(self, layer: Layer) -> OpSpec:
        spec = SUPPORTED_OPS.get(layer.type)
        if spec is None:
            raise self.diag.layer(layer, f"operation '{layer.type}' is not supported by tosa-state")
        if layer.version not in spec.versions:
            raise self.diag.layer(
                layer,
                f"version {layer.version} of {layer.type} is not supported "
                f"(supported: {', '.join(spec.versions)})",
            )
        return spec

    def _check_port_counts(self, layer: Layer, spec: OpSpec) -> None:
        low, high = spec.inputs
        count = len(layer.inputs)
        if not low <= count <= high:
            expected = (
                str(low)
                if low == high
                else f"{low} to {high}"
                if high < 1 << 20
                else f"at least {low}"
            )
            raise self.diag.layer(layer, f"expects {expected} inputs, got {count}")
        if spec.outputs is not None and len(layer.outputs) != spec.outputs:
            raise self.diag.layer(
                layer, f"expects {spec.outputs} output ports, got {len(layer.outputs)}"
            )
        if spec.outputs is None and layer.type != "Assign" and not layer.outputs:
            raise self.diag.layer(layer, "has no output ports")

    def _verify(self, layer: Layer, op: Operation) -> None:
        """Verify `op`, once per signature (`verification_signature`: most layers of a
        model repeat others' types and attributes)."""
        signature = verification_signature(op)
        if signature is not None and signature in self.verified:
            return
        try:
            op.verify()
        except VerifyException as error:
            message = str(error).removeprefix(f"{op.name}: ")
            raise self.diag.layer(layer, message) from None
        if signature is not None:
            self.verified.add(signature)

    # -- types ----------------------------------------------------------------------------

    def _result_types(self, layer: Layer, operands: Sequence[SSAValue]) -> list[Attribute]:
        types = []
        for port in layer.outputs if layer.type != "Assign" else []:
            element = ELEMENT_TYPES[self._port_element(layer, port, operands)].mlir
            types.append(tensor_type(element, self._port_dims(layer, port, operands)))
        return types

    def _port_dims(
        self, layer: Layer, port: Port, operands: Sequence[SSAValue]
    ) -> tuple[int, ...] | None:
        """The port's dims; None (dynamic rank) where the IR cannot say the port is 0-D."""
        if port.dims:
            return port.dims
        if layer.type == "ReadValue" and layer.version == "opset6":
            declared = layer.data.get("variable_shape", "...").strip()
            if declared == "...":
                return None
            return port.dims
        if any(isinstance(v.type, UnrankedTensorType) for v in operands):
            return None
        return port.dims

    def _port_element(self, layer: Layer, port: Port, operands: Sequence[SSAValue]) -> str:
        name = port.element
        if name is None or name in DYNAMIC_ELEMENT_TYPES:
            name = self._inferred_element(layer, operands)
        if name is None:
            raise self.diag.layer(
                layer,
                f"output port {port.id} has a dynamic element type; tosa-state needs static "
                "element types",
                port.node,
            )
        try:
            return parse_element_type(name).name
        except ElementTypeError as error:
            raise self.diag.layer(layer, f"output port {port.id}: {error}", port.node) from None

    def _inferred_element(self, layer: Layer, operands: Sequence[SSAValue]) -> str | None:
        """The element type of an output port whose precision the IR leaves out."""
        if layer.type in _BOOLEAN_RESULT_TYPES:
            return "boolean"
        if layer.type == "Convert":
            return layer.data.get("destination_type")
        if layer.type == "Range" and "output_type" in layer.data:  # Range-1: the inputs' type
            return layer.data["output_type"]
        if layer.type == "ShapeOf":
            return layer.data.get("output_type", "i64")
        if layer.type == "ReadValue":
            declared = layer.data.get("variable_type", "dynamic")
            if declared not in DYNAMIC_ELEMENT_TYPES:
                return declared
        if layer.type in ("Parameter", "Const"):
            return layer.data.get("element_type")
        if operands:
            return openvino_element_name(ov.element_type(operands[0].type))
        return None

    # -- constants ------------------------------------------------------------------------

    def _convert_const(self, layer: Layer, operands: list[SSAValue]) -> Operation:
        if operands or len(layer.outputs) != 1:
            raise self.diag.layer(layer, "a Const has no inputs and exactly one output port")
        b = OpBuilder(layer, [], [], self)
        element = b.data_element("element_type")
        shape = b.data_ints("shape")
        if any(d < 0 for d in shape):
            b.fail(f"shape='{layer.data['shape']}' must be static")
        offset, size = b.data_int("offset"), b.data_int("size")
        expected = const_size(element, shape)
        if offset < 0 or size < 0:
            b.fail(f"offset={offset} and size={size} must not be negative")
        if size != expected and expected > 0:  # OpenVINO writes size=1 for empty tensors
            b.fail(
                f"size={size} does not match shape {ov.format_shape(shape)} x {element.name} "
                f"({expected} bytes)"
            )
        weights = self.weights.get()
        if weights is None:
            b.fail(self.weights.problem)
        if offset + size > len(weights):
            b.fail(
                f"data at offset={offset} size={size} runs past the end of "
                f"'{self.weights.path.name}' ({len(weights)} bytes)"
            )
        if element.packed:
            return packed_constant(element, weights, offset, shape)
        return ov.ConstantOp(self.weights.dense(offset, shape, element.dtype, element.mlir))

    # -- variables ------------------------------------------------------------------------

    def _check_variables(self, block: Block) -> None:
        reads: dict[str, ov.ReadValueOp] = {}
        writes: dict[str, ov.AssignOp] = {}
        for op in _walk(block):
            if isinstance(op, ov.ReadValueOp):
                self._register(reads, op, "read")
            elif isinstance(op, ov.AssignOp):
                self._register(writes, op, "assigned")
        for variable_id, write in writes.items():
            if variable_id not in reads:
                raise self.diag.layer(
                    self.layer_of[write],
                    f"no ReadValue declares variable '{variable_id}' that this Assign writes",
                )
        for variable_id, read in reads.items():
            if variable_id not in writes:
                raise self.diag.layer(
                    self.layer_of[read],
                    f"variable '{variable_id}' is read but never assigned: it needs an Assign "
                    "with the same variable_id",
                )
        for variable_id, write in writes.items():
            read = reads[variable_id]
            self._check_assign(read, write)

    def _register(
        self, seen: dict[str, Operation], op: ov.ReadValueOp | ov.AssignOp, kind: str
    ) -> None:
        variable_id = op.variable_id.data
        if variable_id in seen:
            first = self.layer_of[seen[variable_id]]
            raise self.diag.layer(
                self.layer_of[op],
                f"variable '{variable_id}' is also {kind} by {first.describe()}; a variable has "
                "exactly one ReadValue and one Assign",
            )
        seen[variable_id] = op

    def _check_assign(self, read: ov.ReadValueOp, write: ov.AssignOp) -> None:
        layer = self.layer_of[write]
        version, read_version = write.version.value.data, read.version.value.data
        if version == 3 and read_version != 3:  # an Assign-6 may write a ReadValue-3's variable
            raise self.diag.layer(
                layer,
                f"an Assign-3 finds its variable through the ReadValue-3 it is computed from, "
                f"and variable '{write.variable_id.data}' is declared by a ReadValue-"
                f"{read_version} ({self.layer_of[read].describe()}); OpenVINO refuses this too "
                "('Can't find variable'): use an Assign-6",
            )
        declared_type, declared_shape = variable_declaration(read)
        value_type = write.value.type
        value_element, value_shape = ov.element_type(value_type), ov.tensor_shape(value_type)
        if declared_type is not None and declared_type != value_element:
            raise self.diag.layer(
                layer,
                f"the value's element type {openvino_element_name(value_element)} does not "
                f"match variable '{write.variable_id.data}' of type "
                f"{openvino_element_name(declared_type)}",
            )
        if not declared_shape.compatible(value_shape):
            raise self.diag.layer(
                layer,
                f"the value's shape {ov.format_shape(value_shape)} does not match variable "
                f"'{write.variable_id.data}' of shape {declared_shape.to_openvino()}",
            )
        if version == 3 and not depends_on(write.value, read):
            raise self.diag.layer(
                layer,
                f"the value of an Assign-3 must be computed from its ReadValue-3 "
                f"({self.layer_of[read].describe()})",
            )


def _walk(block: Block) -> Iterator[Operation]:
    for op in block.ops:
        yield from op.walk()


def _input_name(layer: Layer, legacy: bool) -> str:
    """OpenVINO's `get_any_name()` of a Parameter: its smallest tensor name (IR v10 also counts
    the layer name), else the layer name."""
    names = set(layer.outputs[0].names if layer.outputs else ())
    if legacy or not names:
        names.add(layer.name)
    return min(names)


def _output_name(layer: Layer, graph: Graph, legacy: bool) -> str:
    """OpenVINO's `get_any_name()` of a Result: the smallest of its `output_names` (IR v11), else
    of the producing port's names; IR v10 also counts the producer's layer name (with `.N` when
    it has several outputs)."""
    source_layer, source_port = graph.sources[(layer.id, layer.inputs[0].id)]
    producer = graph.by_id[source_layer]
    index = producer.output_index(source_port)
    assert index is not None
    names = set(split_names(layer.node.attrib.get("output_names", "")))
    if not names:
        names.update(producer.outputs[index].names)
    if legacy:
        names.add(producer.name if len(producer.outputs) == 1 else f"{producer.name}.{index}")
    return min(names) if names else layer.name


def _name_attrs(names: Iterator[str] | Sequence[str]) -> ArrayAttr[DictionaryAttr]:
    return ArrayAttr(DictionaryAttr({"openvino.name": StringAttr(n)}) for n in names)


def _set_name_hint(value: SSAValue, name: str) -> None:
    if SSAValue.is_valid_name(name) and not name[0].isdigit():
        value.name_hint = name


def import_openvino_ir(xml_path: str | os.PathLike[str], ctx: Context) -> ModuleOp:
    """Import `xml_path` (its weights in the `.bin` beside it) as a module with `func.func @main`.

    The `builtin`, `func` and `openvino` dialects are loaded into `ctx` when it lacks them, so
    that the module can be printed and parsed back with it. Raises `ModelImportError` for any
    problem with the files.
    """
    for dialect in (Builtin, func.Func, ov.OpenVINO):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    importer = Importer(Path(xml_path))
    try:
        module = importer.import_model()
    finally:
        # the unaligned weights' reads (`Weights.finish`): done before anything reads them
        problem = importer.weights.finish()
    if problem:
        raise importer.diag.at(None, problem)
    return module
