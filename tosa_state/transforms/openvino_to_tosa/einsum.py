"""Einsum-7 as transposes, `tosa.reduce_sum` and batched matrix products.

Labels used by one operand only (and not the output) are summed first; then the operands
are multiplied pairwise from the left: the shared labels still needed later are batch dims,
the shared ones no longer needed are contracted, and the product is one [batch, left,
contracted] x [batch, contracted, right] matmul (the builder's `products.matmul`: a
`tosa.matmul` for floats).
The last result is summed over what the output drops and transposed to its order. Static
shapes; labels repeated within one operand (diagonals) and ellipsis dims that broadcast are
refused.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from xdsl.ir import SSAValue

from tosa_state.dialects import openvino as ov
from tosa_state.dialects.tosa import tensor as tt
from tosa_state.transforms.openvino_to_tosa.common import (
    Emitter,
    OpenVINOPattern,
    Unsupported,
    dims,
    shape,
)
from tosa_state.transforms.tosa_builder.products import matmul

Labelled = tuple[SSAValue, list[str]]


def _sum_out(e: Emitter, value: SSAValue, labels: list[str], drop: set[str]) -> Labelled:
    """`value` summed over the dims of the labels in `drop` (which leave the shape)."""
    for label in [lab for lab in labels if lab in drop]:
        axis = labels.index(label)
        summed = e.value(tt.ReduceSumOp(value, axis))
        labels = labels[:axis] + labels[axis + 1:]
        value = e.reshape(summed, [d for i, d in enumerate(shape(summed)) if i != axis])
    return value, labels


def _arranged(e: Emitter, value: SSAValue, labels: list[str], order: list[str]) -> SSAValue:
    return e.transpose(value, [labels.index(lab) for lab in order])


def _multiply(e: Emitter, a: Labelled, b: Labelled, keep: set[str],
              sizes: dict[str, int]) -> Labelled:
    """The product of two labelled operands, summed over their shared labels not in
    `keep`."""
    (va, la), (vb, lb) = a, b
    batch = [lab for lab in la if lab in lb and lab in keep]
    contracted = [lab for lab in la if lab in lb and lab not in keep]
    left = [lab for lab in la if lab not in lb]
    right = [lab for lab in lb if lab not in la]

    def size(group: list[str]) -> int:
        return math.prod(sizes[lab] for lab in group)

    a3 = e.reshape(_arranged(e, va, la, batch + left + contracted),
                   [size(batch), size(left), size(contracted)])
    b3 = e.reshape(_arranged(e, vb, lb, batch + contracted + right),
                   [size(batch), size(contracted), size(right)])
    product = matmul(e, a3, b3)
    labels = batch + left + right
    return e.reshape(product, [sizes[lab] for lab in labels]), labels


class Einsum(OpenVINOPattern):
    """Einsum-7 (see the module docstring)."""

    OPS = (ov.EinsumOp,)

    def convert(self, op: ov.EinsumOp, e: Emitter) -> Sequence[SSAValue]:
        terms, output_term = ov.parse_equation(op.equation.data, len(op.inputs))
        operands: list[Labelled] = []
        sizes: dict[str, int] = {}
        for term, value in zip(terms, op.inputs, strict=True):
            value_dims = shape(value)
            labels = ov.term_labels(term, len(value_dims))
            if len(set(labels)) != len(labels):
                raise Unsupported(f"the term '{term}' repeats a label (a diagonal)")
            for label, dim in zip(labels, value_dims, strict=True):
                if sizes.setdefault(label, dim) != dim:
                    raise Unsupported(f"label '{label}' has sizes {sizes[label]} and {dim} "
                                      "(broadcasting is not supported)")
            operands.append((value, labels))
        output = ov.term_labels(output_term, len(dims(op.result)))

        def needed(after: int) -> set[str]:
            later = [lab for _, labels in operands[after:] for lab in labels]
            return {*output, *later}

        acc = _sum_out(e, *operands[0], set(operands[0][1]) - needed(1))
        for position in range(1, len(operands)):
            keep = needed(position + 1)
            value, labels = operands[position]
            acc = _sum_out(e, *acc, set(acc[1]) - keep - set(labels))
            other = _sum_out(e, value, labels, set(labels) - keep - set(acc[1]))
            acc = _multiply(e, acc, other, keep, sizes)
        value, labels = _sum_out(e, *acc, set(acc[1]) - set(output))
        return [_arranged(e, value, labels, output)]


EINSUM_PATTERNS = (Einsum,)
