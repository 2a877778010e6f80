"""The weights file (`model.bin`) beside the XML, read on first use."""

from __future__ import annotations

from pathlib import Path


class Weights:
    """The `.bin` file, read on first use."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._data: bytes | None = None
        self.problem = ""
        """Why `get()` returned None."""

    def get(self) -> bytes | None:
        if self._data is None:
            try:
                self._data = self.path.read_bytes()
            except FileNotFoundError:
                self.problem = f"the weights file '{self.path}' does not exist"
            except OSError as error:
                self.problem = f"cannot read the weights file '{self.path}': {error.strerror}"
        return self._data
