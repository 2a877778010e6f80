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

import heapq
import math
import os
import re
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import NoReturn

import ml_dtypes
import numpy as np
from defusedxml.common import DefusedXmlException
from defusedxml.ElementTree import DefusedXMLParser, ParseError
from xdsl.context import Context
from xdsl.dialects import func
from xdsl.dialects.builtin import (
    DYNAMIC_INDEX,
    ArrayAttr,
    BFloat16Type,
    Builtin,
    DictionaryAttr,
    FileLineColLoc,
    IntAttr,
    IntegerType,
    ModuleOp,
    Signedness,
    StringAttr,
    TensorType,
    UnrankedTensorType,
    f16,
    f32,
    f64,
    i1,
    i8,
    i16,
    i32,
    i64,
)
from xdsl.ir import Attribute, Block, Operation, Region, SSAValue
from xdsl.utils.exceptions import VerifyException

from tosa_state.diagnostics import ModelImportError
from tosa_state.dialects import openvino as ov
from tosa_state.dtypes import numpy_to_dense

# ---------------------------------------------------------------------------------------------
# Element types
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ElementType:
    """One OpenVINO element type: its IR spelling, MLIR type and numpy dtype (little endian)."""

    name: str
    mlir: Attribute
    dtype: np.dtype


def _unsigned(width: int) -> IntegerType:
    return IntegerType(width, Signedness.UNSIGNED)


ELEMENT_TYPES: dict[str, ElementType] = {
    e.name: e
    for e in (
        ElementType("f32", f32, np.dtype("<f4")),
        ElementType("f16", f16, np.dtype("<f2")),
        ElementType("bf16", BFloat16Type(), np.dtype(ml_dtypes.bfloat16)),
        ElementType("f64", f64, np.dtype("<f8")),
        ElementType("i8", i8, np.dtype("i1")),
        ElementType("u8", _unsigned(8), np.dtype("u1")),
        ElementType("i16", i16, np.dtype("<i2")),
        ElementType("u16", _unsigned(16), np.dtype("<u2")),
        ElementType("i32", i32, np.dtype("<i4")),
        ElementType("u32", _unsigned(32), np.dtype("<u4")),
        ElementType("i64", i64, np.dtype("<i8")),
        ElementType("u64", _unsigned(64), np.dtype("<u8")),
        ElementType("boolean", i1, np.dtype("u1")),
    )
}
"""The element types tosa-state imports, by OpenVINO spelling."""

KNOWN_UNSUPPORTED_ELEMENT_TYPES = frozenset(
    {"u1", "u2", "u3", "u4", "u6", "i4", "nf4", "f4e2m1", "f8e4m3", "f8e5m2", "f8e8m0", "string"}
)
DYNAMIC_ELEMENT_TYPES = frozenset({"dynamic", "undefined"})

_PRECISIONS = {
    "FP32": "f32",
    "FP16": "f16",
    "BF16": "bf16",
    "FP64": "f64",
    "I8": "i8",
    "U8": "u8",
    "I16": "i16",
    "U16": "u16",
    "I32": "i32",
    "U32": "u32",
    "I64": "i64",
    "U64": "u64",
    "BOOL": "boolean",
    "BOOLEAN": "boolean",
    "UNSPECIFIED": "dynamic",
    "DYNAMIC": "dynamic",
    "UNDEFINED": "dynamic",
}

_MLIR_TO_OPENVINO = {str(e.mlir): e.name for e in ELEMENT_TYPES.values()}


def openvino_element_name(type_: Attribute) -> str:
    """The OpenVINO spelling (`f32`, `u8`, `boolean`) of an MLIR element type."""
    return _MLIR_TO_OPENVINO.get(str(type_), str(type_))


# ---------------------------------------------------------------------------------------------
# Hardened XML reading with positions
# ---------------------------------------------------------------------------------------------


@dataclass
class XmlElement:
    """An XML element with the line and column (1-based) of its start tag."""

    tag: str
    attrib: dict[str, str]
    line: int
    column: int
    children: list[XmlElement] = field(default_factory=list)
    text: str = ""

    def find(self, tag: str) -> XmlElement | None:
        return next((c for c in self.children if c.tag == tag), None)

    def findall(self, tag: str) -> list[XmlElement]:
        return [c for c in self.children if c.tag == tag]


class _PositionTreeBuilder:
    """An ElementTree parser target that builds `XmlElement`s and records where each starts."""

    def __init__(self) -> None:
        self.parser: DefusedXMLParser | None = None
        self.root: XmlElement | None = None
        self._stack: list[XmlElement] = []

    def position(self) -> tuple[int, int]:
        assert self.parser is not None
        expat = self.parser.parser
        return expat.CurrentLineNumber, expat.CurrentColumnNumber + 1

    def start(self, tag: str, attrib: dict[str, str]) -> None:
        line, column = self.position()
        element = XmlElement(tag, dict(attrib), line, column)
        if self._stack:
            self._stack[-1].children.append(element)
        else:
            self.root = element
        self._stack.append(element)

    def end(self, tag: str) -> None:
        self._stack.pop()

    def data(self, text: str) -> None:
        if self._stack:
            self._stack[-1].text += text

    def close(self) -> XmlElement | None:
        return self.root


def parse_xml_file(path: str | os.PathLike[str]) -> XmlElement:
    """Parse `path` with DTDs, entities and external references forbidden."""
    target = _PositionTreeBuilder()
    parser = DefusedXMLParser(target=target, forbid_dtd=True)
    target.parser = parser
    try:
        with open(path, "rb") as stream:
            while chunk := stream.read(1 << 20):
                parser.feed(chunk)
            root = parser.close()
    except OSError as error:
        raise ModelImportError(f"{path}: error: cannot read file: {error.strerror}") from None
    except ParseError as error:
        line, column = error.position
        raise ModelImportError(
            f"{path}:{line}:{column + 1}: error: malformed XML: {_expat_message(error)}"
        ) from None
    except DefusedXmlException as error:
        line, column = target.position()
        raise ModelImportError(
            f"{path}:{line}:{column}: error: forbidden XML construct ({type(error).__name__}): "
            "OpenVINO IR must not contain a DOCTYPE, entity declarations or external references"
        ) from None
    if root is None:
        raise ModelImportError(f"{path}: error: malformed XML: no root element")
    return root


def _expat_message(error: ParseError) -> str:
    return re.sub(r": line \d+, column \d+$", "", str(error))


