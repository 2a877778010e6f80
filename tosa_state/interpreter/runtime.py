"""The runtime API, modelled on OpenVINO's: compiled models, requests, variable states.

A `CompiledModel` holds what all requests share and never changes: the module, the plan
of its entry function (constants decoded and folded once) and the variables' specs. Each
`InferRequest` owns its interpreter and its `VariableStore`, so requests never share
state. Arrays handed to the user are always copies: they never alias the state.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ArrayAttr, ModuleOp, TensorType
from xdsl.dialects.func import FuncOp
from xdsl.ir import Attribute

from tosa_state.diagnostics import InferenceError, brief, error_at
from tosa_state.dtypes import UnsupportedElementType, numpy_dtype
from tosa_state.interpreter.functions import all_functions, make_interpreter
from tosa_state.interpreter.plan import ModulePlan, PlanError
from tosa_state.interpreter.state import VariableSpec, VariableStore, collect_specs
from tosa_state.interpreter.tosa_variables import attach_store
from tosa_state.request_guard import Exclusive, exclusive
from tosa_state.signature import port_names, positional_index, select_entry

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


def _ports(func: FuncOp, types: Sequence[Attribute], attrs: ArrayAttr | None, prefix: str,
           hints: Sequence[str | None] = ()) -> tuple[Port, ...]:
    ports: list[Port] = []
    names = port_names(attrs, len(types), prefix, hints)
    for i, (tensor_type, name) in enumerate(zip(types, names, strict=True)):
        if not isinstance(tensor_type, TensorType):
            raise PlanError(error_at(func, f"{prefix} {i} of '{func.sym_name.data}' is not a "
                                     f"ranked tensor: '{tensor_type}'"))
        shape = tuple(d if d >= 0 else -1 for d in tensor_type.get_shape())
        try:
            dtype = numpy_dtype(tensor_type.get_element_type())
        except UnsupportedElementType as error:
            raise PlanError(error_at(func, f"{prefix} {i} of '{func.sym_name.data}' has type "
                                     f"'{tensor_type}': {error}")) from None
        ports.append(Port(i, name, shape, dtype))
    return tuple(ports)


class PortLookupError(InferenceError, KeyError, IndexError):
    """No input or output with that name or index (also a `KeyError` / `IndexError`, as
    Python's lookups raise)."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


_PREFIXES = {"input": "arg", "output": "result"}


def _port(ports: tuple[Port, ...], key: int | str, what: str) -> Port:
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
        return self._values[_port(self._ports, key, "output").index]

    def __len__(self) -> int:
        return len(self._values)

    def __iter__(self) -> Iterator[np.ndarray]:
        return iter(self._values)

    def to_dict(self) -> dict[str, np.ndarray]:
        return {port.name: value for port, value in zip(self._ports, self._values, strict=True)}


class VariableState(Exclusive):
    """One variable of a request: `name`, `state` (a copy; settable) and `reset()`; busy
    while its request is (`request_guard`)."""

    def __init__(self, store: VariableStore, name: str, request: Exclusive | None = None):
        super().__init__(request)
        self._store = store
        self.name = name

    @property
    @exclusive
    def state(self) -> np.ndarray:
        return self._store.user_value(self.name)

    @state.setter
    @exclusive
    def state(self, value: Any) -> None:
        self._store.set_checked(self.name, value)

    def set_state(self, value: Any) -> None:
        self.state = value

    @exclusive
    def reset(self) -> None:
        self._store.reset(self.name)

    def __repr__(self) -> str:
        return f"<VariableState '{self.name}'>"


class CompiledModel:
    """A module ready to run: plan compiled, constants decoded, variables known."""

    def __init__(self, module: ModuleOp, entry: str | None = None):
        self.module = module
        self._functions = all_functions()
        self._specs = tuple(collect_specs(module))
        compile_time = make_interpreter(module, self._functions)
        attach_store(compile_time, VariableStore(self._specs))
        self._plans = ModulePlan(module, compile_time)
        func = select_entry(module, entry)
        self.entry = func.sym_name.data
        self._plan = self._plans.plan(self.entry)
        function_type = func.function_type
        self.inputs = _ports(func, function_type.inputs.data, func.arg_attrs, "arg",
                             [arg.name_hint for arg in func.body.block.args])
        self.outputs = _ports(func, function_type.outputs.data, func.res_attrs, "result")

    @property
    def variables(self) -> tuple[VariableSpec, ...]:
        """The model's variables, as `query_state()` lists them (init flags, which are
        bookkeeping rather than state, are left out)."""
        return tuple(spec for spec in self._specs if not spec.hidden)

    def create_infer_request(self) -> InferRequest:
        return InferRequest(self)

    def input(self, key: int | str) -> Port:
        return _port(self.inputs, key, "input")

    def output(self, key: int | str) -> Port:
        return _port(self.outputs, key, "output")

    def bind_inputs(self, inputs: InputsLike) -> list[Any]:
        """Inputs in argument order, checked against the ports (count, shape, dtype)."""
        if type(inputs) in (list, tuple) and len(inputs) == len(self.inputs):
            # the common case, without the costlier ABC checks below
            return [_checked(port, value) for port, value in zip(self.inputs, inputs, strict=True)]
        if inputs is None:
            inputs = []
        elif type(inputs) in (list, tuple):
            pass
        elif isinstance(inputs, np.ndarray | str | bytes) or not isinstance(inputs, Iterable):
            # One array (or scalar) alone, as OpenVINO accepts for a model with one input.
            if len(self.inputs) != 1:
                expected = ", ".join(p.name for p in self.inputs) or "none"
                raise InferenceError(
                    f"error: one array given, but the model has {len(self.inputs)} inputs "
                    f"({expected}); pass a list or a dict"
                )
            inputs = [inputs]
        if isinstance(inputs, Mapping):
            values: list[Any] = [None] * len(self.inputs)
            for key, value in inputs.items():
                values[self._port_for(key).index] = value
            missing = [p.name for p, v in zip(self.inputs, values, strict=True) if v is None]
            if missing:
                raise InferenceError(f"error: missing input(s): {', '.join(missing)}")
        else:
            values = list(inputs)
            if len(values) != len(self.inputs):
                expected = ", ".join(p.name for p in self.inputs) or "none"
                raise InferenceError(
                    f"error: expected {len(self.inputs)} input(s) ({expected}), got {len(values)}"
                )
        return [_checked(port, value) for port, value in zip(self.inputs, values, strict=True)]

    def _port_for(self, key: str | int) -> Port:
        return _port(self.inputs, key, "input")


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


class InferRequest(Exclusive):
    """Runs the model call after call, keeping its own state between calls; one thread at
    a time (another gets `RequestBusyError`, see `request_guard`)."""

    def __init__(self, compiled: CompiledModel):
        super().__init__()
        self._compiled = compiled
        self._store = VariableStore(compiled._specs)
        self._interpreter = make_interpreter(compiled.module, compiled._functions)
        attach_store(self._interpreter, self._store)
        self._plan = compiled._plan

    @exclusive
    def infer(self, inputs: InputsLike = None) -> InferResult:
        args = self._compiled.bind_inputs(inputs)
        return InferResult(self._compiled.outputs, self._run(args))

    def _run(self, args: list[Any]) -> list[np.ndarray]:
        """One call on checked inputs; the results are copies (another device's request
        overrides this, `tosa_state.devices`)."""
        with np.errstate(all="ignore"):  # IEEE results (inf, nan) are the spec's answers
            results = self._plan(self._interpreter, args)
        return [r.copy() if type(r) is np.ndarray else np.array(r, copy=True) for r in results]

    @exclusive
    def query_state(self) -> list[VariableState]:
        return [VariableState(self._store, spec.name, self) for spec in self._compiled.variables]

    @exclusive
    def reset_state(self) -> None:
        self._store.reset()

    @property
    def model(self) -> CompiledModel:
        return self._compiled
