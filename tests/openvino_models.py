"""Stateful OpenVINO models built with OpenVINO's Python API, for the importer tests.

Each builder returns a `Built`: the `ov.Model` plus the numpy arrays its constants hold, so that
tests can compare the imported constants bit for bit. `save` writes the model as IR
(`compress_to_fp16=False`) into a directory; `edit_xml` copies a saved model with textual edits,
to produce invalid inputs.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import ml_dtypes
import numpy as np
import openvino as ov
import openvino._offline_transformations as offline
import openvino.opset3 as opset3
import openvino.opset8 as opset8
import openvino.opset13 as ops
import openvino.passes as passes


@dataclass
class Built:
    """A model and the arrays of its named constants."""

    model: object
    constants: dict[str, np.ndarray] = field(default_factory=dict)


def save(built: Built | object, directory: Path, name: str = "model", version: str = "") -> Path:
    """Save as OpenVINO IR; `version="IR_V10"` writes IR v10 (through `ov.serialize`)."""
    model = built.model if isinstance(built, Built) else built
    xml = directory / f"{name}.xml"
    if version:
        ov.serialize(model, str(xml), str(xml.with_suffix(".bin")), version=version)
    else:
        ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def edit_xml(
    xml: Path,
    directory: Path,
    edits: Sequence[tuple[str, str]] = (),
    *,
    name: str = "edited",
    text: Callable[[str], str] | None = None,
    weights: Callable[[bytes], bytes] | None = None,
) -> Path:
    """Copy `xml` and its `.bin` into `directory` as `name`, applying textual edits.

    Each `(old, new)` edit must match at least once.
    """
    source = xml.read_text()
    for old, new in edits:
        assert old in source, f"edit target not found: {old!r}"
        source = source.replace(old, new)
    if text is not None:
        source = text(source)
    out = directory / f"{name}.xml"
    out.write_text(source)
    data = xml.with_suffix(".bin").read_bytes()
    out.with_suffix(".bin").write_bytes(weights(data) if weights is not None else data)
    return out


def bf16_constant(values: np.ndarray) -> object:
    """A bf16 Constant holding exactly `values` (the Python API has no bf16 numpy arrays)."""
    tensor = ov.Tensor(ov.Type.bf16, ov.Shape(list(values.shape)))
    tensor.data.view(np.uint16)[...] = values.astype(ml_dtypes.bfloat16).view(np.uint16)
    return ov.op.Constant(tensor)


# ---------------------------------------------------------------------------------------------
# Stateful models
# ---------------------------------------------------------------------------------------------


def accumulator() -> Built:
    """acc <- acc + x, with ReadValue-6 initialised from a constant; returns acc + x."""
    init = np.arange(4, dtype=np.float32).reshape(1, 4) * 0.5 - 1.0
    x = ops.parameter([1, 4], np.float32, name="x")
    read = ops.read_value(ops.constant(init), "acc", np.float32, [1, 4], name="acc_read")
    total = ops.add(read, x, name="acc_add")
    write = ops.assign(total, "acc", name="acc_write")
    result = ops.result(total, name="out")
    model = ov.Model([result], [write], [x], "accumulator")
    return Built(model, {"init": init})


def no_init() -> Built:
    """A ReadValue-6 without init (zeros of its declared [2, 3] f32 shape): counter += x."""
    x = ops.parameter([2, 3], np.float32, name="x")
    read = ops.read_value("counter", np.float32, [2, 3], name="counter_read")
    total = ops.add(read, x, name="counter_add")
    write = ops.assign(total, "counter")
    model = ov.Model([ops.result(read, name="before")], [write], [x], "no_init")
    return Built(model)


def opset3_model() -> Built:
    """ReadValue-3 / Assign-3: the variable's type comes from the init constant."""
    init = np.array([[1, -2, 3]], dtype=np.int32)
    x = ops.parameter([1, 3], np.int32, name="x")
    read = opset3.read_value(ops.constant(init), "v3", name="v3_read")
    total = opset3.add(read, x)
    write = opset3.assign(total, "v3", name="v3_write")
    model = ov.Model([ops.result(total, name="sum")], [write], [x], "opset3")
    return Built(model, {"init": init})


