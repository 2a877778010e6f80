"""Passes, by command-line name. Each is an xDSL `ModulePass`:
`Pass().apply(tosa_state.make_context(), module)`."""

from collections.abc import Callable

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
from tosa_state.transforms.tosa_demote_i64 import TosaDemoteI64Pass
from tosa_state.transforms.tosa_dynamic_empty_dims import TosaDynamicEmptyDimsPass
from tosa_state.transforms.tosa_expand_dequantize import TosaExpandDequantizePass
from tosa_state.transforms.tosa_fold_conv_bias import TosaFoldConvBiasPass
from tosa_state.transforms.tosa_fold_identities import TosaFoldIdentitiesPass
from tosa_state.transforms.tosa_hoist_variables import TosaHoistVariablesPass
from tosa_state.transforms.tosa_lower_shape_ops import TosaLowerShapeOpsPass
from tosa_state.transforms.tosa_merge_sliced_elementwise import TosaMergeSlicedElementwisePass
from tosa_state.transforms.tosa_rank0_conditions import TosaRank0ConditionsPass
from tosa_state.transforms.tosa_reduce_transposes import TosaReduceTransposesPass
from tosa_state.transforms.tosa_runtime_checks import TosaRuntimeChecksPass
from tosa_state.transforms.tosa_sink_cond_if_inputs import TosaSinkCondIfInputsPass
from tosa_state.transforms.tosa_to_mlprogram import TosaToMLProgramPass
from tosa_state.transforms.tosa_unroll_loops import TosaUnrollLoopsPass
from tosa_state.transforms.tosa_validate import TosaValidatePass


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
    return {
        TosaHoistVariablesPass.name: lambda: TosaHoistVariablesPass,
        SpecializeInputShapesPass.name: lambda: SpecializeInputShapesPass,
        ConvertOpenVINOToTosaPass.name: lambda: ConvertOpenVINOToTosaPass,
        ConvertTFLiteToTosaPass.name: lambda: ConvertTFLiteToTosaPass,
        ConvertTosaVariablesToMemRefPass.name: lambda: ConvertTosaVariablesToMemRefPass,
        TosaToMLProgramPass.name: lambda: TosaToMLProgramPass,
        TosaReduceTransposesPass.name: lambda: TosaReduceTransposesPass,
        TosaFoldConvBiasPass.name: lambda: TosaFoldConvBiasPass,
        TosaFoldIdentitiesPass.name: lambda: TosaFoldIdentitiesPass,
        TosaMergeSlicedElementwisePass.name: lambda: TosaMergeSlicedElementwisePass,
        TosaRank0ConditionsPass.name: lambda: TosaRank0ConditionsPass,
        TosaRuntimeChecksPass.name: lambda: TosaRuntimeChecksPass,
        TosaUnrollLoopsPass.name: lambda: TosaUnrollLoopsPass,
        TosaValidatePass.name: lambda: TosaValidatePass,
        TosaDemoteI64Pass.name: lambda: TosaDemoteI64Pass,
        TosaExpandDequantizePass.name: lambda: TosaExpandDequantizePass,
        TosaLowerShapeOpsPass.name: lambda: TosaLowerShapeOpsPass,
        TosaDynamicEmptyDimsPass.name: lambda: TosaDynamicEmptyDimsPass,
        TosaSinkCondIfInputsPass.name: lambda: TosaSinkCondIfInputsPass,
        MakeStatefulPass.name: lambda: MakeStatefulPass,
        ExternalizeStatePass.name: lambda: ExternalizeStatePass,
        ExportStateControlPass.name: lambda: ExportStateControlPass,
        MLProgramStoresLastPass.name: lambda: MLProgramStoresLastPass,
    }


def get_all_passes() -> dict[str, Callable[[], type[ModulePass]]]:
    """Every pass `tosa-state-opt -p` accepts."""
    return {**_xdsl_passes(), **get_tosa_state_passes()}


__all__ = [
    "ConvertOpenVINOToTosaPass",
    "ConvertTFLiteToTosaPass",
    "ConvertTosaVariablesToMemRefPass",
    "ExportStateControlPass",
    "ExternalizeStatePass",
    "MLProgramStoresLastPass",
    "MakeStatefulPass",
    "SpecializeInputShapesPass",
    "TosaDemoteI64Pass",
    "TosaDynamicEmptyDimsPass",
    "TosaExpandDequantizePass",
    "TosaFoldConvBiasPass",
    "TosaFoldIdentitiesPass",
    "TosaHoistVariablesPass",
    "TosaLowerShapeOpsPass",
    "TosaMergeSlicedElementwisePass",
    "TosaRank0ConditionsPass",
    "TosaReduceTransposesPass",
    "TosaRuntimeChecksPass",
    "TosaSinkCondIfInputsPass",
    "TosaToMLProgramPass",
    "TosaUnrollLoopsPass",
    "TosaValidatePass",
    "get_all_passes",
    "get_tosa_state_passes",
]
