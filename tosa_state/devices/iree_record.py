"""Device `iree`'s compile record: a cache hit that skips reading and converting the model.

`compile_model(path, device="iree")` finds its `.vmfb` in the cache by the module's text,
which it has to make first: read the model, convert it to TOSA, lower it, legalize it for
IREE and print it (the SmolLM-135M-shaped decoder: ~11 s of CPU against OpenVINO's whole
compile of ~1.4 s). The record is what the executable needs besides the `.vmfb`, kept in the
same trusted cache (`trusted_cache`: only where no other user could write, checked by its
SHA-256, written whole), under a key computed without reading the model as IR:

- **The key** is the SHA-256 of the record's format, tosa-state's version and the digest of
  its sources, the IREE packages' versions, every option that changes the result
  (pipeline, entry, input shapes, static state's sizes, the executable's flags and
  parameter thresholds) and the SHA-256 of the model's files (`.xml` and `.bin`; one
  `.mlir` or `.tflite`). A changed byte of the weights, an option, tosa-state's code or
  IREE misses.
- **The record** holds, as JSON and raw arrays (never pickle): the `.vmfb`'s name, the
  entries' ports before and after `tosa-demote-i64` and their extents, the variables' specs
  with their initial values, the decoder's inputs, the compiled model's ports and static
  layout, and each parameter's bytes: a slice of a model file (offset and size: the file is
  mapped on a hit, nothing copied) or, when they are no file's, the bytes themselves.
- **On a hit** the `.vmfb` is loaded as on a miss (checked by its digest), the parameters are
  the model files' mapping, and the module is made again only if needed: on the first call
  that fails (to name the layer, `iree_checks`) or when `CompiledModel.module` is read.

A record that is missing, damaged (its digest), foreign (another key), of another format,
or whose `.vmfb` is gone, is a miss: the model is compiled as without it, and the record
written again. `tosa-state compile` does not use records (it writes its `.vmfb` itself).
"""

from __future__ import annotations

import hashlib
import importlib.metadata
import json
import mmap
import os
import struct
from collections.abc import Callable, Mapping
from functools import cache
from pathlib import Path
from typing import Any

import numpy as np
from xdsl.dialects.builtin import ModuleOp

import tosa_state
from tosa_state.runtime import CompiledModel, Port, StaticLayout, VariableSpec
from tosa_state.runtime.decoder import DecoderInputs

from .iree import DeviceFacts, IreeExecutable
from .iree_checks import FailureExplainer
from .iree_compile import RECORD_SUFFIX, Artifact, cache_dir
from .trusted_cache import build_lock, load_verified, publish, trusted_directory

FORMAT = 1
"""The record's layout; a record of another is a miss."""

MAGIC = b"tosa-state iree record\n"
ALIGN = 64
"""Arrays start on this boundary of the record."""


def model_files(model: str | os.PathLike[str]) -> list[Path] | None:
    """The files `read_model_file(model)` reads (`None`: a format without records, or a
    file missing)."""
    path = Path(model)
    suffix = path.suffix.lower()
    files = ([path, path.with_suffix(".bin")] if suffix == ".xml"
             else [path] if suffix in (".mlir", ".tflite") else None)
    if files is None or not all(file.is_file() for file in files):
        return None
    return files


@cache
def _versions() -> str:
    """tosa-state's version and its sources' digest, the IREE packages' versions."""
    digest = hashlib.sha256()
    package = Path(tosa_state.__file__).parent
    for path in sorted(package.rglob("*.py")):
        digest.update(str(path.relative_to(package)).encode() + b"\0" + path.read_bytes())
    versions = [tosa_state.__name__, _version("tosa-state"), digest.hexdigest(),
                _version("iree-base-compiler"), _version("iree-base-runtime")]
    return "\0".join(versions)


def _version(distribution: str) -> str:
    try:
        return importlib.metadata.version(distribution)
    except importlib.metadata.PackageNotFoundError:
        return "-"


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes."""
    with path.open("rb") as stream:
        return hashlib.file_digest(stream, "sha256").hexdigest()


def record_key(model: str | os.PathLike[str], options: Mapping[str, Any]) -> str | None:
    """The key of `model`'s record under `options` (see the module's docstring), or `None`
    when the model's format has no record."""
    files = model_files(model)
    if files is None:
        return None
    thresholds = {"parameters_from": IreeExecutable.parameters_from,
                  "inline_limit": IreeExecutable.inline_limit}
    digest = hashlib.sha256()
    for part in (str(FORMAT), _versions(),
                 json.dumps({**options, **thresholds}, sort_keys=True, default=repr),
                 *(file_digest(file) for file in files)):
        digest.update(part.encode())
        digest.update(b"\1")
    return digest.hexdigest()


