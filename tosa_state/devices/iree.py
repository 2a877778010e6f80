"""Device `iree`: the model compiled by IREE (`iree-compile`, llvm-cpu) and run by
`iree.runtime`, behind the runtime's `CompiledModel` / `InferRequest` API
(`tosa_state.runtime`).

- **Compiling.** The module, lowered to `ml_program` globals, is made IREE input
  (`IREE_LEGALIZATION`: fixed-count loops unrolled, rank-0 conditions, exported
  state-control functions; `tosa.cond_if` inputs computed in their branch; i64 as i32;
  no size-0 dims; run-time shape values as `tensor`/`arith`), printed in
  upstream spelling and compiled once; the `.vmfb` is cached (`iree_compile`). Constants
  of at least `PARAMETERS_FROM` bytes (a model's weights) stay out of it, as IREE
  parameters (`tosa-constants-to-parameters`) handed to the runtime from memory
  (`iree_parameters`): `iree-compile` sees only the program.
- **State.** Each `InferRequest` has its own IREE context (`local-sync`: one thread), so
  its module globals, the model's state, are its own. `query_state()` / `reset_state()`
  go through the module's exported `state_get.<v>` / `state_set.<v>` / `state_reset.<v>` /
  `state_reset_all` functions (docs/runtime.md).
- **Results** are copied out of device memory (a mapped view may go stale at the next call).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import DenseIntOrFPElementsAttr, ModuleOp

from tosa_state.context import make_context
from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.dialects.ml_program import GlobalOp
from tosa_state.dialects.tosa.variables import VariableOp
from tosa_state.file_slices import file_slice
from tosa_state.printing import LargeConstants, Spelling, print_module
from tosa_state.runtime.decoder import POSITIONS, DecoderInputs, decoder_inputs
from tosa_state.runtime.integers import fitted
from tosa_state.runtime.ports import Port, extents, input_ports, output_ports
from tosa_state.runtime.variables import VariableSpec, collect_specs
from tosa_state.signature import select_entry
from tosa_state.transforms.export_state_control import GET, INITIALIZED, RESET, RESET_ALL, SET
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.transforms.tosa_constants_to_parameters import (
    PARAMETERS_FROM,
    constants_to_parameters,
    large_constants_nbytes,
)
from tosa_state.verification import verify_module

from . import IREE
from .iree_checks import FailureExplainer
from .iree_compile import DEFAULT_FLAGS, Artifact, compile_module_text
from .iree_parameters import Parameters

PORTABLE_LEGALIZATION = (
    "tosa-expand-dequantize,tosa-demote-i64,tosa-unroll-loops,tosa-sink-cond-if-inputs,tosa-dynamic-empty-dims,"
    "tosa-lower-shape-ops,tosa-rank0-conditions,tosa-runtime-checks,export-state-control,"
    "mlprogram-stores-last,hoist-runtime-checks"
)
"""The passes that make an `ml_program`-level module IREE input (after the lowering): the
checks make a call check what the interpreter checks and write no global if it fails. The
entries keep the model's signature: the `.vmfb` that `tosa-state compile` writes, for any
IREE host."""

IREE_LEGALIZATION = PORTABLE_LEGALIZATION.replace("tosa-runtime-checks,",
                                                  "tosa-runtime-checks{extents=true},")
"""`PORTABLE_LEGALIZATION` for the device's own calls: a gather of an input checks the
extents the device passes after the inputs (`runtime.ports.extents`) instead of reading a
reduction back (one assertion less for IREE to close a region at)."""

RESOURCES_OVER = 4096
"""Constants of more elements are printed as `dense_resource` blobs (faster to print and
to parse)."""

INLINE_WEIGHTS_LIMIT = 256 << 20
"""The most bytes of weights compiled into a `.vmfb` (`inline_weights`): the
SmolLM-135M-shaped decoder's 513 MiB made a module text of 2.15 GB, tosa-state peaked at
4.8 GB before `iree-compile` started, and `iree-compile` ran 30 minutes at 5 GB on the
dynamic form (docs/runtime.md "Weights as parameters"); past this, parameters."""


def _size(nbytes: int) -> str:
    return f"{nbytes / 2**20:.1f} MiB" if nbytes >= 1 << 20 else f"{nbytes / 2**10:.0f} KiB"


class InlineWeightsError(TosaStateError):
    """A model's weights are too large to compile into the `.vmfb`."""

    def __init__(self, nbytes: int, limit: int, remedy: str):
        super().__init__(
            f"error: the model's weights ({_size(nbytes)}) are too large to compile into the "
            f".vmfb (at most {_size(limit)} inline): {remedy}")
        self.nbytes, self.limit = nbytes, limit


