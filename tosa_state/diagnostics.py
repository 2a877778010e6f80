"""User-facing errors.

Every error that bad input can cause is raised as a `TosaStateError` whose message is
already formatted for the user (`file:line:col: error: ...`, or naming an OpenVINO layer).
The command-line tools print the message and exit with code 1; nothing else is printed.
"""

from __future__ import annotations

from xdsl.dialects.builtin import FileLineColLoc
from xdsl.ir import Operation


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
