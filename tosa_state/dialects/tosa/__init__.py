"""The `tosa` dialect: TOSA 1.0 compute operators and the stateful variable operators.

One merged dialect (xDSL cannot register two dialects named `tosa`), in five modules that
follow the TOSA specification's chapters: elementwise operators (activation, elementwise
unary/binary/ternary, comparison, type conversion), tensor operators (tensor, reduction,
data layout, scatter/gather, data nodes), control flow (`tosa.cond_if`, `tosa.while_loop`),
the shape operators of the dynamic-shape extension, and the EXT-VARIABLE operators.
https://www.mlplatform.org/tosa/tosa_spec.html
"""

from xdsl.ir import Dialect

from tosa_state.dialects.tosa.control_flow import CONTROL_FLOW_OPS
from tosa_state.dialects.tosa.elementwise import ELEMENTWISE_ATTRS, ELEMENTWISE_OPS
from tosa_state.dialects.tosa.shape import SHAPE_OPS
from tosa_state.dialects.tosa.tensor import TENSOR_ATTRS, TENSOR_OPS
from tosa_state.dialects.tosa.variables import (
    UPSTREAM_SPELLINGS,
    VariableOp,
    VariableReadOp,
    VariableWriteOp,
)

TOSA = Dialect(
    "tosa",
    [
        *ELEMENTWISE_OPS,
        *TENSOR_OPS,
        *SHAPE_OPS,
        *CONTROL_FLOW_OPS,
        VariableOp,
        VariableReadOp,
        VariableWriteOp,
    ],
    [*ELEMENTWISE_ATTRS, *TENSOR_ATTRS],
)

__all__ = ["TOSA", "UPSTREAM_SPELLINGS", "VariableOp", "VariableReadOp", "VariableWriteOp"]
