"""`specialize-input-shapes`: static shapes for the entry function's inputs.

What OpenVINO's `Model.reshape({...})` does before compiling: a model exported with a
dynamic batch (`tensor<?x8xf32>`) gets the shape it will run with, so that the conversion
to TOSA, the state shapes derived from the inputs and the interpreter all see static
shapes. Each named input keeps its rank; its static dimensions must stay as they are.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import FunctionType, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tosa_state.diagnostics import TosaStateError, error_at
from tosa_state.signature import input_names, select_entry

InputShapes = Mapping[str | int, Sequence[int]]
"""New shapes by input name, `arg<i>` or position."""


class InputShapeError(TosaStateError):
    """An input that does not exist, or cannot take the shape asked for."""


@dataclass(frozen=True)
class SpecializeInputShapesPass(ModulePass):
    """Gives the entry function's inputs static shapes (as OpenVINO's `Model.reshape`).

    `shapes="x=1x8,mask=1x16"`: each input named (by its name or `arg<i>`) gets that static
    shape. `entry`: the function (default: `main`, else the only public one)."""

    name = "specialize-input-shapes"

    shapes: str = ""
    entry: str | None = None

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        try:
            specialize_input_shapes(op, parse_shapes(self.shapes), self.entry)
        except TosaStateError as error:
            raise PassFailedException(str(error)) from None


def parse_shapes(text: str) -> dict[str | int, tuple[int, ...]]:
    """`"x=1x8,arg1=2x3"` as `{"x": (1, 8), "arg1": (2, 3)}` (`x=` alone: rank 0)."""
    shapes: dict[str | int, tuple[int, ...]] = {}
    for item in filter(None, (part.strip() for part in text.split(","))):
        name, equals, dims = item.partition("=")
        try:
            if not equals or not name.strip():
                raise ValueError
            shape = tuple(int(d) for d in dims.split("x")) if dims.strip() else ()
        except ValueError:
            raise InputShapeError(
                f"error: bad input shape '{item}': expected NAME=D0xD1x... (e.g. x=1x8)"
            ) from None
        shapes[name.strip()] = shape
    return shapes


def specialize_input_shapes(module: ModuleOp, shapes: InputShapes, entry: str | None = None
                            ) -> None:
    """Give the inputs of the entry function the static `shapes`."""
    if not shapes:
        return
    func = select_entry(module, entry)
    block = func.body.block
    names = input_names(func)
    for key, shape in shapes.items():
        index = _input_index(func, names, key)
        old = block.args[index]
        new_type = _specialized(func, names[index], old.type, tuple(int(d) for d in shape))
        if new_type == old.type:
            continue
        new = block.insert_arg(new_type, index)
        new.name_hint = old.name_hint
        old.replace_all_uses_with(new)
        block.erase_arg(old)
    func.function_type = FunctionType.from_lists(
        [arg.type for arg in block.args], func.function_type.outputs.data
    )


def _input_index(func: FuncOp, names: list[str], key: str | int) -> int:
    if isinstance(key, int) and 0 <= key < len(names):
        return key
    for index, name in enumerate(names):
        if key in (name, f"arg{index}"):
            return index
    listed = ", ".join(names) or "none"
    raise InputShapeError(error_at(func, f"no input named {key!r} to reshape (inputs: {listed})"))


def _specialized(func: FuncOp, name: str, old: object, shape: tuple[int, ...]) -> TensorType:
    if not isinstance(old, TensorType):
        raise InputShapeError(error_at(func, f"input '{name}' is not a ranked tensor"))
    dims = tuple(old.get_shape())
    compatible = len(shape) == len(dims) and all(
        want >= 0 and (have < 0 or have == want) for have, want in zip(dims, shape, strict=True)
    )
    if not compatible:
        declared = "x".join("?" if d < 0 else str(d) for d in dims) or "scalar"
        wanted = "x".join(map(str, shape)) or "scalar"
        raise InputShapeError(
            error_at(func, f"input '{name}' cannot take the shape {wanted}: it is declared "
                     f"{declared} (same rank, and only '?' dimensions may change)")
        )
    return TensorType(old.element_type, shape)