def multi_variable() -> Built:
    """Five variables: f32 [2,3], i32 0-D, f16 [4], bf16 [1,2], boolean [3], i64 [?] (no init)."""
    x = ops.parameter([2, 3], np.float32, name="x")
    constants = {
        "f32": np.linspace(-1, 1, 6, dtype=np.float32).reshape(2, 3),
        "i32": np.array(7, dtype=np.int32),
        "f16": np.array([0.5, -65504, 1e-7, np.inf], dtype=np.float16),
        "bf16": np.array([[1.5, -3.25]], dtype=ml_dtypes.bfloat16),
        "boolean": np.array([True, False, True]),
    }
    reads = {
        "f32": ops.read_value(ops.constant(constants["f32"]), "s_f32", np.float32, [2, 3]),
        "i32": ops.read_value(ops.constant(constants["i32"]), "s_i32", np.int32, []),
        "f16": ops.read_value(ops.constant(constants["f16"]), "s_f16", np.float16, [4]),
        "bf16": ops.read_value(bf16_constant(constants["bf16"]), "s_bf16", ov.Type.bf16, [1, 2]),
        "boolean": ops.read_value(
            ops.constant(constants["boolean"]), "s_bool", ov.Type.boolean, [3]
        ),
        "i64": ops.read_value("s_i64", np.int64, ov.PartialShape([-1])),
    }
    writes = [
        ops.assign(ops.add(reads["f32"], x), "s_f32"),
        ops.assign(ops.add(reads["i32"], ops.constant(np.array(1, np.int32))), "s_i32"),
        ops.assign(ops.add(reads["f16"], reads["f16"]), "s_f16"),
        ops.assign(reads["bf16"], "s_bf16"),
        ops.assign(ops.logical_not(reads["boolean"]), "s_bool"),
        ops.assign(reads["i64"], "s_i64"),
    ]
    results = [ops.result(reads[k], name=f"r_{k}") for k in ("f32", "i32", "f16", "bf16")]
    model = ov.Model(results, writes, [x], "multi_variable")
    return Built(model, constants)


def init_from_input() -> Built:
    """ReadValue-6 whose init is computed from the input: init = x * 2."""
    x = ops.parameter([1, 4], np.float32, name="x")
    two = np.array(2.0, dtype=np.float32)
    init = ops.multiply(x, ops.constant(two), name="init_mul")
    read = ops.read_value(init, "state", np.float32, ov.PartialShape([-1, 4]), name="state_read")
    total = ops.add(read, x)
    write = ops.assign(total, "state")
    model = ov.Model([ops.result(total, name="y")], [write], [x], "init_from_input")
    return Built(model, {"two": two})


def dynamic_shapes() -> Built:
    """A dynamic batch (interval 1..8), a `?` dim and a dynamic-rank input."""
    x = ops.parameter(ov.PartialShape([ov.Dimension(1, 8), -1, 4]), np.float32, name="x")
    y = ops.parameter(ov.PartialShape.dynamic(), np.float32, name="y")
    read = ops.read_value(
        "window", np.float32, ov.PartialShape([ov.Dimension(1, 8), -1, 4]), name="window_read"
    )
    total = ops.add(read, x)
    write = ops.assign(total, "window")
    model = ov.Model(
        [ops.result(total, name="sum"), ops.result(ops.relu(y), name="relu_y")],
        [write],
        [x, y],
        "dynamic",
    )
    return Built(model)


def swap_states() -> Built:
    """a <- b + x and b <- a: two variables whose Assigns read each other's ReadValue."""
    x = ops.parameter([2], np.float32, name="x")
    zeros = np.zeros(2, dtype=np.float32)
    a = ops.read_value(ops.constant(zeros), "a", np.float32, [2])
    b = ops.read_value(ops.constant(zeros), "b", np.float32, [2])
    writes = [ops.assign(ops.add(b, x), "a"), ops.assign(a, "b")]
    results = [ops.result(a, name="a_out"), ops.result(b, name="b_out")]
    model = ov.Model(results, writes, [x], "swap")
    return Built(model)


