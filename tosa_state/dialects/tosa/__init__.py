"""The `tosa` dialect: TOSA 1.0 compute operators and the stateful variable operators.

One merged dialect (xDSL cannot register two dialects named `tosa`), one module per chapter of
the TOSA specification, as upstream's `TosaOps.td` groups them:

- `activation` (clamp, sigmoid, tanh, erf), `elementwise` (unary, binary, ternary, comparison),
  `type_conversion` (cast, rescale, table); their shared checks in `elementwise_base`;
- `tensor` (matmul, convolutions, pooling, argmax), `reduction`, `data_layout`,
  `scatter_gather`; the data nodes (const, identity, const_shape), the `!tosa.shape` type and
  the shared checks in `common`;
- `control_flow` (`tosa.cond_if`, `tosa.while_loop`), `shape` (the dynamic-shape extension's
  shape operators), `variables` (EXT-VARIABLE).

`elementwise` and `tensor` also re-export their chapters' ops, so that callers import one of
the two (`tew.ClampOp`, `tt.ReshapeOp`).

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