# ---------------------------------------------------------------------------------------------
# The IR graph: layers, ports, edges
# ---------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Port:
    """One `<port>` of a layer: element type (OpenVINO spelling, or None), dims, tensor names."""

    id: str
    element: str | None
    dims: tuple[int, ...]
    names: tuple[str, ...]
    node: XmlElement


@dataclass
class Layer:
    """One `<layer>` element."""

    id: str
    name: str
    type: str
    version: str
    data: dict[str, str]
    inputs: list[Port]
    outputs: list[Port]
    node: XmlElement
    index: int
    parent: Layer | None = None

    def describe(self) -> str:
        text = f"layer id={self.id} name='{self.name}' type='{self.type}' ({self.version})"
        if self.parent is not None:
            text += f" in the body of {self.parent.describe()}"
        return text

    def output_index(self, port_id: str) -> int | None:
        return next((i for i, p in enumerate(self.outputs) if p.id == port_id), None)

    def input_index(self, port_id: str) -> int | None:
        return next((i for i, p in enumerate(self.inputs) if p.id == port_id), None)


@dataclass(frozen=True)
class Edge:
    from_layer: str
    from_port: str
    to_layer: str
    to_port: str
    node: XmlElement


class _Diagnostics:
    """Builds `ModelImportError`s located in the XML file."""

    def __init__(self, path: str) -> None:
        self.path = path

    def at(self, node: XmlElement | None, message: str) -> ModelImportError:
        if node is None:
            return ModelImportError(f"{self.path}: error: {message}")
        return ModelImportError(f"{self.path}:{node.line}:{node.column}: error: {message}")

    def layer(self, layer: Layer, message: str, node: XmlElement | None = None) -> ModelImportError:
        """An error located at `layer`'s `<layer>` element; `node` (a port, an edge, a port map
        entry) is named by its line."""
        if node is not None and node is not layer.node:
            message += f" (line {node.line})"
        return self.at(layer.node, f"{layer.describe()}: {message}")


@dataclass
class _Graph:
    """The layers and edges of a model (or of a TensorIterator body)."""

    layers: list[Layer]
    by_id: dict[str, Layer]
    sources: dict[tuple[str, str], tuple[str, str]]
    """(to-layer, to-port) → (from-layer, from-port)."""

    def layers_of_type(self, type_: str) -> list[Layer]:
        return [layer for layer in self.layers if layer.type == type_]

    def producers(self, layer: Layer) -> list[str]:
        return [self.sources[(layer.id, port.id)][0] for port in layer.inputs]


def _split_names(text: str) -> tuple[str, ...]:
    """OpenVINO's comma-separated tensor names, where `\\,` escapes a comma."""
    if not text:
        return ()
    return tuple(part.replace("\\,", ",") for part in re.split(r"(?<!\\),", text) if part)


def _parse_port(node: XmlElement, diag: _Diagnostics, where: str) -> Port:
    port_id = node.attrib.get("id")
    if port_id is None:
        raise diag.at(node, f"{where}: <port> without an id")
    dims = tuple(_parse_port_dim(d, diag, where) for d in node.findall("dim"))
    precision = node.attrib.get("precision")
    element = None
    if precision is not None:
        element = _PRECISIONS.get(precision.upper(), precision.lower())
    names = _split_names(node.attrib.get("names", ""))
    return Port(port_id, element, dims, names, node)


def _parse_port_dim(node: XmlElement, diag: _Diagnostics, where: str) -> int:
    text = node.text.strip()
    try:
        lo, hi = ov.parse_openvino_dim(text)
    except ValueError:
        raise diag.at(node, f"{where}: bad dimension '{text}'") from None
    return lo if lo == hi else -1


def _parse_layer(node: XmlElement, index: int, diag: _Diagnostics, parent: Layer | None) -> Layer:
    attrib = node.attrib
    layer_id, layer_type = attrib.get("id"), attrib.get("type")
    where = f"layer id={layer_id} name='{attrib.get('name', '')}' type='{layer_type}'"
    if parent is not None:
        where += f" in the body of {parent.describe()}"
    if layer_id is None or layer_type is None:
        raise diag.at(node, f"{where}: <layer> needs 'id' and 'type' attributes")
    if "version" not in attrib:
        raise diag.at(node, f"{where}: <layer> has no 'version' attribute")
    data_node = node.find("data")
    inputs_node, outputs_node = node.find("input"), node.find("output")
    inputs = [
        _parse_port(p, diag, where) for p in (inputs_node.findall("port") if inputs_node else [])
    ]
    outputs = [
        _parse_port(p, diag, where) for p in (outputs_node.findall("port") if outputs_node else [])
    ]
    layer = Layer(
        id=layer_id,
        name=attrib.get("name", ""),
        type=layer_type,
        version=attrib["version"],
        data=dict(data_node.attrib) if data_node is not None else {},
        inputs=inputs,
        outputs=outputs,
        node=node,
        index=index,
        parent=parent,
    )
    _check_unique_ports(layer, diag)
    return layer


def _check_unique_ports(layer: Layer, diag: _Diagnostics) -> None:
    seen: set[str] = set()
    for port in (*layer.inputs, *layer.outputs):
        if port.id in seen:
            raise diag.layer(layer, f"port id {port.id} is used twice", port.node)
        seen.add(port.id)


def _parse_graph(node: XmlElement, diag: _Diagnostics, parent: Layer | None) -> _Graph:
    layers_node = node.find("layers")
    if layers_node is None:
        where = "" if parent is None else f"{parent.describe()}: "
        raise diag.at(node, f"{where}<{node.tag}> has no <layers>")
    layers: list[Layer] = []
    by_id: dict[str, Layer] = {}
    for index, layer_node in enumerate(layers_node.findall("layer")):
        layer = _parse_layer(layer_node, index, diag, parent)
        if layer.id in by_id:
            raise diag.layer(
                layer, f"layer id {layer.id} is already used by {by_id[layer.id].describe()}"
            )
        layers.append(layer)
        by_id[layer.id] = layer
    edges_node = node.find("edges")
    edges = [_parse_edge(e, diag) for e in (edges_node.findall("edge") if edges_node else [])]
    graph = _Graph(layers, by_id, {})
    for edge in edges:
        _add_edge(graph, edge, diag)
    _check_inputs_connected(graph, diag)
    return graph


def _parse_edge(node: XmlElement, diag: _Diagnostics) -> Edge:
    keys = ("from-layer", "from-port", "to-layer", "to-port")
    missing = [k for k in keys if k not in node.attrib]
    if missing:
        raise diag.at(node, f"<edge> is missing {', '.join(missing)}")
    return Edge(*(node.attrib[k] for k in keys), node=node)


