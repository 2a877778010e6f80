"""A TOSA artifact for a target: the model lowered to strict TOSA 1.0, checked against the
target (`tosa-validate`), serialized (`tosa_flatbuffer`) with its state manifest
(`manifest`). A model the target does not admit is refused with every violation listed,
and nothing is written."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tosa_state.diagnostics import TosaStateError
from tosa_state.emitters.manifest import manifest
from tosa_state.emitters.tosa_flatbuffer import serialize
from tosa_state.files import write_atomically
from tosa_state.tosa_tools import MANIFEST_SUFFIX
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.transforms.tosa_validate import report
from tosa_state.transforms.tosa_validation import Target, Violation, violations


def legalization(target: Target) -> str:
    """The passes that bring a TOSA module to strict TOSA 1.0 for `target`: shapes known
    once the inputs' are fixed folded and propagated, float state that holds quantized
    integers made integer for an integer-only target, dequantize expanded to TOSA ops,
    `i64` (which no profile has) computed in `i32`, the `i32` / `bool` ops the target's
    profiles lack computed in `f32` when it has PRO-FP, fixed-count loops unrolled unless
    the target has `controlflow`, and a static state's capacity guards left to the host."""
    passes = ["tosa-infer-shapes", "tosa-expand-dequantize", "tosa-demote-i64"]
    if "pro_fp" not in target.profiles:
        passes.insert(1, "tosa-integer-state")
    if "pro_fp" in target.profiles:
        profiles = ",".join(sorted(target.profiles))
        passes.append(f"tosa-integers-in-float{{profiles=\"{profiles}\"}}")
    if "controlflow" not in target.extensions:
        passes.append("tosa-unroll-loops")
    passes.append("tosa-host-capacity-checks")
    return ",".join(passes)


def integer_preparation(target: Target) -> str:
    """For an integer-only target, the passes run before the optimisations (which move
    layout ops into the float chains these passes read): the quantize of frame state moved
    above its concat, the float requantization after an int8 convolution made integer, and
    the inputs only quantized / outputs only dequantized made integer."""
    if "pro_fp" in target.profiles:
        return ""
    return "tosa-integer-frames,tosa-integer-requantize,tosa-integer-io,dce"


@dataclass
class TosaArtifact:
    """A module lowered for `target`, with what the target check found in it."""

    module: ModuleOp
    target: Target
    violations: list[Violation] = field(default_factory=list)

    @staticmethod
    def lower(ctx: Context, module: ModuleOp, target: Target) -> TosaArtifact:
        """Lower `module` (TOSA, variables at module level) for `target`, in place, and
        check it."""
        apply_pipeline(ctx, module, legalization(target))
        return TosaArtifact(module, target, violations(module, target))

    @property
    def ok(self) -> bool:
        return not self.violations

    def report(self) -> str:
        """Every violation, one per line, and a count; or that the target admits it."""
        if self.ok:
            return f"ok: the model is legal for the TOSA target '{self.target.describe()}'"
        return report(self.violations, self.target)

    def check(self) -> None:
        """Raise the report unless the target admits the module."""
        if not self.ok:
            raise TosaStateError(self.report())

    def flatbuffer(self) -> bytes:
        self.check()
        return serialize(self.module)

    def manifest(self, artifact: str = "model.tosa") -> dict[str, Any]:
        return manifest(self.module, self.target, artifact)

    def save(self, path: str | os.PathLike[str]) -> tuple[Path, Path]:
        """Write `path` (the flatbuffer) and `path.json` (the manifest): both or neither."""
        path = Path(path)
        data = self.flatbuffer()
        text = json.dumps(self.manifest(path.name), indent=1) + "\n"
        manifest_path = Path(f"{path}{MANIFEST_SUFFIX}")
        written: list[Path] = []
        try:
            for target_path, content in ((path, data), (manifest_path, text.encode())):
                write_atomically(str(target_path), content)
                written.append(target_path)
        except BaseException:
            for done in written:
                done.unlink(missing_ok=True)
            raise
        return path, manifest_path
