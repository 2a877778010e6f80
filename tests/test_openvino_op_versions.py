"""The other opset versions of layer types tosa-state imports (issue 16, item 2): each against
the OpenVINO runtime on a model built with its Python opset API at test time, and the importer's
errors for bad attributes."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from xml.etree import ElementTree

import numpy as np
import openvino as ov
import openvino.opset1 as opset1
import openvino.opset2 as opset2
import openvino.opset8 as opset8
import openvino.opset14 as opset14
import openvino.opset15 as opset15
import openvino.opset16 as opset16
import pytest
from openvino.utils.node_factory import NodeFactory
from test_error_paths import _edit, opt_xml_fails
from test_openvino_differential import Scenario, _save, run_differential

import tosa_state

pytestmark = pytest.mark.peers

Inputs = Callable[[np.random.Generator, int], list[np.ndarray]]


def _stateless(xml: Path, inputs: Inputs, key: str) -> None:
    scenario = Scenario(steps=2, reset_all=frozenset(), reset_one=frozenset(),
                        set_all=frozenset(), inputs=inputs)
    run_differential(xml, scenario, key)


def _version(node: object) -> str:
    return node.get_type_info().version_id  # type: ignore[attr-defined]


# ---------------------------------------------------------------------------------------------
# Range-1: no output_type, the inputs' element type
# ---------------------------------------------------------------------------------------------


def test_range_1(openvino_runtime: None, tmp_path: Path) -> None:
    x = opset1.parameter([2, 3], np.float32, name="x")
    n = opset1.parameter([2, 4], np.int32, name="n")
    s = opset1.constant

    floats = opset1.range(s(np.float32(0.5)), s(np.float32(4)), s(np.float32(0.75)))
    down = opset1.range(s(np.float32(3)), s(np.float32(-1.2)), s(np.float32(-0.5)))
    ints = opset1.range(s(np.int32(7)), s(np.int32(-5)), s(np.int32(-3)))
    empty = opset1.range(s(np.int64(4)), s(np.int64(2)), s(np.int64(1)))
    positions = opset1.range(  # bounds from a shape: [0, 1, ..., 4)
        s(np.int64(0)), opset1.gather(opset1.shape_of(n), s(np.int64(1)), s(np.int64(0))),
        s(np.int64(1)))
    assert {_version(r) for r in (floats, down, ints, empty, positions)} == {"opset1"}
    outputs = [opset1.add(x, opset1.reduce_sum(floats, s(np.int64(0)), False)), down, ints,
               empty, positions]
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)], [x, n],
                     "range1")
    xml = _save(model, tmp_path)
    assert 'type="Range" version="opset1"' in xml.read_text()
    _stateless(xml, lambda rng, step: [rng.standard_normal((2, 3)).astype(np.float32),
                                       rng.integers(0, 9, (2, 4)).astype(np.int32)], "range-1")


# ---------------------------------------------------------------------------------------------
# Squeeze-15 (allow_axis_skip); Squeeze-1 / -15 skip an axis whose dim is statically not 1
# ---------------------------------------------------------------------------------------------


def test_squeeze_15(openvino_runtime: None, tmp_path: Path) -> None:
    x = opset1.parameter([2, 1, 3, 1], np.float32, name="x")

    def axes(*values: int) -> object:
        return opset1.constant(np.array(values, np.int64))

    outputs = [
        opset15.squeeze(x, axes(1, 2), True),  # 3 is skipped: [2, 3, 1]
        opset15.squeeze(x, axes(-1, 0), True),  # [2, 1, 3]
        opset15.squeeze(x, axes(1, 3), False),  # [2, 3]
        opset15.squeeze(x, None, True),  # every 1: [2, 3]
        opset1.squeeze(x, axes(0, 1)),  # Squeeze-1 skips the 2 as well: [2, 3, 1]
    ]
    assert [_version(o) for o in outputs] == ["opset15"] * 4 + ["opset1"]
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)], [x],
                     "squeeze15")
    xml = _save(model, tmp_path)
    assert xml.read_text().count('allow_axis_skip="true"') == 3
    _stateless(xml, lambda rng, step: [rng.standard_normal((2, 1, 3, 1)).astype(np.float32)],
               "squeeze-15")


def test_squeeze_15_dynamic_axis_skip_names_the_layer(tmp_path: Path) -> None:
    """A dynamic dim that may be skipped leaves the result's rank to run time: OpenVINO's CPU
    plugin refuses the model ("doesn't support Squeeze operation with dynamic rank"), so do
    we, naming the layer."""
    x = opset1.parameter([2, -1, 3], np.float32, name="x")
    squeezed = opset15.squeeze(x, opset1.constant(np.array([1], np.int64)), True, name="layer")
    xml = _save(ov.Model([opset1.result(squeezed)], [x], "m"), tmp_path)
    opt_xml_fails(xml, "name='layer' type='Squeeze' (opset15): 'openvino.squeeze' op could not "
                  "be converted to TOSA: allow_axis_skip with a dynamic "
                  "dim in axes [1] of [2,?,3]: the result's rank is known only at run time "
                  "(OpenVINO's CPU plugin refuses it too)", "-p", "convert-openvino-to-tosa")


# ---------------------------------------------------------------------------------------------
# Broadcast-1: numpy, explicit (`none` in the IR), pdpd (mode.auto_broadcast_axis)
# ---------------------------------------------------------------------------------------------


def _pdpd(data: object, target: list[int], axis: int, name: str | None = None) -> object:
    """A Broadcast-1 in pdpd mode (the Python opset API has no argument for its axis)."""
    node = NodeFactory("opset1").create(
        "Broadcast", [data.output(0), opset1.constant(np.array(target, np.int64)).output(0),  # type: ignore[attr-defined]
                      opset1.constant(np.uint8(0)).output(0)],
        {"mode": "pdpd", "mode.auto_broadcast_axis": axis})
    if name is not None:
        node.set_friendly_name(name)
    return node


def test_broadcast_1(openvino_runtime: None, tmp_path: Path) -> None:
    x = opset1.parameter([2, 1, 3], np.float32, name="x")
    v = opset1.parameter([3], np.int32, name="v")
    like = opset1.parameter([4, 2, 5, 3], np.float32, name="like")
    s = opset1.constant

    def shape(*dims: int) -> object:
        return s(np.array(dims, np.int64))

    outputs = [
        opset1.broadcast(x, shape(4, 2, 5, 3)),  # numpy
        opset1.broadcast(v, shape(2, 3)),
        opset1.broadcast(x, opset1.shape_of(like)),  # a target computed from a shape
        opset1.broadcast(v, shape(3, 4, 2), s(np.array([0], np.int64)), "explicit"),
        opset1.broadcast(x, shape(2, 4, 1, 3), s(np.array([0, 2, 3], np.int64)), "explicit"),
        _pdpd(x, [2, 4, 3], 0),  # same rank: a target dim of 1 takes the input's
        _pdpd(x, [5, 2, 4, 1], 1),
        _pdpd(v, [2, 3], -1),  # right-aligned
    ]
    assert {_version(o) for o in outputs} == {"opset1"}
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)],
                     [x, v, like], "broadcast1")
    xml = _save(model, tmp_path)
    text = xml.read_text()
    assert text.count('mode="pdpd"') == 3 and text.count('mode="none"') == 2
    _stateless(xml, lambda rng, step: [rng.standard_normal((2, 1, 3)).astype(np.float32),
                                       rng.integers(-9, 9, 3).astype(np.int32),
                                       rng.standard_normal((4, 2, 5, 3)).astype(np.float32)],
               "broadcast-1")


def test_broadcast_1_pdpd_axis_not_at_the_end_names_the_layer(tmp_path: Path) -> None:
    """OpenVINO refuses a pdpd input that does not reach the target's last dim."""
    xml = _model(tmp_path, lambda x: _pdpd(x, [4, 2, 3], 1, "layer"))
    _edit(xml, 'mode.auto_broadcast_axis="1"', 'mode.auto_broadcast_axis="0"')
    opt_xml_fails(xml, "name='layer' type='Broadcast' (opset1): 'openvino.broadcast' op could "
                  "not be converted to TOSA: pdpd axis 0 does not align the input's 2 dims with "
                  "the end of the target shape's 3", "-p", "convert-openvino-to-tosa")


