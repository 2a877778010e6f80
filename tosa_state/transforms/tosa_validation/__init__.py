"""TOSA targets and their validation (upstream MLIR's `TosaValidation`): `Target` names a
specification version, profiles, extensions and a level; `violations` lists every op of a
module that the target does not admit. The pass is `tosa-validate`
(`transforms/tosa_validate.py`)."""

from .checks import Violation, violations
from .target import EXTENSIONS, LEVELS, PROFILES, VERSIONS, Target

__all__ = ["EXTENSIONS", "LEVELS", "PROFILES", "VERSIONS", "Target", "Violation", "violations"]
