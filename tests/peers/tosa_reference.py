"""Run a stateful TOSA program step by step in the TOSA reference model (`tosa-tools`).

`run_reference(mlir_text, steps)` takes one module in upstream MLIR spelling (module-level
`tosa.variable @v [= dense<...>] : tensor<...>`, one `func.func`, `tosa.variable_read` /
`tosa.variable_write`, TOSA 1.0 ops in generic form or in `tosa-opt`'s custom form) and returns the
outputs of every step and the variable values after every step.

How it works (all commands checked with tosa-tools 2026.8.0):

1. Normalise to the generic form: `tosa-opt --mlir-print-op-generic` (when `tosa-opt` cannot parse
   the text, e.g. `iree-opt`'s custom syntax, `iree-opt --mlir-print-op-generic` is tried first).
2. Rewrite the generic text so that `func.return` also returns the last value written to each
   variable (the operands and types are appended to `func.return` and to `function_type`).
3. Serialize: `tosa-opt --tosa-serialize-json="tosa-flatbuffer-filename=graph.json
   tosa-flatbuffer-schema=<site-packages>/bin/tosa.fbs"`. The JSON names inputs `TosaInput_<i>`
   and outputs by block output order (`outputs` list of the block), variables `Variable_<i>` with
   `"variable": true`, `"variable_name": "<MLIR symbol>"` and the initial value as little-endian
   bytes in `data` (padded to a multiple of 8; empty when there is no initial value).
4. Per step, write each input and each variable's current value to `.npy` files and run
   `TOSA_MODEL_NO_BACKTRACE=1 tosa_reference_model --operator_fbs <tosa.fbs> --test_desc desc.json
   --initialize_variable_tensor_from_numpy 1 --tosa_level NONE` with a descriptor holding
   `tosa_file`, `ifm_name`/`ifm_file`, `ofm_name`/`ofm_file`, `variable_name`/`variable_file`
   (all JSON arrays). The value written to each variable is read back from the extra outputs.

Traps hit:
- A JSON graph needs `--operator_fbs <tosa.fbs>`, or the model dies with "Unable to load TOSA
  flatbuffer schema from: tosa.fbs" (a binary `.tosa` from `--tosa-serialize` does not).
- `variable_name` in the descriptor is the serialized tensor name (`Variable_0`), not the symbol:
  "Unable to find variable tensor acc". Every variable of the graph needs a file, or "Number of
  variable tensors(3) doesn't match name(2)/file(2)", also those without an initial value.
- The variable dump is broken: reading needs `variable_name`/`variable_file` as arrays, writing
  them back needs strings ("type must be string, but is array"), so the files are never updated;
  the run still exits 0 with a warning. Hence the extra outputs.
- A declared variable that the function does not use makes graph validation fail ("Tensor
  Variable_3 has no producers or consumers", exit 134): such tensors are dropped from the JSON and
  their value is carried unchanged.
- Without `TOSA_MODEL_NO_BACKTRACE=1` every fatal error attaches gdb and prints a backtrace.
- The console script `tosa_reference_model` is a Python shim (~80 ms a call); the native binary
  in `site-packages/bin` starts in ~5 ms, so it is preferred.
- `iree-opt`'s custom syntax of ops with attributes (`tosa.const values(...)`, `tosa.clamp %x
  min_val(...) max_val(...)`) does not parse in `tosa-opt`; TOSA 1.0 `tosa.mul` takes a third
  `shift` operand (`tensor<1xi8>`), `tosa.negate` takes two zero-point operands.
- Reads and writes of a variable follow program order in the reference model (a read after a
  write in the same step sees the written value; all reads before the writes see the old state).
- bf16 tensors are read from `.npy` files with descr `<V2` (what `np.save` writes for
  `ml_dtypes.bfloat16`; float32 files are refused) and written back as raw `|V2` records.
- The reference model implements the spec's type support only: e.g. `tosa.add` on i16 fails with
  "OpFactory could not allocate op ADD" (exit 2). Exit codes of failures vary (2, 134, 250, -6).
- `np.ascontiguousarray` turns 0-D arrays into shape `(1,)`: never use it on tensors here.

Limitations: one `func.func` with a single block; variable writes at its top level (not inside
`tosa.cond_if` / `tosa.while_loop` regions); element types in `DTYPES`.
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import tempfile
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path

import ml_dtypes
import numpy as np

from .upstream_mlir import iree_opt, tool_path, tosa_opt

TIMEOUT_SECONDS = 60

DTYPES: dict[str, np.dtype] = {
    "BOOL": np.dtype(np.bool_),
    "INT8": np.dtype(np.int8),
    "INT16": np.dtype(np.int16),
    "INT32": np.dtype(np.int32),
    "INT64": np.dtype(np.int64),
    "UINT8": np.dtype(np.uint8),
    "UINT16": np.dtype(np.uint16),
    "FP16": np.dtype(np.float16),
    "BF16": np.dtype(ml_dtypes.bfloat16),
    "FP32": np.dtype(np.float32),
}


@dataclass
class ReferenceRun:
    """Per-step results: `outputs[k]` are the function results of step k, `state[k]` maps each
    variable symbol (without `@`) to its value after step k (variables never given a value are
    absent)."""

    outputs: list[list[np.ndarray]] = field(default_factory=list)
    state: list[dict[str, np.ndarray]] = field(default_factory=list)


@dataclass
class _Variable:
    symbol: str
    tensor: str
    dtype: np.dtype
    shape: tuple[int, ...]
    initial: np.ndarray | None
    used: bool
    read_first: bool


@dataclass
class _Graph:
    path: Path
    inputs: list[tuple[str, np.dtype, tuple[int, ...]]]
    outputs: list[tuple[str, np.dtype]]
    num_results: int
    written: list[str]
    variables: dict[str, _Variable]


# ---------------------------------------------------------------------------------------------
# Tools


def _wheel_file(name: str) -> Path | None:
    try:
        path = Path(str(metadata.distribution("tosa-tools").locate_file(f"bin/{name}")))
    except metadata.PackageNotFoundError:
        return None
    return path if path.is_file() else None


def reference_model_path() -> str | None:
    """The native `tosa_reference_model` from the wheel, else the console script."""
    native = _wheel_file("tosa_reference_model")
    return str(native) if native is not None else tool_path("tosa_reference_model")


def schema_path() -> Path:
    schema = _wheel_file("tosa.fbs")
    if schema is None:
        raise FileNotFoundError("tosa.fbs not found in the tosa-tools wheel")
    return schema


# ---------------------------------------------------------------------------------------------
# MLIR rewriting (generic form)

_WRITE_RE = re.compile(
    r'^\s*"tosa\.variable_write"\((%[^)\s]+)\)\s*<\{name = "([^"]+)"\}>'
    r"\s*:\s*\((.+)\)\s*->\s*\(\)\s*$",
    re.M,
)
_RETURN_RE = re.compile(r'^(\s*)"func\.return"\((.*)\)\s*:\s*\((.*)\)\s*->\s*\(\)\s*$', re.M)


def to_generic(mlir_text: str) -> str:
    """Parse and verify with `tosa-opt`, falling back to `iree-opt` syntax; print generic."""
    try:
        return tosa_opt(mlir_text, "--mlir-print-op-generic")
    except AssertionError as tosa_error:
        try:
            generic = iree_opt(mlir_text, "--mlir-print-op-generic")
        except (AssertionError, FileNotFoundError):
            raise tosa_error from None
        return tosa_opt(generic, "--mlir-print-op-generic")


def _value_end(text: str, start: int) -> int:
    """End of the attribute value starting at `start`: the first top-level `,` or `}`."""
    depth = 0
    i = start
    while i < len(text):
        char = text[i]
        if text.startswith("->", i):
            i += 2
            continue
        if char in "(<[{":
            depth += 1
        elif char in ")>]}":
            if depth == 0:
                return i
            depth -= 1
        elif char == "," and depth == 0:
            return i
        i += 1
    raise AssertionError("unterminated attribute value in func.func")


def _last_writes(generic: str) -> dict[str, tuple[str, str]]:
    """Variable symbol -> (SSA value, type) of its last `tosa.variable_write`."""
    writes: dict[str, tuple[str, str]] = {}
    for value, name, type_ in _WRITE_RE.findall(generic):
        writes[name] = (value, type_.strip())
    return writes


def return_written_values(generic: str) -> tuple[str, list[str]]:
    """Append the last value written to each variable to `func.return` and the function type.

    Returns the new text and the variable symbols in the order of the appended results."""
    if generic.count('"func.func"') != 1:
        raise AssertionError("expected exactly one func.func in the module")
    returns = list(_RETURN_RE.finditer(generic))
    if len(returns) != 1:
        raise AssertionError("expected exactly one func.return (single-block function)")
    writes = _last_writes(generic)
    if not writes:
        return generic, []
    ret = returns[0]
    operands = [o for o in (ret[2].strip(),) if o]
    types = [t for t in (ret[3].strip(),) if t]
    operands += [value for value, _ in writes.values()]
    types += [type_ for _, type_ in writes.values()]
    new_return = f'{ret[1]}"func.return"({", ".join(operands)}) : ({", ".join(types)}) -> ()'
    text = generic[: ret.start()] + new_return + generic[ret.end() :]

    key = "function_type = "
    start = text.index(key, text.index('"func.func"')) + len(key)
    end = _value_end(text, start)
    arrow = text.rindex(" -> ", start, end)
    new_type = f"{text[start:arrow]} -> ({', '.join(types)})"
    text = text[:start] + new_type + text[end:]
    if "res_attrs = " in text:
        res = text.index("res_attrs = ")
        text = text[:res] + text[_value_end(text, res + len("res_attrs = ")) + 2 :]
    return text, list(writes)


# ---------------------------------------------------------------------------------------------
# Serialized graph


def _decode(data: list[int], dtype: np.dtype, shape: tuple[int, ...]) -> np.ndarray:
    count = int(np.prod(shape, dtype=np.int64))
    raw = bytes(data[: count * dtype.itemsize])
    return np.frombuffer(raw, dtype=dtype.newbyteorder("<")).astype(dtype).reshape(shape)


def _dtype(tosa_type: str) -> np.dtype:
    if tosa_type not in DTYPES:
        raise NotImplementedError(f"TOSA type {tosa_type} is not supported by this harness")
    return DTYPES[tosa_type]


def _variable_accesses(operators: list[dict]) -> tuple[set[str], set[str]]:
    """Serialized variable tensors used at all, and those whose first access is a read."""
    used: set[str] = set()
    read_first: set[str] = set()
    for op in operators:
        kind = op.get("attribute_type")
        if kind == "VariableReadAttribute":
            tensor, is_read = op["inputs"][0], True
        elif kind == "VariableWriteAttribute":
            tensor, is_read = op["outputs"][0], False
        else:
            continue
        if tensor not in used and is_read:
            read_first.add(tensor)
        used.add(tensor)
    return used, read_first


def _load_graph(path: Path, written: list[str]) -> _Graph:
    """Read the serialized JSON, drop unused variable tensors (they fail validation)."""
    doc = json.loads(path.read_text())
    if len(doc["regions"]) != 1 or len(doc["regions"][0]["blocks"]) != 1:
        raise AssertionError("expected one region with one block in the serialized graph")
    block = doc["regions"][0]["blocks"][0]
    used, read_first = _variable_accesses(block["operators"])
    tensors = {t["name"]: t for t in block["tensors"]}
    variables: dict[str, _Variable] = {}
    for t in block["tensors"]:
        if not t.get("variable"):
            continue
        dtype, shape = _dtype(t["type"]), tuple(t["shape"])
        initial = _decode(t["data"], dtype, shape) if t["data"] else None
        if initial is None and 0 in shape:
            initial = np.zeros(shape, dtype)
        variables[t["variable_name"]] = _Variable(
            t["variable_name"],
            t["name"],
            dtype,
            shape,
            initial,
            t["name"] in used,
            t["name"] in read_first,
        )
    block["tensors"] = [t for t in block["tensors"] if not t.get("variable") or t["name"] in used]
    path.write_text(json.dumps(doc))
    inputs = [
        (name, _dtype(tensors[name]["type"]), tuple(tensors[name]["shape"]))
        for name in block["inputs"]
    ]
    outputs = [(name, _dtype(tensors[name]["type"])) for name in block["outputs"]]
    num_results = len(outputs) - len(written)
    return _Graph(path, inputs, outputs, num_results, written, variables)


def serialize(mlir_text: str, workdir: Path) -> _Graph:
    """Rewrite `mlir_text` to return the written values, serialize it to `workdir/graph.json`."""
    generic, written = return_written_values(to_generic(mlir_text))
    path = workdir / "graph.json"
    options = f"tosa-flatbuffer-filename={path} tosa-flatbuffer-schema={schema_path()}"
    tosa_opt(generic, f"--tosa-serialize-json={options}")
    return _load_graph(path, written)


class Artifact:
    """The binary flatbuffer `tosa_file` that `tosa-opt --tosa-serialize` wrote for
    `mlir_text` unchanged (the file Vela compiles), run one call at a time. Its variables'
    new values cannot be read back (the dump is broken), so each call takes its state from
    elsewhere (`run_reference`). The tensor names come from the JSON serialization of the same
    text."""

    def __init__(self, tosa_file: Path, mlir_text: str, workdir: Path):
        workdir.mkdir(parents=True, exist_ok=True)
        path = workdir / "names.json"
        options = f"tosa-flatbuffer-filename={path} tosa-flatbuffer-schema={schema_path()}"
        tosa_opt(to_generic(mlir_text), f"--tosa-serialize-json={options}")
        self.graph = _load_graph(path, [])
        self.graph.path = workdir / "artifact.tosa"
        self.graph.path.write_bytes(tosa_file.read_bytes())

    def call(self, inputs: Sequence[np.ndarray], state: Mapping[str, np.ndarray]
             ) -> list[np.ndarray]:
        """The function's results for `inputs`, the variables holding `state` (symbol ->
        value)."""
        return _step(self.graph, 0, inputs, dict(state))


# ---------------------------------------------------------------------------------------------
# Running


def _as_tensor(value: np.ndarray, dtype: np.dtype, shape: tuple[int, ...], what: str) -> np.ndarray:
    array = np.asarray(value)
    if array.shape != shape:
        raise ValueError(f"{what}: shape {array.shape} does not match {shape}")
    return np.array(array, dtype=dtype, order="C")  # ascontiguousarray makes 0-D 1-D


def _run_model(desc: Path) -> None:
    model = reference_model_path()
    if model is None:
        raise FileNotFoundError("tosa_reference_model not found")
    command = [
        model,
        "--operator_fbs", str(schema_path()),
        "--test_desc", str(desc),
        "--initialize_variable_tensor_from_numpy", "1",
        "--tosa_level", "NONE",
    ]  # fmt: skip
    env = dict(os.environ, TOSA_MODEL_NO_BACKTRACE="1")
    proc = subprocess.run(
        command, capture_output=True, text=True, env=env, timeout=TIMEOUT_SECONDS, check=False
    )
    if proc.returncode != 0:
        raise AssertionError(
            f"tosa_reference_model failed with exit code {proc.returncode}:\n"
            f"{proc.stdout}\n{proc.stderr}"
        )


def _step(
    graph: _Graph, step: int, inputs: Sequence[np.ndarray], state: Mapping[str, np.ndarray | None]
) -> list[np.ndarray]:
    """Run one step; returns all block outputs (results, then written variable values)."""
    workdir = graph.path.parent
    if len(inputs) != len(graph.inputs):
        raise ValueError(f"step {step}: {len(inputs)} inputs given, {len(graph.inputs)} expected")
    desc: dict[str, object] = {"tosa_file": graph.path.name}
    desc["ifm_name"] = [name for name, _, _ in graph.inputs]
    desc["ifm_file"] = []
    for i, (value, (name, dtype, shape)) in enumerate(zip(inputs, graph.inputs, strict=True)):
        file = f"in{i}.npy"
        np.save(workdir / file, _as_tensor(value, dtype, shape, f"step {step} input {i} {name}"))
        desc["ifm_file"].append(file)
    desc["variable_name"], desc["variable_file"] = [], []
    for var in graph.variables.values():
        if not var.used:
            continue
        value = state[var.symbol]
        if value is None:
            value = np.zeros(var.shape, var.dtype)  # written before read: any placeholder
        file = f"var_{var.tensor}.npy"
        np.save(workdir / file, value)
        desc["variable_name"].append(var.tensor)
        desc["variable_file"].append(file)
    desc["ofm_name"] = [name for name, _ in graph.outputs]
    desc["ofm_file"] = [f"out{i}.npy" for i in range(len(graph.outputs))]
    for file in desc["ofm_file"]:
        (workdir / file).unlink(missing_ok=True)
    (workdir / "desc.json").write_text(json.dumps(desc))
    _run_model(workdir / "desc.json")
    return [
        _from_npy(np.load(workdir / file), dtype, f"step {step} output {name}")
        for file, (name, dtype) in zip(desc["ofm_file"], graph.outputs, strict=True)
    ]


def _from_npy(array: np.ndarray, dtype: np.dtype, what: str) -> np.ndarray:
    """The model writes bf16 as raw `|V2` records: view them as `ml_dtypes.bfloat16`."""
    if array.dtype.kind == "V" and array.dtype.itemsize == dtype.itemsize:
        return array.view(dtype)
    if array.dtype != dtype:
        raise AssertionError(f"{what}: the model wrote {array.dtype}, expected {dtype}")
    return array


def _check_readable(graph: _Graph, step: int, state: Mapping[str, np.ndarray | None]) -> None:
    for var in graph.variables.values():
        if var.read_first and state[var.symbol] is None:
            raise ValueError(
                f"step {step}: variable @{var.symbol} is read before it has a value "
                "(no initial value and never written)"
            )


def run_reference(
    mlir_text: str,
    steps: Sequence[Sequence[np.ndarray]],
    reset_before: Set[int] = frozenset(),
    set_state: Mapping[int, Mapping[str, np.ndarray]] | None = None,
    initial: Mapping[str, np.ndarray] | None = None,
    workdir: str | Path | None = None,
) -> ReferenceRun:
    """Run `mlir_text` for `len(steps)` steps in the TOSA reference model.

    `steps[k]` are the function inputs of step k. Before step k in `reset_before` every variable
    returns to its initial value; then `set_state[k]` (symbol -> value) overrides variables.
    `initial` (symbol -> value) replaces or supplies initial values. Raises ValueError when a
    variable without a value is read, AssertionError when a tool fails."""
    with tempfile.TemporaryDirectory(prefix="tosa_ref_") as tmp:
        directory = Path(workdir) if workdir is not None else Path(tmp)
        directory.mkdir(parents=True, exist_ok=True)
        graph = serialize(mlir_text, directory)
        return _run_steps(graph, steps, reset_before, set_state or {}, initial or {})


def _initial_state(
    graph: _Graph, initial: Mapping[str, np.ndarray]
) -> dict[str, np.ndarray | None]:
    unknown = set(initial) - set(graph.variables)
    if unknown:
        raise ValueError(f"initial values for undeclared variables: {sorted(unknown)}")
    state: dict[str, np.ndarray | None] = {}
    for symbol, var in graph.variables.items():
        value = initial.get(symbol, var.initial)
        what = f"initial value of @{symbol}"
        state[symbol] = None if value is None else _as_tensor(value, var.dtype, var.shape, what)
    return state


def _run_steps(
    graph: _Graph,
    steps: Sequence[Sequence[np.ndarray]],
    reset_before: Set[int],
    set_state: Mapping[int, Mapping[str, np.ndarray]],
    initial: Mapping[str, np.ndarray],
) -> ReferenceRun:
    start = _initial_state(graph, initial)
    state = dict(start)
    run = ReferenceRun()
    for k, inputs in enumerate(steps):
        if k in reset_before:
            state = dict(start)
        for symbol, value in set_state.get(k, {}).items():
            if symbol not in graph.variables:
                raise ValueError(f"step {k}: set_state of undeclared variable @{symbol}")
            var = graph.variables[symbol]
            state[symbol] = _as_tensor(value, var.dtype, var.shape, f"step {k} @{symbol}")
        _check_readable(graph, k, state)
        outputs = _step(graph, k, inputs, state)
        for symbol, value in zip(graph.written, outputs[graph.num_results :], strict=True):
            state[symbol] = value
        run.outputs.append(outputs[: graph.num_results])
        run.state.append({s: v.copy() for s, v in state.items() if v is not None})
    return run
