"""The layer graph of an OpenVINO IR `<net>` (or TensorIterator `<body>`): layers, ports, edges,
their checks and the topological order, with diagnostics naming the layer.
"""

from __future__ import annotations

import heapq
import re
from dataclasses import dataclass
from functools import cached_property
from typing import NoReturn

from tosa_state.diagnostics import ModelImportError
from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.element_types import PRECISIONS
from tosa_state.frontends.openvino.xml_reader import XmlElement


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


class Diagnostics:
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
class Graph:
    """The layers and edges of a model (or of a TensorIterator body)."""

    layers: list[Layer]
    by_id: dict[str, Layer]
    sources: dict[tuple[str, str], tuple[str, str]]
    """(to-layer, to-port) → (from-layer, from-port)."""

    def layers_of_type(self, type_: str) -> list[Layer]:
        return [layer for layer in self.layers if layer.type == type_]

    def producers(self, layer: Layer) -> list[str]:
        return [self.sources[(layer.id, port.id)][0] for port in layer.inputs]

    @cached_property
    def first_users(self) -> dict[str, Layer]:
        """Layer id → the first layer (in edge order) reading one of its outputs."""
        users: dict[str, Layer] = {}
        for (to_layer, _), (from_layer, _) in self.sources.items():
            users.setdefault(from_layer, self.by_id[to_layer])
        return users


def split_names(text: str) -> tuple[str, ...]:
    """OpenVINO's comma-separated tensor names, where `\\,` escapes a comma."""
    if not text:
        return ()
    return tuple(part.replace("\\,", ",") for part in re.split(r"(?<!\\),", text) if part)


def _parse_port(node: XmlElement, diag: Diagnostics, where: str) -> Port:
    port_id = node.attrib.get("id")
    if port_id is None:
        raise diag.at(node, f"{where}: <port> without an id")
    dims = tuple(_parse_port_dim(d, diag, where) for d in node.findall("dim"))
    precision = node.attrib.get("precision")
    element = None
    if precision is not None:
        element = PRECISIONS.get(precision.upper(), precision.lower())
    names = split_names(node.attrib.get("names", ""))
    return Port(port_id, element, dims, names, node)


def _parse_port_dim(node: XmlElement, diag: Diagnostics, where: str) -> int:
    text = node.text.strip()
    try:
        lo, hi = ov.parse_openvino_dim(text)
    except ValueError:
        raise diag.at(node, f"{where}: bad dimension '{text}'") from None
    return lo if lo == hi else -1


def _parse_layer(node: XmlElement, index: int, diag: Diagnostics, parent: Layer | None) -> Layer:
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


def _check_unique_ports(layer: Layer, diag: Diagnostics) -> None:
    seen: set[str] = set()
    for port in (*layer.inputs, *layer.outputs):
        if port.id in seen:
            raise diag.layer(layer, f"port id {port.id} is used twice", port.node)
        seen.add(port.id)


def parse_graph(node: XmlElement, diag: Diagnostics, parent: Layer | None) -> Graph:
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
    graph = Graph(layers, by_id, {})
    for edge in edges:
        _add_edge(graph, edge, diag)
    _check_inputs_connected(graph, diag)
    return graph


def _parse_edge(node: XmlElement, diag: Diagnostics) -> Edge:
    keys = ("from-layer", "from-port", "to-layer", "to-port")
    missing = [k for k in keys if k not in node.attrib]
    if missing:
        raise diag.at(node, f"<edge> is missing {', '.join(missing)}")
    return Edge(*(node.attrib[k] for k in keys), node=node)


def _add_edge(graph: Graph, edge: Edge, diag: Diagnostics) -> None:
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


def _check_inputs_connected(graph: Graph, diag: Diagnostics) -> None:
    for layer in graph.layers:
        for port in layer.inputs:
            if (layer.id, port.id) not in graph.sources:
                raise diag.layer(layer, f"input port {port.id} is not connected", port.node)


def topological_order(graph: Graph, diag: Diagnostics) -> list[Layer]:
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


def _raise_cycle(graph: Graph, stuck: set[str], diag: Diagnostics) -> NoReturn:
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
