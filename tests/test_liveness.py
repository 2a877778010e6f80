"""Values die at their last use: a call's peak memory is its live set, not the sum of its
intermediates (straight code, loop bodies, branches), and nothing still needed is
released early."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

import tosa_state as ts
from tosa_state import make_context
from tosa_state.frontends.mlir import parse_mlir

N = 1 << 22
"""Elements of each intermediate: 16 MiB of f32."""
MIB16 = 4 * N
T = f"tensor<{N}xf32>"


def _chain(first: str, length: int, indent: str = "  ", prefix: str = "v") -> tuple[str, str]:
    """`length` adds, each a new 16 MiB value: `first + x + x + ...`; the text and the
    last value's name."""
    lines, previous = [], first
    for i in range(1, length + 1):
        lines.append(f"{indent}%{prefix}{i} = tosa.add {previous}, %x : ({T}, {T}) -> {T}")
        previous = f"%{prefix}{i}"
    return "\n".join(lines), previous


def _peak(compiled: ts.CompiledModel, inputs: list[np.ndarray]) -> tuple[list[np.ndarray], int]:
    """The results of one call and the most memory it held at once (tracemalloc)."""
    request = compiled.create_infer_request()
    tracemalloc.start()
    try:
        results = list(request.infer(inputs))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    return results, peak


def _compile(text: str) -> ts.CompiledModel:
    return ts.compile_model(parse_mlir(make_context(), text, "chain.mlir"))


def test_a_chain_holds_its_live_values_only() -> None:
    """20 adds of 16 MiB each; `v1` is read again at the very end, so it must survive
    the chain. Live at once: x's sums v1, v(i), v(i+1), then the two results' copies."""
    chain, last = _chain("%x", 20)
    compiled = _compile(f"func.func @main(%x: {T}) -> ({T}, {T}) {{\n{chain}\n"
                        f"  return {last}, %v1 : {T}, {T}\n}}")
    (total, first), peak = _peak(compiled, [np.ones(N, np.float32)])
    assert total[0] == 21 and total[-1] == 21 and first[0] == 2 and first[-1] == 2
    assert peak < 7 * MIB16, f"peak {peak / MIB16:.1f} x 16 MiB (the sum: 21)"


def test_a_loop_body_releases_its_values_every_step() -> None:
    chain, last = _chain("%acc", 10, "    ", "a")
    compiled = _compile(f"""
func.func @main(%x: {T}, %n: tensor<1xi32>) -> {T} {{
  %zero = "tosa.const"() <{{values = dense<0> : tensor<1xi32>}}> : () -> tensor<1xi32>
  %acc0 = "tosa.const"() <{{values = dense<0.0> : {T}}}> : () -> {T}
  %r:2 = tosa.while_loop (%t = %zero, %acc = %acc0) : (tensor<1xi32>, {T}) -> (tensor<1xi32>, {T}) {{
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  }} do {{
  ^bb0(%t: tensor<1xi32>, %acc: {T}):
    %one = "tosa.const"() <{{values = dense<1> : tensor<1xi32>}}> : () -> tensor<1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
{chain}
    tosa.yield %t2, {last} : tensor<1xi32>, {T}
  }}
  return %r#1 : {T}
}}""")
    (total,), peak = _peak(compiled, [np.ones(N, np.float32), np.array([3], np.int32)])
    assert total[0] == 30 and total[-1] == 30
    assert peak < 7 * MIB16, f"peak {peak / MIB16:.1f} x 16 MiB (one step's sum: 11)"


@pytest.mark.parametrize("flag", [True, False])
def test_a_branch_releases_its_values(flag: bool) -> None:
    chain, last = _chain("%y", 10, "    ", "b")
    compiled = _compile(f"""
func.func @main(%flag: tensor<i1>, %x: {T}) -> ({T}, {T}) {{
  %w = tosa.add %x, %x : ({T}, {T}) -> {T}
  %r = tosa.cond_if %flag (%y = %w) : tensor<i1> ({T}) -> {T} {{
  ^bb0(%y: {T}):
{chain}
    tosa.yield {last} : {T}
  }} else {{
  ^bb0(%y: {T}):
    tosa.yield %y : {T}
  }}
  return %r, %w : {T}, {T}
}}""")
    (result, w), peak = _peak(compiled, [np.array(flag), np.ones(N, np.float32)])
    assert result[0] == (12 if flag else 2) and w[0] == 2
    assert peak < 7 * MIB16, f"peak {peak / MIB16:.1f} x 16 MiB (the branch's sum: 12)"


def test_the_plan_deletes_each_value_after_its_last_use() -> None:
    chain, last = _chain("%x", 3)
    compiled = _compile(f"func.func @main(%x: {T}) -> {T} {{\n{chain}\n"
                        f"  return {last} : {T}\n}}")
    body = compiled.executable.plan.source.splitlines()[1:]
    assert [line.strip() for line in body] == [
        "v1 = k0(a0, a0, )", "v2 = k1(v1, a0, )", "del v1", "v3 = k2(v2, a0, )", "del v2",
        "return (v3, )"]
