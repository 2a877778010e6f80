"""The runtime API, modelled on OpenVINO's and the same on every device: compiled models,
requests, variable states.

A `CompiledModel` holds what all requests share and never changes: the module, its entry's
ports, the variables' specs and what a device made of the module (an `Executable`: the
interpreter's plan, IREE's `.vmfb`, a `.tosa` flatbuffer). Each `InferRequest` owns what its
device runs for it (a `DeviceRequest`: the state and one call), so requests never share
state. Arrays handed to the user are always copies: they never alias the state. The devices
(`tosa_state.devices`) implement `Executable` and `DeviceRequest`; none subclasses another.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
from xdsl.dialects.builtin import ModuleOp

from tosa_state.diagnostics import TosaStateError
from tosa_state.request_guard import Exclusive, exclusive
from tosa_state.runtime.ports import (
    InferResult,
    InputsLike,
    Port,
    bind_inputs,
    find_port,
    input_ports,
    output_ports,
)
from tosa_state.runtime.static_entries import StaticLayout, StaticRequest, user_ports
from tosa_state.runtime.variables import StateStore, VariableSpec
from tosa_state.signature import select_entry


class DeviceRequest(Protocol):
    """What a device runs for one request: its state and one call on checked inputs."""

    store: StateStore

    def run(self, args: list[np.ndarray]) -> list[np.ndarray]:
        """One call; the results are the user's (copies, never aliases of the state)."""
        ...


class Executable(Protocol):
    """What a device made of a module, shared by the requests of a `CompiledModel`."""

    device: str
    specs: Sequence[VariableSpec]
    """Every variable the device keeps, hidden bookkeeping (init flags, sizes) included."""

    def create_request(self) -> DeviceRequest: ...


class VariableState(Exclusive):
    """One variable of a request: `name`, `state` (a copy; settable) and `reset()`; busy
    while its request is (`request_guard`)."""

    def __init__(self, store: StateStore, name: str, request: Exclusive | None = None):
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
    """A module ready to run on a device: ports and variables known, the device's
    executable made."""

    def __init__(self, module: ModuleOp, make_executable: Callable[[ModuleOp, str], Executable],
                 entry: str | None = None, static: StaticLayout | None = None):
        """`make_executable(module, entry)` is the device's compiler; it may rewrite the
        module (its own legalisation), after the ports are read from it. A static decoder
        (`static`) has two entries, `static.prefill` and `static.decode`, which its requests
        run from the dynamic model's calls (`runtime.static_entries`)."""
        self._module: ModuleOp | Callable[[], ModuleOp] = module
        self.static = static
        self.token_axes: tuple[int | None, ...] = ()
        """A static decoder's outputs' tokens axes (`runtime.static_entries`)."""
        func = select_entry(module, static.prefill if static else entry)
        self.entry = func.sym_name.data
        try:
            ports: tuple[tuple[Port, ...], tuple[Port, ...]] | TosaStateError = (
                input_ports(func), output_ports(func))
            if static is not None:
                decode = select_entry(module, static.decode)
                inputs, outputs, self.token_axes = user_ports(
                    ports, (input_ports(decode), output_ports(decode)))
                ports = inputs, outputs
        except TosaStateError as error:  # the device's refusal, if any, says more
            ports = error
        self.executable = make_executable(module, self.entry)
        if isinstance(ports, TosaStateError):
            raise ports
        self.inputs, self.outputs = ports

    @classmethod
    def restored(cls, executable: Executable, entry: str,
                 ports: tuple[tuple[Port, ...], tuple[Port, ...]], static: StaticLayout | None,
                 token_axes: tuple[int | None, ...], module: Callable[[], ModuleOp]
                 ) -> CompiledModel:
        """A compiled model made from a cache, without its module: `module()` makes it
        (the first time `module` is read)."""
        compiled = cls.__new__(cls)
        compiled._module, compiled.static, compiled.token_axes = module, static, token_axes
        compiled.entry, compiled.executable = entry, executable
        compiled.inputs, compiled.outputs = ports
        return compiled

    @property
    def module(self) -> ModuleOp:
        """The module the device compiled (from a cache: made again, on first use)."""
        if not isinstance(self._module, ModuleOp):
            self._module = self._module()
        return self._module

    @property
    def device(self) -> str:
        return self.executable.device

    @property
    def variables(self) -> tuple[VariableSpec, ...]:
        """The model's variables, as `query_state()` lists them (init flags, which are
        bookkeeping rather than state, are left out)."""
        return tuple(spec for spec in self.executable.specs if not spec.hidden)

    def create_infer_request(self) -> InferRequest:
        return InferRequest(self)

    def input(self, key: int | str) -> Port:
        return find_port(self.inputs, key, "input")

    def output(self, key: int | str) -> Port:
        return find_port(self.outputs, key, "output")

    def bind_inputs(self, inputs: InputsLike) -> list[np.ndarray]:
        """Inputs in argument order, checked against the ports (count, shape, dtype)."""
        return bind_inputs(self.inputs, inputs)


class InferRequest(Exclusive):
    """Runs the model call after call, keeping its own state between calls; one thread at
    a time (another gets `RequestBusyError`, see `request_guard`)."""

    def __init__(self, compiled: CompiledModel):
        super().__init__()
        self._compiled = compiled
        self.device_request: DeviceRequest = compiled.executable.create_request()
        if compiled.static is not None:
            variables = tuple(spec.name for spec in compiled.variables)
            self.device_request = StaticRequest(
                self.device_request, compiled.static, compiled.inputs,  # type: ignore[arg-type]
                compiled.token_axes, variables)

    @exclusive
    def infer(self, inputs: InputsLike = None) -> InferResult:
        args = self._compiled.bind_inputs(inputs)
        return InferResult(self._compiled.outputs, self.device_request.run(args))

    @exclusive
    def query_state(self) -> list[VariableState]:
        store = self.device_request.store
        return [VariableState(store, spec.name, self) for spec in self._compiled.variables]

    @exclusive
    def reset_state(self) -> None:
        self.device_request.store.reset()

    @property
    def model(self) -> CompiledModel:
        return self._compiled