class _Arrays:
    """Raw arrays after the record's JSON: each described by where it starts, its dtype
    and its shape."""

    def __init__(self) -> None:
        self.chunks: list[bytes] = []
        self.size = 0

    def add(self, array: np.ndarray | memoryview) -> dict[str, Any]:
        if isinstance(array, memoryview):
            array = np.frombuffer(array, np.uint8)
        data = np.ascontiguousarray(array).tobytes()
        self.chunks.append(bytes(-self.size % ALIGN))
        self.size += len(self.chunks[-1])
        ref = {"at": self.size, "dtype": array.dtype.name, "shape": list(array.shape)}
        self.chunks.append(data)
        self.size += len(data)
        return ref


def _port(port: Port) -> list[Any]:
    return [port.index, port.name, list(port.shape), port.dtype.name]


def _ports(ports: tuple[tuple[Port, ...], tuple[Port, ...]]) -> list[list[list[Any]]]:
    return [[_port(port) for port in side] for side in ports]


def save_record(key: str, compiled: CompiledModel, model: str | os.PathLike[str]) -> None:
    """Write `compiled`'s record under `key` (an executable of device `iree`); a record
    that cannot be written is left out (the next compile is a miss)."""
    executable = compiled.executable
    assert isinstance(executable, IreeExecutable)
    facts = executable.facts
    files = [file.resolve() for file in model_files(model) or []]
    arrays = _Arrays()
    parameters: dict[str, Any] = {}
    views = {} if executable.parameters is None else executable.parameters.buffers
    for name, view in views.items():
        source = executable.sources.get(name)
        if source is not None and source[0] in files:
            parameters[name] = {"file": files.index(source[0]), "offset": source[1],
                                "nbytes": view.nbytes}
        else:
            parameters[name] = {"array": arrays.add(view)}
    decoder = facts.decoder
    header = {
        "format": FORMAT, "key": key, "vmfb": executable.vmfb.name, "entry": facts.entry,
        "flags": list(facts.flags),
        "entries": {name: {"ports": _ports(facts.ports[name]),
                           "device_ports": _ports(facts.device_ports[name]),
                           "extents": [list(e) for e in facts.extents[name]]}
                    for name in facts.ports},
        "specs": [{"name": spec.name, "shape": list(spec.shape), "dtype": spec.dtype.name,
                   "initial": None if spec.initial is None else arrays.add(spec.initial),
                   "flag_of": spec.flag_of, "sizes_of": spec.sizes_of,
                   "device_dtype": facts.device_dtypes[spec.name].name}
                  for spec in facts.specs],
        "decoder": None if decoder is None else {
            "tokens": decoder.tokens, "mask": decoder.mask, "positions": decoder.positions,
            "caches": list(decoder.caches)},
        "model": {"entry": compiled.entry, "ports": _ports((compiled.inputs, compiled.outputs)),
                  "token_axes": list(compiled.token_axes),
                  "static": None if compiled.static is None else vars(compiled.static)},
        "parameters": parameters,
    }
    text = json.dumps(header).encode()
    head = MAGIC + struct.pack("<Q", len(text)) + text
    head += bytes(-len(head) % ALIGN)

    def write(partial: Path) -> None:
        with partial.open("wb") as stream:
            stream.write(head)
            for chunk in arrays.chunks:
                stream.write(chunk)

    path = _path(key)
    try:
        with build_lock(path):
            publish(path, write)
    except OSError:  # no room, say: the next compile_model compiles again, nothing more
        pass


def _path(key: str) -> Path:
    return trusted_directory(cache_dir()) / f"{key}{RECORD_SUFFIX}"


class _Corrupt(Exception):
    """A record that does not hold what its format says."""


def load_record(key: str, model: str | os.PathLike[str], lowered: Callable[[], ModuleOp]
                ) -> CompiledModel | None:
    """The compiled model of the record `key` (`None`: a miss, see the module's
    docstring); `lowered()` makes the module again (at the `ml_program` level) when it is
    needed."""
    path = _path(key)
    data = load_verified(path)
    if data is None:
        return None
    try:
        header, body = _header(data)
        if header.get("format") != FORMAT or header.get("key") != key:
            return None
        artifact_path = path.with_name(header["vmfb"])
        if artifact_path.parent != path.parent or artifact_path.suffix != ".vmfb":
            return None
        return _restored(header, body, model, artifact_path, lowered)
    except (_Corrupt, KeyError, IndexError, TypeError, ValueError, AttributeError):
        return None


