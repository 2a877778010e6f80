"""Run an OpenVINO IR model step by step on the CPU plugin, as an oracle for tosa-state
(`validate`, and the differential tests).

`OpenVINOSession(xml_path)` reads the model with `openvino.Core().read_model`, compiles it for
`CPU` with `{"INFERENCE_PRECISION_HINT": "f32"}` (this CPU otherwise infers in bf16) and
`DYNAMIC_QUANTIZATION_GROUP_SIZE=0` (compressed weights: no int8 activations) and keeps one
`InferRequest`, whose variables persist between `infer` calls. A model with dynamic inputs
runs as it is, on inputs of any shape it accepts (`Model.reshape` to static shapes and
`reset_state` break the CPU plugin's shape inference in 2026.4: the second call after a reset
fails).

Quirks papered over (checked with openvino 2026.4.1):
- 0-D state comes back from `query_state()` with shape `[1]`: reshaped to the declared shape.
- `query_state()` of a fresh or reset variable that has an init subgraph returns zeros, not the
  init value (which may depend on the inputs of the next call): `states()` leaves such variables
  out until the next `infer` or `set_state`. A variable without init really is zeros then.
- `set_state` and `infer` silently convert dtypes (an i32 array fed to an f32 input works): both
  check the declared element type and shape here and raise instead.
- Output arrays and `state.data` are views of buffers the request reuses: everything is copied.
- `ov.Type.bf16.to_dtype()` is `float16`: bf16 is mapped to `ml_dtypes.bfloat16` by hand.

Quirks that cannot be papered over are listed in `session.caveats` (tests comparing against such
models must not trust OpenVINO):
- An Assign fed directly by a Parameter aliases the input buffer: the next step reads that step's
  input instead of the stored value.
- The CPU saturates u8/i8 arithmetic and computes i64 in i32.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import ml_dtypes
import numpy as np
import openvino as ov

CONFIG = {"INFERENCE_PRECISION_HINT": "f32", "DYNAMIC_QUANTIZATION_GROUP_SIZE": "0"}
_NARROW_OR_WIDE_INTS = ("u8", "i8", "i64", "u64")


@dataclass(frozen=True)
class DeclaredVariable:
    """A variable as declared by its ReadValue: element type, shape (None where dynamic), and
    whether it has an init subgraph."""

    name: str
    dtype: np.dtype
    shape: tuple[int | None, ...] | None
    has_init: bool


def numpy_dtype(element_type: ov.Type) -> np.dtype:
    if element_type == ov.Type.bf16:
        return np.dtype(ml_dtypes.bfloat16)
    return np.dtype(element_type.to_dtype())


def _shape(partial: ov.PartialShape) -> tuple[int | None, ...] | None:
    if partial.rank.is_dynamic:
        return None
    return tuple(d.get_length() if d.is_static else None for d in partial)


def _matches(value: np.ndarray, dtype: np.dtype, shape: tuple[int | None, ...] | None) -> bool:
    if value.dtype != dtype:
        return False
    if shape is None:
        return True
    return len(shape) == value.ndim and all(
        d is None or d == n for d, n in zip(shape, value.shape, strict=True)
    )


def _declared_variables(model: ov.Model) -> dict[str, DeclaredVariable]:
    variables: dict[str, DeclaredVariable] = {}
    for node in model.get_ops():
        if node.get_type_name() != "ReadValue":
            continue
        name = node.get_variable_id()
        variables[name] = DeclaredVariable(
            name,
            numpy_dtype(node.get_output_element_type(0)),
            _shape(node.get_output_partial_shape(0)),
            node.get_input_size() > 0,
        )
    return variables


def _caveats(model: ov.Model) -> list[str]:
    caveats: list[str] = []
    for node in model.get_ops():
        kind = node.get_type_name()
        if kind == "Assign":
            source = node.input_value(0).get_node()
            if source.get_type_name() == "Parameter":
                caveats.append(
                    f"Assign {node.get_friendly_name()} ({node.get_variable_id()}) is fed directly "
                    f"by Parameter {source.get_friendly_name()}: OpenVINO aliases the input"
                )
        elif kind not in ("Parameter", "Constant", "Result", "ReadValue"):
            types = {str(node.get_output_element_type(i)) for i in range(node.get_output_size())}
            narrow = sorted(t for t in types if t in _NARROW_OR_WIDE_INTS)
            if narrow:
                caveats.append(
                    f"{kind} {node.get_friendly_name()} computes in {', '.join(narrow)}: "
                    "the CPU saturates u8/i8 and computes i64 in i32"
                )
    return caveats


class OpenVINOSession:
    """One compiled model and one infer request; state persists across `infer` calls."""

    def __init__(self, xml_path: str | Path, device: str = "CPU") -> None:
        self.core = ov.Core()
        self.model = self.core.read_model(str(xml_path))
        self.compiled = self.core.compile_model(self.model, device, CONFIG)
        self.request = self.compiled.create_infer_request()
        self.variables = _declared_variables(self.model)
        self.caveats = _caveats(self.model)
        self._inputs = [
            (numpy_dtype(p.get_element_type()), _shape(p.get_partial_shape()))
            for p in self.compiled.inputs
        ]
        self._pending_init: set[str] = set()
        self.reset_state()

    def infer(self, inputs: Sequence[np.ndarray]) -> list[np.ndarray]:
        """One step; outputs in `compiled.outputs` order, copied."""
        if len(inputs) != len(self._inputs):
            raise ValueError(f"{len(inputs)} inputs given, {len(self._inputs)} expected")
        arrays = []
        for i, (value, (dtype, shape)) in enumerate(zip(inputs, self._inputs, strict=True)):
            array = np.asarray(value)
            if not _matches(array, dtype, shape):
                raise TypeError(
                    f"input {i}: {array.dtype}{list(array.shape)}, expected "
                    f"{dtype}{list(shape) if shape is not None else '[...]'}"
                )
            arrays.append(np.array(array, copy=True, order="C"))
        results = self.request.infer(arrays)
        self._pending_init.clear()
        return [
            _as_dtype(np.array(results[out], copy=True), numpy_dtype(out.get_element_type()))
            for out in self.compiled.outputs
        ]

    def _state(self, name: str) -> ov.VariableState:
        for state in self.request.query_state():
            if state.name == name:
                return state
        raise KeyError(f"no variable {name!r}; variables: {sorted(self.variables)}")

    def reset_state(self) -> None:
        """All variables back to their init (evaluated at the next `infer`) or zeros."""
        self.request.reset_state()
        self._pending_init = {n for n, v in self.variables.items() if v.has_init}

    def reset_variable(self, name: str) -> None:
        self._state(name).reset()
        if self.variables[name].has_init:
            self._pending_init.add(name)

    def set_state(self, name: str, value: np.ndarray) -> None:
        """Override one variable; dtype and shape must match its declaration exactly."""
        declared = self.variables.get(name)
        if declared is None:
            raise KeyError(f"no variable {name!r}; variables: {sorted(self.variables)}")
        array = np.asarray(value)
        if not _matches(array, declared.dtype, declared.shape):
            raise TypeError(
                f"set_state({name!r}): {array.dtype}{list(array.shape)} does not "
                f"match the declared {declared.dtype}{declared.shape}"
            )
        self._state(name).state = ov.Tensor(np.array(array, copy=True))
        self._pending_init.discard(name)

    def states(self) -> dict[str, np.ndarray]:
        """Current value of every variable whose value is known (see the module docstring)."""
        values: dict[str, np.ndarray] = {}
        for state in self.request.query_state():
            if state.name in self._pending_init:
                continue
            data = np.array(state.state.data, copy=True)
            declared = self.variables.get(state.name)
            if declared is not None:
                data = _to_declared(data, declared)
            values[state.name] = data
        return values


def _as_dtype(data: np.ndarray, dtype: np.dtype) -> np.ndarray:
    """Reinterpret bf16 data that OpenVINO hands out as 2-byte floats or ints."""
    if dtype == ml_dtypes.bfloat16 and data.dtype != dtype and data.dtype.itemsize == 2:
        return data.view(dtype)
    return data


def _to_declared(data: np.ndarray, declared: DeclaredVariable) -> np.ndarray:
    data = _as_dtype(data, declared.dtype)
    if declared.shape == () and data.shape == (1,):
        data = data.reshape(())
    return data