# ---------------------------------------------------------------------------------------------
# MVN-1 (opset2): across_channels, normalize_variance, eps inside the square root
# ---------------------------------------------------------------------------------------------


def test_mvn_1(openvino_runtime: None, tmp_path: Path) -> None:
    x = opset1.parameter([2, 3, 4, 5], np.float32, name="x")
    y = opset1.parameter([2, 3, 6], np.float32, name="y")
    outputs = [
        opset2.mvn(x, True, True, 0.5),  # a large eps: inside the sqrt, as OpenVINO
        opset2.mvn(x, False, True, 1e-9),
        opset2.mvn(x, False, False, 1e-9),
        opset2.mvn(y, True, True, 0.25),
        opset2.mvn(y, False, True, 1e-3),
    ]
    assert {_version(o) for o in outputs} == {"opset2"}
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)], [x, y],
                     "mvn1")
    xml = _save(model, tmp_path)
    assert xml.read_text().count('type="MVN" version="opset2"') == 5
    _stateless(xml, lambda rng, step: [rng.standard_normal((2, 3, 4, 5)).astype(np.float32),
                                       rng.standard_normal((2, 3, 6)).astype(np.float32)],
               "mvn-1")


def test_mvn_1_reduction_axes_decide_across_channels(openvino_runtime: None,
                                                    tmp_path: Path) -> None:
    """OpenVINO's CPU plugin takes `across_channels` from non-empty `reduction_axes` (axis 1
    in them or not); without them, from the attribute."""
    x = opset1.parameter([2, 3, 4], np.float32, name="x")
    outputs = [opset2.mvn(x, False, True, 0.5), opset2.mvn(x, True, True, 0.5)]
    xml = _save(ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)], [x],
                         "mvn1"), tmp_path)
    _edit(xml, 'across_channels="false" normalize_variance="true" reduction_axes="2"',
          'across_channels="false" normalize_variance="true" reduction_axes="1"')
    _edit(xml, 'across_channels="true" normalize_variance="true" reduction_axes="1, 2"',
          'across_channels="true" normalize_variance="true"')
    _stateless(xml, lambda rng, step: [rng.standard_normal((2, 3, 4)).astype(np.float32)],
               "mvn-1 reduction_axes")