def _header(data: mmap.mmap) -> tuple[dict[str, Any], memoryview]:
    start = len(MAGIC) + 8
    if data[:len(MAGIC)] != MAGIC or len(data) < start:
        raise _Corrupt
    (length,) = struct.unpack("<Q", data[len(MAGIC):start])
    header = json.loads(data[start:start + length])
    if not isinstance(header, dict):
        raise _Corrupt
    end = start + length
    end += -end % ALIGN
    return header, memoryview(data)[end:]


def _array(ref: dict[str, Any], body: memoryview) -> np.ndarray:
    """A copy of the array `ref` describes (copied: the record's mapping is let go)."""
    dtype, shape = _dtype(ref["dtype"]), tuple(int(d) for d in ref["shape"])
    count = int(np.prod(shape, dtype=np.int64))
    at = int(ref["at"])
    if at < 0 or at + count * dtype.itemsize > body.nbytes:
        raise _Corrupt
    array = np.frombuffer(body, dtype, count, at).reshape(shape).copy()
    array.flags.writeable = False
    return array


def _dtype(name: str) -> np.dtype:
    import ml_dtypes  # noqa: F401  (registers bfloat16 and the others by name)

    return np.dtype(name)


def _port_of(item: list[Any]) -> Port:
    index, name, shape, dtype = item
    return Port(int(index), str(name), tuple(int(d) for d in shape), _dtype(dtype))


def _ports_of(items: list[list[list[Any]]]) -> tuple[tuple[Port, ...], tuple[Port, ...]]:
    inputs, outputs = items
    return tuple(map(_port_of, inputs)), tuple(map(_port_of, outputs))


def _restored(header: dict[str, Any], body: memoryview, model: str | os.PathLike[str],
              artifact_path: Path, lowered: Callable[[], ModuleOp]) -> CompiledModel | None:
    data = load_verified(artifact_path)
    if data is None:
        return None
    parameters = _parameters(header["parameters"], body, model_files(model) or [])
    if parameters is None:
        return None
    entries = header["entries"]
    specs = tuple(VariableSpec(
        str(spec["name"]), tuple(int(d) for d in spec["shape"]), _dtype(spec["dtype"]),
        None if spec["initial"] is None else _array(spec["initial"], body),
        spec["flag_of"], spec["sizes_of"]) for spec in header["specs"])
    decoder = header["decoder"]
    facts = DeviceFacts(
        str(header["entry"]),
        {name: _ports_of(entry["ports"]) for name, entry in entries.items()},
        {name: _ports_of(entry["device_ports"]) for name, entry in entries.items()},
        {name: tuple((int(i), bool(m)) for i, m in entry["extents"])
         for name, entry in entries.items()},
        specs, {spec["name"]: _dtype(spec["device_dtype"]) for spec in header["specs"]},
        None if decoder is None else DecoderInputs(
            int(decoder["tokens"]), int(decoder["mask"]),
            None if decoder["positions"] is None else int(decoder["positions"]),
            tuple(decoder["caches"]), None, None),
        tuple(header["flags"]))
    if facts.entry not in facts.ports:
        raise _Corrupt
    model_facts = header["model"]
    static = None if model_facts["static"] is None else StaticLayout(**model_facts["static"])
    executable = IreeExecutable.restore(facts, Artifact(artifact_path, data), parameters,
                                        FailureExplainer(lowered, facts.entry))
    return CompiledModel.restored(
        executable, str(model_facts["entry"]), _ports_of(model_facts["ports"]), static,
        tuple(model_facts["token_axes"]), lowered)


def _parameters(items: dict[str, Any], body: memoryview, files: list[Path]
                ) -> dict[str, memoryview] | None:
    """Each parameter's bytes: a model file's mapping, or the record's own (copied)."""
    mappings: dict[int, memoryview] = {}
    views = {}
    for name, item in items.items():
        if "array" in item:
            views[name] = memoryview(_array(item["array"], body)).cast("B")
            continue
        index, offset, nbytes = int(item["file"]), int(item["offset"]), int(item["nbytes"])
        if index not in mappings:
            mappings[index] = _mapped(files[index])
        mapping = mappings[index]
        if offset < 0 or offset + nbytes > mapping.nbytes:
            return None
        views[name] = mapping[offset:offset + nbytes]
    return views


def _mapped(path: Path) -> memoryview:
    with path.open("rb") as file:
        if file.seek(0, 2) == 0:
            return memoryview(b"")
        return memoryview(mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ))


__all__ = ["load_record", "model_files", "record_key", "save_record"]
