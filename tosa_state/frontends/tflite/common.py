"""What the operator builders of the TFLite frontend share: the operator being imported, with
its checked operands, result types and options."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, TypeVar

from tflite.ActivationFunctionType import ActivationFunctionType
from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.dialects.tfl.common import ACTIVATIONS
from tosa_state.dialects.tfl.quantized import Quantization
from tosa_state.frontends.tflite.reader import Where, guarded

_ACTIVATION_NAMES = {
    v: k for k, v in vars(ActivationFunctionType).items() if not k.startswith("_")
}
_O = TypeVar("_O")


@dataclass
class OperatorInput:
    """One operator of a subgraph, ready to become a `tfl` op."""

    operands: Sequence[SSAValue | None]
    """By input position; None for an omitted optional input (tensor index -1)."""
    result_types: Sequence[Attribute]
    options_table: Any
    options_type: int
    where: Where
    function_name: Callable[[int, str], str]
    """The function of subgraph `index` (checked), for control-flow operators."""
    quantization: Sequence[Quantization | None] = ()
    """By input position: the input's quantization (a hybrid weight's scales)."""
    result_quantization: Sequence[Quantization | None] = ()

    def operand(self, index: int, what: str) -> SSAValue:
        value = self.operands[index] if index < len(self.operands) else None
        if value is None:
            raise self.where.error(f"input {index} ({what}) is required")
        return value

    def optional(self, index: int) -> SSAValue | None:
        return self.operands[index] if index < len(self.operands) else None

    def options(self, cls: type[_O], type_code: int) -> _O | None:
        """The builtin options as `cls` (None when the operator has none)."""
        if self.options_table is None or self.options_type == 0:
            return None
        if self.options_type != type_code:
            raise self.where.error(
                f"builtin options of type #{self.options_type}, expected #{type_code} "
                f"({cls.__name__})"
            )
        options = cls()
        table = self.options_table
        options.Init(table.Bytes, table.Pos)  # type: ignore[attr-defined]
        return options

    def read(self, what: str, read: Callable[[], _O]) -> _O:
        """An option field read through the checked accessor."""
        return guarded(self.where, what, read)

    def activation(self, options: Any) -> str:
        if options is None:
            return "NONE"
        code = self.read("fused_activation_function", options.FusedActivationFunction)
        name = _ACTIVATION_NAMES.get(code, f"#{code}")
        if name not in ACTIVATIONS:
            raise self.where.error(f"fused activation {name} is not supported")
        return name

    def result(self, index: int = 0) -> Attribute:
        return self.result_types[index]


@dataclass(frozen=True)
class Builder:
    """How one builtin operator becomes a `tfl` op: `build`, its input count range and its
    output count (None: any)."""

    build: Callable[[OperatorInput], Operation]
    inputs: tuple[int, int]
    outputs: int | None = 1
