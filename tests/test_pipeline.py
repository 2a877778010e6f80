"""`tosa_state.transforms.pipeline`: parsing `-p` specs, running passes in order, verifying
after every pass, and turning a pass failure into a diagnostic that names the pass.

(Pipeline *syntax* errors through the tools are in `test_error_paths.py`.)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import pytest
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, StringAttr, TensorType, f32
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import PassFailedException

import tosa_state as ts
from tosa_state.dialects.tosa.variables import VariableOp, VariableReadOp
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms import get_all_passes
from tosa_state.transforms.pipeline import PipelineError, apply_pipeline, parse_pipeline

COUNTER = """\
tosa.variable @count = dense<0.0> : tensor<1xf32>
func.func @main(%x: tensor<1xf32>) -> tensor<1xf32> {
  %0 = tosa.variable.read @count : tensor<1xf32>
  %1 = tosa.add %0, %x : (tensor<1xf32>, tensor<1xf32>) -> tensor<1xf32>
  tosa.variable.write @count, %1 : tensor<1xf32>
  return %1 : tensor<1xf32>
}
"""


def _module() -> tuple[Context, ModuleOp]:
    ctx = ts.make_context()
    return ctx, parse_mlir(ctx, COUNTER, "counter.mlir")


@dataclass(frozen=True)
class RecordingPass(ModulePass):
    """Appends its `tag` to `LOG` (to observe the order passes run in)."""

    name = "test-record"
    LOG: ClassVar[list[str]] = []
    tag: str = ""

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        self.LOG.append(self.tag)


@dataclass(frozen=True)
class FailingPass(ModulePass):
    """Fails the way our passes do: a `PassFailedException`."""

    name = "test-fail"
    message: str = "something illegal is left"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        raise PassFailedException(self.message)


@dataclass(frozen=True)
class BreakingPass(ModulePass):
    """Leaves invalid IR behind: a read of a variable nobody declares."""

    name = "test-break"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        func = op.body.block.last_op
        assert func is not None
        read = VariableReadOp.build(
            properties={"name": StringAttr("ghost")},
            result_types=[TensorType(f32, [1])],
        )
        func.regions[0].block.insert_op_before(read, func.regions[0].block.first_op)


def test_every_registered_pass_parses_by_name():
    for name in get_all_passes():
        (module_pass,) = parse_pipeline(name).passes
        assert module_pass.name == name


def test_parse_keeps_order_and_options():
    spec = "tosa-hoist-variables,convert-tosa-variables-to-memref,canonicalize"
    assert [p.name for p in parse_pipeline(spec).passes] == spec.split(",")
    (lowering,) = parse_pipeline("convert-tosa-variables-to-memref{elide-copies=false}").passes
    assert lowering.elide_copies is False  # type: ignore[attr-defined]
    (default,) = parse_pipeline("convert-tosa-variables-to-memref").passes
    assert default.elide_copies is True  # type: ignore[attr-defined]


def test_empty_spec_is_the_empty_pipeline():
    ctx, module = _module()
    before = print_module(module)
    apply_pipeline(ctx, module, "")
    assert print_module(module) == before


def test_unknown_pass_lists_the_available_ones():
    with pytest.raises(PipelineError) as info:
        parse_pipeline("tosa-hoist-variables,convert-tosa-to-memref")
    message = str(info.value)
    assert "convert-tosa-to-memref" in message
    for name in get_all_passes():
        assert name in message


def test_passes_run_in_the_order_given():
    RecordingPass.LOG.clear()
    ctx, module = _module()
    apply_pipeline(ctx, module, PassPipeline(tuple(RecordingPass(tag) for tag in "abc")))
    assert RecordingPass.LOG == ["a", "b", "c"]


def test_a_string_pipeline_really_lowers():
    ctx, module = _module()
    apply_pipeline(ctx, module, "convert-tosa-variables-to-memref")
    text = print_module(module)
    assert "tosa.variable" not in text
    assert "memref.global" in text


def test_pass_failure_names_the_pass():
    ctx, module = _module()
    with pytest.raises(PipelineError) as info:
        apply_pipeline(ctx, module, PassPipeline((FailingPass(),)))
    assert str(info.value) == "error: something illegal is left\nnote: in pass 'test-fail'"


def test_pass_failure_keeps_an_existing_location():
    ctx, module = _module()
    located = "counter.mlir:3:8: error: 'tosa.variable.read' op is not legal"
    with pytest.raises(PipelineError) as info:
        apply_pipeline(ctx, module, PassPipeline((FailingPass(located),)))
    assert str(info.value) == f"{located}\nnote: in pass 'test-fail'"


def test_later_passes_do_not_run_after_a_failure():
    RecordingPass.LOG.clear()
    ctx, module = _module()
    pipeline = PassPipeline((RecordingPass("before"), FailingPass(), RecordingPass("after")))
    with pytest.raises(PipelineError):
        apply_pipeline(ctx, module, pipeline)
    assert RecordingPass.LOG == ["before"]


def test_the_module_is_verified_after_each_pass():
    """Invalid IR left by a pass is caught before the next pass runs."""
    RecordingPass.LOG.clear()
    ctx, module = _module()
    pipeline = PassPipeline((BreakingPass(), RecordingPass("next")))
    with pytest.raises(ts.TosaStateError, match=r"'tosa\.variable\.read' op .*'ghost'"):
        apply_pipeline(ctx, module, pipeline)
    assert RecordingPass.LOG == []


def test_a_valid_pipeline_leaves_a_verified_module():
    ctx, module = _module()
    apply_pipeline(ctx, module, "tosa-to-mlprogram,canonicalize,cse")
    assert not any(isinstance(op, VariableOp) for op in module.walk())
    assert "ml_program.global" in print_module(module)