# ---------------------------------------------------------------------------------------------
# Models from OpenVINO's transformations
# ---------------------------------------------------------------------------------------------


def _random(rng: np.random.Generator, *shape: int) -> np.ndarray:
    return rng.standard_normal(shape).astype(np.float32)


def lstm_low_latency(batch: int = 1, inputs: int = 3, hidden: int = 4) -> Built:
    """An LSTMSequence of one step turned stateful by LowLatency2 (LSTMCell-4 + variables)."""
    rng = np.random.default_rng(1)
    weights = {
        "W": _random(rng, 1, 4 * hidden, inputs),
        "R": _random(rng, 1, 4 * hidden, hidden),
        "B": _random(rng, 1, 4 * hidden),
    }
    x = ops.parameter([batch, 1, inputs], np.float32, name="x")
    h0 = ops.parameter([batch, 1, hidden], np.float32, name="h0")
    c0 = ops.parameter([batch, 1, hidden], np.float32, name="c0")
    lengths = ops.constant(np.array([1] * batch, dtype=np.int32))
    seq = ops.lstm_sequence(
        x, h0, c0, lengths, *(ops.constant(w) for w in weights.values()), hidden, "forward"
    )
    results = [ops.result(seq.output(i), name=n) for i, n in enumerate(("y", "ho", "co"))]
    model = ov.Model(results, [x, h0, c0], "lstm")
    manager = passes.Manager()
    manager.register_pass(passes.LowLatency2())
    manager.run_passes(model)
    return Built(model, weights)


def gru_tensor_iterator_low_latency(steps: int = 2, inputs: int = 3, hidden: int = 4) -> Built:
    """A GRUSequence unrolled into a TensorIterator, then made stateful by LowLatency2."""
    rng = np.random.default_rng(2)
    weights = {
        "W": _random(rng, 1, 3 * hidden, inputs),
        "R": _random(rng, 1, 3 * hidden, hidden),
        "B": _random(rng, 1, 3 * hidden),
    }
    x = ops.parameter([1, steps, inputs], np.float32, name="x")
    h0 = ops.parameter([1, 1, hidden], np.float32, name="h0")
    lengths = ops.constant(np.array([steps], dtype=np.int32))
    seq = ops.gru_sequence(
        x, h0, lengths, *(ops.constant(w) for w in weights.values()), hidden, "forward"
    )
    results = [ops.result(seq.output(0), name="y"), ops.result(seq.output(1), name="ho")]
    model = ov.Model(results, [x, h0], "gru")
    offline.convert_sequence_to_tensor_iterator_transformation(model)
    manager = passes.Manager()
    manager.register_pass(passes.LowLatency2())
    manager.run_passes(model)
    return Built(model, weights)


def make_stateful() -> Built:
    """MakeStateful turns the (state_in, state_out) Parameter/Result pair into a variable."""
    x = ops.parameter([1, 4], np.float32, name="x")
    state_in = ops.parameter([1, 4], np.float32, name="state_in")
    total = ops.add(x, state_in, name="sum")
    out = ops.result(ops.relu(total), name="out")
    state_out = ops.result(total, name="state_out")
    model = ov.Model([out, state_out], [x, state_in], "make_stateful")
    manager = passes.Manager()
    manager.register_pass(passes.MakeStateful({"state_in": "state_out"}))
    manager.run_passes(model)
    return Built(model)


# ---------------------------------------------------------------------------------------------
# Stateless models for ops, constants and ordering
# ---------------------------------------------------------------------------------------------