def _add_edge(graph: _Graph, edge: Edge, diag: _Diagnostics) -> None:
    src, dst = graph.by_id.get(edge.from_layer), graph.by_id.get(edge.to_layer)
    if src is None and dst is None:
        raise diag.at(
            edge.node,
            f"edge from layer id={edge.from_layer} to layer id={edge.to_layer}: neither layer "
            "exists",
        )
    if dst is None:
        assert src is not None
        raise diag.layer(
            src,
            f"output port {edge.from_port} feeds layer id={edge.to_layer}, which does not exist",
            edge.node,
        )
    if src is None:
        raise diag.layer(
            dst,
            f"input port {edge.to_port} is fed by layer id={edge.from_layer}, which does not exist",
            edge.node,
        )
    if src.output_index(edge.from_port) is None:
        raise diag.layer(
            src,
            f"has no output port {edge.from_port} (edge to layer id={dst.id} port {edge.to_port})",
            edge.node,
        )
    if dst.input_index(edge.to_port) is None:
        raise diag.layer(
            dst,
            f"has no input port {edge.to_port} (edge from layer id={src.id} port {edge.from_port})",
            edge.node,
        )
    key = (dst.id, edge.to_port)
    if key in graph.sources:
        raise diag.layer(dst, f"input port {edge.to_port} has two incoming edges", edge.node)
    graph.sources[key] = (src.id, edge.from_port)


def _check_inputs_connected(graph: _Graph, diag: _Diagnostics) -> None:
    for layer in graph.layers:
        for port in layer.inputs:
            if (layer.id, port.id) not in graph.sources:
                raise diag.layer(layer, f"input port {port.id} is not connected", port.node)


def _topological_order(graph: _Graph, diag: _Diagnostics) -> list[Layer]:
    """Kahn's algorithm; among ready layers, the one earliest in the XML goes first."""
    users: dict[str, list[str]] = {layer.id: [] for layer in graph.layers}
    pending: dict[str, int] = {}
    for layer in graph.layers:
        producers = set(graph.producers(layer))
        pending[layer.id] = len(producers)
        for producer in producers:
            users[producer].append(layer.id)
    ready = [(layer.index, layer.id) for layer in graph.layers if pending[layer.id] == 0]
    heapq.heapify(ready)
    order: list[Layer] = []
    while ready:
        _, layer_id = heapq.heappop(ready)
        order.append(graph.by_id[layer_id])
        for user in users[layer_id]:
            pending[user] -= 1
            if pending[user] == 0:
                heapq.heappush(ready, (graph.by_id[user].index, user))
    if len(order) != len(graph.layers):
        _raise_cycle(graph, {layer_id for layer_id, n in pending.items() if n > 0}, diag)
    return order


def _raise_cycle(graph: _Graph, stuck: set[str], diag: _Diagnostics) -> NoReturn:
    """Follow producers among the stuck layers until one repeats: that is a cycle."""
    start = min(stuck, key=lambda i: graph.by_id[i].index)
    path: list[str] = []
    current = start
    while current not in path:
        path.append(current)
        current = next(p for p in graph.producers(graph.by_id[current]) if p in stuck)
    cycle = path[path.index(current) :]
    cycle.reverse()
    first = min(cycle, key=lambda i: graph.by_id[i].index)
    k = cycle.index(first)
    cycle = cycle[k:] + cycle[:k] + [first]
    chain = " -> ".join(f"id={i}" for i in cycle)
    raise diag.layer(graph.by_id[first], f"the graph has a cycle: {chain}")


# ---------------------------------------------------------------------------------------------
# Types
# ---------------------------------------------------------------------------------------------


def _tensor_type(element: Attribute, dims: Sequence[int] | None) -> Attribute:
    if dims is None:
        return UnrankedTensorType(element)
    return TensorType(element, [DYNAMIC_INDEX if d < 0 else d for d in dims])


class _TypeError(Exception):
    """An element type that cannot be imported; the message says why."""


def _element_type(name: str) -> ElementType:
    if name in ELEMENT_TYPES:
        return ELEMENT_TYPES[name]
    if name in DYNAMIC_ELEMENT_TYPES:
        raise _TypeError("dynamic element types are not supported; the type must be static")
    if name in KNOWN_UNSUPPORTED_ELEMENT_TYPES:
        raise _TypeError(f"element type '{name}' is not supported")
    raise _TypeError(f"unknown element type '{name}'")


# ---------------------------------------------------------------------------------------------
# Building ops
# ---------------------------------------------------------------------------------------------


@dataclass
class _OpBuilder:
    """What a converter needs: the layer, its operands and result types, and error helpers."""

    layer: Layer
    operands: list[SSAValue]
    result_types: list[Attribute]
    importer: _Importer

    def fail(self, message: str, node: XmlElement | None = None) -> NoReturn:
        raise self.importer.diag.layer(self.layer, message, node)

    def data(self, key: str, default: str | None = None) -> str:
        value = self.layer.data.get(key, default)
        if value is None:
            self.fail(f"missing attribute '{key}'")
        return value

    def data_int(self, key: str, default: int | None = None) -> int:
        text = self.data(key, None if default is None else str(default))
        try:
            return int(text.strip())
        except ValueError:
            self.fail(f"attribute {key}='{text}' is not an integer")

    def data_float(self, key: str, default: float | None = None) -> float:
        text = self.data(key, None if default is None else repr(default))
        try:
            return float(text.strip())
        except ValueError:
            self.fail(f"attribute {key}='{text}' is not a number")

    def data_bool(self, key: str, default: bool) -> bool:
        text = self.data(key, "true" if default else "false").strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        self.fail(f"attribute {key}='{text}' is not a boolean")

    def data_list(self, key: str, default: str = "") -> list[str]:
        return [part.strip() for part in self.data(key, default).split(",") if part.strip()]

    def data_ints(self, key: str, default: str = "") -> list[int]:
        try:
            return [int(part) for part in self.data_list(key, default)]
        except ValueError:
            self.fail(f"attribute {key}='{self.data(key, default)}' is not a list of integers")

    def data_floats(self, key: str, default: str = "") -> list[float]:
        try:
            return [float(part) for part in self.data_list(key, default)]
        except ValueError:
            self.fail(f"attribute {key}='{self.data(key, default)}' is not a list of numbers")

    def data_element(self, key: str) -> ElementType:
        try:
            return _element_type(self.data(key).strip())
        except _TypeError as error:
            self.fail(f"attribute {key}: {error}")

    def auto_broadcast(self) -> str:
        mode = self.data("auto_broadcast", "numpy").strip().lower()
        if mode not in ov.AUTO_BROADCAST_VALUES:
            self.fail(f"auto_broadcast='{mode}' is not supported (supported: numpy, none)")
        return mode

    def optional_operand(self, index: int) -> SSAValue | None:
        return self.operands[index] if index < len(self.operands) else None


