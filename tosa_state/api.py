"""`read_model` and `compile_model`: the Python entry points, as in OpenVINO's runtime."""

from __future__ import annotations

import gc
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from functools import partial
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tosa_state.context import make_context
from tosa_state.devices import (
    DEFAULT_PIPELINES,
    INTERPRETER,
    IREE,
    OPTIMIZATIONS,
    REFERENCE,
    check_device,
)
from tosa_state.devices.interpreter import InterpreterExecutable
from tosa_state.diagnostics import TosaStateError
from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.emitters.tosa_artifact import TosaArtifact, integer_preparation
from tosa_state.frontends import read_model_file, verified_on_reading
from tosa_state.progress import Progress
from tosa_state.runtime import CompiledModel, StaticLayout
from tosa_state.transforms.convert_openvino_to_tosa import (
    ConvertOpenVINOToTosaPass,
    contains_openvino_ops,
)
from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass, contains_tfl_ops
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.transforms.specialize_input_shapes import InputShapes, specialize_input_shapes
from tosa_state.transforms.static_entries import (
    DECODE,
    PREFILL,
    StaticEntries,
    is_decoder,
    merge_entries,
)
from tosa_state.transforms.tosa_hoist_variables import hoist_variables
from tosa_state.transforms.tosa_infer_shapes import TosaInferShapesPass
from tosa_state.transforms.tosa_static_state import (
    COUNT_ATTR,
    StaticState,
    make_state_static,
)
from tosa_state.transforms.tosa_validation import Target
from tosa_state.verification import verify_module

DEFAULT_PIPELINE = DEFAULT_PIPELINES[INTERPRETER]
"""The lowering `compile_model` runs when none is given (device `interpreter`)."""


def read_model(model: str | os.PathLike[str]) -> ModuleOp:
    """Read an `.mlir` file or an OpenVINO IR `.xml` and verify it."""
    module = read_model_file(make_context(), model)
    if not verified_on_reading(model):
        verify_module(module)
    return module


def compile_model(
    model: str | os.PathLike[str] | ModuleOp,
    pipeline: str | None = None,
    entry: str | None = None,
    input_shapes: InputShapes | None = None,
    progress: bool = False,
    device: str = INTERPRETER,
    static_state: StaticState | None = None,
) -> CompiledModel:
    """Read (or copy) `model`, bring it to TOSA, lower it with `pipeline` and plan it.

    `pipeline=""` runs the TOSA module as it is; the default is `DEFAULT_PIPELINE`. A module
    holding `openvino` ops (an OpenVINO IR model) or `tfl` ops (a `.tflite` model) is
    converted to TOSA first.
    `input_shapes` (`{"x": [1, 8]}`, by input name, `arg<i>` or position) fixes dynamic
    input dimensions first, as OpenVINO's `Model.reshape`. `progress=True` shows a progress
    bar on stderr when it is a terminal and compiling takes over a second.
    `device="iree"` compiles the model with IREE (`tosa_state.devices.iree`); the default
    pipeline then lowers to `ml_program` globals. `device="reference"` runs the model's
    TOSA artifact (`compile_tosa`, PRO-FP and PRO-INT, level none) in Arm's TOSA reference
    model (`tosa_state.devices.reference`).
    `static_state=N` (or `{"max_prompt_len": P, "min_response_len": R}`, N = P + R) gives
    every variable that grows by a concat a fixed capacity of N rows (`tosa-static-state`;
    every device). On devices `interpreter` and `iree` a decoder (`input_ids`,
    `attention_mask`, ...; no `input_shapes`) becomes two static entries sharing its state,
    `prefill` of `"prefill_chunk": C` tokens (default 16) and `decode` of one, of
    `"batch": B` (default 1), run from the dynamic model's calls (`runtime.static_entries`);
    device `reference` takes one entry, with static `input_shapes`.
    Device `iree` hands the model's weights (constants of 64 KiB or more) to IREE from
    memory, as parameters.
    """
    return _compile_model(model, pipeline, entry, input_shapes, progress, device,
                          static_state)


