"""The devices a compiled model runs on: `interpreter` (the numpy interpreter, default),
`iree` (IREE's compiler and runtime, `tosa_state.devices.iree`) and `reference` (the
model's TOSA artifact in Arm's TOSA reference model, `tosa_state.devices.reference`): peers
behind the same `CompiledModel` / `InferRequest` / `VariableState` API
(`tosa_state.runtime`), each implementing the runtime's `Executable` and `DeviceRequest`."""

from __future__ import annotations

from tosa_state.diagnostics import TosaStateError

INTERPRETER, IREE, REFERENCE = "interpreter", "iree", "reference"
DEVICES = (INTERPRETER, IREE, REFERENCE)

OPTIMIZATIONS = (
    "tosa-reduce-transposes,tosa-fold-conv-bias,tosa-fold-identities,"
    "tosa-merge-sliced-elementwise,tosa-fold-tile-into-matmul"
)
"""The TOSA optimisations every device's default pipeline runs first."""

DEFAULT_PIPELINES = {
    INTERPRETER: f"{OPTIMIZATIONS},convert-tosa-variables-to-memref",
    IREE: f"{OPTIMIZATIONS},tosa-to-mlprogram",
    REFERENCE: OPTIMIZATIONS,
}
"""The lowering `compile_model` runs on each device when none is given."""


def check_device(device: str) -> str:
    """`device`, or a `TosaStateError` naming the devices there are."""
    if device not in DEVICES:
        raise TosaStateError(f"error: unknown device '{device}' (devices: {', '.join(DEVICES)})")
    return device


__all__ = ["DEFAULT_PIPELINES", "DEVICES", "INTERPRETER", "IREE", "OPTIMIZATIONS", "REFERENCE",
           "check_device"]
