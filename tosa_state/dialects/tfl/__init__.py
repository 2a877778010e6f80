"""The `tfl` dialect: the TensorFlow Lite builtin operators that Keras recurrent and streaming
models export, named as in TensorFlow's own `tfl` dialect.

A `.tflite` model becomes one module: its first subgraph is the public `func.func @main`
(or the subgraph's name), the others are private functions (WHILE cond/body, CALL_ONCE init)
referenced by name. Resource variables are `!tfl.resource` handles from `tfl.var_handle`.
https://www.tensorflow.org/mlir/tfl_ops
"""

from xdsl.ir import Dialect

from tosa_state.dialects.tfl.common import ResourceType
from tosa_state.dialects.tfl.control_flow import CONTROL_FLOW_OPS
from tosa_state.dialects.tfl.convolution import CONVOLUTION_OPS
from tosa_state.dialects.tfl.data_movement import DATA_MOVEMENT_OPS
from tosa_state.dialects.tfl.elementwise import ELEMENTWISE_OPS
from tosa_state.dialects.tfl.matrix import MATRIX_OPS
from tosa_state.dialects.tfl.quantized import QUANTIZED_OPS
from tosa_state.dialects.tfl.rnn import RNN_OPS
from tosa_state.dialects.tfl.state import STATE_OPS

TFL = Dialect(
    "tfl",
    [
        *ELEMENTWISE_OPS,
        *DATA_MOVEMENT_OPS,
        *MATRIX_OPS,
        *QUANTIZED_OPS,
        *CONVOLUTION_OPS,
        *RNN_OPS,
        *CONTROL_FLOW_OPS,
        *STATE_OPS,
    ],
    [ResourceType],
)

__all__ = ["TFL", "ResourceType"]
