"""The `xdsl.universe` plugin: our passes (and the openvino dialect) for `xdsl-opt` users.

Only names that do not clash with xDSL's own are registered: a second `tosa` or
`ml_program` dialect would break every `xdsl-opt` run in the environment.
"""

from xdsl.universe import Universe

from tosa_state.transforms import get_tosa_state_passes


def _openvino_dialect():
    from tosa_state.dialects.openvino import OpenVINO

    return OpenVINO


UNIVERSE = Universe(
    all_dialects={"openvino": _openvino_dialect}, all_passes=get_tosa_state_passes()
)
