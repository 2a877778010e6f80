"""`tosa-fold-conv-bias`: a constant added per output channel right after a convolution
becomes part of the convolution's bias.

OpenVINO's and ONNX's converters give a convolution a zero bias and add the layer's bias
with a separate `Add` (`tosa.add` of a `[1, 1, 1, OC]` constant once the layout transposes
are gone, see `tosa-reduce-transposes`); TOSA's `conv2d` / `depthwise_conv2d` take the bias
as an operand, so the add is folded into it (`bias + c`, computed once). Floating-point
convolutions only (an integer convolution's bias is in its accumulator's scale), constants
only, and only when the add is the convolution's one use.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp, TensorType
from xdsl.ir import SSAValue
from xdsl.passes import ModulePass
from xdsl.pattern_rewriter import (
    GreedyRewritePatternApplier,
    PatternRewriter,
    RewritePattern,
    op_type_rewrite_pattern,
)
from xdsl.rewriter import InsertPoint

from tosa_state.dialects.tosa import elementwise as tew
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.dtypes import dense_to_numpy, numpy_to_dense
from tosa_state.transforms.targeted_walker import TargetedRewriteWalker, dead_or, of_types


def _channel_constant(value: SSAValue, channels: int) -> np.ndarray | None:
    """The `[channels]` values a constant adds per output channel (it varies, if at all,
    along the last dim only)."""
    owner = value.owner
    if not isinstance(owner, tt.ConstOp):
        return None
    array = dense_to_numpy(owner.values)
    if array.ndim != 4 or array.shape[:3] != (1, 1, 1) or array.shape[3] not in (1, channels):
        return None
    return np.broadcast_to(array.reshape(-1), (channels,))


def _convolution_operand(op: tew.AddOp) -> tuple[tt.ConvOperation, SSAValue] | None:
    """The convolution `op` adds to (used by `op` only, same type) and the other operand."""
    for conv_value, other in ((op.input1, op.input2), (op.input2, op.input1)):
        conv = conv_value.owner
        if isinstance(conv, tt.Conv2DOp | tt.DepthwiseConv2DOp) and \
                conv_value.has_one_use() and conv.output.type == op.output.type:
            return conv, other
    return None


class FoldAddIntoConvBias(RewritePattern):
    @op_type_rewrite_pattern
    def match_and_rewrite(self, op: tew.AddOp, rewriter: PatternRewriter) -> None:
        found = _convolution_operand(op)
        if found is None:
            return
        conv, other = found
        output_type = conv.output.type
        assert isinstance(output_type, TensorType)
        channels = output_type.get_shape()[-1]
        added = _channel_constant(other, channels)
        bias_owner = conv.bias.owner
        if added is None or not isinstance(bias_owner, tt.ConstOp):
            return
        bias = dense_to_numpy(bias_owner.values)
        floating = bias.dtype.kind == "f" or bias.dtype.name == "bfloat16"
        if not floating or bias.ndim != 1 or bias.shape[0] not in (1, channels):
            return
        folded = (np.broadcast_to(bias, (channels,)) + added).astype(bias.dtype)
        new_bias = rewriter.insert(tt.ConstOp(numpy_to_dense(folded)), InsertPoint.before(op))
        operands = list(conv.operands)
        operands[2] = new_bias.output
        rewriter.replace(
            op,
            type(conv).create(operands=operands, result_types=[output_type],
                              properties=dict(conv.properties), attributes=dict(conv.attributes)),
        )
        rewriter.erase(conv)


@dataclass(frozen=True)
class TosaFoldConvBiasPass(ModulePass):
    """Folds constant per-channel adds after convolutions into their bias."""

    name = "tosa-fold-conv-bias"

    def apply(self, ctx: Context, op: ModuleOp) -> None:
        TargetedRewriteWalker(GreedyRewritePatternApplier([FoldAddIntoConvBias()]),
                              candidate=dead_or(of_types(tew.AddOp))).rewrite_module(op)


__all__ = ["FoldAddIntoConvBias", "TosaFoldConvBiasPass"]
