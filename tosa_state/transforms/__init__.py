"""Passes, by command-line name. Each is an xDSL `ModulePass`:
`Pass().apply(tosa_state.make_context(), module)`."""

from __future__ import annotations

from collections.abc import Callable
from importlib import import_module
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from xdsl.passes import ModulePass

    from tosa_state.transforms.convert_openvino_to_tosa import ConvertOpenVINOToTosaPass
    from tosa_state.transforms.convert_tflite_to_tosa import ConvertTFLiteToTosaPass
    from tosa_state.transforms.convert_tosa_variables_to_memref import (
        ConvertTosaVariablesToMemRefPass,
    )
    from tosa_state.transforms.export_state_control import ExportStateControlPass
    from tosa_state.transforms.externalize_state import ExternalizeStatePass
    from tosa_state.transforms.make_stateful import MakeStatefulPass
    from tosa_state.transforms.mlprogram_stores_last import MLProgramStoresLastPass
    from tosa_state.transforms.specialize_input_shapes import SpecializeInputShapesPass
    from tosa_state.transforms.tosa_constants_to_parameters import (
        TosaConstantsToParametersPass,
    )
    from tosa_state.transforms.tosa_demote_i64 import TosaDemoteI64Pass
    from tosa_state.transforms.tosa_dynamic_empty_dims import TosaDynamicEmptyDimsPass
    from tosa_state.transforms.tosa_expand_dequantize import TosaExpandDequantizePass
    from tosa_state.transforms.tosa_fold_conv_bias import TosaFoldConvBiasPass
    from tosa_state.transforms.tosa_fold_identities import TosaFoldIdentitiesPass
    from tosa_state.transforms.tosa_fold_tile_into_matmul import TosaFoldTileIntoMatmulPass
    from tosa_state.transforms.tosa_hoist_variables import TosaHoistVariablesPass
    from tosa_state.transforms.tosa_host_capacity_checks import TosaHostCapacityChecksPass
    from tosa_state.transforms.tosa_infer_shapes import TosaInferShapesPass
    from tosa_state.transforms.tosa_integer_frames import TosaIntegerFramesPass
    from tosa_state.transforms.tosa_integer_io import TosaIntegerIOPass
    from tosa_state.transforms.tosa_integer_requantize import TosaIntegerRequantizePass
    from tosa_state.transforms.tosa_integer_state import TosaIntegerStatePass
    from tosa_state.transforms.tosa_integers_in_float import TosaIntegersInFloatPass
    from tosa_state.transforms.tosa_lower_shape_ops import TosaLowerShapeOpsPass
    from tosa_state.transforms.tosa_merge_sliced_elementwise import (
        TosaMergeSlicedElementwisePass,
    )
    from tosa_state.transforms.tosa_rank0_conditions import TosaRank0ConditionsPass
    from tosa_state.transforms.tosa_reduce_transposes import TosaReduceTransposesPass
    from tosa_state.transforms.tosa_runtime_checks import TosaRuntimeChecksPass
    from tosa_state.transforms.tosa_sink_cond_if_inputs import TosaSinkCondIfInputsPass
    from tosa_state.transforms.tosa_static_state import TosaStaticStatePass
    from tosa_state.transforms.tosa_to_mlprogram import TosaToMLProgramPass
    from tosa_state.transforms.tosa_unroll_loops import TosaUnrollLoopsPass
    from tosa_state.transforms.tosa_validate import TosaValidatePass

