"""tosa-state: a compiler and runtime for stateful ML models, built on xDSL.

```python
import tosa_state as ts
compiled = ts.compile_model("model.xml")
request = compiled.create_infer_request()
result = request.infer([x])
```
"""

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
