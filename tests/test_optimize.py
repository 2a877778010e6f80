"""The optimizations `compile_model` runs before lowering (`tosa-reduce-transposes`,
`tosa-fold-conv-bias`, `tosa-fold-identities`, `tosa-merge-sliced-elementwise`,
`tosa-fold-tile-into-matmul`): same results as the module run as it is, fewer ops per call,
and output that upstream MLIR parses."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pytest
from peers.upstream_mlir import iree_opt

import tosa_state as ts
from tosa_state.api import DEFAULT_PIPELINE
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms.pipeline import apply_pipeline

OPTIMIZE = ("tosa-reduce-transposes,tosa-fold-conv-bias,tosa-fold-identities,"
            "tosa-merge-sliced-elementwise,tosa-fold-tile-into-matmul")
LIT = Path(__file__).parent.parent / "lit_tests" / "optimize"


def _ops(request: ts.CompiledModel) -> list[str]:
    return [op.name for op in request.executable.plan.ops_per_call]


def _random_inputs(model: ts.CompiledModel, rng: np.random.Generator) -> list[np.ndarray]:
    return [rng.standard_normal(port.shape).astype(port.dtype) for port in model.inputs]


@pytest.mark.parametrize("source, entry", [("reduce-transposes.mlir", "conv1d_chain"),
                                           ("reduce-transposes.mlir", "magnitude"),
                                           ("reduce-transposes.mlir", "pairs"),
                                           ("fold-conv-bias.mlir", "folded"),
                                           ("fold-identities.mlir", "folded"),
                                           ("merge-sliced-elementwise.mlir", "gates"),
                                           ("merge-sliced-elementwise.mlir", "magnitude")])
def test_optimized_module_computes_the_same(source: str, entry: str) -> None:
    as_is, optimized = _computes_the_same(source, entry)
    assert len(_ops(optimized)) < len(_ops(as_is))


@pytest.mark.parametrize("entry", ["grouped_attention", "kept"])
def test_grouped_attention_multiplies_the_untiled_heads(entry: str) -> None:
    """`tosa-fold-tile-into-matmul`: the same results without the tile (the reshapes that
    replace it are views: the op count is no measure here)."""
    as_is, optimized = _computes_the_same("fold-tile-into-matmul.mlir", entry)
    tiles = _ops(optimized).count("tosa.tile")
    assert tiles == (0 if entry == "grouped_attention" else 3)
    assert _ops(as_is).count("tosa.tile") == (2 if entry == "grouped_attention" else 3)


def _computes_the_same(source: str, entry: str) -> tuple[ts.CompiledModel, ts.CompiledModel]:
    text = (LIT / source).read_text()
    as_is = ts.compile_model(parse_mlir(ts.make_context(), text), pipeline="", entry=entry)
    optimized = ts.compile_model(parse_mlir(ts.make_context(), text), pipeline=OPTIMIZE,
                                 entry=entry)
    rng = np.random.default_rng(0)
    for _ in range(3):
        inputs = _random_inputs(as_is, rng)
        want = as_is.create_infer_request().infer(inputs)
        got = optimized.create_infer_request().infer(inputs)
        for a, b in zip(want, got, strict=True):
            np.testing.assert_allclose(b, a, rtol=1e-6, atol=1e-6)
    return as_is, optimized


def test_default_pipeline_optimizes() -> None:
    assert DEFAULT_PIPELINE.split(",")[:5] == OPTIMIZE.split(",")
    text = (LIT / "reduce-transposes.mlir").read_text()
    model = ts.compile_model(parse_mlir(ts.make_context(), text), entry="conv1d_chain")
    assert _ops(model).count("tosa.transpose") == 1


def test_silero_vad_runs_without_layout_ops(tmp_path: Path) -> None:
    """silero-vad: the transposes around its six convolutions all cancel and their bias adds
    fold (the differential tests check its outputs against OpenVINO's)."""
    import silero_vad  # noqa: F401  (a hard requirement: missing fails the suite)
    from streaming_vad import silero_stateful_ir

    model = ts.compile_model(silero_stateful_ir(tmp_path))
    ops = model.executable.plan.ops_per_call
    assert [op.name for op in ops].count("tosa.conv2d") == 6
    assert not [op for op in ops if op.name == "tosa.transpose"]
    assert not [op for op in ops if op.name == "tosa.add"
                and any(v.owner.name == "tosa.conv2d" for v in op.operands)]
    assert not [op for op in ops if op.name.startswith("tosa.reduce")]  # a mean of one
    assert len(ops) <= 48  # 47, and Power(x, 2) is now x * x (its shift a constant)


@pytest.mark.peers
def test_upstream_parses_the_optimized_modules(upstream_mlir_tools: None) -> None:
    for source in ("reduce-transposes.mlir", "fold-conv-bias.mlir", "fold-identities.mlir",
                   "merge-sliced-elementwise.mlir", "fold-tile-into-matmul.mlir"):
        module = parse_mlir(ts.make_context(), (LIT / source).read_text())
        apply_pipeline(ts.make_context(), module, OPTIMIZE)
        theirs = parse_mlir(ts.make_context(),
                            iree_opt(print_module(module, spelling="upstream"),
                                     "--mlir-print-op-generic"))
        assert theirs.is_structurally_equivalent(module)