@cache
def _runtime() -> tuple[Any, Any]:
    """`iree.runtime` and its one `local-sync` config (shared by every context)."""
    try:
        import iree.runtime as rt
    except ImportError:
        raise TosaStateError(
            "error: device 'iree' needs the IREE runtime: pip install 'tosa-state[iree]'"
        ) from None
    return rt, rt.Config("local-sync")


UNCHECKED_LEGALIZATION = PORTABLE_LEGALIZATION.replace("tosa-runtime-checks,", "").replace(
    ",mlprogram-stores-last,hoist-runtime-checks", "")
"""`PORTABLE_LEGALIZATION` without the checks, their merging and the stores moved last (a
failed call may change the state): only to measure what they cost
(`benchmarks/llm_decode.py --ab`)."""


def prepare_module(module: ModuleOp, transactions: bool = True,
                   parameters_from: int | None = PARAMETERS_FROM,
                   inline_limit: int = INLINE_WEIGHTS_LIMIT, portable: bool = False
                   ) -> tuple[str, dict[str, DenseIntOrFPElementsAttr]]:
    """Make `module` (at the `ml_program` level) IREE input, in place; its text, and the
    constants of at least `parameters_from` bytes made parameters, by key (`None`: every
    constant stays in the module, refused with `InlineWeightsError` past `inline_limit`
    bytes of weights; `portable`: `PORTABLE_LEGALIZATION`; `transactions=False`:
    `UNCHECKED_LEGALIZATION`)."""
    if parameters_from is None and (
            nbytes := large_constants_nbytes(module)) > inline_limit:
        raise InlineWeightsError(nbytes, inline_limit, "keep them as IREE parameters")
    leftovers = [op.name for op in module.body.block.ops
                 if not isinstance(op, GlobalOp) and op.name.startswith(("memref.", "tosa.var"))]
    if leftovers or any(isinstance(op, VariableOp) for op in module.body.block.ops):
        raise TosaStateError(
            f"error: device 'iree' takes a module lowered to ml_program globals "
            f"(tosa-to-mlprogram), not '{leftovers[0] if leftovers else 'tosa.variable'}'; "
            "end the pipeline with tosa-to-mlprogram"
        )
    # verified once, at the end: each verification of the SmolLM-135M-shaped decoder took
    # as long as a pass (11 of them were a third of a cached compile_model's time)
    legalization = (UNCHECKED_LEGALIZATION if not transactions
                    else PORTABLE_LEGALIZATION if portable else IREE_LEGALIZATION)
    apply_pipeline(make_context(), module, legalization, verify_each=False)
    constants = {} if parameters_from is None else constants_to_parameters(module,
                                                                           parameters_from)
    verify_module(module)
    text = print_module(module, spelling=Spelling.UPSTREAM,
                        large=LargeConstants(resources_over=RESOURCES_OVER))
    return text, constants


