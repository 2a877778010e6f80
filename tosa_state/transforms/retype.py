"""Retyping values in place (op results, block arguments, function signatures) with a
type conversion, for the passes that change a type everywhere it occurs."""

from __future__ import annotations

from collections.abc import Callable

from xdsl.dialects.builtin import FunctionType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute, Operation
from xdsl.rewriter import Rewriter

Conversion = Callable[[Attribute], Attribute]


def retype(op: Operation, convert: Conversion) -> None:
    """`op`'s results, the arguments of its blocks and, for a `func.func`, its signature,
    converted by `convert` (which returns a type unchanged when it does not apply)."""
    if isinstance(op, FuncOp):
        kind = op.function_type
        op.function_type = FunctionType.from_lists(
            [convert(t) for t in kind.inputs.data], [convert(t) for t in kind.outputs.data])
    for result in list(op.results):
        if (new := convert(result.type)) != result.type:
            Rewriter.replace_value_with_new_type(result, new)
    for region in op.regions:
        for block in region.blocks:
            for arg in list(block.args):
                if (new := convert(arg.type)) != arg.type:
                    Rewriter.replace_value_with_new_type(arg, new)


__all__ = ["retype"]
