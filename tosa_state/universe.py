"""The `xdsl.universe` plugin: our passes and dialects for plain `xdsl-opt` users.

A second `tosa` or `ml_program` dialect would break every `xdsl-opt` run in the
environment (xDSL refuses two dialects of one name). So the plugin registers the
`openvino`, `tfl` and `tosa_state` dialects and our passes under their own names, and *adds* the ops
xDSL's own `tosa` and `ml_program` dialects lack to them, as xDSL loads them: `tosa.variable`,
`tosa.variable.read`, `tosa.variable.write`, `ml_program.global_load`,
`ml_program.global_store`. No op xDSL defines is replaced, so `xdsl-opt` parses,
verifies and prints the stateful ops, and runs our passes on them, and every other
input behaves as without the plugin.

Every `xdsl-opt` run in the environment loads the plugin, so it is cheap: dialects and
passes are registered by name with loader callables (as xDSL's own registry), and loading
it imports `tosa_state.transforms`' table of passes, no pass, dialect or runtime
(`tests/test_lazy_loading.py`; `benchmarks/import_cost.py` measures it, docs/passes.md).
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable

from xdsl.ir import Dialect, Operation
from xdsl.universe import XDSL_UNIVERSE, Universe

from tosa_state.transforms import get_tosa_state_passes


def _openvino_dialect() -> Dialect:
    from tosa_state.dialects.openvino import OpenVINO

    return OpenVINO


def _variable_ops() -> list[type[Operation]]:
    from tosa_state.dialects.tosa import VariableOp, VariableReadOp, VariableWriteOp

    return [VariableOp, VariableReadOp, VariableWriteOp]


def _ml_program_ops() -> list[type[Operation]]:
    from tosa_state.dialects.ml_program import GlobalLoadOp, GlobalStoreOp

    return [GlobalLoadOp, GlobalStoreOp]


def with_missing_ops(
    load: Callable[[], Dialect], extra: Callable[[], list[type[Operation]]]
) -> Callable[[], Dialect]:
    """A loader of the dialect `load` gives, plus the ops of `extra` it does not define."""

    def loader() -> Dialect:
        dialect = load()
        known = {op.name for op in dialect.operations}
        added = [op for op in extra() if op.name not in known]
        return dataclasses.replace(dialect, _operations=[*dialect.operations, *added])

    loader.extended = True  # type: ignore[attr-defined]
    return loader


def _extend_xdsl_dialects(dialects: dict[str, Callable[[], Dialect]]) -> None:
    for name, extra in (("tosa", _variable_ops), ("ml_program", _ml_program_ops)):
        load = dialects.get(name)
        if load is not None and not getattr(load, "extended", False):
            dialects[name] = with_missing_ops(load, extra)


_extend_xdsl_dialects(XDSL_UNIVERSE.all_dialects)

def _tfl_dialect() -> Dialect:
    from tosa_state.dialects.tfl import TFL

    return TFL


def _tosa_state_dialect() -> Dialect:
    from tosa_state.dialects.tosa_state import TOSA_STATE

    return TOSA_STATE


UNIVERSE = Universe(
    all_dialects={"openvino": _openvino_dialect, "tfl": _tfl_dialect,
                  "tosa_state": _tosa_state_dialect},
    all_passes=get_tosa_state_passes(),
)
