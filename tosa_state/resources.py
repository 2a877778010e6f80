"""Large constants as upstream MLIR's `dense_resource` blobs.

`dense_resource<key> : tensor<...>` refers to a blob in the file's metadata section, as
upstream MLIR prints and parses it (`iree-opt` reads it):

```mlir
tosa.variable @w = dense_resource<w> : tensor<4xf32>
{-#
  dialect_resources: {
    builtin: {
      w: "0x040000000000803F0000004000004040000080400"
    }
  }
#-}
```

A builtin blob is a hex string: a 4-byte little-endian alignment, then the raw little-endian
elements (what `DenseIntOrFPElementsAttr` holds). Parsing puts the blob back into a plain
`dense` attribute (no decoding: the bytes are used as they are), so passes and the
interpreter see no difference.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import (
    BytesAttr,
    DenseIntOrFPElementsAttr,
    DenseResourceAttr,
    IntegerType,
)
from xdsl.ir import Attribute

from tosa_state.diagnostics import ModelImportError

ELIDED = "__elided__"
"""The key mlir-opt prints for an elided constant (`--mlir-elide-elementsattrs-if-larger`)."""

HEX_CHUNK = 1 << 20
"""Bytes hex-encoded at a time when a blob is written."""

_METADATA = re.compile(r"\{-#(.*)#-\}\s*\Z", re.S)
_DIALECT = re.compile(r"([A-Za-z_][\w.$-]*)\s*:\s*\{")
_ENTRY = re.compile(r'\s*([A-Za-z_][\w.$-]*|"[^"]*")\s*:\s*"0x([0-9A-Fa-f]*)"\s*,?')


def element_count(attr: DenseIntOrFPElementsAttr) -> int:
    count = 1
    for dim in attr.get_shape() or ():
        count *= dim
    return count


def mapped(attr: Attribute) -> bool:
    """Whether a dense attribute's bytes are a weights file's, shared: a read-only
    `memoryview` of the file's mapping or of an aligned buffer read from it
    (`frontends/openvino/weights.py`), not bytes of its own. Such an attribute is never
    copied into another one by a layout change (the plan does it, as a view), and is told
    apart from others by where its bytes are, not what they hold (`identity`)."""
    return isinstance(attr, DenseIntOrFPElementsAttr) and isinstance(attr.data.data, memoryview)


def identity(attr: Attribute) -> object:
    """A key for merging equal attributes: the attribute itself, or for a mapped one where
    its bytes are (its type, the mapping, the address, the size), so that merging does not
    read (nor make resident) every weight to hash or compare it."""
    if not mapped(attr):
        return attr
    view = attr.data.data  # type: ignore[attr-defined]
    return attr.type, id(view.obj), address(view), view.nbytes  # type: ignore[attr-defined]


def address(view: memoryview) -> int:
    """Where `view`'s bytes start in memory (0 for an empty view)."""
    return int(np.frombuffer(view, np.uint8).ctypes.data) if view.nbytes else 0


MAPPED_MIN_BYTES = 1 << 16
"""A model file's constants (OpenVINO `.bin`, `.tflite` buffers) of at least this many bytes
are used in place in its mapping; smaller ones are copied (they cost nothing, and keep no
reference to the file)."""


def read_into(path: str | Path, offset: int, view: memoryview) -> int:
    """Read the file's bytes from `offset` into `view`, through `read` calls (not through a
    mapping of the file, whose pages stay untouched); how many bytes it read: fewer than
    `view` holds only if the file ended first."""
    with open(path, "rb", buffering=0) as file:
        file.seek(offset)
        done = 0
        while done < len(view):
            read = file.readinto(view[done:])
            if not read:
                break
            done += read
    return done


def shared_weights(array: object) -> bool:
    """Whether a numpy array is a view of a mapped attribute's bytes (`mapped`)."""
    base = array
    while isinstance(base, np.ndarray):
        base = base.base
    return isinstance(base, memoryview)


def resource_able(attr: DenseIntOrFPElementsAttr) -> bool:
    """Whether the attribute's bytes are exactly an upstream blob's payload (not i1,
    whose blob layout differs)."""
    element = attr.get_element_type()
    return not (isinstance(element, IntegerType) and element.width.data == 1)


