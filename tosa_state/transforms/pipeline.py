"""Parse and run pass pipelines, verifying the module after every pass.

The syntax is mlir-opt's, and xDSL's short form:

- `builtin.module(pass-a, func.func(cse, canonicalize), pass-b{opt=value})`: passes nested in
  `func.func(...)` run on each function of the module, others on the module;
- `pass-a,pass-b{opt=value}`: the same without the `builtin.module(...)` anchor;
- option names are dashed (`elide-copies=false`), as in MLIR; xDSL's underscores work too.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterator
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.ir import Operation
from xdsl.passes import ModulePass, PassPipeline, get_pass_option_infos
from xdsl.utils.arg_spec import parse_spec
from xdsl.utils.exceptions import ArgSpecParseError, PassFailedException

from tosa_state.diagnostics import TosaStateError
from tosa_state.transforms import get_all_passes
from tosa_state.verification import verify_module


class PipelineError(TosaStateError):
    """A pipeline that does not parse, names an unknown pass, or fails."""


MODULE = "builtin.module"
FUNCTION = "func.func"
ANY = "any"

OP_AGNOSTIC_PASSES = frozenset({"canonicalize", "cse", "dce"})
"""Passes that run on any op, so also nested in `func.func(...)`; the others need the
whole module (symbols, globals)."""


@dataclass(frozen=True)
class Nested:
    """`func.func(...)`: a pipeline run on each op of that name directly in the module."""

    op_name: str
    items: tuple[ModulePass | Nested, ...]


@dataclass(frozen=True)
class Pipeline:
    """A parsed pipeline: passes on the module, and nested pipelines."""

    items: tuple[ModulePass | Nested, ...] = ()

    @property
    def passes(self) -> tuple[ModulePass, ...]:
        """Every pass, in order, nested ones included."""
        return tuple(_flatten(self.items))


def _flatten(items: tuple[ModulePass | Nested, ...]) -> Iterator[ModulePass]:
    for item in items:
        if isinstance(item, Nested):
            yield from _flatten(item.items)
        else:
            yield item


def option_name(field: str) -> str:
    """An option as MLIR spells it on the command line: dashed."""
    return field.replace("_", "-")


def describe_options(pass_type: type[ModulePass]) -> list[str]:
    """`name=<type> (default: value)` for each option of a pass, dashed as mlir-opt spells
    them."""
    lines = []
    for info in get_pass_option_infos(pass_type):
        kind = info.expected_type.strip("'\"").replace(" | None", "")
        if info.default_value is None:
            default = "required"
        elif info.default_value == "none":
            default = "optional"
        else:
            default = f"default: {info.default_value or chr(34) * 2}"
        lines.append(f"{option_name(info.name)}=<{kind}> ({default})")
    return lines


def _split(text: str, spec: str) -> list[str]:
    """`text` split at the commas outside braces, parentheses and quotes."""
    parts, depth, quoted, start = [], 0, False, 0
    for index, char in enumerate(text):
        if char == '"' and (index == 0 or text[index - 1] != "\\"):
            quoted = not quoted
        elif quoted:
            continue
        elif char in "({":
            depth += 1
        elif char in ")}":
            depth -= 1
            if depth < 0:
                raise PipelineError(f"error: bad pipeline '{spec}': unbalanced '{char}'")
        elif char == "," and depth == 0:
            parts.append(text[start:index])
            start = index + 1
    if depth or quoted:
        raise PipelineError(f"error: bad pipeline '{spec}': unbalanced braces or quotes")
    parts.append(text[start:])
    return [part.strip() for part in parts]


def parse_pipeline(spec: str) -> Pipeline:
    """A pipeline from its textual form; a bad one is a `PipelineError`."""
    available = get_all_passes()
    text = spec.strip()
    if _anchor(text) == MODULE:
        text = text[len(MODULE) + 1 : -1]
    return Pipeline(_parse_items(text, spec, available, MODULE))


def _anchor(text: str) -> str | None:
    """The op name of `name(...)`, else None."""
    head, paren, _ = text.partition("(")
    if paren and text.endswith(")") and "{" not in head:
        return head.strip()
    return None


def _parse_items(
    text: str,
    spec: str,
    available: dict[str, Callable[[], type[ModulePass]]],
    anchor: str,
) -> tuple[ModulePass | Nested, ...]:
    items: list[ModulePass | Nested] = []
    for part in _split(text, spec) if text.strip() else []:
        if not part:
            raise PipelineError(f"error: bad pipeline '{spec}': empty pass name")
        if (nested := _anchor(part)) is not None:
            if nested not in (FUNCTION, ANY):
                raise PipelineError(
                    f"error: bad pipeline '{spec}': cannot nest on '{nested}' "
                    f"(tosa-state nests passes in '{FUNCTION}(...)' or '{ANY}(...)')"
                )
            body = part[len(nested) + 1 : -1]
            items.append(Nested(nested, _parse_items(body, spec, available, nested)))
            continue
        items.append(_parse_pass(part, spec, available, anchor))
    return tuple(items)


def _parse_pass(
    text: str,
    spec: str,
    available: dict[str, Callable[[], type[ModulePass]]],
    anchor: str,
) -> ModulePass:
    try:
        arg_spec = parse_spec(text)
    except ArgSpecParseError as error:
        raise PipelineError(f"error: bad pipeline '{spec}': {error}") from None
    if arg_spec.name not in available:
        known = ", ".join(sorted(available))
        raise PipelineError(
            f"error: unknown pass '{arg_spec.name}' in pipeline '{spec}'; "
            f"available passes: {known}"
        )
    pass_type = available[arg_spec.name]()
    if anchor != MODULE and arg_spec.name not in OP_AGNOSTIC_PASSES:
        raise PipelineError(
            f"error: can't run pass '{arg_spec.name}' restricted to '{MODULE}' nested in "
            f"'{anchor}(...)': it works on the whole module; move it out of '{anchor}(...)'"
        )
    fields = {field.name for field in dataclasses.fields(pass_type)}
    for key in arg_spec.parameters:
        if key.replace("-", "_") not in fields:
            options = "; ".join(describe_options(pass_type)) or "none"
            raise PipelineError(
                f"error: pass '{arg_spec.name}' has no option '{option_name(key)}' "
                f"(its options: {options})"
            )
    try:
        return pass_type.from_pass_spec(arg_spec.normalize_parameter_names())
    except (ValueError, TypeError, ArgSpecParseError) as error:
        options = "; ".join(describe_options(pass_type))
        raise PipelineError(
            f"error: bad option value for pass '{arg_spec.name}' in '{spec}': {error} "
            f"(its options: {options})"
        ) from None


def apply_pipeline(
    ctx: Context, module: ModuleOp, pipeline: Pipeline | PassPipeline | str,
    verify_each: bool = True,
) -> None:
    """Run each pass, then verify; failures become `TosaStateError`s with a location.
    `verify_each=False` leaves verifying to the caller (`compile_model` verifies once,
    after all its passes: each verification of a 30-layer LLM's 45 000 ops took as long
    as a pass)."""
    if isinstance(pipeline, str):
        pipeline = parse_pipeline(pipeline)
    items = pipeline.items if isinstance(pipeline, Pipeline) else pipeline.passes
    _apply_items(ctx, module, items, verify_each)


def _apply_items(ctx: Context, op: Operation, items: tuple[ModulePass | Nested, ...],
                 verify_each: bool) -> None:
    for item in items:
        if isinstance(item, Nested):
            for region in op.regions:
                for block in region.blocks:
                    for child in list(block.ops):
                        if item.op_name in (ANY, child.name):
                            _apply_items(ctx, child, item.items, verify_each)
            continue
        _apply_pass(ctx, op, item)
        if verify_each:
            verify_module(op)


def _apply_pass(ctx: Context, op: Operation, module_pass: ModulePass) -> None:
    try:
        module_pass.apply(ctx, op)  # type: ignore[arg-type]  # nested: any op
    except PassFailedException as error:
        message = str(error.args[0]) if error.args else str(error)
        if "error:" not in message.split("\n", 1)[0]:
            message = f"error: {message}"
        raise PipelineError(f"{message}\nnote: in pass '{module_pass.name}'") from None


__all__ = ["Nested", "Pipeline", "PipelineError", "apply_pipeline", "parse_pipeline"]
