"""User-facing errors.

Every error that bad input can cause is raised as a `TosaStateError` whose message is
already formatted for the user (`file:line:col: error: ...`, or naming an OpenVINO layer).
The command-line tools print the message and exit with code 1; nothing else is printed.
"""

from __future__ import annotations

import functools
import html
import re
from collections.abc import Sequence
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import DYNAMIC_INDEX, FileLineColLoc, NameLoc, StringAttr
from xdsl.ir import Operation

LAYER_ATTR = "openvino.layer"
"""A discardable attribute naming an op's OpenVINO layer, used by diagnostics when present."""
OPERATOR_ATTR = "tfl.operator"
"""A discardable attribute naming a `tfl` op's TFLite operator (`operator #3 (ADD) in
subgraph 'main'`); the importer also makes it the op's location (a `NameLoc`), which the
conversion gives the ops it makes, as an OpenVINO layer's `.xml` line."""

VALUE_LIMIT = 80
"""About how many characters a value (a shape, indices, ...) takes in a message."""


class TosaStateError(Exception):
    """An error caused by the user's input, with a message ready to print."""


class ModelImportError(TosaStateError):
    """A model file (MLIR or OpenVINO IR) could not be read."""


class VerificationError(TosaStateError):
    """A module does not verify."""


class InferenceError(TosaStateError):
    """A run failed: wrong inputs, or a state rule was broken at run time."""


def location_prefix(op: Operation | None) -> str:
    """`file:line:col: ` for an op parsed from text, or `` when its location is unknown."""
    loc = op.location if op is not None else None
    if isinstance(loc, FileLineColLoc):
        return f"{loc.filename.data}:{loc.line.data}:{loc.column.data}: "
    return ""


def error_at(op: Operation | None, message: str) -> str:
    """An MLIR-style diagnostic line: `file:line:col: error: message`."""
    return f"{location_prefix(op)}error: {message}"


@functools.lru_cache(maxsize=8)
def _file_lines(path: str, mtime_ns: int) -> tuple[str, ...]:
    try:
        with open(path, encoding="utf-8") as stream:
            return tuple(stream.read().splitlines())
    except (OSError, UnicodeDecodeError):
        return ()


def _xml_attribute(tag: str, name: str) -> str | None:
    match = re.search(rf'\s{name}="([^"]*)"', tag)
    return html.unescape(match.group(1)) if match else None


def describe_layer(op: Operation) -> str | None:
    """`layer id=12 name='h_rv' type='ReadValue' (opset6)` for an op imported from OpenVINO IR
    (`operator #3 (ADD) in subgraph 'main'` for one from TFLite).

    Taken from the op's `openvino.layer` (or `tfl.operator`) attribute when there is one,
    else from its location: a `NameLoc` (TFLite) or the `<layer>` element a file location
    points at; None for ops parsed from MLIR text.
    """
    for key in (LAYER_ATTR, OPERATOR_ATTR):
        if isinstance(attr := op.attributes.get(key), StringAttr):
            return attr.data
    loc = op.location
    if isinstance(loc, NameLoc):
        return loc.desc.data
    if not isinstance(loc, FileLineColLoc) or not loc.filename.data.endswith(".xml"):
        return None
    path = Path(loc.filename.data)
    try:
        lines = _file_lines(str(path), path.stat().st_mtime_ns)
    except OSError:
        return None
    if not 0 < loc.line.data <= len(lines):
        return None
    text = lines[loc.line.data - 1][loc.column.data - 1 :]
    if not text.startswith("<layer"):
        return None
    tag = text.split(">", 1)[0]
    values = [_xml_attribute(tag, k) for k in ("id", "name", "type", "version")]
    layer_id, name, type_, version = values
    return f"layer id={layer_id} name='{name}' type='{type_}' ({version})"


def brief(value: object, limit: int = VALUE_LIMIT, separator: str = ", ") -> str:
    """`value` as text for a message, of about `limit` characters at most: a long list,
    tuple or array (a shape, indices) shows its first items and its length
    (`[5, 7, 3, ... (1500 in all)]`); any other long text is cut in the middle. Every
    message printing a shape or indices that a file or an input controls goes through it."""
    if isinstance(value, np.ndarray):
        items, count, brackets = value.reshape(-1)[:limit].tolist(), value.size, "[]"
    elif isinstance(value, list | tuple):
        items, count = list(value[:limit]), len(value)
        brackets = "()" if isinstance(value, tuple) else "[]"
    else:
        text = str(value)
        if len(text) <= limit:
            return text
        half = (limit - 5) // 2
        return f"{text[:half]} ... {text[-half:]}"
    pieces = [str(item) for item in items]
    text = separator.join(pieces)
    if count == len(pieces) and len(text) + 2 <= limit:
        single = "," if count == 1 and brackets == "()" else ""
        return f"{brackets[0]}{text}{single}{brackets[1]}"
    tail = f"... ({count} in all)"
    shown: list[str] = []
    used = len(tail) + 2
    for piece in pieces:
        if shown and used + len(piece) + len(separator) > limit:
            break
        shown.append(piece)
        used += len(piece) + len(separator)
    return f"{brackets[0]}{separator.join(shown)}{separator}{tail}{brackets[1]}"


def format_shape(shape: Sequence[int] | None) -> str:
    """A shape as OpenVINO prints it (our messages use it whatever the frontend): `[1,?,4]`,
    `[]`, or `[...]` for a dynamic rank."""
    if shape is None:
        return "[...]"
    return brief(["?" if d == DYNAMIC_INDEX else str(d) for d in shape], separator=",")
