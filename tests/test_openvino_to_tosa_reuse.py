"""`convert-openvino-to-tosa` emits each equal pure op once (`openvino_to_tosa.reuse`): an
op's conversion reuses the constants, shapes, `tosa.dim`s, shape arithmetic and reshapes
that an earlier conversion of its block emitted, where they dominate it."""

from __future__ import annotations

from collections import Counter

import numpy as np
import pytest
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Block, Operation
from xdsl.pattern_rewriter import PatternRewriter

import tosa_state as ts
from tosa_state import make_context
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.transforms import ConvertOpenVINOToTosaPass
from tosa_state.transforms import convert_openvino_to_tosa as conversion
from tosa_state.transforms.openvino_to_tosa.common import Emitter, Lowering
from tosa_state.transforms.to_tosa import merge_key, pure_class

# Two "layers" that repeat constants, shape reads and reshapes: equal ops (the second
# `Multiply` by 2 too) are emitted once.
LAYERS = """
func.func @main(%x: tensor<?x4xf32>) -> (tensor<?x2x2xf32>, tensor<?x2x2xf32>,
                                         tensor<?x2x2xf32>) {
  %two = openvino.constant dense<2.0> : tensor<1x1xf32>
  %t = openvino.constant dense<[-1, 2, 2]> : tensor<3xi64>
  %m = openvino.multiply %x, %two : (tensor<?x4xf32>, tensor<1x1xf32>) -> tensor<?x4xf32>
  %a = openvino.reshape %m, %t {special_zero = false} : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x2xf32>
  %two2 = openvino.constant dense<2.0> : tensor<1x1xf32>
  %t2 = openvino.constant dense<[-1, 2, 2]> : tensor<3xi64>
  %m2 = openvino.multiply %x, %two2 : (tensor<?x4xf32>, tensor<1x1xf32>) -> tensor<?x4xf32>
  %b = openvino.reshape %m2, %t2 {special_zero = false} : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x2xf32>
  %three = openvino.constant dense<3.0> : tensor<1x1xf32>
  %m3 = openvino.multiply %x, %three : (tensor<?x4xf32>, tensor<1x1xf32>) -> tensor<?x4xf32>
  %c = openvino.reshape %m3, %t2 {special_zero = false} : (tensor<?x4xf32>, tensor<3xi64>) -> tensor<?x2x2xf32>
  func.return %a, %b, %c : tensor<?x2x2xf32>, tensor<?x2x2xf32>, tensor<?x2x2xf32>
}
"""


def _created(monkeypatch: pytest.MonkeyPatch, text: str) -> tuple[ModuleOp, list[Operation]]:
    """Convert `text`; returns the module and the ops the conversion inserted."""
    inserted: list[Operation] = []
    clean_up = conversion.clean_up

    def spy(module: ModuleOp, created: list[Operation]) -> None:
        inserted.extend(created)
        clean_up(module, created)

    monkeypatch.setattr(conversion, "clean_up", spy)
    module = parse_mlir(make_context(), text, "test.mlir")
    ConvertOpenVINOToTosaPass().apply(make_context(), module)
    module.verify()
    return module, inserted


def _assert_dominance(module: ModuleOp) -> None:
    """Every operand is defined before its use (in its block or an enclosing one): xDSL's
    verifier does not check it."""
    position = {op: i for block_op in module.walk() for i, op in enumerate(
        block_op.parent.ops if block_op.parent is not None else [])}
    for op in module.walk():
        for operand in op.operands:
            owner = operand.owner
            if isinstance(owner, Block):
                continue
            user: Operation | None = op
            while user is not None and user.parent is not owner.parent:
                user = user.parent_op()
            assert user is not None, f"{op.name} uses a value of a block that does not hold it"
            assert position[owner] < position[user], f"{op.name} uses {owner.name} before it"


def test_equal_pure_ops_are_emitted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    module, inserted = _created(monkeypatch, LAYERS)
    keys = Counter((op.parent, *merge_key(op)) for op in inserted
                   if not op.regions and pure_class(type(op)))
    assert keys and max(keys.values()) == 1, [k[1] for k, n in keys.items() if n > 1]
    names = Counter(op.name for op in inserted)
    assert names["tosa.const"] == 4  # 2, 3, the products' shift, the target (then dead)
    assert names["tosa.mul"] == 2
    assert names["tosa.const_shape"] == 2  # the sizes 4 and [2, 2] of both reshapes
    assert names["tosa.dim"] == 2  # the size of `?` in each product
    _assert_dominance(module)
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    a, b, c = ts.compile_model(module).create_infer_request().infer([x])
    np.testing.assert_array_equal(a, (2 * x).reshape(3, 2, 2))
    np.testing.assert_array_equal(b, a)
    np.testing.assert_array_equal(c, (3 * x).reshape(3, 2, 2))


def _anchors(count: int) -> tuple[ModuleOp, list[Operation]]:
    text = "func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {\n" + "".join(
        f"  %{i} = openvino.abs %x : (tensor<2xf32>) -> tensor<2xf32>\n" for i in range(count)
    ) + "  func.return %x : tensor<2xf32>\n}"
    module = parse_mlir(make_context(), text, "test.mlir")
    return module, [op for op in module.walk() if op.name == "openvino.abs"]


def _shape(lowering: Lowering, anchor: Operation, sizes: list[int], *,
           shared: bool = True, keep: bool = True) -> Operation:
    """The op of `const_shape(sizes)` emitted for `anchor` (inserted, or discarded)."""
    e = Emitter(lowering, anchor, shared)
    owner = e.const_shape(sizes).owner
    assert isinstance(owner, tt.ConstShapeOp)
    if keep:
        e.insert(PatternRewriter(anchor))
    else:
        e.discard()
    return owner


def test_reused_ops_dominate_their_users() -> None:
    """An op emitted for a later anchor is not reused before it; the earliest one is."""
    _, (first, second, third, fourth) = _anchors(4)
    lowering = Lowering()
    late = _shape(lowering, third, [1, 2])
    early = _shape(lowering, first, [1, 2])  # converted after `third` (deferred, say)
    assert early is not late
    assert _shape(lowering, second, [1, 2]) is early
    assert _shape(lowering, fourth, [1, 2]) is early
    assert _shape(lowering, fourth, [3]) is not early


def test_discarded_and_unshared_ops_are_not_reused() -> None:
    _, (first, second) = _anchors(2)
    lowering = Lowering()
    dropped = _shape(lowering, first, [5], keep=False)
    kept = _shape(lowering, first, [5])
    assert kept is not dropped
    # a loop body's emitter (its ops go to a block of their own) neither reuses nor offers
    body = _shape(lowering, second, [5], shared=False)
    assert body is not kept
    assert _shape(lowering, second, [6], shared=False) is not _shape(lowering, second, [6])


def test_one_emitter_reuses_its_own_ops() -> None:
    _, (anchor,) = _anchors(1)
    e = Emitter(Lowering(), anchor, shared=False)
    assert e.dim(anchor.operands[0], 0) is e.dim(anchor.operands[0], 0)
    assert e.const(np.ones(3, np.float32)) is e.const(np.ones(3, np.float32))
    assert e.const(np.ones(3, np.float32)) is not e.const(np.ones(3, np.int32))
    assert len(e.ops) == 3