# ---------------------------------------------------------------------------------------------
# MaxPool-14, AvgPool-14, AvgPool-16: rounding_type ceil_torch
# ---------------------------------------------------------------------------------------------

POOLS = [  # strides, pads_begin, pads_end, kernel: ceil_torch drops a last window in the padding
    ([2, 2], [1, 1], [1, 1], [2, 2]),
    ([2, 3], [1, 0], [2, 1], [3, 2]),
    ([3, 2], [0, 1], [1, 1], [2, 3]),
    ([1, 2], [0, 0], [0, 0], [2, 2]),  # no padding: as ceil
]


def test_pools_ceil_torch(openvino_runtime: None, tmp_path: Path) -> None:
    x = opset1.parameter([1, 2, 7, 8], np.float32, name="x")
    line = opset1.parameter([2, 3, 9], np.float32, name="line")
    outputs = []
    for strides, begin, end, kernel in POOLS:
        outputs += [opset14.max_pool(x, strides, [1, 1], begin, end, kernel, rounding).output(0)
                    for rounding in ("ceil_torch", "ceil", "floor")]
        outputs += [opset14.avg_pool(x, strides, begin, end, kernel, True, rounding)
                    for rounding in ("ceil_torch", "floor")]  # (ceil: windows in the padding)
        # (OpenVINO's CPU plugin crashes on an AvgPool-16 without dilations)
        outputs += [opset16.avg_pool(x, strides, begin, end, kernel, False, rounding,
                                     dilations=[1, 1])
                    for rounding in ("ceil_torch", "ceil", "floor")]
    outputs += [  # 1-D
        opset14.max_pool(line, [2], [1], [1], [1], [2], "ceil_torch").output(0),
        opset16.avg_pool(line, [2], [1], [1], [2], False, "ceil_torch", dilations=[1]),
    ]
    assert {_version(o.get_node()) for o in map(_output, outputs)} == {"opset14", "opset16"}
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)],
                     [x, line], "pools")
    xml = _save(model, tmp_path)
    assert xml.read_text().count('rounding_type="ceil_torch"') == 3 * len(POOLS) + 2
    _stateless(xml, lambda rng, step: [rng.standard_normal((1, 2, 7, 8)).astype(np.float32),
                                       rng.standard_normal((2, 3, 9)).astype(np.float32)],
               "pools ceil_torch")


def _output(node: object) -> object:
    return node if isinstance(node, ov.Output) else node.output(0)  # type: ignore[attr-defined]


DILATED = [  # kernel, strides, dilations, pads_begin, pads_end, rounding_type
    ([2, 3], [1, 2], [2, 2], [1, 0], [1, 1], "floor"),
    ([3, 2], [2, 1], [2, 3], [1, 1], [0, 1], "ceil"),
    ([2, 2], [3, 2], [3, 2], [1, 1], [1, 1], "ceil_torch"),
    ([3, 3], [2, 2], [2, 2], [2, 2], [2, 2], "ceil"),
]