Converter = Callable[[_OpBuilder], Operation]


@dataclass(frozen=True)
class OpSpec:
    """How one OpenVINO operation type is imported."""

    versions: tuple[str, ...]
    inputs: tuple[int, int]
    build: Converter
    outputs: int | None = 1
    """The number of output ports, or None when it varies."""


def _binary(cls: type[ov.ElementwiseBinaryOp]) -> Converter:
    def build(b: _OpBuilder) -> Operation:
        return cls(b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast())

    return build


def _unary(cls: type[ov.ElementwiseUnaryOp]) -> Converter:
    return lambda b: cls(b.operands[0], b.result_types[0])


def _reduce(cls: type[ov.ReduceOp]) -> Converter:
    def build(b: _OpBuilder) -> Operation:
        return cls(b.operands[0], b.operands[1], b.result_types[0], b.data_bool("keep_dims", False))

    return build


def _build_divide(b: _OpBuilder) -> Operation:
    python_div = b.data_bool("m_pythondiv", True)
    return ov.DivideOp(
        b.operands[0], b.operands[1], b.result_types[0], b.auto_broadcast(), python_div
    )


def _build_clamp(b: _OpBuilder) -> Operation:
    return ov.ClampOp(b.operands[0], b.result_types[0], b.data_float("min"), b.data_float("max"))


def _build_softmax(b: _OpBuilder) -> Operation:
    axis = b.data_int("axis", 1)
    if b.layer.version == "opset1" and axis < 0:
        b.fail(f"axis {axis} is negative (Softmax-1 takes a non-negative axis)")
    return ov.SoftmaxOp(b.operands[0], b.result_types[0], axis)


def _build_gelu(b: _OpBuilder) -> Operation:
    mode = b.data("approximation_mode", "erf").strip().lower()
    if mode not in ("erf", "tanh"):
        b.fail(f"approximation_mode '{mode}' is not 'erf' or 'tanh'")
    return ov.GeluOp(b.operands[0], b.result_types[0], mode)


def _build_elu(b: _OpBuilder) -> Operation:
    return ov.EluOp(b.operands[0], b.result_types[0], b.data_float("alpha"))


def _build_swish(b: _OpBuilder) -> Operation:
    beta = b.operands[1] if len(b.operands) > 1 else None
    return ov.SwishOp(b.operands[0], beta, b.result_types[0])


def _auto_pad(b: _OpBuilder) -> str:
    """The layer's `auto_pad` (`notset`, older IR's name for `explicit`, is `explicit`)."""
    auto_pad = b.data("auto_pad", "explicit").strip().lower()
    auto_pad = "explicit" if auto_pad == "notset" else auto_pad
    if auto_pad not in ov.AUTO_PADS:
        b.fail(f"auto_pad '{auto_pad}' is not one of {', '.join(ov.AUTO_PADS)}")
    return auto_pad


def _convolution(cls: type[ov.ConvolutionBase]) -> Converter:
    def build(b: _OpBuilder) -> Operation:
        return cls(
            b.operands[0], b.operands[1], b.result_types[0],
            b.data_ints("strides"), b.data_ints("dilations"),
            b.data_ints("pads_begin"), b.data_ints("pads_end"), _auto_pad(b),
        )

    return build


def _build_tile(b: _OpBuilder) -> Operation:
    return ov.TileOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_pad(b: _OpBuilder) -> Operation:
    mode = b.data("pad_mode", "constant").strip().lower()
    if mode not in ov.PAD_MODES:
        b.fail(f"pad_mode '{mode}' is not one of {', '.join(ov.PAD_MODES)}")
    value = b.operands[3] if len(b.operands) > 3 else None
    return ov.PadOp(b.operands[0], b.operands[1], b.operands[2], value, b.result_types[0], mode)


def _pool_attributes(b: _OpBuilder) -> dict[str, object]:
    auto_pad = _auto_pad(b)
    rounding = b.data("rounding_type", "floor").strip().lower()
    if rounding not in ov.ROUNDING_TYPES:
        b.fail(f"rounding_type '{rounding}' is not floor or ceil")
    return {
        "kernel": b.data_ints("kernel"), "strides": b.data_ints("strides"),
        "pads_begin": b.data_ints("pads_begin"), "pads_end": b.data_ints("pads_end"),
        "rounding_type": rounding, "auto_pad": auto_pad,
    }


def _build_max_pool(b: _OpBuilder) -> Operation:
    dilations = b.data_ints("dilations") if b.layer.version == "opset8" else None
    return ov.MaxPoolOp(b.operands[0], b.result_types, dilations=dilations,
                        **_pool_attributes(b))  # type: ignore[arg-type]


def _build_avg_pool(b: _OpBuilder) -> Operation:
    return ov.AvgPoolOp(b.operands[0], b.result_types[0],
                        exclude_pad=b.data_bool("exclude-pad", False),
                        **_pool_attributes(b))  # type: ignore[arg-type]


def _build_prelu(b: _OpBuilder) -> Operation:
    return ov.PReluOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_mvn(b: _OpBuilder) -> Operation:
    eps_mode = b.data("eps_mode").strip().lower()
    if eps_mode not in ("inside_sqrt", "outside_sqrt"):
        b.fail(f"eps_mode '{eps_mode}' is not 'inside_sqrt' or 'outside_sqrt'")
    return ov.MVNOp(b.operands[0], b.operands[1], b.result_types[0],
                    b.data_bool("normalize_variance", False), b.data_float("eps"), eps_mode)


def _build_convert(b: _OpBuilder) -> Operation:
    destination = b.data_element("destination_type")
    if ov.element_type(b.result_types[0]) != destination.mlir:
        b.fail(f"destination_type '{destination.name}' differs from the output port's type")
    return ov.ConvertOp(b.operands[0], b.result_types[0])


def _build_select(b: _OpBuilder) -> Operation:
    return ov.SelectOp(*b.operands, b.result_types[0], b.auto_broadcast())


