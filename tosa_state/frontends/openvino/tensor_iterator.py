"""Importing TensorIterator-1 and Loop-5: the `<body>` as a region, the port maps and back
edges as properties (a Loop's `purpose="current_iteration"` / `"execution_condition"`
entries as its `current_iteration` / `condition` body indices).
"""

from __future__ import annotations

from xdsl.ir import Block, Operation, Region

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.common import OpBuilder, OpSpec
from tosa_state.frontends.openvino.graph import Layer, Port, parse_graph
from tosa_state.frontends.openvino.xml_reader import XmlElement


def _build_tensor_iterator(b: OpBuilder) -> Operation:
    return _TensorIteratorImporter(b).build()


class _TensorIteratorImporter:
    """Imports a TensorIterator's or a Loop's `<body>` as a region and its port maps as
    properties."""

    def __init__(self, b: OpBuilder) -> None:
        self.b = b
        self.layer = b.layer
        self.importer = b.importer

    def build(self) -> Operation:
        body_node = self.layer.node.find("body")
        if body_node is None:
            self.b.fail(f"a {self.layer.type} needs a <body>")
        graph = parse_graph(body_node, self.importer.diag, self.layer)
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
        if self.layer.type != "Loop":
            return ov.TensorIteratorOp(
                self.b.operands, self.b.result_types, Region(block), inputs, outputs, back_edges
            )
        current = self._special(port_map, "input", "current_iteration", params)
        condition = self._special(port_map, "output", "execution_condition", results)
        if condition == -1:
            self.b.fail("a Loop needs a port_map <output purpose=\"execution_condition\">")
        return ov.LoopOp(self.b.operands, self.b.result_types, Region(block), inputs, outputs,
                         back_edges, ov.LoopOp.properties_of(current, condition))

    def _special(self, port_map: XmlElement | None, kind: str, purpose: str,
                 body_layers: list[Layer]) -> int:
        """The body index of a Loop's `purpose` port map entry, -1 without one."""
        for entry in port_map.findall(kind) if port_map is not None else []:
            if entry.attrib.get("purpose") != purpose:
                continue
            found = _index_of_layer(body_layers, entry.attrib.get("internal_layer_id", ""))
            if found is None:
                self.b.fail(f"port_map <{kind} purpose=\"{purpose}\"> names body layer "
                            f"id={entry.attrib.get('internal_layer_id')}, which is not a body "
                            f"{'Parameter' if kind == 'input' else 'Result'}", entry)
            return found
        return -1

    def _port_maps(
        self, port_map: XmlElement | None, kind: str, ports: list[Port], body_layers: list[Layer]
    ) -> list[ov.PortMapAttr]:
        entries = port_map.findall(kind) if port_map is not None else []
        return [self._port_map(entry, kind, ports, body_layers) for entry in entries
                if "purpose" not in entry.attrib]

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


TENSOR_ITERATOR_LAYERS: dict[str, OpSpec] = {
    "TensorIterator": OpSpec(("opset1",), (0, 1 << 30), _build_tensor_iterator, outputs=None),
    "Loop": OpSpec(("opset5",), (2, 1 << 30), _build_tensor_iterator, outputs=None),
}
