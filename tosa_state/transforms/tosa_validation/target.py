"""A TOSA target: specification version, profiles, extensions and level, as upstream's
`--tosa-attach-target` takes them, and the limits of each level."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from tosa_state.diagnostics import TosaStateError

VERSIONS = ("1.0",)
PROFILES = ("pro_int", "pro_fp")
EXTENSIONS = ("int16", "int4", "bf16", "fp8e4m3", "fp8e5m2", "fft", "variable", "controlflow",
              "doubleround", "inexactround", "dynamic")
EXTENSION_PROFILES = {"int16": "pro_int", "int4": "pro_int", "doubleround": "pro_int",
                      "inexactround": "pro_int", "bf16": "pro_fp", "fp8e4m3": "pro_fp",
                      "fp8e5m2": "pro_fp", "fft": "pro_fp"}
"""An extension -> the profile it extends (the specification's "extension requires")."""


@dataclass(frozen=True)
class Level:
    """The limits of a TOSA level (the specification's "Levels" table)."""

    name: str
    max_rank: int
    max_kernel: int
    max_stride: int
    max_scale: int
    max_log2_size: int
    max_nesting: int
    max_tensor_list_size: int
    static_shapes: bool
    """A level with limits needs every dimension known (a dynamic one has no bound)."""


LEVELS = {
    "8k": Level("8k", 6, 8192, 8192, 256, 31, 6, 64, True),
    "none": Level("none", 32, 2**31 - 1, 2**31 - 1, 2**31 - 1, 63, 256, 256, False),
}


@dataclass(frozen=True)
class Target:
    """What a TOSA artifact is checked for (`tosa-validate`, `tosa-state compile --target
    tosa`): defaults as `tosa-state compile`'s, PRO-FP at level 8k with variables."""

    version: str = "1.0"
    profiles: frozenset[str] = frozenset({"pro_fp"})
    extensions: frozenset[str] = frozenset({"variable"})
    level: str = "8k"

    @staticmethod
    def make(version: str = "1.0", profiles: Iterable[str] = ("pro_fp",),
             extensions: Iterable[str] = ("variable",), level: str = "8k") -> Target:
        """A target from user-given names, refused with a message naming what exists."""
        profiles, extensions = _names(profiles), _names(extensions)
        _known("specification version", [version], VERSIONS)
        _known("profile", profiles, PROFILES)
        _known("extension", extensions, EXTENSIONS)
        _known("level", [level], tuple(LEVELS))
        if not profiles:
            raise TosaStateError("error: a TOSA target needs at least one profile "
                                 f"(profiles: {', '.join(PROFILES)})")
        for extension in sorted(extensions):
            needs = EXTENSION_PROFILES.get(extension)
            if needs is not None and needs not in profiles:
                raise TosaStateError(f"error: extension '{extension}' extends profile "
                                     f"'{needs}', which the target does not have")
        return Target(version, frozenset(profiles), frozenset(extensions), level)

    @property
    def limits(self) -> Level:
        return LEVELS[self.level]

    def describe(self) -> str:
        """As `tosa-opt --tosa-attach-target` takes it."""
        return (f"specification_version={self.version} level={self.level} "
                f"profiles={','.join(sorted(self.profiles))}"
                + (f" extensions={','.join(sorted(self.extensions))}" if self.extensions else ""))


def _names(values: Iterable[str]) -> list[str]:
    if isinstance(values, str):
        values = values.split(",")
    return [v.strip().lower() for v in values if v.strip()]


def _known(what: str, given: Iterable[str], known: tuple[str, ...]) -> None:
    for name in given:
        if name not in known:
            raise TosaStateError(f"error: unknown TOSA {what} '{name}' "
                                 f"({what}s: {', '.join(known)})")