def _build_matmul(b: _OpBuilder) -> Operation:
    return ov.MatMulOp(
        b.operands[0],
        b.operands[1],
        b.result_types[0],
        b.data_bool("transpose_a", False),
        b.data_bool("transpose_b", False),
    )


def _build_split(b: _OpBuilder) -> Operation:
    num_splits = b.data_int("num_splits")
    if num_splits != len(b.result_types):
        b.fail(f"num_splits={num_splits} but the layer has {len(b.result_types)} output ports")
    return ov.SplitOp(b.operands[0], b.operands[1], b.result_types)


def _build_variadic_split(b: _OpBuilder) -> Operation:
    return ov.VariadicSplitOp(*b.operands, b.result_types)


def _build_strided_slice(b: _OpBuilder) -> Operation:
    masks = {name: b.data_ints(name) for name in ov.MASK_NAMES}
    for name, mask in masks.items():
        if any(v not in (0, 1) for v in mask):
            b.fail(f"{name} must contain only 0 and 1")
    return ov.StridedSliceOp(
        b.operands[0], b.operands[1], b.operands[2], b.optional_operand(3), b.result_types[0], masks
    )


def _build_slice(b: _OpBuilder) -> Operation:
    return ov.SliceOp(*b.operands[:4], b.optional_operand(4), b.result_types[0])


def _build_concat(b: _OpBuilder) -> Operation:
    return ov.ConcatOp(b.operands, b.result_types[0], b.data_int("axis"))


def _build_reshape(b: _OpBuilder) -> Operation:
    return ov.ReshapeOp(*b.operands, b.result_types[0], b.data_bool("special_zero", False))


def _build_squeeze(b: _OpBuilder) -> Operation:
    return ov.SqueezeOp(b.operands[0], b.optional_operand(1), b.result_types[0])


def _build_unsqueeze(b: _OpBuilder) -> Operation:
    return ov.UnsqueezeOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_transpose(b: _OpBuilder) -> Operation:
    return ov.TransposeOp(b.operands[0], b.operands[1], b.result_types[0])


def _build_shape_of(b: _OpBuilder) -> Operation:
    if b.layer.version == "opset3":
        output_type = b.data_element("output_type") if "output_type" in b.layer.data else None
        if output_type is not None and output_type.mlir != ov.element_type(b.result_types[0]):
            b.fail(f"output_type '{output_type.name}' differs from the output port's type")
    return ov.ShapeOfOp(b.operands[0], b.result_types[0])


def _build_gather(b: _OpBuilder) -> Operation:
    return ov.GatherOp(*b.operands, b.result_types[0], b.data_int("batch_dims", 0))


def _build_broadcast(b: _OpBuilder) -> Operation:
    mode = b.data("mode", "numpy").strip().lower()
    if mode not in ov.BROADCAST_MODES:
        b.fail(f"mode='{mode}' is not supported (supported: {', '.join(ov.BROADCAST_MODES)})")
    return ov.BroadcastOp(
        b.operands[0], b.operands[1], b.optional_operand(2), b.result_types[0], mode
    )


def _cell_attributes(b: _OpBuilder, default_activations: str) -> dict[str, object]:
    return {
        "hidden_size": b.data_int("hidden_size"),
        "activations": b.data_list("activations", default_activations),
        "activations_alpha": b.data_floats("activations_alpha"),
        "activations_beta": b.data_floats("activations_beta"),
        "clip": b.data_float("clip", 0.0),
    }