def many_ops() -> Built:
    """One of (nearly) every supported compute op, each feeding a Result."""
    x = ops.parameter([2, 6], np.float32, name="x")
    flags = ops.parameter([2, 6], np.bool_, name="flags")
    ints = ops.parameter([2, 6], np.int32, name="ints")
    index = ops.constant(np.array([0, -1], np.int64))
    nodes = [
        ops.subtract(x, x),
        ops.multiply(x, x),
        ops.divide(x, x),
        ops.divide(ints, ints),
        ops.mod(ints, ints),
        ops.floor_mod(ints, ints),
        ops.power(x, x),
        ops.maximum(x, x),
        ops.minimum(x, x),
        ops.matmul(x, x, False, True),
        ops.relu(x),
        ops.sigmoid(x),
        ops.tanh(x),
        ops.exp(x),
        ops.clamp(x, -1.5, 2.0),
        ops.convert(x, np.float16),
        ops.split(x, 1, 2),
        ops.variadic_split(x, 1, [2, 4]),
        ops.strided_slice(x, [0, 1], [2, 5], [1, 2], [0, 1], [1, 0]),
        opset8.slice(x, [0], [1], [1], [1]),
        ops.concat([x, x], 1),
        ops.reshape(x, [3, 4], True),
        ops.squeeze(ops.unsqueeze(x, [0]), [0]),
        ops.transpose(x, [1, 0]),
        ops.shape_of(x),
        opset3.shape_of(x, "i32"),
        opset8.gather(x, index, 0, 0),
        opset3.broadcast(x, ops.constant(np.array([3, 2, 6], np.int64))),
        ops.greater(x, x),
        ops.less(x, x),
        ops.equal(x, x),
        ops.select(flags, x, x),
        ops.logical_not(flags),
        ops.logical_and(flags, flags),
        ops.logical_or(flags, flags),
        ops.reduce_sum(x, [1], True),
        ops.reduce_mean(x, [1], False),
        ops.reduce_max(x, [1], False),
    ]
    results = [ops.result(out) for node in nodes for out in node.outputs()]
    return Built(ov.Model(results, [x, flags, ints], "many_ops"))


def all_element_types() -> Built:
    """Constants of every supported element type (odd sizes, so payloads are unaligned)."""
    constants = {
        "i8": np.array([-128, 0, 127], np.int8),
        "f32": np.array([np.nan, -0.0, 1e-45, 3.4e38, -np.inf], np.float32),
        "u8": np.array([0, 255, 7], np.uint8),
        "f16": np.array([[1.0, -65504.0, 6e-8]], np.float16),
        "i16": np.array([-32768, 32767, 1], np.int16),
        "u16": np.array([0, 65535, 3], np.uint16),
        "f64": np.array([np.pi, -1e300, np.nan], np.float64),
        "i32": np.array([[-(2**31), 2**31 - 1]], np.int32),
        "u32": np.array([0, 2**32 - 1, 5], np.uint32),
        "i64": np.array([-(2**63), 2**63 - 1, 0], np.int64),
        "u64": np.array([0, 2**64 - 1, 9], np.uint64),
        "boolean": np.array([[True, False], [False, True]]),
        "scalar": np.array(2.5, np.float32),
        "empty": np.zeros((0, 4), np.float32),
        "bf16": np.array([1.5, -2.0, np.nan, 3.0e38], ml_dtypes.bfloat16),
    }
    nodes = {k: ops.constant(v) for k, v in constants.items() if k != "bf16"}
    nodes["bf16"] = bf16_constant(constants["bf16"])
    nodes["f32_again"] = ops.constant(constants["f32"])  # same payload: shares the offset
    constants["f32_again"] = constants["f32"]
    results = [ops.result(node, name=f"c_{k}") for k, node in nodes.items()]
    return Built(ov.Model(results, [], "constants"), constants)


def ordering() -> Built:
    """Parameters and Results declared in an order that differs from their use."""
    a = ops.parameter([2], np.float32, name="a")
    b = ops.parameter([2], np.float32, name="b")
    c = ops.parameter([2], np.float32, name="c")
    s1, s2, s3 = ops.add(a, b, name="s1"), ops.multiply(b, c, name="s2"), ops.subtract(c, a)
    results = [ops.result(s3, name="r3"), ops.result(s1, name="r1"), ops.result(s2, name="r2")]
    return Built(ov.Model(results, [c, a, b], "ordering"))