def _compile_model(model: str | os.PathLike[str] | ModuleOp, pipeline: str | None = None,
                   entry: str | None = None, input_shapes: InputShapes | None = None,
                   progress: bool = False, device: str = INTERPRETER,
                   static_state: StaticState | None = None, portable: bool = False,
                   inline_weights: bool = False) -> CompiledModel:
    """`compile_model`, and for `tosa-state compile`'s `.vmfb` (devices/iree.py):
    `portable`, its entries keep the model's signature for other hosts; `inline_weights`,
    the weights are compiled into it, a self-contained artifact (up to
    `devices.iree.INLINE_WEIGHTS_LIMIT` bytes of them)."""
    device = check_device(device)
    if inline_weights and device != IREE:
        raise TosaStateError(f"error: inline_weights is for device 'iree', not '{device}'")
    pipeline = DEFAULT_PIPELINES[device] if pipeline is None else pipeline
    sizes = None if static_state is None else StaticEntries.of(static_state)
    with (_collector_paused(),
          Progress.on_terminal("compiling: reading", total=5, enabled=progress) as bar):
        lower = partial(_lowered, model, pipeline, entry, input_shapes, sizes, device)
        if device == IREE:
            return _compiled_by_iree(model, lower, bar, {
                "pipeline": pipeline, "entry": entry, "input_shapes": input_shapes,
                "static_state": sizes, "portable": portable, "inline_weights": inline_weights})
        module, static = lower(bar)
        if device == REFERENCE:
            from tosa_state.devices.reference import ReferenceExecutable

            return CompiledModel(module, ReferenceExecutable, entry)
        bar.describe("compiling: planning")
        compiled = CompiledModel(module, InterpreterExecutable, entry, static)
        bar.advance()
    return compiled


def _lowered(model: str | os.PathLike[str] | ModuleOp, pipeline: str, entry: str | None,
             input_shapes: InputShapes | None, sizes: StaticEntries | None, device: str,
             bar: Progress) -> tuple[ModuleOp, StaticLayout | None]:
    """`model` brought to TOSA (a static decoder's two entries, or its state made static)
    and lowered by `pipeline`, verified."""
    static = None
    if sizes is not None and not input_shapes and device != REFERENCE:
        ctx, module, static = _static_entries(model, entry, sizes, bar)
    else:
        ctx, module = _to_tosa(model, entry, input_shapes, bar,
                               None if sizes is None else sizes.capacity)
    bar.describe(f"compiling: {pipeline or 'planning'}")
    apply_pipeline(ctx, module, pipeline, verify_each=False)
    verify_module(module)
    bar.advance()
    return module, static


def _compiled_by_iree(model: str | os.PathLike[str] | ModuleOp,
                      lower: Callable[[Progress], tuple[ModuleOp, StaticLayout | None]],
                      bar: Progress, options: dict[str, Any]) -> CompiledModel:
    """Device `iree`'s compiled model: from its compile record when the cache has it
    (`devices.iree_record`: the model is not converted), else lowered, compiled and
    recorded. `tosa-state compile`'s `.vmfb` (`portable`, `inline_weights`) has no record."""
    from tosa_state.devices import iree_record
    from tosa_state.devices.iree import IreeExecutable
    from tosa_state.devices.iree_compile import DECODER_FLAGS, DEFAULT_FLAGS

    key = None
    if not (isinstance(model, ModuleOp) or options["portable"] or options["inline_weights"]):
        bar.describe("compiling: looking for a compile record")
        key = iree_record.record_key(model, {**options, "flags": DEFAULT_FLAGS,
                                             "decoder_flags": DECODER_FLAGS})
        if key is not None and (compiled := iree_record.load_record(
                key, model, lambda: lower(Progress.off())[0])) is not None:
            return compiled
    module, static = lower(bar)
    flags = {} if static is None else {"also": (static.decode,), "flags": DECODER_FLAGS}
    compiled = CompiledModel(module, partial(IreeExecutable, describe=bar.describe,
                                             inline_weights=options["inline_weights"],
                                             portable=options["portable"], **flags),
                             options["entry"], static)
    if key is not None:
        iree_record.save_record(key, compiled, model)
    return compiled


def compile_tosa(
    model: str | os.PathLike[str] | ModuleOp,
    profiles: Iterable[str] | str = ("pro_fp",),
    extensions: Iterable[str] | str = ("variable",),
    level: str = "8k",
    specification_version: str = "1.0",
    entry: str | None = None,
    input_shapes: InputShapes | None = None,
    progress: bool = False,
    static_state: StaticState | None = None,
) -> TosaArtifact:
    """`model` as a TOSA artifact for a target (`docs/targets.md`): brought to TOSA,
    optimised, lowered to strict TOSA 1.0 and checked against the target.
    `artifact.ok` / `.report()` say whether the target admits it (every violation named);
    `artifact.save("model.tosa")` writes the flatbuffer and its manifest, or raises the
    report and writes nothing. `static_state` as `compile_model`'s (level 8k has no
    dynamic dimension: a growing KV cache needs a capacity)."""
    target = Target.make(specification_version, profiles, extensions, level)
    capacity = None if static_state is None else StaticEntries.of(static_state).capacity
    with (_collector_paused(),
          Progress.on_terminal("compiling: reading", total=4, enabled=progress) as bar):
        ctx, module = _to_tosa(model, entry, input_shapes, bar, capacity)
        bar.describe("compiling: optimizing")
        apply_pipeline(ctx, module, ",".join(filter(None, (integer_preparation(target),
                                                          OPTIMIZATIONS))), verify_each=False)
        bar.advance()
        bar.describe("compiling: legalizing for the target")
        artifact = TosaArtifact.lower(ctx, module, target)
        verify_module(module)
        bar.advance()
    return artifact


