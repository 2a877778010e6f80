"""Parse and run `-p` pass pipelines, verifying the module after every pass."""

from __future__ import annotations

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass, PassPipeline
from xdsl.utils.exceptions import ArgSpecParseError, PassFailedException

from tosa_state.diagnostics import TosaStateError
from tosa_state.transforms import get_all_passes
from tosa_state.verification import verify_module


class PipelineError(TosaStateError):
    """A pipeline that does not parse, names an unknown pass, or fails."""


def parse_pipeline(spec: str) -> PassPipeline:
    """`'pass-a,pass-b{opt=1}'` as a pipeline; unknown passes are a `PipelineError`."""
    available = get_all_passes()
    try:
        return PassPipeline.parse_spec(available, spec)
    except ValueError as error:
        if "Unrecognized pass" not in str(error):  # e.g. an option the pass does not have
            raise PipelineError(f"error: bad pipeline '{spec}': {error}") from None
        known = ", ".join(sorted(available))
        raise PipelineError(f"error: {error}; available passes: {known}") from None
    except ArgSpecParseError as error:
        raise PipelineError(f"error: bad pipeline '{spec}': {error}") from None


def apply_pipeline(ctx: Context, module: ModuleOp, pipeline: PassPipeline | str) -> None:
    """Run each pass, then verify; failures become `TosaStateError`s with a location."""
    if isinstance(pipeline, str):
        pipeline = parse_pipeline(pipeline)
    for module_pass in pipeline.passes:
        _apply_pass(ctx, module, module_pass)
        verify_module(module)


def _apply_pass(ctx: Context, module: ModuleOp, module_pass: ModulePass) -> None:
    try:
        module_pass.apply(ctx, module)
    except PassFailedException as error:
        message = str(error.args[0]) if error.args else str(error)
        if "error:" not in message.split("\n", 1)[0]:
            message = f"error: {message}"
        raise PipelineError(f"{message}\nnote: in pass '{module_pass.name}'") from None
