"""tosa-state: a compiler and runtime for stateful ML models, built on xDSL.

```python
import tosa_state as ts
compiled = ts.compile_model("model.xml")
request = compiled.create_infer_request()
result = request.infer([x])
```

The names below are imported on first use: importing a submodule alone (the `xdsl.universe`
plugin, `tosa_state.transforms`) loads neither the runtime nor the validation.
"""

from __future__ import annotations

from importlib import import_module
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tosa_state.api import compile_model, compile_tosa, read_model
    from tosa_state.context import make_context
    from tosa_state.diagnostics import TosaStateError
    from tosa_state.request_guard import RequestBusyError
    from tosa_state.runtime import (
        CompiledModel,
        InferRequest,
        InferResult,
        Port,
        VariableState,
    )
    from tosa_state.validation import ValidationReport, validate

_EXPORTS = {
    "CompiledModel": "tosa_state.runtime",
    "InferRequest": "tosa_state.runtime",
    "InferResult": "tosa_state.runtime",
    "Port": "tosa_state.runtime",
    "RequestBusyError": "tosa_state.request_guard",
    "TosaStateError": "tosa_state.diagnostics",
    "ValidationReport": "tosa_state.validation",
    "VariableState": "tosa_state.runtime",
    "compile_model": "tosa_state.api",
    "compile_tosa": "tosa_state.api",
    "make_context": "tosa_state.context",
    "read_model": "tosa_state.api",
    "validate": "tosa_state.validation",
}
"""Each public name and the module that defines it."""


def __getattr__(name: str) -> Any:
    if (module := _EXPORTS.get(name)) is None:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(import_module(module), name)
    globals()[name] = value  # found directly from now on
    return value


def __dir__() -> list[str]:
    return sorted({*globals(), *_EXPORTS})


__all__ = [
    "CompiledModel",
    "InferRequest",
    "InferResult",
    "Port",
    "RequestBusyError",
    "TosaStateError",
    "ValidationReport",
    "VariableState",
    "compile_model",
    "compile_tosa",
    "make_context",
    "read_model",
    "validate",
]
