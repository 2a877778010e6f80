"""`tosa-validate`: fail unless the module is a TOSA graph of the given target.

Upstream MLIR attaches a target (`--tosa-attach-target="specification_version=1.0 level=8k
profiles=pro_fp extensions=variable"`) and then validates against it
(`--tosa-validate=strict-op-spec-alignment`); this pass takes the target as its options
and checks the same rules (`transforms/tosa_validation`): every op a TOSA operator, its
types admitted by a profile or extension of the target, the extensions each operator needs
(`variable`, `controlflow`, `doubleround`, ...), and the level's limits (rank, dynamic
dimensions, sizes, kernels, strides, nesting). Every violation is reported, each naming
its op, location (or OpenVINO layer) and rule; the module is not changed.

    tosa-state-opt model.mlir \
        -p 'tosa-validate{profiles="pro_int,pro_fp" level=8k extensions="variable"}'
"""

from __future__ import annotations

from dataclasses import dataclass

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp
from xdsl.passes import ModulePass
from xdsl.utils.exceptions import PassFailedException

from tosa_state.transforms.tosa_validation import Target, Violation, violations


def report(found: list[Violation], target: Target) -> str:
    """Every violation on a line of its own, then how many and for which target."""
    lines = [str(v) for v in found]
    lines.append(f"error: {len(found)} violation(s) of the TOSA target "
                 f"'{target.describe()}'")
    return "\n".join(lines)


@dataclass(frozen=True)
class TosaValidatePass(ModulePass):
    """Checks the module against a TOSA target; fails listing every violation."""

    name = "tosa-validate"

    profiles: str = "pro_fp"
    extensions: str = "variable"
    level: str = "8k"
    specification_version: str = "1.0"

    def target(self) -> Target:
        return Target.make(self.specification_version, self.profiles, self.extensions,
                           self.level)

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        target = self.target()
        if found := violations(op, target):
            raise PassFailedException(report(found, target))
