"""Our modules against upstream MLIR: both spellings and the generic form round-trip,
and the upstream spelling parses in `iree-opt` and `tosa-opt` (then comes back to us
unchanged)."""

from __future__ import annotations

import pytest
from peers.upstream_mlir import iree_opt, tosa_opt

from tosa_state import make_context
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.verification import verify_module

MODULES = {
    "scalar_with_init": """
        tosa.variable @v = dense<3.14> : tensor<f32>
        func.func @f() -> tensor<f32> {
          %0 = tosa.variable.read @v : tensor<f32>
          return %0 : tensor<f32>
        }""",
    "no_init_written_first": """
        tosa.variable @w : tensor<2x4xi32>
        func.func @f(%x: tensor<2x4xi32>) -> tensor<2x4xi32> {
          tosa.variable.write @w, %x : tensor<2x4xi32>
          %0 = tosa.variable.read @w : tensor<2x4xi32>
          return %0 : tensor<2x4xi32>
        }""",
    "accumulator": """
        tosa.variable @acc = dense<0.0> : tensor<1x4xf32>
        func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
          %a = tosa.variable.read @acc : tensor<1x4xf32>
          %s = tosa.add %a, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
          tosa.variable.write @acc, %s : tensor<1x4xf32>
          return %s : tensor<1x4xf32>
        }""",
    "swap": """
        tosa.variable @a = dense<1.0> : tensor<3xf32>
        tosa.variable @b = dense<2.0> : tensor<3xf32>
        func.func @main() -> (tensor<3xf32>, tensor<3xf32>) {
          %a = tosa.variable.read @a : tensor<3xf32>
          %b = tosa.variable.read @b : tensor<3xf32>
          tosa.variable.write @a, %b : tensor<3xf32>
          tosa.variable.write @b, %a : tensor<3xf32>
          return %a, %b : tensor<3xf32>, tensor<3xf32>
        }""",
    "counter_i32_with_shift": """
        tosa.variable @n = dense<0> : tensor<1xi32>
        func.func @main(%x: tensor<1xi32>) -> tensor<1xi32> {
          %n = tosa.variable.read @n : tensor<1xi32>
          %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
          %m = tosa.mul %n, %x, %shift : (tensor<1xi32>, tensor<1xi32>, tensor<1xi8>) -> tensor<1xi32>
          tosa.variable.write @n, %m : tensor<1xi32>
          return %m : tensor<1xi32>
        }""",
    "f16_state": """
        tosa.variable @h = dense<[1.5, -2.0]> : tensor<2xf16>
        func.func @main(%x: tensor<2xf16>) -> tensor<2xf16> {
          %h = tosa.variable.read @h : tensor<2xf16>
          %s = tosa.add %h, %x : (tensor<2xf16>, tensor<2xf16>) -> tensor<2xf16>
          tosa.variable.write @h, %s : tensor<2xf16>
          return %h : tensor<2xf16>
        }""",
    "bf16_state": """
        tosa.variable @h = dense<0.5> : tensor<1x2xbf16>
        func.func @main(%x: tensor<1x2xbf16>) -> tensor<1x2xbf16> {
          %h = tosa.variable.read @h : tensor<1x2xbf16>
          tosa.variable.write @h, %x : tensor<1x2xbf16>
          return %h : tensor<1x2xbf16>
        }""",
    "bool_flag": """
        tosa.variable @seen = dense<false> : tensor<i1>
        func.func @main(%x: tensor<i1>) -> tensor<i1> {
          %s = tosa.variable.read @seen : tensor<i1>
          tosa.variable.write @seen, %x : tensor<i1>
          return %s : tensor<i1>
        }""",
    "int8_and_i64": """
        tosa.variable @q = dense<[-128, 127]> : tensor<2xi8>
        tosa.variable @big = dense<9000000000> : tensor<1x1xi64>
        func.func @main() -> (tensor<2xi8>, tensor<1x1xi64>) {
          %q = tosa.variable.read @q : tensor<2xi8>
          %b = tosa.variable.read @big : tensor<1x1xi64>
          return %q, %b : tensor<2xi8>, tensor<1x1xi64>
        }""",
    "dynamic_declaration": """
        tosa.variable @d : tensor<2x?x8xi8>
        func.func @main() {
          return
        }""",
    "clamp_and_const": """
        tosa.variable @v = dense<0.0> : tensor<1x4xf32>
        func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
          %v = tosa.variable.read @v : tensor<1x4xf32>
          %s = tosa.add %v, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
          %c = tosa.clamp %s {min_val = -1.0 : f32, max_val = 1.0 : f32} : (tensor<1x4xf32>) -> tensor<1x4xf32>
          tosa.variable.write @v, %c : tensor<1x4xf32>
          return %c : tensor<1x4xf32>
        }""",
    "two_functions": """
        tosa.variable @state = dense<0.0> : tensor<4xf32>
        func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
          %s = tosa.variable.read @state : tensor<4xf32>
          tosa.variable.write @state, %x : tensor<4xf32>
          return %s : tensor<4xf32>
        }
        func.func @peek() -> tensor<4xf32> {
          %s = tosa.variable.read @state : tensor<4xf32>
          return %s : tensor<4xf32>
        }""",
    "while_loop_with_state_and_scatter": """
        tosa.variable @acc = dense<0.0> : tensor<1x2xf32>
        func.func @main(%x: tensor<1x3x2xf32>) -> tensor<1x3x2xf32> {
          %i0 = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
          %r:3 = tosa.while_loop (%i = %i0, %ys = %x, %w = %x) : (tensor<1x1xi32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) -> (tensor<1x1xi32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>) {
            %n = "tosa.const"() <{values = dense<3> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
            %c = tosa.greater %n, %i : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
            tosa.yield %c : tensor<1x1xi1>
          } do {
          ^bb0(%i: tensor<1x1xi32>, %ys: tensor<1x3x2xf32>, %w: tensor<1x3x2xf32>):
            %one = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
            %i2 = tosa.add %i, %one : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
            %xt = tosa.gather %w, %i : (tensor<1x3x2xf32>, tensor<1x1xi32>) -> tensor<1x1x2xf32>
            %s = tosa.const_shape {values = dense<[1, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
            %x2 = tosa.reshape %xt, %s : (tensor<1x1x2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
            %a = tosa.variable.read @acc : tensor<1x2xf32>
            %a2 = tosa.add %a, %x2 : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
            tosa.variable.write @acc, %a2 : tensor<1x2xf32>
            %s3 = tosa.const_shape {values = dense<[1, 1, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
            %y = tosa.reshape %a2, %s3 : (tensor<1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
            %ys2 = tosa.scatter %ys, %i, %y : (tensor<1x3x2xf32>, tensor<1x1xi32>, tensor<1x1x2xf32>) -> tensor<1x3x2xf32>
            tosa.yield %i2, %ys2, %w : tensor<1x1xi32>, tensor<1x3x2xf32>, tensor<1x3x2xf32>
          }
          return %r#1 : tensor<1x3x2xf32>
        }""",
}