def test_dilated_pools(openvino_runtime: None, tmp_path: Path) -> None:
    """Dilations (MaxPool-8 / -14, AvgPool-16): a strided window per kernel tap."""
    x = opset1.parameter([1, 2, 9, 10], np.float32, name="x")
    line = opset1.parameter([2, 3, 11], np.float32, name="line")
    outputs = []
    for kernel, strides, dilations, begin, end, rounding in DILATED:
        outputs += [
            opset14.max_pool(x, strides, dilations, begin, end, kernel, rounding).output(0),
            opset16.avg_pool(x, strides, begin, end, kernel, True, rounding,
                             dilations=dilations),
            opset16.avg_pool(x, strides, begin, end, kernel, False, rounding,
                             dilations=dilations),
        ]
    outputs += [  # 1-D; same_upper padding computed with the dilation
        opset8.max_pool(line, [2], [3], [0], [0], [3], "floor", "same_upper").output(0),
        opset16.avg_pool(line, [1], [1], [2], [2], True, "ceil", dilations=[2]),
    ]
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)],
                     [x, line], "dilated")
    xml = _save(model, tmp_path)
    _stateless(xml, lambda rng, step: [rng.standard_normal((1, 2, 9, 10)).astype(np.float32),
                                       rng.standard_normal((2, 3, 11)).astype(np.float32)],
               "dilated pools")


# ---------------------------------------------------------------------------------------------
# LSTMCell-1: peepholes P, input_forget, clip, activations
# ---------------------------------------------------------------------------------------------

N, INPUT, HIDDEN = 2, 3, 4


def _lstm_cell_1(x: object, h: object, c: object, weights: list[np.ndarray],
                 input_forget: bool = False, clip: float = 0.0,
                 activations: tuple[str, ...] = ("sigmoid", "tanh", "tanh"),
                 peepholes: object | None = None) -> object:
    """An LSTMCell-1 with W, R, B (, P) = `weights` (the Python opset API takes no P), or
    the P input `peepholes` (`ov.save_model` drops a constant P from the IR)."""
    inputs = [x, h, c, *map(opset1.constant, weights)]
    return NodeFactory("opset1").create(
        "LSTMCell", [v.output(0) for v in inputs + ([peepholes] if peepholes else [])],  # type: ignore[attr-defined]
        {"hidden_size": HIDDEN, "input_forget": input_forget, "clip": clip,
         "activations": list(activations), "activations_alpha": [], "activations_beta": [],
         "weights_format": "fico"})


def _lstm_weights(rng: np.random.Generator, peepholes: bool) -> list[np.ndarray]:
    shapes = [(4 * HIDDEN, INPUT), (4 * HIDDEN, HIDDEN), (4 * HIDDEN,), (3 * HIDDEN,)]
    weights = [rng.standard_normal(s).astype(np.float32) for s in shapes]
    return weights if peepholes else [*weights[:3], np.zeros(3 * HIDDEN, np.float32)]


def _lstm_parameters() -> list[object]:
    return [opset1.parameter(shape, np.float32, name=name) for name, shape in
            (("x", [N, INPUT]), ("h", [N, HIDDEN]), ("c", [N, HIDDEN]))]


def _lstm_inputs(rng: np.random.Generator, step: int) -> list[np.ndarray]:
    return [rng.standard_normal(shape).astype(np.float32)
            for shape in ((N, INPUT), (N, HIDDEN), (N, HIDDEN))]


def test_lstm_cell_1(openvino_runtime: None, tmp_path: Path) -> None:
    """Against OpenVINO's CPU plugin where it computes LSTMCell-1 (zero peepholes, no
    input_forget: it drops both, see the next test): clip and activations."""
    rng = np.random.default_rng(1)
    x, h, c = _lstm_parameters()
    cells = [
        opset1.lstm_cell(x, h, c, *_lstm_weights(rng, False)[:3], HIDDEN),  # P: a zero Const
        _lstm_cell_1(x, h, c, _lstm_weights(rng, False), clip=0.5),
        _lstm_cell_1(x, h, c, _lstm_weights(rng, False),
                     activations=("tanh", "relu", "sigmoid")),
    ]
    assert {_version(cell) for cell in cells} == {"opset1"}
    outputs = [cell.output(k) for cell in cells for k in (0, 1)]  # type: ignore[attr-defined]
    model = ov.Model([opset1.result(o, name=f"out{k}") for k, o in enumerate(outputs)], [x, h, c],
                     "lstm1")
    xml = _save(model, tmp_path)
    assert xml.read_text().count('type="LSTMCell" version="opset1"') == 3
    _stateless(xml, _lstm_inputs, "lstm-cell-1")


