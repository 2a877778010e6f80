"""Attention OpenVINO ops: ScaledDotProductAttention-13.

As OpenVINO's own decomposition (`ScaledDotProductAttentionDecomposition`):
`softmax((Q * scale) K^T + mask) V`, the two products `tosa.matmul`s (through the shared
`matmul`), the softmax the one of Softmax-8.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
from xdsl.dialects.builtin import i1
from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.transforms.openvino_to_tosa import sizes as sz
from tosa_state.transforms.openvino_to_tosa.common import (
    DYN,
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    element,
    is_float,
)
from tosa_state.transforms.openvino_to_tosa.matrix import softmax
from tosa_state.transforms.tosa_builder.products import matmul


def _additive_mask(e: Emitter, op: ov.ScaledDotProductAttentionOp, rows: int,
                   cols: int) -> SSAValue | None:
    """What is added to the scores: the causal mask (`-inf` above the diagonal, rows aligned
    at the top left), a float mask, or `0` / `-inf` for a boolean mask's true / false."""
    element_type = element(op.query)
    if op.causal.value.data:
        if DYN in (rows, cols):
            raise Unsupported("causal attention needs static query and key lengths")
        above = np.triu(np.ones((rows, cols), bool), 1)
        return e.const(np.where(above, -np.inf, 0.0), element_type)
    mask = op.attention_mask
    if mask is None:
        return None
    if element(mask) == i1:
        rank = len(dims(mask))
        return e.select(mask, e.scalar(0.0, element_type, rank),
                        e.scalar(-np.inf, element_type, rank))
    return mask


class ScaledDotProductAttention(OpenVINOPattern):
    """ScaledDotProductAttention-13: causal, boolean or float masks, a scale input, a sink
    (one more score per row in the softmax, dropped after it), K / V with one head for all
    of Q's (numpy broadcasting of the batch dims)."""

    OPS = (ov.ScaledDotProductAttentionOp,)

    def convert(self, op: ov.ScaledDotProductAttentionOp, e: Emitter) -> Sequence[SSAValue]:
        element_type = element(op.query)
        if not is_float(element_type):
            raise Unsupported(f"{op.name} of {element_type} values (floats only)")
        q_dims = dims(op.query)
        rank, key, value = len(q_dims), op.key, op.value
        if op.scale is None:
            scale = e.scalar(1 / math.sqrt(q_dims[-1]), element_type, rank)
        else:
            scale = e.reshape(op.scale, (1,) * rank)
        scores = matmul(e, e.mul(op.query, scale), key, transpose_b=True)
        mask = _additive_mask(e, op, q_dims[-2], dims(key)[-2])
        if mask is not None:
            scores = e.add(scores, mask)
        last = len(dims(scores)) - 1
        if op.sink is None:
            return [matmul(e, softmax(e, scores, last), value)]
        # The sink joins each row's softmax as one more score, then is dropped.
        sizes = e.sizes(scores)
        sink = e.broadcast_to(op.sink, [*sizes[:-1], 1])
        probabilities = softmax(e, e.concat([scores, sink], last), last)
        probabilities = sz.window(e, probabilities, [0] * len(sizes), sizes)
        return [matmul(e, probabilities, value)]


ATTENTION_PATTERNS = (ScaledDotProductAttention,)