@dataclass(frozen=True)
class DeviceFacts:
    """What an `IreeExecutable` reads from its module besides the `.vmfb`: all a cache
    hit needs to run it without the module (`iree_record`)."""

    entry: str
    ports: dict[str, tuple[tuple[Port, ...], tuple[Port, ...]]]
    """Each entry's ports as the user passes them."""
    device_ports: dict[str, tuple[tuple[Port, ...], tuple[Port, ...]]]
    """Their types after `tosa-demote-i64`."""
    extents: dict[str, tuple[tuple[int, bool], ...]]
    specs: tuple[VariableSpec, ...]
    device_dtypes: dict[str, np.dtype]
    decoder: DecoderInputs | None
    flags: tuple[str, ...]


class IreeExecutable:
    """A module compiled by IREE (the `.vmfb`: its bytes checked and mapped), its
    parameters and the variables' specs, shared by the requests."""

    device = IREE
    parameters_from: int | None = PARAMETERS_FROM
    """The size in bytes from which a constant is a parameter (`None`: none is)."""
    inline_limit: int = INLINE_WEIGHTS_LIMIT
    """The most bytes of weights compiled into the `.vmfb` with `inline_weights`."""

    def __init__(self, module: ModuleOp, entry: str | None = None,
                 flags: Sequence[str] = DEFAULT_FLAGS,
                 describe: Callable[[str], None] | None = None, also: Sequence[str] = (),
                 transactions: bool = True, inline_weights: bool = False,
                 portable: bool = False):
        """`also`: other functions of the module that requests run (`run_entry`);
        `inline_weights`: every constant compiled into the `.vmfb` (a self-contained
        artifact; `InlineWeightsError` past `inline_limit` bytes of weights); `portable`:
        entries of the model's signature (`PORTABLE_LEGALIZATION`: the `.vmfb` for other
        hosts); `transactions=False` only to measure what the checks cost."""
        func = select_entry(module, entry)
        entries = (func.sym_name.data, *also)
        ports = {name: _ports(module, name) for name in entries}
        specs = tuple(collect_specs(module))
        explain = FailureExplainer(module, entries[0])
        decoder = decoder_inputs(func, ports[entries[0]][0], specs)
        text, constants = prepare_module(
            module, transactions, None if inline_weights else self.parameters_from,
            self.inline_limit, portable)
        facts = DeviceFacts(
            entries[0], ports, {name: _ports(module, name) for name in entries},
            {name: extents(select_entry(module, name)) for name in entries}, specs,
            {spec.name: spec.dtype for spec in collect_specs(module)}, decoder, tuple(flags))
        views = {key: memoryview(attr.data.data) for key, attr in constants.items()}
        self.sources = {key: file_slice(view) for key, view in views.items()}
        """Where each parameter's bytes are in a model file (`None`: not a file's)."""
        self._load(facts, compile_module_text(text, facts.flags, describe), views, explain)

    @classmethod
    def restore(cls, facts: DeviceFacts, artifact: Artifact,
                parameters: Mapping[str, memoryview], explain: FailureExplainer
                ) -> IreeExecutable:
        """The executable of a `.vmfb` from the cache, without its module (a cache hit,
        `iree_record`): `explain` converts the model on the first failed call."""
        executable = cls.__new__(cls)
        executable.sources = {}
        executable._load(facts, artifact, parameters, explain)
        return executable

    def _load(self, facts: DeviceFacts, artifact: Artifact,
              parameters: Mapping[str, memoryview], explain: FailureExplainer) -> None:
        self.facts = facts
        self.entry = facts.entry
        self.ports, self.device_ports, self.extents = (facts.ports, facts.device_ports,
                                                       facts.extents)
        self.inputs, self.outputs = self.ports[self.entry]
        self.specs, self.flags, self.decoder = facts.specs, facts.flags, facts.decoder
        self.explain = explain
        self.artifact = artifact
        self.vmfb: Path = artifact.path
        rt, config = _runtime()
        # A copy of the bytes checked against their digest (trusted_cache): a module wrapping
        # the file's mapping would run whatever is written into the file later, in place.
        self.vm_module = rt.VmModule.copy_buffer(config.vm_instance, artifact.data)
        self.parameters = Parameters(rt, config.vm_instance, parameters) if parameters else None
        self.vm_modules = [self.vm_module] if self.parameters is None else [
            self.parameters.module, self.vm_module]

    def create_request(self) -> IreeRequest:
        return IreeRequest(self)


