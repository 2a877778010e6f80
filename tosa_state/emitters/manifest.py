"""The state manifest written beside a `.tosa` artifact (`model.tosa.json`): what an
application needs to run the graph and to keep its state outside the activation buffers —
the inputs and outputs, and for each variable its name in the model and in the flatbuffer,
shape, element type, quantization, initial value and size in bytes (to allocate, clear and
set it, as ST's state buffers do)."""

from __future__ import annotations

import hashlib
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, FloatAttr, IntegerAttr, ModuleOp

from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.runtime.ports import Port, input_ports, output_ports
from tosa_state.runtime.variables import collect_specs
from tosa_state.signature import select_entry
from tosa_state.transforms.tosa_host_capacity_checks import host_checks
from tosa_state.transforms.tosa_integer_state import SCALE_ATTR, ZERO_POINT_ATTR
from tosa_state.transforms.tosa_validation import Target
from tosa_state.transforms.tosa_validation.type_support import type_name

FORMAT = "tosa-state manifest 1"
INLINE_LIMIT = 4096
"""Initial values of at most this many elements are listed; larger ones are given by their
digest (the values are in the flatbuffer)."""


def _port(port: Port, tensor_name: str, attrs: ArrayAttr | None) -> dict[str, Any]:
    found: dict[str, Any] = {"name": port.name, "tensor": tensor_name,
                             "shape": list(port.shape), "dtype": str(port.dtype)}
    entry = attrs.data[port.index] if attrs is not None else None
    quantization = _port_quantization(entry) if isinstance(entry, DictionaryAttr) else None
    if quantization is not None:
        found["quantization"] = quantization
    return found


def _port_quantization(attrs: DictionaryAttr) -> dict[str, Any] | None:
    """A quantized input's or output's scale (one, or one per channel of the last axis)
    and zero point (`tosa-integer-io`): the real value is `scale * (q - zero_point)`."""
    scale, zero_point = attrs.data.get(SCALE_ATTR), attrs.data.get(ZERO_POINT_ATTR)
    if not isinstance(zero_point, IntegerAttr):
        return None
    if isinstance(scale, FloatAttr):
        return {"scale": scale.value.data, "zero_point": zero_point.value.data}
    if isinstance(scale, ArrayAttr):
        return {"scale": [s.value.data for s in scale.data if isinstance(s, FloatAttr)],
                "zero_point": zero_point.value.data}
    return None


def _initial(values: np.ndarray | None) -> dict[str, Any]:
    if values is None:
        return {"kind": "none"}
    if not values.any():
        return {"kind": "zeros"}
    if values.size <= INLINE_LIMIT:
        return {"kind": "values", "values": values.reshape(-1).tolist()}
    digest = hashlib.sha256(np.ascontiguousarray(values).tobytes()).hexdigest()
    return {"kind": "flatbuffer", "sha256": digest}


def _quantization(op: VariableOp) -> dict[str, Any] | None:
    scale, zero_point = op.attributes.get(SCALE_ATTR), op.attributes.get(ZERO_POINT_ATTR)
    if not isinstance(scale, FloatAttr) or not isinstance(zero_point, IntegerAttr):
        return None
    return {"scale": scale.value.data, "zero_point": zero_point.value.data}


def manifest(module: ModuleOp, target: Target, artifact: str) -> dict[str, Any]:
    """The manifest of `module` (the graph serialized as `artifact`). Names in the
    flatbuffer follow `tosa-opt`'s: `TosaInput_<i>`, `TosaOutput_<i>`, `Variable_<i>`."""
    func = select_entry(module, None)
    specs = {spec.name: spec for spec in collect_specs(module)}
    checks = {check.count: check for check in host_checks(module)}
    variables = []
    for index, op in enumerate(o for o in module.body.block.ops if isinstance(o, VariableOp)):
        spec = specs[op.var_name]
        size = int(np.prod(spec.shape, dtype=np.int64)) * spec.dtype.itemsize
        variables.append({
            "name": op.var_name, "tensor": f"Variable_{index}", "shape": list(spec.shape),
            "type": type_name(op.tensor_type), "dtype": str(spec.dtype),
            "quantization": _quantization(op), "initial": _initial(spec.initial),
            "size_bytes": size,
        })
        if (check := checks.get(op.var_name)) is not None:
            variables[-1]["counts"] = {"variable": check.variable, "capacity": check.capacity,
                                       "rows_per_call": check.rows}
    return {
        "format": FORMAT,
        "artifact": artifact,
        "target": {"specification_version": target.version, "level": target.level,
                   "profiles": sorted(target.profiles), "extensions": sorted(target.extensions)},
        "entry": func.sym_name.data,
        "inputs": [_port(p, f"TosaInput_{p.index}", func.arg_attrs)
                   for p in input_ports(func)],
        "outputs": [_port(p, f"TosaOutput_{p.index}", func.res_attrs)
                    for p in output_ports(func)],
        "variables": variables,
        "state_bytes": sum(v["size_bytes"] for v in variables),
    }
