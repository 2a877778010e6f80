"""What the conversions to TOSA (`convert-openvino-to-tosa`, `convert-tflite-to-tosa`) do
to a module once their patterns have run."""

from __future__ import annotations

from functools import cache

from xdsl.dialects.builtin import FunctionType, ModuleOp
from xdsl.dialects.func import FuncOp
from xdsl.ir import Operation
from xdsl.traits import MemoryEffect, NoMemoryEffect, is_side_effect_free

from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.resources import identity


def existing_variables(module: ModuleOp) -> dict[str, VariableOp]:
    """The module-level `tosa.variable` declarations a module already has."""
    return {op.var_name: op for op in module.body.block.ops if isinstance(op, VariableOp)}


def refine_result_types(func: FuncOp) -> None:
    """The function's result types become the (static) types of what it returns."""
    terminator = func.body.block.last_op
    if terminator is None:
        return
    inputs = func.function_type.inputs.data
    func.function_type = FunctionType.from_lists(
        list(inputs), [v.type for v in terminator.operands]
    )


@cache
def pure_class(cls: type[Operation]) -> bool:
    """Whether every op of `cls` is side-effect free (its only memory-effect traits say
    none), whatever its operands, properties and regions."""
    effects = [t for t in cls.traits if isinstance(t, MemoryEffect)]
    return bool(effects) and all(isinstance(t, NoMemoryEffect) for t in effects)


def _side_effect_free(op: Operation) -> bool:
    return pure_class(type(op)) or (bool(op.regions) and is_side_effect_free(op))


def merge_key(op: Operation) -> tuple[object, ...]:
    """What equal side-effect-free ops (no regions) of one block have in common: name,
    operands, properties (a mapped weight by where its bytes are), result types and
    attributes (a reshape that checks a state names its layer in one)."""
    properties, attributes = op.properties, op.attributes
    return (
        op.name,
        tuple(op.operands),
        tuple(sorted((k, identity(v)) for k, v in properties.items())) if properties else (),
        tuple(op.result_types),
        tuple(sorted(attributes.items())) if attributes else (),
    )


def clean_up(module: ModuleOp, created: list[Operation]) -> None:
    """Merge equal side-effect-free ops the conversion created (constants, shapes, reshapes of
    one value, ...) and erase the dead ones."""
    ours = set(created)
    created = [op for op in module.walk() if op in ours]
    pure = {op for op in created if _side_effect_free(op)}
    seen: dict[tuple[object, ...], Operation] = {}
    for op in created:
        if op.regions or op not in pure:
            continue
        key = (op.parent_block(), *merge_key(op))
        first = seen.setdefault(key, op)
        if first is not op:
            for old, new in zip(op.results, first.results, strict=True):
                old.replace_all_uses_with(new)
    # Users first; an erased op's operands (its nested ops' too) may have died with it.
    removable = {op for op in pure if not isinstance(op, VariableOp)}
    worklist = created
    while worklist:
        op = worklist.pop()
        if op.parent is None or op not in removable or any(r.uses for r in op.results):
            continue
        used = [v.owner for inner in op.walk() for v in inner.operands]
        op.detach()
        op.erase()
        worklist.extend(owner for owner in used if owner in removable)


__all__ = ["clean_up", "merge_key", "pure_class", "refine_result_types"]