def _lstm_cell_1_reference(x: np.ndarray, h: np.ndarray, c: np.ndarray,
                           weights: list[np.ndarray], input_forget: bool, clip: float
                           ) -> tuple[np.ndarray, np.ndarray]:
    """OpenVINO's reference `lstm_cell_v1` (src/core/reference/.../lstm_cell.hpp): P split
    into f, i, o; `P_o` multiplies the new cell; `input_forget`: i = 1 - f."""
    w, r, b, p = weights
    pre_f, pre_i, pre_c, pre_o = np.split(x @ w.T + h @ r.T + b, 4, axis=1)
    p_f, p_i, p_o = np.split(p, 3)

    def clipped(v: np.ndarray) -> np.ndarray:
        return np.clip(v, -clip, clip) if clip > 0 else v

    def sigmoid(v: np.ndarray) -> np.ndarray:
        return 1 / (1 + np.exp(-v))

    f = sigmoid(clipped(pre_f + p_f * c))
    i = 1 - f if input_forget else sigmoid(clipped(pre_i + p_i * c))
    cell = f * c + i * np.tanh(clipped(pre_c))
    o = sigmoid(clipped(pre_o + p_o * cell))
    return o * np.tanh(cell), cell


def _connect_peepholes(xml: Path) -> None:
    """Edits P (the Parameter `p`) back in as the LSTMCell's input 6: `ov.save_model` writes
    an LSTMCell-1 without it."""
    tree = ElementTree.parse(xml)
    layers = tree.getroot().find("layers")
    assert layers is not None
    source = next(x for x in layers if x.get("name") == "p")
    cell = next(x for x in layers if x.get("type") == "LSTMCell")
    assert cell.get("version") == "opset1"
    port = ElementTree.SubElement(cell.find("input"), "port",  # type: ignore[arg-type]
                                  {"id": "6", "precision": "FP32"})
    ElementTree.SubElement(port, "dim").text = str(3 * HIDDEN)
    ElementTree.SubElement(tree.getroot().find("edges"), "edge",  # type: ignore[arg-type]
                           {"from-layer": source.get("id", ""), "from-port": "0",
                            "to-layer": cell.get("id", ""), "to-port": "6"})
    tree.write(xml)


@pytest.mark.parametrize("input_forget", [False, True])
@pytest.mark.parametrize("clip", [0.0, 0.6])
def test_lstm_cell_1_peepholes(tmp_path: Path, input_forget: bool, clip: float) -> None:
    """Peepholes and input_forget against OpenVINO's reference formula: the CPU plugin (the
    only device of the wheel, and LSTMCell-1 has no `evaluate`) drops both, silently
    (checked with openvino 2026.4.1)."""
    rng = np.random.default_rng(2)
    weights = _lstm_weights(rng, True)
    parameters = [*_lstm_parameters(), opset1.parameter([3 * HIDDEN], np.float32, name="p")]
    cell = _lstm_cell_1(*parameters[:3], weights[:3], input_forget, clip, peepholes=parameters[3])
    xml = _save(ov.Model([opset1.result(cell.output(0), name="h1"),  # type: ignore[attr-defined]
                          opset1.result(cell.output(1), name="c1")],  # type: ignore[attr-defined]
                         parameters, "lstm1"), tmp_path)
    _connect_peepholes(xml)
    assert len(ov.Core().read_model(xml).inputs) == 4  # OpenVINO reads P back
    request = tosa_state.compile_model(tosa_state.read_model(xml)).create_infer_request()
    for step in range(3):
        x, h, c = _lstm_inputs(rng, step)
        ours = request.infer({"x": x, "h": h, "c": c, "p": weights[3]})
        expected = _lstm_cell_1_reference(x, h, c, weights, input_forget, clip)
        for got, want in zip((ours[0], ours[1]), expected, strict=True):
            np.testing.assert_allclose(got, want, rtol=0, atol=5e-7)  # measured 8.9e-8


def _model(tmp_path: Path, node: Callable[[object], object],
           shape: tuple[int, ...] = (2, 3)) -> Path:
    x = opset1.parameter(list(shape), np.float32, name="x")
    return _save(ov.Model([opset1.result(node(x))], [x], "m"), tmp_path)


