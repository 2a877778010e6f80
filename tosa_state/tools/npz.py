"""Step inputs from an `.npz` and results to one, for `tosa-state-run` and `tosa-state validate`.

Inputs: one array per model input, keyed by the input's name (an OpenVINO name, or the SSA
name of an `.mlir` argument: `%x` is `x`) or `arg<i>`, each with a leading step axis. Steps of
different shapes (a prompt, then one token at a time) come as one array per step instead,
keyed `<name>@<step>` (`input_ids@0`, `input_ids@1`, ...: numbered from 0, each the shape of one
call); outputs whose shape changes between steps are written the same way.

The dtype rule: an array of the input's dtype is used as it is; a float array of a wider
float type (numpy's default float64) is cast to the input's float type (rounding to nearest)
and an integer array to the input's integer type, each with a note, when every value fits
the input's range; any other dtype (floats for an integer input, integers for a float input,
booleans, ...) is an error saying how to convert.
"""

from __future__ import annotations

import io
import re
import zipfile
from collections.abc import Callable, Mapping, Sequence
from pathlib import Path

import numpy as np

from tosa_state.diagnostics import InferenceError, TosaStateError
from tosa_state.files import write_atomically
from tosa_state.runtime import Port

Note = Callable[[str], None]

_NPZ_HOWTO = ("--inputs takes an .npz with one array per model input, keyed by input name or "
              "arg<i>, each with a leading step axis: numpy.savez('in.npz', x=xs)")