def _build_lstm_cell(b: _OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh,tanh")
    return ov.LSTMCellOp(b.operands, b.result_types, **attributes)  # type: ignore[arg-type]


def _build_gru_cell(b: _OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh")
    linear_before_reset = b.data_bool("linear_before_reset", False)
    return ov.GRUCellOp(
        b.operands,
        b.result_types[0],
        linear_before_reset=linear_before_reset,
        **attributes,  # type: ignore[arg-type]
    )


def _direction(b: _OpBuilder) -> str:
    direction = b.data("direction").strip().lower()
    if direction not in ov.DIRECTIONS:
        b.fail(f"direction '{direction}' is not one of {', '.join(ov.DIRECTIONS)}")
    return direction


def _build_lstm_sequence(b: _OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh,tanh")
    return ov.LSTMSequenceOp(b.operands, b.result_types, direction=_direction(b),
                             **attributes)  # type: ignore[arg-type]


def _build_gru_sequence(b: _OpBuilder) -> Operation:
    attributes = _cell_attributes(b, "sigmoid,tanh")
    return ov.GRUSequenceOp(
        b.operands, b.result_types, direction=_direction(b),
        linear_before_reset=b.data_bool("linear_before_reset", False),
        **attributes,  # type: ignore[arg-type]
    )


def _build_read_value(b: _OpBuilder) -> Operation:
    variable_id = _variable_id(b)
    init = b.optional_operand(0)
    if b.layer.version == "opset3":
        if init is None:
            b.fail("ReadValue-3 requires an init input")
        return ov.ReadValueOp(variable_id, b.result_types[0], init, version=3)
    declared_type = _declared_variable_type(b)
    declared_shape = _declared_variable_shape(b)
    return ov.ReadValueOp(
        variable_id,
        b.result_types[0],
        init,
        version=6,
        variable_type=declared_type,
        variable_shape=declared_shape,
    )


def _variable_id(b: _OpBuilder) -> str:
    variable_id = b.layer.data.get("variable_id")
    if variable_id is None:
        b.fail("missing attribute 'variable_id'")
    if not variable_id:
        b.fail("attribute 'variable_id' is empty")
    return variable_id


def _declared_variable_type(b: _OpBuilder) -> Attribute | None:
    name = b.data("variable_type", "dynamic").strip()
    if name in DYNAMIC_ELEMENT_TYPES:
        return None
    return b.data_element("variable_type").mlir


def _declared_variable_shape(b: _OpBuilder) -> ov.PartialShapeAttr:
    text = b.data("variable_shape", "...")
    try:
        return ov.PartialShapeAttr.from_openvino(text)
    except ValueError as error:
        b.fail(f"bad variable_shape='{text}': {error}")


def _build_assign(b: _OpBuilder) -> Operation:
    version = 3 if b.layer.version == "opset3" else 6
    return ov.AssignOp(_variable_id(b), b.operands[0], version=version)


def _build_tensor_iterator(b: _OpBuilder) -> Operation:
    return _TensorIteratorImporter(b).build()


SUPPORTED_OPS: dict[str, OpSpec] = {
    "Add": OpSpec(("opset1",), (2, 2), _binary(ov.AddOp)),
    "Subtract": OpSpec(("opset1",), (2, 2), _binary(ov.SubtractOp)),
    "Multiply": OpSpec(("opset1",), (2, 2), _binary(ov.MultiplyOp)),
    "Divide": OpSpec(("opset1",), (2, 2), _build_divide),
    "Mod": OpSpec(("opset1",), (2, 2), _binary(ov.ModOp)),
    "FloorMod": OpSpec(("opset1",), (2, 2), _binary(ov.FloorModOp)),
    "Power": OpSpec(("opset1",), (2, 2), _binary(ov.PowerOp)),
    "Maximum": OpSpec(("opset1",), (2, 2), _binary(ov.MaximumOp)),
    "Minimum": OpSpec(("opset1",), (2, 2), _binary(ov.MinimumOp)),
    "Greater": OpSpec(("opset1",), (2, 2), _binary(ov.GreaterOp)),
    "Less": OpSpec(("opset1",), (2, 2), _binary(ov.LessOp)),
    "Equal": OpSpec(("opset1",), (2, 2), _binary(ov.EqualOp)),
    "LogicalAnd": OpSpec(("opset1",), (2, 2), _binary(ov.LogicalAndOp)),
    "LogicalOr": OpSpec(("opset1",), (2, 2), _binary(ov.LogicalOrOp)),
    "LogicalNot": OpSpec(("opset1",), (1, 1), _unary(ov.LogicalNotOp)),
    "ReLU": OpSpec(("opset1",), (1, 1), _unary(ov.ReluOp)),
    "Relu": OpSpec(("opset1",), (1, 1), _unary(ov.ReluOp)),
    "Sigmoid": OpSpec(("opset1",), (1, 1), _unary(ov.SigmoidOp)),
    "Tanh": OpSpec(("opset1",), (1, 1), _unary(ov.TanhOp)),
    "Exp": OpSpec(("opset1",), (1, 1), _unary(ov.ExpOp)),
    "Abs": OpSpec(("opset1",), (1, 1), _unary(ov.AbsOp)),
    "Negative": OpSpec(("opset1",), (1, 1), _unary(ov.NegativeOp)),
    "Log": OpSpec(("opset1",), (1, 1), _unary(ov.LogOp)),
    "Floor": OpSpec(("opset1",), (1, 1), _unary(ov.FloorOp)),
    "Ceiling": OpSpec(("opset1",), (1, 1), _unary(ov.CeilingOp)),
    "Sqrt": OpSpec(("opset1",), (1, 1), _unary(ov.SqrtOp)),
    "Sin": OpSpec(("opset1",), (1, 1), _unary(ov.SinOp)),
    "Cos": OpSpec(("opset1",), (1, 1), _unary(ov.CosOp)),
    "Erf": OpSpec(("opset1",), (1, 1), _unary(ov.ErfOp)),
    "SoftMax": OpSpec(("opset1", "opset8"), (1, 1), _build_softmax),
    "Softmax": OpSpec(("opset1", "opset8"), (1, 1), _build_softmax),
    "SquaredDifference": OpSpec(("opset1",), (2, 2), _binary(ov.SquaredDifferenceOp)),
    "Gelu": OpSpec(("opset2", "opset7"), (1, 1), _build_gelu),
    "HSwish": OpSpec(("opset4",), (1, 1), _unary(ov.HSwishOp)),
    "HSigmoid": OpSpec(("opset5",), (1, 1), _unary(ov.HSigmoidOp)),
    "Elu": OpSpec(("opset1",), (1, 1), _build_elu),
    "Swish": OpSpec(("opset4",), (1, 2), _build_swish),
    "PRelu": OpSpec(("opset1",), (2, 2), _build_prelu),
    "PReLU": OpSpec(("opset1",), (2, 2), _build_prelu),
    "MVN": OpSpec(("opset6",), (2, 2), _build_mvn),
    "Clamp": OpSpec(("opset1",), (1, 1), _build_clamp),
    "Convert": OpSpec(("opset1",), (1, 1), _build_convert),
    "Select": OpSpec(("opset1",), (3, 3), _build_select),
    "MatMul": OpSpec(("opset1",), (2, 2), _build_matmul),
    "Convolution": OpSpec(("opset1",), (2, 2), _convolution(ov.ConvolutionOp)),
    "GroupConvolution": OpSpec(("opset1",), (2, 2), _convolution(ov.GroupConvolutionOp)),
    "MaxPool": OpSpec(("opset1", "opset8"), (1, 1), _build_max_pool, outputs=None),
    "AvgPool": OpSpec(("opset1",), (1, 1), _build_avg_pool),
    "ReduceSum": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceSumOp)),
    "ReduceMean": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMeanOp)),
    "ReduceMax": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMaxOp)),
    "ReduceMin": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceMinOp)),
    "ReduceProd": OpSpec(("opset1",), (2, 2), _reduce(ov.ReduceProdOp)),
    "Tile": OpSpec(("opset1",), (2, 2), _build_tile),
    "Pad": OpSpec(("opset1", "opset12"), (3, 4), _build_pad),
    "Split": OpSpec(("opset1",), (2, 2), _build_split, outputs=None),
    "VariadicSplit": OpSpec(("opset1",), (3, 3), _build_variadic_split, outputs=None),
    "StridedSlice": OpSpec(("opset1",), (3, 4), _build_strided_slice),
    "Slice": OpSpec(("opset8",), (4, 5), _build_slice),
    "Concat": OpSpec(("opset1",), (1, 1 << 30), _build_concat),
    "Reshape": OpSpec(("opset1",), (2, 2), _build_reshape),
    "Squeeze": OpSpec(("opset1",), (1, 2), _build_squeeze),
    "Unsqueeze": OpSpec(("opset1",), (2, 2), _build_unsqueeze),
    "Transpose": OpSpec(("opset1",), (2, 2), _build_transpose),
    "ShapeOf": OpSpec(("opset1", "opset3"), (1, 1), _build_shape_of),
    "Gather": OpSpec(("opset8",), (3, 3), _build_gather),
    "Broadcast": OpSpec(("opset3",), (2, 3), _build_broadcast),
    "LSTMCell": OpSpec(("opset4",), (6, 6), _build_lstm_cell, outputs=2),
    "GRUCell": OpSpec(("opset3",), (5, 5), _build_gru_cell),
    "LSTMSequence": OpSpec(("opset5",), (7, 7), _build_lstm_sequence, outputs=3),
    "GRUSequence": OpSpec(("opset5",), (6, 6), _build_gru_sequence, outputs=2),
    "TensorIterator": OpSpec(("opset1",), (0, 1 << 30), _build_tensor_iterator, outputs=None),
    "ReadValue": OpSpec(("opset3", "opset6"), (0, 1), _build_read_value),
    "Assign": OpSpec(("opset3", "opset6"), (1, 1), _build_assign, outputs=None),
}
"""Layer types the importer understands (besides Parameter, Result and Const)."""