def _named(node: object, name: str) -> object:
    node.set_friendly_name(name)  # type: ignore[attr-defined]
    return node.output(0)  # type: ignore[attr-defined]


def _batch(x: object) -> object:
    """[2, 3] as [1, 2, 3] (N, C, W) for a 1-D pooling."""
    return opset1.unsqueeze(x, opset1.constant(np.int64(0)))


BAD_LAYERS = [
    (lambda x: opset1.add(x, opset1.convert(opset1.range(
        opset1.constant(np.int64(0)), opset1.constant(np.int64(3)),
        opset1.constant(np.int64(1)), name="layer"), np.float32)),
     '<port id="3" precision="I64"', '<port id="3" precision="I32"',
     "name='layer' type='Range' (opset1): Range-1 takes start, stop and step of the result's "
     "element type, got i64, i64, i64 for i32"),
    (lambda x: opset1.broadcast(x, opset1.constant(np.array([4, 2, 3], np.int64)),
                                name="layer"),
     'mode="numpy"', 'mode="bidirectional"',
     "name='layer' type='Broadcast' (opset1): mode='bidirectional' is not a Broadcast-1 mode "
     "(numpy, explicit, pdpd)"),
    (lambda x: _pdpd(x, [4, 2, 3], 1, "layer"),
     'mode.auto_broadcast_axis="1"', 'mode.auto_broadcast_axis="-2"',
     "name='layer' type='Broadcast' (opset1): mode.auto_broadcast_axis=-2 must be -1 or a "
     "non-negative axis"),
    (lambda x: opset2.mvn(x, True, True, 1e-5, name="layer"), 'reduction_axes="1"',
     'reduction_axes="1, 2"',
     "name='layer' type='MVN' (opset2): reduction_axes [1, 2] are out of range for rank 2"),
    (lambda x: opset2.mvn(x, True, True, 1e-5, name="layer"), 'eps="1.0000000000000001e-05"',
     'eps="tiny"', "name='layer' type='MVN' (opset2): attribute eps='tiny' is not a number"),
    (lambda x: opset14.avg_pool(_batch(x), [1], [0], [0], [2], False, "ceil_torch",
                                name="layer"),
     'version="opset14"', 'version="opset1"',
     "name='layer' type='AvgPool' (opset1): rounding_type 'ceil_torch' is not floor or ceil "
     "(ceil_torch came with opset14)"),
    (lambda x: opset14.max_pool(_batch(x), [1], [1], [0], [0], [2], "ceil_torch",
                                name="layer").output(0),
     'version="opset14"', 'version="opset8"',
     "name='layer' type='MaxPool' (opset8): rounding_type 'ceil_torch' is not floor or ceil "
     "(ceil_torch came with opset14)"),
    (lambda x: opset16.avg_pool(_batch(x), [1], [0], [0], [2], False, "ceil_torch",
                                name="layer"),
     'rounding_type="ceil_torch"', 'rounding_type="round"',
     "name='layer' type='AvgPool' (opset16): rounding_type 'round' is not floor or ceil"),
    (lambda x: _named(_lstm_cell_1(x, opset1.constant(np.zeros((2, 4), np.float32)),
                                   opset1.constant(np.zeros((2, 4), np.float32)),
                                   _lstm_weights(np.random.default_rng(0), True)), "layer"),
     'weights_format="fico"', 'weights_format="icof"',
     "name='layer' type='LSTMCell' (opset1): weights_format 'icof' is not fico (OpenVINO's "
     "reference takes only fico)"),
    (lambda x: _named(_lstm_cell_1(x, opset1.constant(np.zeros((2, 4), np.float32)),
                                   opset1.constant(np.zeros((2, 4), np.float32)),
                                   _lstm_weights(np.random.default_rng(0), True)), "layer"),
     'input_forget="false"', 'input_forget="2"',
     "name='layer' type='LSTMCell' (opset1): attribute input_forget='2' is not a boolean"),
    (lambda x: opset15.squeeze(x, opset1.constant(np.array([1], np.int64)), True, name="layer"),
     'allow_axis_skip="true"', 'allow_axis_skip="yes"',
     "name='layer' type='Squeeze' (opset15): attribute allow_axis_skip='yes' is not a boolean"),
]


@pytest.mark.parametrize(("build", "old", "new", "message"), BAD_LAYERS)
def test_bad_layers_name_the_layer(tmp_path: Path, build: Callable[[object], object],
                                   old: str, new: str, message: str) -> None:
    xml = _model(tmp_path, build)
    _edit(xml, old, new)
    opt_xml_fails(xml, message)
