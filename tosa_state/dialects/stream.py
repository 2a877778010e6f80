"""The one attribute of IREE's `stream` dialect that our modules use: a named parameter,
a value kept outside the compiled module and supplied at run time by a parameter provider
(an `.irpa` archive, or buffers handed to `iree.runtime.ParameterIndex`).

```mlir
ml_program.global private @w(#stream.parameter.named<"model"::"p0"> : tensor<4xf32>) : tensor<4xf32>
```

https://iree.dev/guides/parameters/
"""

from __future__ import annotations

from xdsl.dialects.builtin import StringAttr, TensorType
from xdsl.ir import Attribute, Dialect, ParametrizedAttribute
from xdsl.irdl import irdl_attr_definition
from xdsl.parser import AttrParser
from xdsl.printer import Printer


@irdl_attr_definition
class NamedParameterAttr(ParametrizedAttribute):
    """`#stream.parameter.named<"scope"::"key"> : type`: the value of `key` in the
    parameter scope `scope`."""

    name = "stream.parameter.named"

    scope: StringAttr
    key: StringAttr
    type: TensorType

    def __init__(self, scope: str, key: str, value_type: TensorType):
        super().__init__(StringAttr(scope), StringAttr(key), value_type)

    @classmethod
    def parse_parameters(cls, parser: AttrParser) -> tuple[StringAttr, StringAttr, Attribute]:
        parser.parse_punctuation("<")
        scope = parser.parse_str_literal()
        parser.parse_punctuation("::")
        key = parser.parse_str_literal()
        parser.parse_punctuation(">")
        parser.parse_punctuation(":")
        return StringAttr(scope), StringAttr(key), parser.parse_type()

    def print_parameters(self, printer: Printer) -> None:
        printer.print_string(f"<{self.scope}::{self.key}> : ")
        printer.print_attribute(self.type)


STREAM = Dialect("stream", [], [NamedParameterAttr])

__all__ = ["STREAM", "NamedParameterAttr"]