def _ports(module: ModuleOp, entry: str) -> tuple[tuple[Port, ...], tuple[Port, ...]]:
    func = select_entry(module, entry)
    return input_ports(func), output_ports(func)


class IreeStore:
    """The state of one request, through the module's state-control functions (the
    `VariableStore` protocol that `VariableState` and `InferRequest` use)."""

    def __init__(self, functions: Any, specs: Sequence[VariableSpec],
                 device_dtypes: Mapping[str, np.dtype]):
        self._functions = functions
        self.specs = {spec.name: spec for spec in specs}
        self._device_dtypes = {name: device_dtypes[name] for name in self.specs}
        self.flags = {spec.flag_of for spec in specs if spec.flag_of is not None}

    def _call(self, name: str, *args: Any) -> Any:
        return self._functions[name](*args)

    def reset(self, name: str | None = None) -> None:
        self._call(RESET_ALL if name is None else RESET + name)

    def set_checked(self, name: str, value: object) -> None:
        array = np.asarray(value)
        self.specs[name].check(array, "the new state")
        value = to_device(array, self._device_dtypes[name], f"the new state of '{name}'")
        self._call(SET + name, np.asarray(value, order="C"))  # 0-D stays 0-D

    def states(self) -> list[tuple[VariableSpec, np.ndarray | None]]:
        """Each variable and its value (`None` while its initial value is pending)."""
        states: list[tuple[VariableSpec, np.ndarray | None]] = []
        for spec in self.specs.values():
            if not spec.hidden:
                try:
                    states.append((spec, self.user_value(spec.name)))
                except InferenceError:
                    states.append((spec, None))
        return states

    def user_value(self, name: str) -> np.ndarray:
        if name in self.flags and not np.all(_host(self._call(INITIALIZED + name))):
            raise InferenceError(
                f"error: variable '{name}' has no value yet: its initial value is computed "
                "from the model's inputs at the next inference"
            )
        return _host(self._call(GET + name)).astype(self.specs[name].dtype, copy=False)


def _host(value: Any) -> np.ndarray:
    """A copy in host memory of a result (`to_host()` maps device memory)."""
    return np.array(value.to_host(), copy=True)


def to_device(array: np.ndarray, dtype: np.dtype, what: str) -> np.ndarray:
    """`array` in the dtype the compiled module computes in (`i64` demoted to `i32`),
    checking that every value fits."""
    return fitted(array, dtype, what, "device 'iree' computes this model's 64-bit integers "
                  "(tosa-demote-i64)")


class IreeRequest:
    """One IREE context: the model's globals (its state) belong to this request."""

    def __init__(self, executable: IreeExecutable):
        rt, config = _runtime()
        self.entry = executable.entry
        self.context = rt.SystemContext(config=config, vm_modules=executable.vm_modules)
        functions = self.context.modules[executable.vm_module.name]
        self.store = IreeStore(functions, executable.specs, executable.facts.device_dtypes)
        self.explain = executable.explain
        self.decoder = executable.decoder
        self.calls = {name: _Call(rt, config.device, self.context.vm_context,
                                  executable.vm_module.lookup_function(name),
                                  executable.ports[name], executable.device_ports[name],
                                  executable.extents[name])
                      for name in executable.ports}
        self.call = self.calls[self.entry]

    def run(self, args: list[Any]) -> list[np.ndarray]:
        decoder = self.decoder
        if decoder is not None and decoder.positions is not None:
            # the module asserts the mask no longer than the cache and the new tokens, its
            # Gather no shorter: a position must then be within the mask (the message: the
            # interpreter's, for the call as it is)
            positions = args[decoder.positions]
            if positions.size and positions.max() >= args[decoder.mask].shape[1]:
                raise self.explain.replayed(self.store.states(), args,
                                            f"error: input '{POSITIONS}' is out of range")
        return self.run_entry(self.entry, args)

    def run_entry(self, entry: str, args: list[Any]) -> list[np.ndarray]:
        """One call of an entry function (the main one, or a static decoder's `decode`)."""
        try:
            return self.calls[entry](args)
        except (RuntimeError, ValueError) as error:  # the state is as before the call
            raise self.explain(error, self.store.states(), args, entry) from None