_BOOLEAN_RESULT_TYPES = frozenset(
    {"Greater", "Less", "Equal", "LogicalAnd", "LogicalOr", "LogicalNot"}
)


# ---------------------------------------------------------------------------------------------
# The importer
# ---------------------------------------------------------------------------------------------


class _Weights:
    """The `.bin` file, read on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: bytes | None = None
        self.problem = ""
        """Why `get()` returned None."""

    def get(self) -> bytes | None:
        if self._data is None:
            try:
                self._data = self.path.read_bytes()
            except FileNotFoundError:
                self.problem = f"the weights file '{self.path}' does not exist"
            except OSError as error:
                self.problem = f"cannot read the weights file '{self.path}': {error.strerror}"
        return self._data


class _Importer:
    """Imports one model; `values` maps (layer id, output port id) to SSA values per graph."""

    def __init__(self, xml_path: Path) -> None:
        self.diag = _Diagnostics(str(xml_path))
        self.weights = _Weights(xml_path.with_suffix(".bin"))
        self.xml_path = xml_path
        self.layer_of: dict[Operation, Layer] = {}

    # -- the model ------------------------------------------------------------------------

    def import_model(self) -> ModuleOp:
        root = parse_xml_file(self.xml_path)
        self._check_root(root)
        graph = _parse_graph(root, self.diag, None)
        legacy = root.attrib.get("version") == "10"
        parameters, results = graph.layers_of_type("Parameter"), graph.layers_of_type("Result")
        block = Block(arg_types=[self._parameter_type(p) for p in parameters])
        for arg, parameter in zip(block.args, parameters, strict=True):
            _set_name_hint(arg, _input_name(parameter, legacy))
        outputs = self.import_graph(
            graph, block, dict(zip((p.id for p in parameters), block.args, strict=True))
        )
        block.add_op(func.ReturnOp(*outputs))
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
            module.verify()
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
        b = _OpBuilder(layer, [], [], self)
        port = layer.outputs[0]
        if "element_type" in layer.data:
            element = b.data_element("element_type").mlir
        else:
            element = ELEMENT_TYPES[self._port_element(layer, port, [])].mlir
        if "shape" not in layer.data:
            return _tensor_type(element, port.dims)
        try:
            shape = ov.PartialShapeAttr.from_openvino(layer.data["shape"]).to_shape()
        except ValueError as error:
            b.fail(f"bad shape='{layer.data['shape']}': {error}")
        return _tensor_type(element, shape)

    # -- a graph --------------------------------------------------------------------------

    def import_graph(
        self, graph: _Graph, block: Block, parameters: dict[str, SSAValue]
    ) -> list[SSAValue]:
        """Adds the ops of `graph` to `block`; returns the values of its Results in IR order."""
        values: dict[tuple[str, str], SSAValue] = {}
        outputs: dict[str, SSAValue] = {}
        for layer in _topological_order(graph, self.diag):
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

    def _check_outputs_unused_if_assign(self, layer: Layer, graph: _Graph, op: Operation) -> None:
        if not isinstance(op, ov.AssignOp):
            return
        for (to_layer, _), (from_layer, _) in graph.sources.items():
            if from_layer == layer.id:
                user = graph.by_id[to_layer]
                raise self.diag.layer(
                    layer, f"the output of an Assign is used (by {user.describe()})"
                )

    def _convert_layer(self, layer: Layer, operands: list[SSAValue]) -> Operation:
        try:
            if layer.type == "Const":
                op: Operation = self._convert_const(layer, operands)
            else:
                spec = self._spec(layer)
                self._check_port_counts(layer, spec)
                builder = _OpBuilder(layer, operands, self._result_types(layer, operands), self)
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
        try:
            op.verify()
        except VerifyException as error:
            message = str(error).removeprefix(f"{op.name}: ")
            raise self.diag.layer(layer, message) from None

    # -- types ----------------------------------------------------------------------------

    def _result_types(self, layer: Layer, operands: Sequence[SSAValue]) -> list[Attribute]:
        types = []
        for port in layer.outputs if layer.type != "Assign" else []:
            element = ELEMENT_TYPES[self._port_element(layer, port, operands)].mlir
            types.append(_tensor_type(element, self._port_dims(layer, port, operands)))
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
            return _element_type(name).name
        except _TypeError as error:
            raise self.diag.layer(layer, f"output port {port.id}: {error}", port.node) from None

    def _inferred_element(self, layer: Layer, operands: Sequence[SSAValue]) -> str | None:
        """The element type of an output port whose precision the IR leaves out."""
        if layer.type in _BOOLEAN_RESULT_TYPES:
            return "boolean"
        if layer.type == "Convert":
            return layer.data.get("destination_type")
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
        b = _OpBuilder(layer, [], [], self)
        element = b.data_element("element_type")
        shape = b.data_ints("shape")
        if any(d < 0 for d in shape):
            b.fail(f"shape='{layer.data['shape']}' must be static")
        offset, size = b.data_int("offset"), b.data_int("size")
        expected = math.prod(shape) * element.dtype.itemsize
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
        array = np.frombuffer(weights, dtype=element.dtype, count=math.prod(shape), offset=offset)
        return ov.ConstantOp(numpy_to_dense(array.reshape(shape), element.mlir))

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
        if version != read_version:
            raise self.diag.layer(
                layer,
                f"Assign-{version} writes variable '{write.variable_id.data}' declared by "
                f"ReadValue-{read_version} ({self.layer_of[read].describe()}); the versions must "
                "match",
            )
        declared_type, declared_shape = _variable_declaration(read)
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
        if version == 3 and not _depends_on(write.value, read):
            raise self.diag.layer(
                layer,
                f"the value of an Assign-3 must be computed from its ReadValue-3 "
                f"({self.layer_of[read].describe()})",
            )


def _variable_declaration(read: ov.ReadValueOp) -> tuple[Attribute | None, ov.PartialShapeAttr]:
    """The variable's element type (None: dynamic) and shape, as its ReadValue declares them."""
    if read.version.value.data == 3:
        assert read.init is not None
        init_type = read.init.type
        return ov.element_type(init_type), ov.PartialShapeAttr.from_shape(
            ov.tensor_shape(init_type)
        )
    assert read.variable_shape is not None
    return read.variable_type, read.variable_shape


