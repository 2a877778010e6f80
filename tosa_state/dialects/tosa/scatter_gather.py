"""TOSA 1.0 scatter/gather operators: `tosa.gather` (rows of `[N, K, C]` values at `[N, W]`
indices) and `tosa.scatter` (the inverse, into a copy of the values).

https://www.mlplatform.org/tosa/tosa_spec.html#_scatter_gather_operators
"""

from __future__ import annotations

from xdsl.dialects.builtin import (
    TensorType,
)
from xdsl.ir import (
    Attribute,
    Operation,
    SSAValue,
)
from xdsl.irdl import (
    irdl_op_definition,
    operand_def,
    result_def,
    traits_def,
)
from xdsl.traits import Pure
from xdsl.utils.exceptions import VerifyException

from tosa_state.dialects.tosa.common import (
    DATA_TYPES,
    INDEX_TYPES,
    TosaOperation,
    _check_element_type,
    _check_same_element_type,
    _dims,
    _is_static,
    _same_dim,
    _same_shape,
    _shape,
)

# ---------------------------------------------------------------------------------------
# Scatter / gather
# ---------------------------------------------------------------------------------------


@irdl_op_definition
class GatherOp(TosaOperation):
    """`output[n, w, c] = values[n, indices[n, w], c]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosagather-mlirtosagatherop
    """

    name = "tosa.gather"

    values = operand_def(TensorType)
    indices = operand_def(TensorType)
    output = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(self, values: SSAValue | Operation, indices: SSAValue | Operation, result_type):
        super().__init__(operands=[values, indices], result_types=[result_type])

    def verify_(self) -> None:
        _check_element_type("values", self.values, DATA_TYPES)
        _check_element_type("indices", self.indices, INDEX_TYPES)
        _check_same_element_type(self.values, self.output, "values", "output")
        values, indices, out = _shape(self.values), _shape(self.indices), _shape(self.output)
        for what, shape, rank in (("values", values, 3), ("indices", indices, 2)):
            if len(shape) != rank:
                raise VerifyException(f"expect '{what}' to have rank {rank}, got rank {len(shape)}")
        if len(out) != 3:
            raise VerifyException(f"expect 'output' to have rank 3, got rank {len(out)}")
        n, _, c = values
        if not _same_dim(indices[0], n):
            raise VerifyException(
                f"requires indices dimension 0 to have size {_dims([n])}, got {_dims([indices[0]])}"
            )
        for dim, expected in enumerate((n, indices[1], c)):
            if not _same_dim(out[dim], expected):
                raise VerifyException(
                    f"requires output dimension {dim} to have size {_dims([expected])}, got "
                    f"{_dims([out[dim]])}"
                )


@irdl_op_definition
class ScatterOp(TosaOperation):
    """`values_out = values_in` with `values_out[n, indices[n, w], c] = input[n, w, c]`.

    https://mlir.llvm.org/docs/Dialects/TOSA/#tosascatter-mlirtosascatterop
    """

    name = "tosa.scatter"

    values_in = operand_def(TensorType)
    indices = operand_def(TensorType)
    input = operand_def(TensorType)
    values_out = result_def(TensorType)

    traits = traits_def(Pure())

    def __init__(
        self,
        values_in: SSAValue | Operation,
        indices: SSAValue | Operation,
        input: SSAValue | Operation,
        result_type: Attribute | None = None,
    ):
        values_in = SSAValue.get(values_in)
        super().__init__(
            operands=[values_in, indices, input],
            result_types=[result_type or values_in.type],
        )

    def verify_(self) -> None:
        _check_element_type("values_in", self.values_in, DATA_TYPES)
        _check_element_type("indices", self.indices, INDEX_TYPES)
        _check_same_element_type(self.values_in, self.input, "values_in", "input")
        _check_same_element_type(self.values_in, self.values_out, "values_in", "values_out")
        shapes = {
            "values_in": _shape(self.values_in),
            "indices": _shape(self.indices),
            "input": _shape(self.input),
            "values_out": _shape(self.values_out),
        }
        for what, rank in (("values_in", 3), ("indices", 2), ("input", 3), ("values_out", 3)):
            if len(shapes[what]) != rank:
                raise VerifyException(
                    f"expect '{what}' to have rank {rank}, got rank {len(shapes[what])}"
                )
        n, k, c = shapes["values_in"]
        _, w = shapes["indices"]
        expected = {"indices": (n, w), "input": (n, w, c), "values_out": (n, k, c)}
        for what, dims in expected.items():
            if not _same_shape(shapes[what], dims):
                raise VerifyException(
                    f"requires '{what}' to have shape [{_dims(dims)}], got "
                    f"[{_dims(shapes[what])}]"
                )
        if _is_static((k, w)) and k < w:
            raise VerifyException(f"requires dimensions K >= W, got K={k} and W={w}")
