"""The patterns of `convert-tflite-to-tosa`, by `tfl` op family (the same module names as in
`dialects/tfl` and `frontends/tflite`).

- `elementwise`: ADD, SUB, MUL, LESS, LOGICAL_AND, RELU, LOGISTIC, TANH
- `data_movement`: constants, RESHAPE, CONCATENATION, GATHER, SLICE, STRIDED_SLICE, SPLIT,
  UNPACK, TRANSPOSE (also on int8 tensors of one scale and zero point)
- `matrix`: FULLY_CONNECTED (float, hybrid and int8)
- `quantized`: QUANTIZE, DEQUANTIZE, and the integer arithmetic the int8 forms of
  ADD / SUB / MUL / RELU / LOGISTIC / TANH / FULLY_CONNECTED share
- `convolution`: CONV_2D
- `rnn`: UNIDIRECTIONAL_SEQUENCE_LSTM, unrolled
- `control_flow`: WHILE (unrolled), CALL_ONCE (initial values)
- `state`: READ_VARIABLE / ASSIGN_VARIABLE to TOSA variables

`common` holds the pattern base class and the subgraph translation they share.
"""

from xdsl.pattern_rewriter import RewritePattern

from tosa_state.transforms.tflite_to_tosa.common import TflLowering, TflPattern
from tosa_state.transforms.tflite_to_tosa.control_flow import CONTROL_FLOW_PATTERNS
from tosa_state.transforms.tflite_to_tosa.convolution import CONVOLUTION_PATTERNS
from tosa_state.transforms.tflite_to_tosa.data_movement import DATA_MOVEMENT_PATTERNS
from tosa_state.transforms.tflite_to_tosa.elementwise import ELEMENTWISE_PATTERNS
from tosa_state.transforms.tflite_to_tosa.matrix import MATRIX_PATTERNS
from tosa_state.transforms.tflite_to_tosa.quantized import QUANTIZED_PATTERNS
from tosa_state.transforms.tflite_to_tosa.rnn import RNN_PATTERNS
from tosa_state.transforms.tflite_to_tosa.state import STATE_PATTERNS

ALL_PATTERNS: tuple[type[TflPattern], ...] = (
    *DATA_MOVEMENT_PATTERNS,
    *ELEMENTWISE_PATTERNS,
    *MATRIX_PATTERNS,
    *QUANTIZED_PATTERNS,
    *CONVOLUTION_PATTERNS,
    *RNN_PATTERNS,
    *CONTROL_FLOW_PATTERNS,
    *STATE_PATTERNS,
)


def conversion_patterns(lowering: TflLowering) -> list[RewritePattern]:
    """One instance of every pattern, sharing `lowering` (which also indexes them by op)."""
    return [pattern(lowering) for pattern in ALL_PATTERNS]


__all__ = ["ALL_PATTERNS", "TflLowering", "conversion_patterns"]