def _depends_on(value: SSAValue, op: Operation) -> bool:
    stack, seen = [value], set()
    while stack:
        current = stack.pop()
        owner = current.owner
        if owner is op:
            return True
        if not isinstance(owner, Operation) or owner in seen:
            continue
        seen.add(owner)
        stack.extend(owner.operands)
    return False


def _walk(block: Block) -> Iterator[Operation]:
    for op in block.ops:
        yield from op.walk()


# ---------------------------------------------------------------------------------------------
# TensorIterator
# ---------------------------------------------------------------------------------------------


class _TensorIteratorImporter:
    """Imports a TensorIterator's `<body>` as a region and its port maps as properties."""

    def __init__(self, b: _OpBuilder) -> None:
        self.b = b
        self.layer = b.layer
        self.importer = b.importer

    def build(self) -> Operation:
        body_node = self.layer.node.find("body")
        if body_node is None:
            self.b.fail("a TensorIterator needs a <body>")
        graph = _parse_graph(body_node, self.importer.diag, self.layer)
        params, results = graph.layers_of_type("Parameter"), graph.layers_of_type("Result")
        block = Block(arg_types=[self.importer._parameter_type(p) for p in params])
        values = self.importer.import_graph(
            graph, block, dict(zip((p.id for p in params), block.args, strict=True))
        )
        block.add_op(ov.YieldOp(values))
        port_map = self.layer.node.find("port_map")
        inputs = self._port_maps(port_map, "input", self.layer.inputs, params)
        outputs = self._port_maps(port_map, "output", self.layer.outputs, results)
        back_edges = self._back_edges(results, params)
        return ov.TensorIteratorOp(
            self.b.operands, self.b.result_types, Region(block), inputs, outputs, back_edges
        )

    def _port_maps(
        self, port_map: XmlElement | None, kind: str, ports: list[Port], body_layers: list[Layer]
    ) -> list[ov.PortMapAttr]:
        entries = port_map.findall(kind) if port_map is not None else []
        return [self._port_map(entry, kind, ports, body_layers) for entry in entries]

    def _port_map(
        self, entry: XmlElement, kind: str, ports: list[Port], body_layers: list[Layer]
    ) -> ov.PortMapAttr:
        values = self._entry_ints(entry)
        if "external_port_id" not in values or "internal_layer_id" not in values:
            self.b.fail(f"port_map <{kind}> needs external_port_id and internal_layer_id", entry)
        external = next(
            (i for i, p in enumerate(ports) if p.id == str(values["external_port_id"])), None
        )
        if external is None:
            self.b.fail(
                f"port_map <{kind}> names external port {values['external_port_id']}, which "
                "the layer does not have",
                entry,
            )
        internal = _index_of_layer(body_layers, str(values["internal_layer_id"]))
        if internal is None:
            wanted = "Parameter" if kind == "input" else "Result"
            self.b.fail(
                f"port_map <{kind}> names body layer id={values['internal_layer_id']}, which "
                f"is not a body {wanted}",
                entry,
            )
        if "axis" not in values:
            return ov.PortMapAttr.make(external, internal)
        return ov.PortMapAttr.make(
            external,
            internal,
            values["axis"],
            values.get("start", 0),
            values.get("end", -1),
            values.get("stride", 1),
            values.get("part_size", 1),
        )

    def _entry_ints(self, entry: XmlElement) -> dict[str, int]:
        values: dict[str, int] = {}
        for key, text in entry.attrib.items():
            try:
                values[key] = int(text)
            except ValueError:
                self.b.fail(f"port_map attribute {key}='{text}' is not an integer", entry)
        return values

    def _back_edges(self, results: list[Layer], params: list[Layer]) -> list[ov.BackEdgeAttr]:
        node = self.layer.node.find("back_edges")
        edges = []
        for entry in node.findall("edge") if node is not None else []:
            source = _index_of_layer(results, entry.attrib.get("from-layer", ""))
            target = _index_of_layer(params, entry.attrib.get("to-layer", ""))
            if source is None or target is None:
                self.b.fail(
                    "a back edge must go from a body Result to a body Parameter, got "
                    f"from-layer={entry.attrib.get('from-layer')} "
                    f"to-layer={entry.attrib.get('to-layer')}",
                    entry,
                )
            edges.append(ov.BackEdgeAttr.make(source, target))
        return edges


def _index_of_layer(layers: list[Layer], layer_id: str) -> int | None:
    return next((i for i, layer in enumerate(layers) if layer.id == layer_id), None)


# ---------------------------------------------------------------------------------------------
# Names
# ---------------------------------------------------------------------------------------------


def _input_name(layer: Layer, legacy: bool) -> str:
    """OpenVINO's `get_any_name()` of a Parameter: its smallest tensor name (IR v10 also counts
    the layer name), else the layer name."""
    names = set(layer.outputs[0].names if layer.outputs else ())
    if legacy or not names:
        names.add(layer.name)
    return min(names)


def _output_name(layer: Layer, graph: _Graph, legacy: bool) -> str:
    """OpenVINO's `get_any_name()` of a Result: the smallest of its `output_names` (IR v11), else
    of the producing port's names; IR v10 also counts the producer's layer name (with `.N` when
    it has several outputs)."""
    source_layer, source_port = graph.sources[(layer.id, layer.inputs[0].id)]
    producer = graph.by_id[source_layer]
    index = producer.output_index(source_port)
    assert index is not None
    names = set(_split_names(layer.node.attrib.get("output_names", "")))
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


# ---------------------------------------------------------------------------------------------
# Entry point
# ---------------------------------------------------------------------------------------------


def import_openvino_ir(xml_path: str | os.PathLike[str], ctx: Context) -> ModuleOp:
    """Import `xml_path` (its weights in the `.bin` beside it) as a module with `func.func @main`.

    The `builtin`, `func` and `openvino` dialects are loaded into `ctx` when it lacks them, so
    that the module can be printed and parsed back with it. Raises `ModelImportError` for any
    problem with the files.
    """
    for dialect in (Builtin, func.Func, ov.OpenVINO):
        if dialect.name not in ctx.registered_dialect_names:
            ctx.load_dialect(dialect)
    return _Importer(Path(xml_path)).import_model()
