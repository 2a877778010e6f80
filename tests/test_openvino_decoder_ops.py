"""The ops of decoder LLMs against OpenVINO: Range-4, BitwiseAnd / Or / Xor / Not-13, LessEqual,
GreaterEqual, NotEqual, LogicalXor, ScaledDotProductAttention-13, and unsigned / 64-bit integer
arithmetic with wrap-around.

Floats, booleans and i32 are compared with the CPU plugin (`run_differential`, multi-step with
resets). The CPU plugin is no oracle for integer overflow (it saturates u8 and computes u32 /
u64 / i64 in 32 bits, see `peers/openvino_runtime.py`): wrap-around results are compared with
OpenVINO's reference implementations (the `evaluate` of each op, which `ConstantFolding` runs)
and, for the type / op pairs those do not implement, with numpy's wrap-around arithmetic (the
semantics of the specification).
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import openvino as ov
import openvino.opset13 as ops
import openvino.passes as passes
import pytest
from test_openvino_differential import Scenario, _save, run_differential

import tosa_state

pytestmark = pytest.mark.peers


def _infer(xml: Path, inputs: list[np.ndarray]) -> list[np.ndarray]:
    return list(tosa_state.compile_model(xml).create_infer_request().infer(inputs))


# ---------------------------------------------------------------------------------------------
# Range-4
# ---------------------------------------------------------------------------------------------

RANGES = [
    (np.int32(1), np.int64(9), np.int32(3), "i64"),  # mixed input types, as exports have
    (np.int64(5), np.int64(0), np.int64(-2), "i64"),
    (np.int64(3), np.int64(3), np.int64(1), "i32"),  # empty
    (np.float32(0.5), np.float32(5.2), np.float32(1.5), "i32"),  # bounds truncated first
    (np.float32(-2.7), np.float32(3.9), np.float32(1.3), "i64"),
    (np.float32(0.1), np.float32(0.35), np.float32(0.05), "f32"),
    (np.int32(0), np.int32(5), np.int32(1), "u8"),
]


@pytest.mark.parametrize("start, stop, step, output_type", RANGES)
def test_range(openvino_runtime: None, tmp_path: Path, start: np.generic, stop: np.generic,
               step: np.generic, output_type: str) -> None:
    x = ops.parameter([1], np.float32, name="x")
    bounds = [ops.constant(np.array(v)) for v in (start, stop, step)]
    values = ops.range(*bounds, output_type=output_type)
    model = ov.Model([ops.result(values, name="range"), ops.result(x, name="x_out")], [x])
    xml = _save(model, tmp_path)
    # OpenVINO folds a constant Range with its reference implementation when it compiles.
    want = ov.Core().compile_model(str(xml), "CPU")([np.zeros(1, np.float32)])[0]
    (got, _) = _infer(xml, [np.zeros(1, np.float32)])
    assert got.dtype == want.dtype
    np.testing.assert_array_equal(got, want)


def test_a_runtime_range_with_a_static_factor_passes_the_table(openvino_runtime: None,
                                                                tmp_path: Path) -> None:
    """`[0, 256 * n)` (gemma3n's per-layer inputs) is n rows of 256: 40 * 256 = 10240
    positions, past the 8192 of `RANGE_CAPACITY`, as OpenVINO computes them."""
    x = ops.parameter([-1], np.float32, name="x")
    length = ops.multiply(ops.shape_of(x), ops.constant(np.array([256], np.int64)))
    stop = ops.squeeze(length, ops.constant(np.array([0], np.int64)))
    values = ops.range(ops.constant(np.int64(0)), stop, ops.constant(np.int64(1)), "i64")
    xml = _save(ov.Model([ops.result(values, name="range")], [x]), tmp_path)
    inputs = [np.zeros(40, np.float32)]
    want = ov.Core().compile_model(str(xml), "CPU")(inputs)[0]
    (got,) = _infer(xml, inputs)
    assert want.shape == (10240,)
    np.testing.assert_array_equal(got, want)


# ---------------------------------------------------------------------------------------------
# Comparisons, logical and bitwise ops (CPU plugin oracle)
# ---------------------------------------------------------------------------------------------


def comparison_model() -> object:
    a = ops.parameter([3, 4], np.int32, name="a")
    b = ops.parameter([4], np.int32, name="b")
    f = ops.parameter([3, 1], np.float32, name="f")
    g = ops.parameter([4], np.float32, name="g")
    p = ops.parameter([3, 4], np.bool_, name="p")
    q = ops.parameter([1, 4], np.bool_, name="q")
    outputs = [
        ops.less_equal(a, b), ops.greater_equal(a, b), ops.not_equal(a, b),
        ops.less_equal(f, g), ops.greater_equal(f, g), ops.not_equal(f, g),
        ops.less_equal(p, q), ops.greater_equal(p, q), ops.not_equal(p, q),
        ops.logical_xor(p, q),
        ops.bitwise_and(a, b), ops.bitwise_or(a, b), ops.bitwise_xor(a, b), ops.bitwise_not(a),
        ops.bitwise_and(p, q), ops.bitwise_or(p, q), ops.bitwise_xor(p, q), ops.bitwise_not(p),
    ]
    results = [ops.result(o, name=f"out{i}") for i, o in enumerate(outputs)]
    return ov.Model(results, [a, b, f, g, p, q], "comparisons")


def test_comparisons_and_bitwise(openvino_runtime: None, tmp_path: Path) -> None:
    def inputs(rng: np.random.Generator, step: int) -> list[np.ndarray]:
        a = rng.integers(-40, 40, (3, 4)).astype(np.int32)
        b = rng.integers(-40, 40, 4).astype(np.int32)
        b[0] = a[0, 0]  # equal elements too
        f = rng.integers(-2, 3, (3, 1)).astype(np.float32)
        g = rng.integers(-2, 3, 4).astype(np.float32)
        return [a, b, f, g, rng.random((3, 4)) < 0.5, rng.random((1, 4)) < 0.5]

    xml = _save(comparison_model(), tmp_path)
    run_differential(xml, Scenario(steps=4, inputs=inputs), "comparisons")


# ---------------------------------------------------------------------------------------------
# Unsigned and 64-bit integers: wrap-around
# ---------------------------------------------------------------------------------------------

BinaryNode = Callable[[object, object], object]
INTEGER_OPS: dict[str, tuple[BinaryNode, Callable[[np.ndarray, np.ndarray], np.ndarray]]] = {
    "add": (ops.add, np.add),
    "subtract": (ops.subtract, np.subtract),
    "multiply": (ops.multiply, np.multiply),
    "maximum": (ops.maximum, np.maximum),
    "minimum": (ops.minimum, np.minimum),
    "greater": (ops.greater, np.greater),
    "less": (ops.less, np.less),
    "greater_equal": (ops.greater_equal, np.greater_equal),
    "less_equal": (ops.less_equal, np.less_equal),
    "equal": (ops.equal, np.equal),
    "not_equal": (ops.not_equal, np.not_equal),
    "bitwise_and": (ops.bitwise_and, np.bitwise_and),
    "bitwise_or": (ops.bitwise_or, np.bitwise_or),
    "bitwise_xor": (ops.bitwise_xor, np.bitwise_xor),
}

COMPARISONS = ("greater", "less", "greater_equal", "less_equal", "equal", "not_equal")


def _extremes(dtype: np.dtype) -> tuple[np.ndarray, np.ndarray]:
    info = np.iinfo(dtype)
    top, low = int(info.max), int(info.min)
    a = np.array([top, top - 1, 3, low, low + 1, 7, 0, top // 2 + 3], dtype)
    b = np.array([2, top, 5, 1, top, 7, low, top // 2 + 9], dtype)
    return a, b


def _reference(node: BinaryNode, a: np.ndarray, b: np.ndarray) -> np.ndarray | None:
    """OpenVINO's reference result (the op's `evaluate`, run by ConstantFolding), or None
    when the reference does not implement the op for this type."""
    folded = ov.Model([node(ops.constant(a), ops.constant(b))], [])
    manager = passes.Manager()
    manager.register_pass(passes.ConstantFolding())
    manager.run_passes(folded)
    source = folded.get_results()[0].input_value(0).get_node()
    if source.get_type_name() != "Constant":
        return None
    return np.asarray(source.get_vector()).reshape(a.shape)


@pytest.mark.parametrize("dtype", [np.uint8, np.uint16, np.uint32, np.uint64, np.int64],
                         ids=["u8", "u16", "u32", "u64", "i64"])
def test_integer_wrap_around(openvino_runtime: None, tmp_path: Path, dtype: type) -> None:
    a_in = ops.parameter([8], dtype, name="a")
    b_in = ops.parameter([8], dtype, name="b")
    names = list(INTEGER_OPS)
    results = [ops.result(INTEGER_OPS[n][0](a_in, b_in), name=n) for n in names]
    results.append(ops.result(ops.bitwise_not(a_in), name="bitwise_not"))
    xml = _save(ov.Model(results, [a_in, b_in], "integers"), tmp_path)
    a, b = _extremes(np.dtype(dtype))
    got = _infer(xml, [a, b])
    checked_by_openvino = []
    for name, value in zip(names, got, strict=False):
        node, numpy_op = INTEGER_OPS[name]
        want = _reference(node, a, b)
        if want is None:
            with np.errstate(over="ignore"):
                want = numpy_op(a, b)
        else:
            checked_by_openvino.append(name)
        assert value.dtype == (np.bool_ if name in COMPARISONS else dtype), name
        np.testing.assert_array_equal(value, want.astype(value.dtype), err_msg=name)
    np.testing.assert_array_equal(got[-1], np.invert(a))
    # The reference implements Add (and Equal, Minimum) for every type, all but the bitwise ops
    # for 32 and 64 bits.
    assert {"add", "equal", "minimum"} <= set(checked_by_openvino)
    if np.dtype(dtype).itemsize >= 4:
        assert len(checked_by_openvino) == len(INTEGER_OPS) - 3


def unsigned_state_model() -> object:
    """A u8 counter: `state <- state + x` (the case of issue 9: `'tosa.add' ... ui8`)."""
    x = ops.parameter([2], np.uint8, name="x")
    read = ops.read_value(ops.constant(np.array([250, 3], np.uint8)), "count", np.uint8, [2])
    total = ops.add(read, x)
    return ov.Model([ops.result(total, name="total")], [ops.assign(total, "count")], [x], "u8")


def test_unsigned_state_wraps(openvino_runtime: None, tmp_path: Path) -> None:
    xml = _save(unsigned_state_model(), tmp_path)
    request = tosa_state.compile_model(xml).create_infer_request()
    expected = np.array([250, 3], np.uint8)
    for step in range(6):
        if step == 4:
            request.reset_state()
            expected = np.array([250, 3], np.uint8)
        x = np.array([3, 100], np.uint8)
        expected = expected + x  # numpy wraps, as OpenVINO's Add does (its CPU saturates)
        (total,) = request.infer([x])
        np.testing.assert_array_equal(total, expected)
        np.testing.assert_array_equal(request.query_state()[0].state, expected)


# ---------------------------------------------------------------------------------------------
# ScaledDotProductAttention-13
# ---------------------------------------------------------------------------------------------

B, H, L, S, E, EV = 2, 4, 3, 5, 8, 6


def attention_model(kind: str) -> object:
    """One SDPA of `kind`: causal (L != S: rows aligned at the top left), a boolean or float
    mask, a scale input, one K/V head for all query heads, a sink per head."""
    kv_heads = 1 if kind in ("causal", "float_mask_scale") else H
    q = ops.parameter([B, H, L, E], np.float32, name="q")
    k = ops.parameter([B, kv_heads, S, E], np.float32, name="k")
    v = ops.parameter([B, kv_heads, S, EV], np.float32, name="v")
    params = [q, k, v]
    if kind == "causal":
        node = ops.scaled_dot_product_attention(q, k, v, causal=True)
    elif kind == "bool_mask":
        mask = ops.parameter([B, 1, L, S], np.bool_, name="mask")
        params.append(mask)
        node = ops.scaled_dot_product_attention(q, k, v, mask)
    elif kind == "sink":  # gpt-oss's attention sinks: the sixth input (no opset13 helper)
        from openvino.utils.node_factory import NodeFactory

        mask = ops.parameter([L, S], np.float32, name="mask")
        params.append(mask)
        sink = ops.constant(np.random.default_rng(7).standard_normal((1, H, 1, 1))
                            .astype(np.float32))
        inputs = [q, k, v, mask, ops.constant(np.float32(0.3)), sink]
        node = NodeFactory("opset13").create("ScaledDotProductAttention",
                                             [n.output(0) for n in inputs], {"causal": False})
    else:
        mask = ops.parameter([L, S], np.float32, name="mask")
        scale = ops.parameter([], np.float32, name="scale")
        params += [mask, scale]
        node = ops.scaled_dot_product_attention(q, k, v, mask, scale,
                                                causal=kind == "causal_ignores_mask")
    return ov.Model([ops.result(node, name="attention")], params, kind)


@pytest.mark.parametrize("kind", ["causal", "bool_mask", "float_mask_scale",
                                  "causal_ignores_mask", "sink"])
def test_scaled_dot_product_attention(openvino_runtime: None, tmp_path: Path, kind: str) -> None:
    xml = _save(attention_model(kind), tmp_path)
    shapes = {p.get_friendly_name(): tuple(p.get_shape()) for p in
              ov.Core().read_model(str(xml)).get_parameters()}

    def inputs(rng: np.random.Generator, step: int) -> list[np.ndarray]:
        values = []
        for name, shape in shapes.items():
            if name == "mask" and kind == "bool_mask":
                mask = rng.random(shape) < 0.6
                mask[..., 0] = True  # no fully masked row (softmax of only -inf is NaN)
                values.append(mask)
            elif name == "scale":
                values.append(np.array(rng.uniform(0.1, 0.5), np.float32))
            else:
                values.append(rng.standard_normal(shape).astype(np.float32))
        return values

    run_differential(xml, Scenario(steps=3, inputs=inputs), f"sdpa_{kind}")


def sliding_cache_model() -> object:
    """A stateful attention step: K/V caches of the last S positions, shifted by one every call
    (Slice + Concat), the new token attending to them under a boolean mask."""
    q = ops.parameter([1, H, 1, E], np.float32, name="q")
    k = ops.parameter([1, H, 1, E], np.float32, name="k")
    v = ops.parameter([1, H, 1, E], np.float32, name="v")
    mask = ops.parameter([1, 1, 1, S], np.bool_, name="mask")
    sinks = []
    caches = []
    for name, new in (("k_cache", k), ("v_cache", v)):
        read = ops.read_value(ops.constant(np.zeros((1, H, S, E), np.float32)), name,
                              np.float32, [1, H, S, E])
        kept = ops.slice(read, np.array([1]), np.array([S]), np.array([1]), np.array([2]))
        cache = ops.concat([kept, new], 2)
        caches.append(cache)
        sinks.append(ops.assign(cache, name))
    node = ops.scaled_dot_product_attention(q, caches[0], caches[1], mask)
    return ov.Model([ops.result(node, name="attention")], sinks, [q, k, v, mask], "cache")


def test_attention_over_a_cache_state(openvino_runtime: None, tmp_path: Path) -> None:
    def inputs(rng: np.random.Generator, step: int) -> list[np.ndarray]:
        mask = rng.random((1, 1, 1, S)) < 0.7
        mask[..., -1] = True
        return [*(rng.standard_normal((1, H, 1, E)).astype(np.float32) for _ in range(3)), mask]

    xml = _save(sliding_cache_model(), tmp_path)
    run_differential(xml, Scenario(steps=10, inputs=inputs), "sdpa_cache")
