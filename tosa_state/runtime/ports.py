"""A model's inputs and outputs (`Port`), the lookup of one by index or name, the binding of
a call's inputs to them, and the outputs of one call (`InferResult`): what every device
shares."""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, IntegerAttr, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from tosa_state.diagnostics import InferenceError, TosaStateError, brief, error_at
from tosa_state.dtypes import UnsupportedElementType, numpy_dtype
from tosa_state.signature import port_names, positional_index

InputsLike = Sequence[Any] | Mapping[str | int, Any] | None


@dataclass(frozen=True)
class Port:
    """A model input or output: its position, name, shape (`-1` = dynamic) and dtype."""

    index: int
    name: str
    shape: tuple[int, ...]
    dtype: np.dtype

    def get_any_name(self) -> str:
        return self.name

    def accepts(self, shape: tuple[int, ...]) -> bool:
        if shape == self.shape:  # the common case: a static shape, matched exactly
            return True
        return len(shape) == len(self.shape) and all(
            want < 0 or want == got for want, got in zip(self.shape, shape, strict=True)
        )


def ports_of(func: FuncOp, types: Sequence[Attribute], attrs: ArrayAttr | None, prefix: str,
             hints: Sequence[str | None] = ()) -> tuple[Port, ...]:
    """The ports of `func`'s arguments (`prefix` "arg") or results ("result")."""
    ports: list[Port] = []
    names = port_names(attrs, len(types), prefix, hints)
    for i, (tensor_type, name) in enumerate(zip(types, names, strict=True)):
        if not isinstance(tensor_type, TensorType):
            raise TosaStateError(error_at(func, f"{prefix} {i} of '{func.sym_name.data}' is "
                                          f"not a ranked tensor: '{tensor_type}'"))
        shape = tuple(d if d >= 0 else -1 for d in tensor_type.get_shape())
        try:
            dtype = numpy_dtype(tensor_type.get_element_type())
        except UnsupportedElementType as error:
            raise TosaStateError(error_at(func, f"{prefix} {i} of '{func.sym_name.data}' has "
                                          f"type '{tensor_type}': {error}")) from None
        ports.append(Port(i, name, shape, dtype))
    return tuple(ports)


MIN_OF = "tosa_state.min_of"
MAX_OF = "tosa_state.max_of"
"""Arg attributes of the trailing `i32` arguments that carry an input's smallest and largest
element (the value: the input's index), which the caller computes (`tosa-runtime-checks`:
a gather whose indices are an input checks them without reading them back)."""


def extents(func: FuncOp) -> tuple[tuple[int, bool], ...]:
    """The trailing arguments the caller computes: each one's input and whether it is the
    largest element (else the smallest)."""
    found = []
    for attr in func.arg_attrs.data if func.arg_attrs is not None else ():
        for key, is_max in ((MIN_OF, False), (MAX_OF, True)):
            if isinstance(index := attr.data.get(key), IntegerAttr):
                found.append((index.value.data, is_max))
    return tuple(found)


def input_ports(func: FuncOp) -> tuple[Port, ...]:
    """The inputs a caller passes (not the extents it computes from them)."""
    blocks = func.body.blocks  # none for a declaration, which the device then refuses
    hints = [arg.name_hint for arg in blocks[0].args] if blocks else []
    count = len(func.function_type.inputs.data) - len(extents(func))
    attrs = ArrayAttr(func.arg_attrs.data[:count]) if func.arg_attrs is not None else None
    return ports_of(func, func.function_type.inputs.data[:count], attrs, "arg", hints[:count])


def output_ports(func: FuncOp) -> tuple[Port, ...]:
    return ports_of(func, func.function_type.outputs.data, func.res_attrs, "result")


