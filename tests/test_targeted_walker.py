"""The targeted pattern driver (`transforms.targeted_walker`) rewrites what xDSL's stock
greedy driver does, offering the patterns only the ops they can rewrite; and the
variable lowering's shared function-level values."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import numpy as np
import pytest
from xdsl.dialects import test as xdsl_test
from xdsl.dialects.builtin import ModuleOp, UnitAttr
from xdsl.ir import Operation
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    PatternRewriteWalker,
    RewritePattern,
)

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms.convert_tosa_variables_to_memref import ConvertTosaVariablesToMemRefPass
from tosa_state.transforms.memref_dynamic_variables import FunctionValues
from tosa_state.transforms.targeted_walker import rewrite_each
from tosa_state.transforms.tosa_fold_conv_bias import FoldAddIntoConvBias, TosaFoldConvBiasPass
from tosa_state.transforms.tosa_fold_identities import (
    FOLD_IDENTITIES_PATTERNS,
    TosaFoldIdentitiesPass,
)
from tosa_state.transforms.tosa_reduce_transposes import (
    REDUCE_TRANSPOSES_PATTERNS,
    TosaReduceTransposesPass,
)

LIT = Path(__file__).parent.parent / "lit_tests" / "optimize"

PASSES: dict[str, tuple[Callable[[ts.Context, ModuleOp], None], list[type[RewritePattern]]]] = {
    "reduce-transposes.mlir": (TosaReduceTransposesPass().apply, list(REDUCE_TRANSPOSES_PATTERNS)),
    "fold-identities.mlir": (TosaFoldIdentitiesPass().apply, list(FOLD_IDENTITIES_PATTERNS)),
    "fold-conv-bias.mlir": (TosaFoldConvBiasPass().apply, [FoldAddIntoConvBias]),
}

# Dead ops (erased by the stock driver's dead-code elimination, so by ours too), a
# transpose chain behind an unrelated op and a reshape pair, among ops no pattern matches.
EXTRA = """
func.func @mixed(%x: tensor<1x2x3xf32>, %y: tensor<3x2x1xf32>) -> tensor<3x2x1xf32> {
  %dead = tosa.add %x, %x : (tensor<1x2x3xf32>, tensor<1x2x3xf32>) -> tensor<1x2x3xf32>
  %t = tosa.transpose %x {perms = array<i32: 2, 1, 0>} : (tensor<1x2x3xf32>) -> tensor<3x2x1xf32>
  %n = tosa.exp %t : (tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  %a = tosa.add %n, %y : (tensor<3x2x1xf32>, tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  %s1 = tosa.const_shape {values = dense<[6]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r1 = tosa.reshape %a, %s1 : (tensor<3x2x1xf32>, !tosa.shape<1>) -> tensor<6xf32>
  %s2 = tosa.const_shape {values = dense<[3, 2, 1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r2 = tosa.reshape %r1, %s2 : (tensor<6xf32>, !tosa.shape<3>) -> tensor<3x2x1xf32>
  %one = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1xf32>}> : () -> tensor<1x1x1xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %m = tosa.mul %r2, %one, %shift : (tensor<3x2x1xf32>, tensor<1x1x1xf32>, tensor<1xi8>) -> tensor<3x2x1xf32>
  %unused = tosa.exp %m : (tensor<3x2x1xf32>) -> tensor<3x2x1xf32>
  return %m : tensor<3x2x1xf32>
}
"""


class _Counting(GreedyRewritePatternApplier):
    """The applier, counting the ops it is offered."""

    offered: int = 0

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        type(self).offered += 1
        super().match_and_rewrite(op, rewriter)


def _stock(patterns: list[type[RewritePattern]], module: ModuleOp) -> None:
    PatternRewriteWalker(GreedyRewritePatternApplier([p() for p in patterns])
                         ).rewrite_module(module)


@pytest.mark.parametrize("source", [*PASSES, "extra"])
@pytest.mark.parametrize("name", list(PASSES))
def test_same_result_as_the_stock_driver(name: str, source: str) -> None:
    text = EXTRA if source == "extra" else (LIT / source).read_text()
    run, patterns = PASSES[name]
    ours, theirs = (parse_mlir(ts.make_context(), text) for _ in range(2))
    run(ts.make_context(), ours)
    _stock(patterns, theirs)
    assert print_module(ours) == print_module(theirs)


def test_dead_ops_still_erased() -> None:
    module = parse_mlir(ts.make_context(), EXTRA)
    TosaFoldConvBiasPass().apply(ts.make_context(), module)  # no add into a convolution
    names = [op.name for op in module.walk()]
    assert names.count("tosa.add") == 1  # %dead, %unused gone
    assert names.count("tosa.exp") == 1


def test_only_candidates_are_offered(monkeypatch: pytest.MonkeyPatch) -> None:
    from tosa_state.transforms import tosa_fold_conv_bias

    monkeypatch.setattr(tosa_fold_conv_bias, "GreedyRewritePatternApplier", _Counting)
    # 40 live ops no pattern of the pass matches, one add that is not a convolution's
    body = "\n".join(f"  %n{i} = tosa.exp %n{i - 1} : (tensor<4xf32>) -> tensor<4xf32>"
                     for i in range(1, 41))
    text = (f"func.func @f(%n0: tensor<4xf32>) -> tensor<4xf32> {{\n{body}\n"
            "  %a = tosa.add %n40, %n0 : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>\n"
            "  return %a : tensor<4xf32>\n}")
    module = parse_mlir(ts.make_context(), text)
    _Counting.offered = 0
    TosaFoldConvBiasPass().apply(ts.make_context(), module)
    # the add only (the return and the function use no result but are not dead: a
    # terminator, a symbol); the stock driver is offered all 43 ops
    assert _Counting.offered == 1
    _Counting.offered = 0
    PatternRewriteWalker(_Counting([FoldAddIntoConvBias()])).rewrite_module(module)
    assert _Counting.offered == 43


class _EraseNext(RewritePattern):
    """Erases the op after the one it is offered, once."""

    def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
        nxt = op.next_op
        if nxt is not None and op.attributes.get("first") is not None:
            rewriter.erase(nxt)


def test_rewrite_each_skips_erased_ops_and_reports_changes() -> None:
    block_ops = [xdsl_test.TestOp(attributes={"first": UnitAttr()}), xdsl_test.TestOp(), xdsl_test.TestOp()]
    module = ModuleOp(block_ops)
    offered: list[Operation] = []

    class Recording(_EraseNext):
        def match_and_rewrite(self, op: Operation, rewriter: PatternRewriter) -> None:
            offered.append(op)
            super().match_and_rewrite(op, rewriter)

    assert rewrite_each(list(block_ops), Recording())
    assert offered == [block_ops[0], block_ops[2]]  # the second was erased first
    assert len(list(module.ops)) == 2
    assert not rewrite_each([block_ops[2]], Recording())


def test_function_values_once_per_function_or_local_outside() -> None:
    text = """
func.func @f(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tosa.exp %x : (tensor<2xf32>) -> tensor<2xf32>
  %b = tosa.exp %a : (tensor<2xf32>) -> tensor<2xf32>
  return %b : tensor<2xf32>
}
"""
    module = parse_mlir(ts.make_context(), text)
    first, second = [op for op in module.walk() if op.name == "tosa.exp"]
    shared = FunctionValues()
    local: list[Operation] = []
    zero = shared.index(second, 0, local)
    assert shared.index(first, 0, local) is zero and not local
    one = shared.index(first, 1, local)
    body = next(iter(module.ops)).regions[0].block
    assert [op.results[0] for op in list(body.ops)[:2]] == [zero, one]  # at the top, in order
    outside = xdsl_test.TestOp()  # not in a function: made for the access itself
    value = shared.index(outside, 0, local)
    assert value is not zero and [op.results[0] for op in local] == [value]


NESTED = """
tosa.variable @kv : tensor<2x?xf32>
func.func @step(%c: tensor<i1>, %x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %r = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<2x?xf32>) -> tensor<2x?xf32> {
  ^bb0(%a: tensor<2x?xf32>):
    tosa.variable.write @kv, %a : tensor<2x?xf32>
    %v = tosa.variable.read @kv : tensor<2x?xf32>
    tosa.yield %v : tensor<2x?xf32>
  } else {
  ^bb0(%a: tensor<2x?xf32>):
    %w = tosa.variable.read @kv : tensor<2x?xf32>
    tosa.yield %w : tensor<2x?xf32>
  }
  return %r : tensor<2x?xf32>
}
"""


def test_shared_values_serve_nested_regions() -> None:
    """Reads and writes inside a `tosa.cond_if`'s branches use the values made at the top
    of the function (the module verifies and runs)."""
    module = parse_mlir(ts.make_context(), NESTED)
    request = ts.compile_model(module).create_infer_request()
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    np.testing.assert_array_equal(request.infer([np.array(True), x])[0], x)
    np.testing.assert_array_equal(
        request.infer([np.array(False), np.zeros((2, 1), np.float32)])[0], x)
    lowered = parse_mlir(ts.make_context(), NESTED)
    ConvertTosaVariablesToMemRefPass().apply(ts.make_context(), lowered)
    (func,) = [op for op in lowered.ops if op.name == "func.func"]
    body = func.regions[0].block
    names = [op.name for op in body.ops]
    assert names.count("memref.get_global") == 2 and names.count("arith.constant") == 3
    assert all(op.name not in ("memref.get_global", "arith.constant")
               for op in lowered.walk() if op.parent_block() is not body)