# ---------------------------------------------------------------------------------------------
# Hand-written IR, for inputs OpenVINO's API refuses to build
# ---------------------------------------------------------------------------------------------

_PRECISION = {
    "f32": "FP32",
    "f16": "FP16",
    "i32": "I32",
    "i64": "I64",
    "boolean": "BOOL",
    "dynamic": "UNSPECIFIED",
}

Ports = Sequence[tuple[str, Sequence[int]]]


@dataclass
class IrText:
    """Builds IR v11 text layer by layer: `layer()` returns the layer id; ports are numbered
    inputs first (0..n-1), then outputs."""

    name: str = "hand_written"
    version: int = 11
    layers: list[str] = field(default_factory=list)
    edges: list[tuple[int, int, int, int]] = field(default_factory=list)
    weights: bytearray = field(default_factory=bytearray)

    def layer(
        self,
        type_: str,
        *,
        version: str = "opset1",
        name: str | None = None,
        data: dict[str, str] | None = None,
        inputs: Ports = (),
        outputs: Ports = (),
    ) -> int:
        layer_id = len(self.layers)
        lines = [
            f'\t\t<layer id="{layer_id}" name="{name or f"{type_}_{layer_id}"}" '
            f'type="{type_}" version="{version}">'
        ]
        if data is not None:
            attrs = " ".join(f'{k}="{v}"' for k, v in data.items())
            lines.append(f"\t\t\t<data {attrs} />")
        port = 0
        for tag, ports in (("input", inputs), ("output", outputs)):
            if not ports:
                continue
            lines.append(f"\t\t\t<{tag}>")
            for element, dims in ports:
                lines.append(f'\t\t\t\t<port id="{port}" precision="{_PRECISION[element]}">')
                lines.extend(f"\t\t\t\t\t<dim>{d}</dim>" for d in dims)
                lines.append("\t\t\t\t</port>")
                port += 1
            lines.append(f"\t\t\t</{tag}>")
        lines.append("\t\t</layer>")
        self.layers.append("\n".join(lines))
        return layer_id

    def parameter(self, name: str, dims: Sequence[int], element: str = "f32") -> int:
        shape = ",".join(str(d) for d in dims)
        return self.layer(
            "Parameter",
            name=name,
            data={"shape": shape, "element_type": element},
            outputs=[(element, dims)],
        )

    def const(self, array: np.ndarray, element: str = "f32") -> int:
        offset = len(self.weights)
        self.weights += array.tobytes()
        data = {
            "element_type": element,
            "shape": ", ".join(str(d) for d in array.shape),
            "offset": str(offset),
            "size": str(array.nbytes),
        }
        return self.layer("Const", data=data, outputs=[(element, array.shape)])

    def result(self, source: int, port: int, element: str, dims: Sequence[int]) -> int:
        layer_id = self.layer("Result", inputs=[(element, dims)])
        self.edge(source, port, layer_id, 0)
        return layer_id

    def edge(self, from_layer: int, from_port: int, to_layer: int, to_port: int) -> None:
        self.edges.append((from_layer, from_port, to_layer, to_port))

    def text(self) -> str:
        edges = "\n".join(
            f'\t\t<edge from-layer="{a}" from-port="{b}" to-layer="{c}" to-port="{d}" />'
            for a, b, c, d in self.edges
        )
        return (
            f'<?xml version="1.0"?>\n<net name="{self.name}" version="{self.version}">\n'
            f"\t<layers>\n" + "\n".join(self.layers) + "\n\t</layers>\n"
            f"\t<edges>\n{edges}\n\t</edges>\n</net>\n"
        )

    def write(self, directory: Path, name: str = "hand_written") -> Path:
        xml = directory / f"{name}.xml"
        xml.write_text(self.text())
        xml.with_suffix(".bin").write_bytes(bytes(self.weights))
        return xml


def copy_model(xml: Path, directory: Path, name: str) -> Path:
    """Copy a saved model (xml + bin) under a new name."""
    out = directory / f"{name}.xml"
    shutil.copy(xml, out)
    shutil.copy(xml.with_suffix(".bin"), out.with_suffix(".bin"))
    return out
