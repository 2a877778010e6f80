"""The runtime API every device shares (`CompiledModel`, `InferRequest`, `VariableState`,
`Port`, `InferResult`) and the two protocols a device implements (`Executable`,
`DeviceRequest`); the devices themselves are in `tosa_state.devices`."""

from tosa_state.runtime.model import (
    CompiledModel,
    DeviceRequest,
    Executable,
    InferRequest,
    VariableState,
)
from tosa_state.runtime.ports import InferResult, InputsLike, Port, PortLookupError
from tosa_state.runtime.static_entries import EntryRequest, StaticLayout
from tosa_state.runtime.variables import StateStore, VariableSpec, collect_specs, declares_state

__all__ = [
    "CompiledModel",
    "DeviceRequest",
    "EntryRequest",
    "Executable",
    "InferRequest",
    "InferResult",
    "InputsLike",
    "Port",
    "PortLookupError",
    "StateStore",
    "StaticLayout",
    "VariableSpec",
    "VariableState",
    "collect_specs",
    "declares_state",
]
