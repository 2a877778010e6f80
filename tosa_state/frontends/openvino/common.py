"""What the layer converters of every op family share: `OpBuilder` (the layer, its operands,
result types and attribute readers) and `OpSpec` (how one layer type is imported).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, NoReturn

from xdsl.ir import Attribute, Operation, SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.frontends.openvino.element_types import (
    ElementType,
    ElementTypeError,
    parse_element_type,
)
from tosa_state.frontends.openvino.graph import Layer
from tosa_state.frontends.openvino.xml_reader import XmlElement

if TYPE_CHECKING:
    from tosa_state.frontends.openvino.importer import Importer


@dataclass
class OpBuilder:
    """What a converter needs: the layer, its operands and result types, and error helpers."""

    layer: Layer
    operands: list[SSAValue]
    result_types: list[Attribute]
    importer: Importer

    def fail(self, message: str, node: XmlElement | None = None) -> NoReturn:
        raise self.importer.diag.layer(self.layer, message, node)

    def data(self, key: str, default: str | None = None) -> str:
        value = self.layer.data.get(key, default)
        if value is None:
            self.fail(f"missing attribute '{key}'")
        return value

    def data_int(self, key: str, default: int | None = None) -> int:
        text = self.data(key, None if default is None else str(default))
        try:
            return int(text.strip())
        except ValueError:
            self.fail(f"attribute {key}='{text}' is not an integer")

    def data_float(self, key: str, default: float | None = None) -> float:
        text = self.data(key, None if default is None else repr(default))
        try:
            return float(text.strip())
        except ValueError:
            self.fail(f"attribute {key}='{text}' is not a number")

    def data_bool(self, key: str, default: bool) -> bool:
        text = self.data(key, "true" if default else "false").strip().lower()
        if text in ("true", "1"):
            return True
        if text in ("false", "0"):
            return False
        self.fail(f"attribute {key}='{text}' is not a boolean")

    def data_list(self, key: str, default: str = "") -> list[str]:
        return [part.strip() for part in self.data(key, default).split(",") if part.strip()]

    def data_ints(self, key: str, default: str = "") -> list[int]:
        try:
            return [int(part) for part in self.data_list(key, default)]
        except ValueError:
            self.fail(f"attribute {key}='{self.data(key, default)}' is not a list of integers")

    def data_floats(self, key: str, default: str = "") -> list[float]:
        try:
            return [float(part) for part in self.data_list(key, default)]
        except ValueError:
            self.fail(f"attribute {key}='{self.data(key, default)}' is not a list of numbers")

    def data_element(self, key: str) -> ElementType:
        try:
            return parse_element_type(self.data(key).strip())
        except ElementTypeError as error:
            self.fail(f"attribute {key}: {error}")

    def auto_broadcast(self) -> str:
        mode = self.data("auto_broadcast", "numpy").strip().lower()
        if mode not in ov.AUTO_BROADCAST_VALUES:
            self.fail(f"auto_broadcast='{mode}' is not supported (supported: numpy, none)")
        return mode

    def optional_operand(self, index: int) -> SSAValue | None:
        return self.operands[index] if index < len(self.operands) else None


Converter = Callable[[OpBuilder], Operation]


@dataclass(frozen=True)
class OpSpec:
    """How one OpenVINO operation type is imported."""

    versions: tuple[str, ...]
    inputs: tuple[int, int]
    build: Converter
    outputs: int | None = 1
    """The number of output ports, or None when it varies."""
