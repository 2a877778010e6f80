"""Einsum `openvino` op and its equation parser."""

from __future__ import annotations

import re
from collections.abc import Sequence

from xdsl.dialects.builtin import StringAttr
from xdsl.ir import Attribute, SSAValue
from xdsl.irdl import (
    IRDLOperation,
    ParsePropInAttrDict,
    irdl_op_definition,
    prop_def,
    result_def,
    traits_def,
    var_operand_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.openvino.common import (
    OPERANDS_FORMAT,
    TensorLike,
    check_same_element_type,
    tensor_shape,
)

ELLIPSIS = "..."
_TERM = re.compile(r"^(?:[a-zA-Z]|\.\.\.)*$")


def parse_equation(equation: str, operands: int | None = None) -> tuple[list[str], str]:
    """The input terms and the output term of an Einsum equation (spaces removed); an
    implicit output is the labels used once, in alphabetical order (after the ellipsis when
    there is one). ValueError for a malformed equation."""
    text = equation.replace(" ", "")
    inputs_text, arrow, output = text.partition("->")
    inputs = inputs_text.split(",")
    for term in [*inputs, output]:
        if not _TERM.match(term) or term.count(ELLIPSIS) > 1:
            raise ValueError(f"'{equation}' is not an Einsum equation (term '{term}')")
    if operands is not None and len(inputs) != operands:
        raise ValueError(f"equation '{equation}' has {len(inputs)} inputs, the op {operands}")
    if not arrow:
        letters = "".join(t.replace(ELLIPSIS, "") for t in inputs)
        once = sorted(c for c in set(letters) if letters.count(c) == 1)
        output = (ELLIPSIS if any(ELLIPSIS in t for t in inputs) else "") + "".join(once)
    used = set("".join(inputs).replace(ELLIPSIS, ""))
    if missing := sorted(set(output.replace(ELLIPSIS, "")) - used):
        raise ValueError(f"output labels {''.join(missing)} of '{equation}' are in no input")
    return inputs, output


def term_labels(term: str, rank: int) -> list[str]:
    """The labels of the dims of an operand of `rank`: the ellipsis stands for the leading
    dims it covers, named `0`, `1`, ... counted from the last one it covers (so that
    ellipses of different lengths line up on the right)."""
    if ELLIPSIS not in term:
        if len(term) != rank:
            raise ValueError(f"term '{term}' has {len(term)} labels for rank {rank}")
        return list(term)
    before, _, after = term.partition(ELLIPSIS)
    covered = rank - len(before) - len(after)
    if covered < 0:
        raise ValueError(f"term '{term}' has more labels than rank {rank}")
    return [*before, *(str(covered - 1 - i) for i in range(covered)), *after]


@irdl_op_definition
class EinsumOp(IRDLOperation):
    """Einsum-7: sums of products over the labels of `equation` (numpy's `einsum`).

    https://docs.openvino.ai/2025/documentation/openvino-ir-format/operation-sets/operation-specs/matrix/einsum-7.html
    """

    name = "openvino.einsum"

    inputs = var_operand_def(TensorLike)
    result = result_def(TensorLike)
    equation = prop_def(StringAttr)

    traits = traits_def(Pure())
    irdl_options = (ParsePropInAttrDict(),)
    assembly_format = OPERANDS_FORMAT

    def __init__(self, inputs: Sequence[SSAValue], result_type: Attribute, equation: str):
        super().__init__(operands=[list(inputs)], result_types=[result_type],
                         properties={"equation": StringAttr(equation)})

    def verify_(self) -> None:
        if not self.inputs:
            raise VerifyException(f"{self.name}: takes at least one input")
        check_same_element_type(self, (*self.inputs, self.result), "inputs and result")
        try:
            terms, _ = parse_equation(self.equation.data, len(self.inputs))
            for term, value in zip(terms, self.inputs, strict=True):
                if (found := tensor_shape(value.type)) is not None:
                    term_labels(term, len(found))
        except ValueError as error:
            raise VerifyException(f"{self.name}: {error}") from None


EINSUM_OPS = (EinsumOp,)