def load_npz(path: str) -> dict[str, np.ndarray]:
    """The arrays of the `.npz` at `path`; anything else is one clear `TosaStateError`.

    Read member by member (not through `numpy.load`): each must be an `.npy` with a valid
    header, of a dtype without Python objects (no pickles), holding at least the bytes its
    header declares — checked against the member's size before anything is allocated."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(8)
    except OSError as error:
        raise TosaStateError(f"{path}: error: cannot read inputs: {error.strerror}") from None
    if not head.startswith(b"PK"):
        raise TosaStateError(f"{path}: error: not an .npz archive ({_looks_like(path, head)}); "
                             f"{_NPZ_HOWTO}")
    try:
        with zipfile.ZipFile(path) as archive:
            return {_key(info.filename): _read_member(path, archive, info)
                    for info in archive.infolist() if not info.is_dir()}
    except TosaStateError:
        raise
    except (OSError, ValueError, zipfile.BadZipFile, EOFError, NotImplementedError,
            RuntimeError) as error:
        raise TosaStateError(f"{path}: error: cannot read inputs: {_short(error)}") from None


def _key(name: str) -> str:
    return name[: -len(".npy")] if name.endswith(".npy") else name


def _short(error: BaseException, limit: int = 200) -> str:
    """One line of at most `limit` characters."""
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _read_member(path: str, archive: zipfile.ZipFile, info: zipfile.ZipInfo) -> np.ndarray:
    """The array of one `.npy` member, checked before anything is allocated."""
    where = f"{path}: error: cannot read inputs: member '{info.filename}'"
    if not info.filename.endswith(".npy"):
        raise TosaStateError(f"{where} is not an .npy array ({_NPZ_HOWTO})")
    with archive.open(info) as stream:
        try:
            version = np.lib.format.read_magic(stream)  # (reads the member: CRC checked)
            if version == (1, 0):
                shape, fortran, dtype = np.lib.format.read_array_header_1_0(stream)
            else:
                shape, fortran, dtype = np.lib.format.read_array_header_2_0(stream)
        except zipfile.BadZipFile as error:
            raise TosaStateError(f"{where} is corrupt ({_short(error)})") from None
        except Exception as error:  # numpy's header parser raises many kinds
            raise TosaStateError(f"{where} has no valid .npy header ({_short(error)})") \
                from None
        if dtype.hasobject:
            raise TosaStateError(f"{where} holds Python objects ({dtype}); --inputs reads "
                                 "numeric arrays only (no pickles)")
        header = stream.tell()
        count = 1
        for n in shape:
            count *= n
        declared = count * dtype.itemsize
        available = info.file_size - header
        if declared > available:
            raise TosaStateError(f"{where} declares {dtype}{list(shape)} ({declared} bytes) "
                                 f"but holds {max(available, 0)} bytes: truncated or corrupt")
        try:
            data = stream.read(declared)
        except zipfile.BadZipFile as error:
            raise TosaStateError(f"{where} is corrupt ({_short(error)})") from None
        if len(data) != declared:
            raise TosaStateError(f"{where} is truncated: {len(data)} of {declared} bytes")
    array = np.frombuffer(data, dtype=dtype, count=count)
    return array.reshape(shape[::-1]).T.copy() if fortran else array.reshape(shape).copy()


def _looks_like(path: str, head: bytes) -> str:
    if head.startswith(b"\x93NUMPY"):
        return "a single .npy array: numpy.savez('in.npz', x=numpy.load('in.npy')) makes one"
    if head.lstrip().startswith(b"<"):
        return "XML: a model? the model is the first argument"
    if Path(path).suffix.lower() in (".mlir", ".onnx", ".tflite", ".bin"):
        return "a model file? the model is the first argument"
    return "not a zip file"


def describe(arrays: Mapping[str, np.ndarray]) -> str:
    """`x float32[6,1,8], y int32[6]`: what an `.npz` holds."""
    return ", ".join(f"{key} {_typed_shape(a.dtype, a.shape)}" for key, a in arrays.items()) \
        or "no arrays"


def _typed_shape(dtype: np.dtype, shape: Sequence[int]) -> str:
    return f"{dtype}[{','.join(str(d) if d >= 0 else '?' for d in shape)}]"


def port_type(port: Port) -> str:
    """`float32[1,8]` (`?` for a dynamic dimension)."""
    return _typed_shape(port.dtype, port.shape)


def stepped_shape(port: Port) -> str:
    """`[steps, 1, 8]`: what the `.npz` must hold for `port`."""
    return f"[{', '.join(['steps', *(str(d) if d >= 0 else '?' for d in port.shape)])}]"


_STEP_KEY = re.compile(r"^(?P<key>.+)@(?P<step>[0-9]+)$")
"""`input_ids@3`: the array of one step of an input whose shape changes between steps."""


def _per_step(data: Mapping[str, np.ndarray]) -> dict[str, dict[int, str]]:
    """The `<key>@<step>` arrays, by key and step."""
    found: dict[str, dict[int, str]] = {}
    for name in data:
        if (match := _STEP_KEY.match(name)) is not None:
            found.setdefault(match["key"], {})[int(match["step"])] = name
    return found


def _stepwise(port: Port, key: str, steps: dict[int, str], data: Mapping[str, np.ndarray],
              note: Note | None) -> list[np.ndarray]:
    """The per-step arrays of `port`, each checked (the shape of one call) and cast."""
    if sorted(steps) != list(range(len(steps))):
        raise InferenceError(
            f"error: input '{key}' has per-step arrays for steps {sorted(steps)}: they must be "
            f"numbered from 0 without gaps ({key}@0, {key}@1, ...)"
        )
    arrays = []
    for step in range(len(steps)):
        name, array = steps[step], data[steps[step]]
        if array.ndim != len(port.shape) or not port.accepts(array.shape):
            raise InferenceError(
                f"error: input '{name}' has shape {list(array.shape)}; a per-step array has "
                f"the shape of one call: {port_type(port)}"
            )
        arrays.append(_cast(port, name, array, note if step == 0 else None))
    return arrays


def step_inputs(
    ports: Sequence[Port], data: Mapping[str, np.ndarray], note: Note | None = None
) -> list[np.ndarray | list[np.ndarray]]:
    """One array per input port (by name or `arg<i>`), checked and cast by the dtype rule: a
    stacked array (leading step axis), or the list of its per-step arrays (`<name>@<step>`)."""
    arrays: list[np.ndarray | list[np.ndarray]] = []
    used: set[str] = set()
    stepwise = _per_step(data)
    for port in ports:
        key = next((k for k in (port.name, f"arg{port.index}") if k in data), None)
        step_key = next((k for k in (port.name, f"arg{port.index}") if k in stepwise), None)
        if key is not None and step_key is not None:
            raise InferenceError(f"error: input '{port.name}' is given both as one array and "
                                 f"as per-step arrays ({step_key}@0, ...)")
        if step_key is not None:
            used.update(stepwise[step_key].values())
            arrays.append(_stepwise(port, step_key, stepwise[step_key], data, note))
            continue
        if key is None:
            raise InferenceError(
                f"error: no array for input '{port.name}' (arg{port.index}) in the inputs; "
                f"expected one of shape {stepped_shape(port)} and dtype {port.dtype}; the "
                f"inputs hold: {describe(data)}"
            )
        used.add(key)
        arrays.append(_cast(port, key, _with_step_axis(port, key, data[key]), note))
    unknown = sorted(set(data) - used)
    if unknown:
        names = ", ".join(p.name for p in ports) or "none"
        raise InferenceError(f"error: unknown input(s) {', '.join(unknown)} (inputs: {names})")
    return arrays


def _with_step_axis(port: Port, key: str, array: np.ndarray) -> np.ndarray:
    if array.ndim == len(port.shape) + 1 and port.accepts(array.shape[1:]):
        return array
    if array.ndim == 0:
        raise InferenceError(f"error: input '{key}' is a scalar; it needs a leading step axis: "
                             f"shape {stepped_shape(port)}")
    if array.ndim == len(port.shape) and port.accepts(array.shape):
        raise InferenceError(
            f"error: input '{key}' has shape {list(array.shape)}, the shape of one call: the "
            f"step axis is missing; expected {stepped_shape(port)} ({key}[None] for one step)"
        )
    raise InferenceError(
        f"error: input '{key}' has shape {list(array.shape)}; expected {stepped_shape(port)} "
        f"(a leading step axis, then the input's shape {port_type(port)})"
    )


def _cast(port: Port, key: str, array: np.ndarray, note: Note | None) -> np.ndarray:
    if array.dtype == port.dtype:
        return array
    have, want = array.dtype, port.dtype
    if _is_float(have) and _is_float(want) and have.itemsize >= want.itemsize:
        with np.errstate(over="ignore"):
            cast = array.astype(want)
        if np.any(np.isinf(cast) & np.isfinite(array)):
            raise InferenceError(f"error: input '{key}' is {have} with values beyond {want}'s "
                                 f"range (largest magnitude {np.nanmax(np.abs(array)):g})")
        _note(note, f"note: input '{key}' is {have}; cast to the model's {want}")
        return cast
    if have.kind in "iu" and want.kind in "iu":
        info = np.iinfo(want)
        if array.size == 0 or (array.min() >= info.min and array.max() <= info.max):
            _note(note, f"note: input '{key}' is {have}; cast to the model's {want}")
            return array.astype(want)
        raise InferenceError(f"error: input '{key}' is {have} with values outside {want}'s "
                             f"range [{info.min}, {info.max}]")
    raise InferenceError(f"error: input '{key}' has dtype {have}; expected {want} (convert it "
                         f"with {key}.astype(numpy.{want}))")


def _is_float(dtype: np.dtype) -> bool:
    return dtype.kind == "f" or dtype.name == "bfloat16"


def _note(note: Note | None, message: str) -> None:
    if note is not None:
        note(message)


def output_arrays(
    ports: Sequence[Port], outputs: Sequence[Sequence[np.ndarray]]
) -> dict[str, np.ndarray]:
    """Each output stacked over the steps, keyed by name, and by `result<i>` as an alias; an
    output whose shape changes between steps as one array per step (`<name>@<step>`)."""
    arrays: dict[str, np.ndarray] = {}
    for port in ports:
        if len({step[port.index].shape for step in outputs}) > 1:
            for index, step in enumerate(outputs):
                arrays[f"{port.name}@{index}"] = step[port.index]
                arrays.setdefault(f"result{port.index}@{index}", step[port.index])
            continue
        stacked = np.stack([step[port.index] for step in outputs]) if outputs else \
            np.zeros((0, *[max(d, 0) for d in port.shape]), port.dtype)
        arrays[port.name] = stacked
        arrays.setdefault(f"result{port.index}", stacked)
    return arrays


def save_npz(path: str, arrays: Mapping[str, np.ndarray]) -> None:
    """Write `arrays` to the `.npz` at `path` at once (no partial file on error)."""
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    write_atomically(path, buffer.getvalue())