SPELLINGS = [("dotted", False), ("upstream", False), ("dotted", True), ("upstream", True)]


def _parse(text: str):
    module = parse_mlir(make_context(), text, "test.mlir")
    verify_module(module)
    return module


@pytest.mark.parametrize("name", sorted(MODULES))
@pytest.mark.parametrize(("spelling", "generic"), SPELLINGS)
def test_round_trip(name: str, spelling: str, generic: bool) -> None:
    printed = print_module(_parse(MODULES[name]), spelling=spelling, generic=generic)
    reprinted = print_module(_parse(printed), spelling=spelling, generic=generic)
    assert reprinted == printed


@pytest.mark.peers
@pytest.mark.parametrize("name", sorted(MODULES))
@pytest.mark.parametrize("generic", [False, True])
def test_upstream_tools_parse_our_output(upstream_mlir_tools: None, name: str, generic: bool) -> None:
    module = _parse(MODULES[name])
    ours = print_module(module, spelling="upstream", generic=generic)
    for tool in (iree_opt, tosa_opt):
        theirs = _parse(tool(ours, "--mlir-print-op-generic"))
        # Back from upstream, the module is exactly ours again (up to SSA names).
        assert theirs.is_structurally_equivalent(module), print_module(theirs)


@pytest.mark.peers
def test_upstream_rejects_dotted_spelling(upstream_mlir_tools: None) -> None:
    """Why `--tosa-spelling=upstream` exists: upstream no longer knows the dotted names."""
    dotted = print_module(_parse(MODULES["accumulator"]))
    with pytest.raises(AssertionError, match=r"tosa\.variable\.read"):
        iree_opt(dotted)