def _range(array: np.ndarray) -> tuple[int, int]:
    """The smallest and largest element (`(0, -1)` for none: no index to check); a few
    elements through a list (numpy's `min` and `max` take ~5 µs of a ~800 µs decode step)."""
    if array.size <= 64:
        elements = array.ravel().tolist()
        return (min(elements), max(elements)) if elements else (0, -1)
    return int(array.min()), int(array.max())


class _Call:
    """The entry function called through `VmContext.invoke`: inputs copied into device
    buffers, then the extents the module's checks take (`runtime.ports.extents`: an input's
    smallest or largest element), results mapped and copied out (~15 µs less per call than
    `FunctionInvoker` and `DeviceArray.to_host()`)."""

    def __init__(self, rt: Any, device: Any, vm_context: Any, function: Any,
                 ports: tuple[tuple[Port, ...], tuple[Port, ...]],
                 device_ports: tuple[tuple[Port, ...], tuple[Port, ...]],
                 extents: tuple[tuple[int, bool], ...] = ()):
        from iree.runtime.array_interop import map_dtype_to_element_type

        self._rt, self._device, self._vm_context, self._function = rt, device, vm_context, function
        self._allocator = device.allocator
        self._extents = extents
        self._inputs = [(p.name, d.dtype, map_dtype_to_element_type(d.dtype)) for p, d
                        in zip(ports[0], device_ports[0], strict=True)]
        for name, dtype, element_type in self._inputs:
            if element_type is None:
                raise TosaStateError(f"error: device 'iree' cannot pass input '{name}' of "
                                     f"dtype {dtype}")
        self._outputs = [(np.dtype(np.uint8) if d.dtype == np.bool_ else d.dtype, p.dtype)
                         for p, d in zip(ports[1], device_ports[1], strict=True)]

    def __call__(self, args: list[np.ndarray]) -> list[np.ndarray]:
        rt = self._rt
        inputs = rt.VmVariantList(len(args) + len(self._extents))
        buffers = []
        for array, (name, dtype, element_type) in zip(args, self._inputs, strict=True):
            buffer = np.asarray(to_device(array, dtype, f"input '{name}'"), order="C")  # 0-D too
            buffers.append(buffer)
            inputs.push_ref(self._allocator.allocate_buffer_copy(
                memory_type=rt.MemoryType.DEVICE_LOCAL, allowed_usage=rt.BufferUsage.DEFAULT,
                device=self._device, buffer=buffer, element_type=element_type))
        ranges: dict[int, tuple[int, int]] = {}
        for index, is_max in self._extents:
            if index not in ranges:
                ranges[index] = _range(buffers[index])
            inputs.push_int(ranges[index][is_max])
        results = rt.VmVariantList(len(self._outputs))
        self._vm_context.invoke(self._function, inputs, results)
        values = []
        for index, (raw, dtype) in enumerate(self._outputs):
            view = results.get_as_object(index, rt.HalBufferView)
            values.append(np.array(view.map().asarray(view.shape, raw), dtype=dtype, copy=True))
        return values


__all__ = ["INLINE_WEIGHTS_LIMIT", "IREE_LEGALIZATION", "DeviceFacts", "InlineWeightsError",
           "IreeExecutable",
           "IreeRequest", "prepare_module"]
