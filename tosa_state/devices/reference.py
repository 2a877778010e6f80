"""Device `reference`: the model's TOSA artifact run by Arm's TOSA reference model
(`tosa_reference_model` from `tosa-tools`, the `tosa` extra), call after call, the state
carried between calls, behind the runtime's `CompiledModel` / `InferRequest` API.

- **Compiling.** The module is lowered and checked as a `.tosa` artifact is
  (`emitters.tosa_artifact`) for the widest target the reference model runs: PRO-INT and
  PRO-FP, every 1.0 extension it implements, level none (the model still needs static
  shapes). A model that target does not admit is refused with its violations.
- **State.** The reference model keeps variables only for one run, and its dump of them
  back to files is unreliable (`../shared/notes`): the graph it runs is the artifact's with
  each variable's last written value also returned. Before each call every variable is
  given its current value (`--initialize_variable_tensor_from_numpy`); after it, the
  returned values become the state. A call that fails changes no state.
- **Static state.** A variable of fixed capacity (`tosa-static-state`) is guarded on the
  host, as the artifact's manifest tells an application to: before each call the count's
  value plus the rows a call adds must fit the capacity (`tosa-host-capacity-checks`), or
  the call fails naming the variable, and nothing runs.
- **Cost.** Each call starts the reference model (a process: milliseconds of start-up on
  top of the model's own time): this device is for conformance, not speed.
"""

from __future__ import annotations

import json
import os
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import ml_dtypes
import numpy as np
from xdsl.dialects.builtin import DictionaryAttr, ModuleOp, StringAttr

from tosa_state.context import make_context
from tosa_state.diagnostics import InferenceError, TosaStateError, error_at
from tosa_state.dialects.tosa.variables import VariableWriteOp
from tosa_state.emitters.tosa_artifact import TosaArtifact
from tosa_state.emitters.tosa_flatbuffer import upstream_text
from tosa_state.interpreter.state import VariableStore
from tosa_state.runtime.capacity import check_capacity
from tosa_state.runtime.integers import fitted
from tosa_state.runtime.ports import input_ports, output_ports
from tosa_state.runtime.variables import VariableSpec, collect_specs
from tosa_state.signature import add_ports, select_entry
from tosa_state.tosa_tools import tool, tosa_opt
from tosa_state.transforms.tosa_host_capacity_checks import host_checks
from tosa_state.transforms.tosa_validation import Target

from . import REFERENCE

TARGET = Target.make(profiles=("pro_int", "pro_fp"),
                     extensions=("variable", "controlflow", "int16", "bf16", "doubleround",
                                 "inexactround"), level="none")
"""What the reference model runs: both profiles, the extensions it implements, no level."""
TIMEOUT_SECONDS = 600
_DTYPES = {"BOOL": np.dtype(np.bool_), "INT8": np.dtype(np.int8), "INT16": np.dtype(np.int16),
           "INT32": np.dtype(np.int32), "FP16": np.dtype(np.float16),
           "BF16": np.dtype(ml_dtypes.bfloat16), "FP32": np.dtype(np.float32)}
_STATE_NAME = "tosa_state.state_of"


@dataclass(frozen=True)
class _Tensor:
    name: str
    dtype: np.dtype
    shape: tuple[int, ...]


class ReferenceExecutable:
    """The artifact's graph (with each variable's written value also returned) serialized
    once, in a folder of its own, and the variables' specs."""

    device = REFERENCE

    def __init__(self, module: ModuleOp, entry: str | None = None):
        ctx = make_context()
        artifact = TosaArtifact.lower(ctx, module, TARGET)
        artifact.check()
        func = select_entry(module, entry)
        dynamic = [p.name for p in (*input_ports(func), *output_ports(func)) if -1 in p.shape]
        if dynamic:
            raise TosaStateError(error_at(func, f"device 'reference' runs static shapes only; "
                                          f"give shapes for {', '.join(dynamic)} "
                                          "(input_shapes=...)"))
        self.entry = func.sym_name.data
        self.specs: tuple[VariableSpec, ...] = tuple(collect_specs(module))
        self.host_checks = host_checks(module)
        self.device_inputs = [p.dtype for p in input_ports(func)]
        self.outputs = output_ports(func)
        self._folder = tempfile.TemporaryDirectory(prefix="tosa_state_reference_")
        self.folder = Path(self._folder.name)
        self.written = _return_written_values(module, func)
        self.graph = self.folder / "graph.json"
        tosa_opt([f"--tosa-serialize-json=tosa-flatbuffer-filename={self.graph} "
                  f"tosa-flatbuffer-schema={tool('tosa.fbs')}",
                  "-o", str(self.folder / "module.mlir")],  # never /dev/null: see tosa_tools
                 upstream_text(module), "serialize the model for the reference model")
        self.inputs, self.results, self.variables = _read_graph(self.graph, self.written)

    def create_request(self) -> ReferenceRequest:
        return ReferenceRequest(self)


def _return_written_values(module: ModuleOp, func: Any) -> list[str]:
    """Make `func` also return the last value written to each variable; their names."""
    last: dict[str, Any] = {}
    for op in module.walk():
        if isinstance(op, VariableWriteOp):
            if op.parent_op() is not func:
                raise TosaStateError(error_at(op, f"device 'reference' carries variable "
                                              f"@{op.var_name} between calls through the "
                                              "graph's results, which a write inside a "
                                              "region cannot reach"))
            last[op.var_name] = op.input1
    add_ports(func, [], [(value, DictionaryAttr({_STATE_NAME: StringAttr(name)}))
                         for name, value in last.items()])
    return list(last)