PASSES = {
    "tosa-hoist-variables": "TosaHoistVariablesPass",
    "specialize-input-shapes": "SpecializeInputShapesPass",
    "convert-openvino-to-tosa": "ConvertOpenVINOToTosaPass",
    "convert-tflite-to-tosa": "ConvertTFLiteToTosaPass",
    "convert-tosa-variables-to-memref": "ConvertTosaVariablesToMemRefPass",
    "tosa-to-mlprogram": "TosaToMLProgramPass",
    "tosa-reduce-transposes": "TosaReduceTransposesPass",
    "tosa-fold-conv-bias": "TosaFoldConvBiasPass",
    "tosa-fold-identities": "TosaFoldIdentitiesPass",
    "tosa-fold-tile-into-matmul": "TosaFoldTileIntoMatmulPass",
    "tosa-merge-sliced-elementwise": "TosaMergeSlicedElementwisePass",
    "tosa-rank0-conditions": "TosaRank0ConditionsPass",
    "tosa-unroll-loops": "TosaUnrollLoopsPass",
    "tosa-demote-i64": "TosaDemoteI64Pass",
    "tosa-constants-to-parameters": "TosaConstantsToParametersPass",
    "tosa-expand-dequantize": "TosaExpandDequantizePass",
    "tosa-lower-shape-ops": "TosaLowerShapeOpsPass",
    "tosa-dynamic-empty-dims": "TosaDynamicEmptyDimsPass",
    "tosa-sink-cond-if-inputs": "TosaSinkCondIfInputsPass",
    "make-stateful": "MakeStatefulPass",
    "externalize-state": "ExternalizeStatePass",
    "export-state-control": "ExportStateControlPass",
    "mlprogram-stores-last": "MLProgramStoresLastPass",
    "tosa-runtime-checks": "TosaRuntimeChecksPass",
    "hoist-runtime-checks": "HoistRuntimeChecksPass",
    "tosa-integer-state": "TosaIntegerStatePass",
    "tosa-integer-frames": "TosaIntegerFramesPass",
    "tosa-integer-requantize": "TosaIntegerRequantizePass",
    "tosa-integer-io": "TosaIntegerIOPass",
    "tosa-static-state": "TosaStaticStatePass",
    "tosa-infer-shapes": "TosaInferShapesPass",
    "tosa-integers-in-float": "TosaIntegersInFloatPass",
    "tosa-host-capacity-checks": "TosaHostCapacityChecksPass",
    "tosa-validate": "TosaValidatePass",
}
"""Our passes: command-line name -> class, defined in the module named after the pass
(`tosa-hoist-variables` in `tosa_hoist_variables.py`) and imported on first use, as xDSL's
own registry does: importing this package (and the `xdsl.universe` plugin) loads no pass."""

_CLASSES = {cls: name for name, cls in PASSES.items()}


def _load(name: str) -> type[ModulePass]:
    module = import_module(f"{__name__}.{name.replace('-', '_')}")
    return getattr(module, PASSES[name])


def __getattr__(attribute: str) -> type[ModulePass]:
    """`tosa_state.transforms.TosaHoistVariablesPass` and the others, loaded on first use."""
    if attribute in _CLASSES:
        return _load(_CLASSES[attribute])
    raise AttributeError(f"module {__name__!r} has no attribute {attribute!r}")


def _xdsl_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """The generic xDSL passes worth running on our IR."""

    def canonicalize() -> type[ModulePass]:
        from xdsl.transforms.canonicalize import CanonicalizePass

        return CanonicalizePass

    def cse() -> type[ModulePass]:
        from xdsl.transforms.common_subexpression_elimination import (
            CommonSubexpressionElimination,
        )

        return CommonSubexpressionElimination

    def dce() -> type[ModulePass]:
        from xdsl.transforms.dead_code_elimination import DeadCodeElimination

        return DeadCodeElimination

    return {"canonicalize": canonicalize, "cse": cse, "dce": dce}


def get_tosa_state_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Our own passes (no clash with xDSL's names: safe for the `xdsl.universe` plugin)."""
    return {name: (lambda name=name: _load(name)) for name in PASSES}


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `tosa-state-opt -p` accepts."""
    return {**_xdsl_passes(), **get_tosa_state_passes()}


__all__ = [
    "PASSES",
    "ConvertOpenVINOToTosaPass",
    "ConvertTFLiteToTosaPass",
    "ConvertTosaVariablesToMemRefPass",
    "ExportStateControlPass",
    "ExternalizeStatePass",
    "HoistRuntimeChecksPass",
    "MLProgramStoresLastPass",
    "MakeStatefulPass",
    "SpecializeInputShapesPass",
    "TosaConstantsToParametersPass",
    "TosaDemoteI64Pass",
    "TosaDynamicEmptyDimsPass",
    "TosaExpandDequantizePass",
    "TosaFoldConvBiasPass",
    "TosaFoldIdentitiesPass",
    "TosaFoldTileIntoMatmulPass",
    "TosaHoistVariablesPass",
    "TosaHostCapacityChecksPass",
    "TosaInferShapesPass",
    "TosaIntegerFramesPass",
    "TosaIntegerIOPass",
    "TosaIntegerRequantizePass",
    "TosaIntegerStatePass",
    "TosaIntegersInFloatPass",
    "TosaLowerShapeOpsPass",
    "TosaMergeSlicedElementwisePass",
    "TosaRank0ConditionsPass",
    "TosaReduceTransposesPass",
    "TosaRuntimeChecksPass",
    "TosaSinkCondIfInputsPass",
    "TosaStaticStatePass",
    "TosaToMLProgramPass",
    "TosaUnrollLoopsPass",
    "TosaValidatePass",
    "get_all_passes",
    "get_tosa_state_passes",
]