def alignment(attr: DenseIntOrFPElementsAttr) -> int:
    """The blob alignment MLIR uses: the element's size in bytes."""
    return max(1, int(getattr(attr.get_element_type(), "compile_time_size", 1)))


@dataclass
class BlobWriter:
    """Collects the blobs a printer refers to, then writes the metadata section."""

    blobs: dict[str, tuple[int, bytes]] = field(default_factory=dict)

    def add(self, wanted: str, attr: DenseIntOrFPElementsAttr) -> str:
        """Register the attribute's bytes under a fresh key based on `wanted`."""
        key = re.sub(r"[^\w.$-]", "_", wanted) or "blob"
        if not re.match(r"[A-Za-z_]", key):
            key = f"_{key}"
        unique, suffix = key, 0
        while unique in self.blobs:
            suffix += 1
            unique = f"{key}_{suffix}"
        self.blobs[unique] = (alignment(attr), attr.data.data)
        return unique

    def chunks(self) -> Iterator[str]:
        """The `{-# dialect_resources: ... #-}` section, in pieces of bounded size."""
        if not self.blobs:
            return
        yield "\n{-#\n  dialect_resources: {\n    builtin: {\n"
        for index, (key, (align, data)) in enumerate(self.blobs.items()):
            yield f'      {key}: "0x{align.to_bytes(4, "little").hex().upper()}'
            for start in range(0, len(data), HEX_CHUNK):
                yield data[start : start + HEX_CHUNK].hex().upper()
            yield '"' + ("," if index + 1 < len(self.blobs) else "") + "\n"
        yield "    }\n  }\n#-}\n"


def split_metadata(text: str, name: str) -> tuple[str, dict[str, bytes]]:
    """The module text without its trailing `{-# ... #-}` section, and the builtin blobs
    (alignment prefix removed) that section holds."""
    start = text.rfind("{-#")
    match = _METADATA.match(text, start) if start >= 0 else None
    if match is None:
        return text, {}
    body = match[1]
    line = text.count("\n", 0, start) + 1
    where = f"{name}:{line}:1: error: "
    section = re.match(r"\s*dialect_resources\s*:\s*\{", body)
    if section is None:
        raise ModelImportError(f"{where}only 'dialect_resources' are supported in file metadata")
    blobs: dict[str, bytes] = {}
    position = section.end()
    while (dialect := _DIALECT.match(body, _skip_space(body, position))) is not None:
        if dialect[1] != "builtin":
            raise ModelImportError(f"{where}resources of dialect '{dialect[1]}' are not supported")
        position = dialect.end()
        while (entry := _ENTRY.match(body, position)) is not None:
            raw = bytes.fromhex(entry[2]) if len(entry[2]) % 2 == 0 else None
            if raw is None or len(raw) < 4:
                raise ModelImportError(f"{where}resource {entry[1]} is not a builtin blob")
            blobs[entry[1].strip('"')] = raw[4:]
            position = entry.end()
        position = body.index("}", position) + 1
        comma = re.match(r"\s*,", body[position:])
        position += comma.end() if comma else 0
    return text[:start], blobs


def _skip_space(text: str, position: int) -> int:
    while position < len(text) and text[position].isspace():
        position += 1
    return position


def dense_from_blob(attr: DenseResourceAttr, blobs: dict[str, bytes]) -> Attribute:
    """The `dense` attribute of a `dense_resource<key>`'s blob; `ValueError` if there is
    no such blob or it does not fit the type. `__elided__` stays as it is: as upstream,
    it parses, but holds no data."""
    handle = attr.resource_handle.data
    if handle == ELIDED:
        return attr
    if handle not in blobs:
        raise ValueError(f"dense_resource<{handle}> has no blob in the file's dialect_resources")
    data = blobs[handle]
    dense = DenseIntOrFPElementsAttr(attr.type, BytesAttr(data))  # type: ignore[arg-type]
    needed = element_count(dense) * alignment(dense)
    if len(data) != needed:
        raise ValueError(
            f"dense_resource<{handle}> has {len(data)} bytes; '{attr.type}' needs {needed}"
        )
    return dense