def _read_graph(path: Path, written: list[str]
                ) -> tuple[list[_Tensor], list[_Tensor], dict[str, tuple[_Tensor, bool]]]:
    """The graph's inputs, outputs and used variables (name -> tensor, whether it is read
    before it is written). Variables the graph never accesses are dropped from the file
    (the reference model refuses a tensor without producers or consumers)."""
    doc = json.loads(path.read_text())
    block = doc["regions"][0]["blocks"][0]
    tensors = {t["name"]: t for t in block["tensors"]}

    def tensor(name: str) -> _Tensor:
        t = tensors[name]
        if t["type"] not in _DTYPES:
            raise TosaStateError(f"error: device 'reference' cannot pass tensor '{name}' of "
                                 f"type {t['type']}")
        return _Tensor(name, _DTYPES[t["type"]], tuple(t["shape"]))

    used: dict[str, bool] = {}
    for op in block["operators"]:
        kind = op.get("attribute_type")
        if kind == "VariableReadAttribute":
            used.setdefault(op["inputs"][0], True)
        elif kind == "VariableWriteAttribute":
            used.setdefault(op["outputs"][0], False)
    variables = {t["variable_name"]: (tensor(t["name"]), used[t["name"]])
                 for t in block["tensors"] if t.get("variable") and t["name"] in used}
    block["tensors"] = [t for t in block["tensors"] if not t.get("variable") or t["name"] in used]
    path.write_text(json.dumps(doc))
    outputs = [tensor(name) for name in block["outputs"]]
    assert len(outputs) >= len(written)
    return [tensor(name) for name in block["inputs"]], outputs, variables


class ReferenceRequest:
    """One request's variables and a folder for its calls' files."""

    def __init__(self, executable: ReferenceExecutable):
        self.executable = executable
        self.store = VariableStore(executable.specs)
        self._folder = tempfile.TemporaryDirectory(prefix="call_", dir=executable.folder)
        self.folder = Path(self._folder.name)

    def run(self, args: list[np.ndarray]) -> list[np.ndarray]:
        ex = self.executable
        for check in ex.host_checks:  # a static state's capacity (tosa-host-capacity-checks)
            count = self.store.values.get(check.count)
            check_capacity(check.variable, check.capacity,
                           np.zeros(1) if count is None else np.asarray(count), (check.rows,))
        desc: dict[str, Any] = {"tosa_file": str(ex.graph), "ifm_name": [], "ifm_file": [],
                                "variable_name": [], "variable_file": [], "ofm_name": [],
                                "ofm_file": []}
        for i, (array, tensor) in enumerate(zip(args, ex.inputs, strict=True)):
            desc["ifm_name"].append(tensor.name)
            desc["ifm_file"].append(self._save(f"in{i}.npy", array, tensor, "input"))
        for name, (tensor, read_first) in ex.variables.items():
            value = self.store.values.get(name)
            if value is None:
                if read_first:
                    self.store.read(name)  # the interpreter's error: read before written
                value = np.zeros(tensor.shape, tensor.dtype)
            desc["variable_name"].append(tensor.name)
            desc["variable_file"].append(self._save(f"var_{tensor.name}.npy", value, tensor,
                                                    f"variable '{name}'"))
        for i, tensor in enumerate(ex.results):
            desc["ofm_name"].append(tensor.name)
            desc["ofm_file"].append(str(self.folder / f"out{i}.npy"))
            (self.folder / f"out{i}.npy").unlink(missing_ok=True)
        (self.folder / "desc.json").write_text(json.dumps(desc))
        self._run_model()
        values = [_load(Path(file), tensor) for file, tensor in
                  zip(desc["ofm_file"], ex.results, strict=True)]
        count = len(ex.outputs)
        results = [v.astype(p.dtype, copy=False) for v, p in
                   zip(values[:count], ex.outputs, strict=True)]
        for name, value in zip(ex.written, values[count:], strict=True):
            self.store.write(name, value.astype(self.store.specs[name].dtype, copy=False))
        return [np.array(r, copy=True) for r in results]

    def _save(self, file: str, value: np.ndarray, tensor: _Tensor, what: str) -> str:
        array = fitted(np.asarray(value), tensor.dtype, what,
                       "the TOSA artifact computes it")
        path = self.folder / file
        np.save(path, np.array(array, order="C"))  # not ascontiguousarray: 0-D stays 0-D
        return str(path)

    def _run_model(self) -> None:
        command = [str(tool("tosa_reference_model")), "--test_desc",
                   str(self.folder / "desc.json"), "--operator_fbs", str(tool("tosa.fbs")),
                   "--initialize_variable_tensor_from_numpy", "1", "--tosa_level", "NONE"]
        env = dict(os.environ, TOSA_MODEL_NO_BACKTRACE="1")
        proc = subprocess.run(command, capture_output=True, text=True, env=env,
                              timeout=TIMEOUT_SECONDS, check=False)
        if proc.returncode != 0:
            lines = [line for line in (proc.stdout + proc.stderr).splitlines()
                     if "ERROR" in line or "UNPREDICTABLE" in line or "error" in line]
            detail = "\n".join(lines[:10]) or (proc.stderr or proc.stdout).strip()[-800:]
            raise InferenceError(f"error: the TOSA reference model failed on "
                                 f"'{self.executable.entry}' (exit code {proc.returncode}):\n"
                                 f"{detail}")


def _load(path: Path, tensor: _Tensor) -> np.ndarray:
    array = np.load(path)
    if array.dtype.kind == "V" and array.dtype.itemsize == tensor.dtype.itemsize:
        return array.view(tensor.dtype)  # bf16 is written as raw 2-byte records
    return array


__all__ = ["TARGET", "ReferenceExecutable", "ReferenceRequest"]