class PortLookupError(InferenceError, KeyError, IndexError):
    """No input or output with that name or index (also a `KeyError` / `IndexError`, as
    Python's lookups raise)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


_PREFIXES = {"input": "arg", "output": "result"}


def find_port(ports: tuple[Port, ...], key: int | str, what: str) -> Port:
    """The port `key` of `ports`: an index, a name, or the positional alias `arg<i>` /
    `result<i>` (which every port keeps, whatever its name)."""
    if not isinstance(key, str | bool) and hasattr(key, "__index__"):
        key = operator.index(key)  # numpy integers too
    if isinstance(key, int) and 0 <= key < len(ports):
        return ports[key]
    if isinstance(key, str):
        for port in ports:
            if port.name == key:
                return port
        if (index := positional_index(key, _PREFIXES[what], len(ports))) is not None:
            return ports[index]
    names = ", ".join(p.name for p in ports) or "none"
    which = f"named {key!r}" if isinstance(key, str) else f"{key!r}"
    raise PortLookupError(f"error: no {what} {which} ({what}s: {names})")


class InferResult(Sequence[np.ndarray]):
    """The outputs of one inference, by position (`res[0]`), name or `Port`."""

    def __init__(self, ports: tuple[Port, ...], values: list[np.ndarray]):
        self._ports = ports
        self._values = values

    def __getitem__(self, key: Any) -> Any:
        if isinstance(key, slice):
            return self._values[key]
        if isinstance(key, Port):
            key = key.index
        if isinstance(key, int) and not isinstance(key, bool) and -len(self._values) <= key < 0:
            return self._values[key]
        return self._values[find_port(self._ports, key, "output").index]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter(self._values)

    def to_dict(self) -> dict[str, np.ndarray]:
        return {port.name: value for port, value in zip(self._ports, self._values, strict=True)}


def bind_inputs(ports: tuple[Port, ...], inputs: InputsLike) -> list[np.ndarray]:
    """Inputs in argument order, checked against the ports (count, shape, dtype)."""
    if type(inputs) in (list, tuple) and len(inputs) == len(ports):
        # the common case, without the costlier ABC checks below
        return [_checked(port, value) for port, value in zip(ports, inputs, strict=True)]
    if inputs is None:
        inputs = []
    elif type(inputs) in (list, tuple):
        pass
    elif isinstance(inputs, np.ndarray | str | bytes) or not isinstance(inputs, Iterable):
        # One array (or scalar) alone, as OpenVINO accepts for a model with one input.
        if len(ports) != 1:
            expected = ", ".join(p.name for p in ports) or "none"
            raise InferenceError(
                f"error: one array given, but the model has {len(ports)} inputs "
                f"({expected}); pass a list or a dict"
            )
        inputs = [inputs]
    if isinstance(inputs, Mapping):
        values: list[Any] = [None] * len(ports)
        for key, value in inputs.items():
            values[find_port(ports, key, "input").index] = value
        missing = [p.name for p, v in zip(ports, values, strict=True) if v is None]
        if missing:
            raise InferenceError(f"error: missing input(s): {', '.join(missing)}")
    else:
        values = list(inputs)
        if len(values) != len(ports):
            expected = ", ".join(p.name for p in ports) or "none"
            raise InferenceError(
                f"error: expected {len(ports)} input(s) ({expected}), got {len(values)}"
            )
    return [_checked(port, value) for port, value in zip(ports, values, strict=True)]


def _checked(port: Port, value: Any) -> np.ndarray:
    if isinstance(value, np.ndarray):
        if value.dtype != port.dtype:
            raise InferenceError(
                f"error: input '{port.name}' has dtype {value.dtype}; expected {port.dtype}"
            )
        array = value
    else:
        try:
            array = np.asarray(value, dtype=port.dtype)
        except (TypeError, ValueError) as error:
            raise InferenceError(
                f"error: input '{port.name}' cannot be converted to {port.dtype}: {error}"
            ) from None
    if not port.accepts(array.shape):
        want = [d if d >= 0 else "?" for d in port.shape]
        raise InferenceError(
            f"error: input '{port.name}' has shape {brief(list(array.shape))}; expected {want}"
        )
    return array