def _to_tosa(model: str | os.PathLike[str] | ModuleOp, entry: str | None,
             input_shapes: InputShapes | None, bar: Progress, capacity: int | None = None,
             rows_at_count: bool = False, verified: bool = False) -> tuple[Context, ModuleOp]:
    """Read (or copy) `model`, specialise its shapes, convert it to TOSA and hoist its
    variables to the module; with a `capacity`, make its growing state static
    (`make_state_static`'s `rows_at_count`). `verified`: `model` is a verified module and
    `input_shapes` are the static entries' own (each verification of a real-size decoder
    costs as much as a pass; the compiled module is verified at the end)."""
    ctx = make_context()
    module = model.clone() if isinstance(model, ModuleOp) else read_model_file(ctx, model)
    if not verified and (isinstance(model, ModuleOp) or not verified_on_reading(model)):
        verify_module(module)
    if input_shapes:
        specialize_input_shapes(module, input_shapes, entry)
        if not verified:
            verify_module(module)
    bar.advance()
    # verified once, after the last pass (the passes' own tests verify each)
    if contains_openvino_ops(module):
        bar.describe(f"compiling: {ConvertOpenVINOToTosaPass.name}")
        apply_pipeline(ctx, module, ConvertOpenVINOToTosaPass.name, verify_each=False)
    if contains_tfl_ops(module):
        bar.describe(f"compiling: {ConvertTFLiteToTosaPass.name}")
        apply_pipeline(ctx, module, ConvertTFLiteToTosaPass.name, verify_each=False)
    bar.advance()
    bar.describe("compiling: tosa-hoist-variables")
    hoist_variables(ctx, module)
    if capacity is not None:
        make_state_static(module, capacity, rows_at_count)
    bar.advance()
    return ctx, module


def _static_entries(model: str | os.PathLike[str] | ModuleOp, entry: str | None,
                    sizes: StaticEntries, bar: Progress
                    ) -> tuple[Context, ModuleOp, StaticLayout | None]:
    """A decoder's `prefill` and `decode` entries in one module, made static
    (`transforms.static_entries`) and their shapes folded (`tosa-infer-shapes`); any other
    model made static as it is (no layout)."""
    ctx = make_context()
    source = model if isinstance(model, ModuleOp) else read_model_file(ctx, model)
    if isinstance(model, ModuleOp) or not verified_on_reading(model):
        verify_module(source)  # once, not once per entry
    if not is_decoder(source, entry):
        ctx, module = _to_tosa(source, entry, None, bar, sizes.capacity, verified=True)
        return ctx, module, None
    modules = {}
    for name, tokens in ((PREFILL, sizes.chunk), (DECODE, 1)):
        ctx, modules[name] = _to_tosa(source, entry, sizes.shapes(tokens, source, entry), bar,
                                      sizes.capacity, rows_at_count=name == DECODE,
                                      verified=True)
    module = merge_entries(modules)
    apply_pipeline(ctx, module, TosaInferShapesPass.name, verify_each=False)
    counts = {op.var_name: op.attributes[COUNT_ATTR].data  # type: ignore[attr-defined]
              for op in module.body.block.ops
              if isinstance(op, VariableOp) and COUNT_ATTR in op.attributes}
    return ctx, module, StaticLayout(PREFILL, DECODE, sizes.capacity, sizes.chunk, counts)


@contextmanager
def _collector_paused() -> Iterator[None]:
    """Python's cyclic garbage collector paused while compiling, then one collection of
    what compiling allocated.

    Compiling builds hundreds of thousands of IR objects that stay alive; the collector's
    full passes over that growing heap were a fifth of compiling a 30-layer LLM. The one
    collection afterwards frees the cycles that compiling left (erased ops), so nothing is
    left for the user's next calls to pay. A collector the caller disabled stays so."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
        # the two younger generations only: with the collector paused, everything compiling
        # allocated is still in the youngest, and what survives (the compiled model) goes
        # on to the oldest now, not at the next middle-generation collection (a 243 ms
        # pause in the first decode step of a 30-layer LLM); a full collection would walk
        # the caller's whole heap too (in a test process, seconds per compile)
        gc.collect(1)
