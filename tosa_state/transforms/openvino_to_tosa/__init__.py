"""The patterns of `convert-openvino-to-tosa`, by OpenVINO op family.

- `elementwise`: arithmetic, comparison, logical, Convert, Select, and the one-op functions
  (Sigmoid, Tanh, Exp, ...)
- `data_movement`: constants, shapes, reshapes, slicing, concatenation, Gather, Broadcast
- `matrix`: MatMul, the reductions, Softmax, MVN
- `convolution`: Convolution-1 as `tosa.conv2d`
- `rnn_cells`: LSTMCell-4, GRUCell-3, RNNCell-0, and LSTMSequence-5 / GRUSequence-5 /
  RNNSequence-5 as loops over time
- `tensor_iterator`: TensorIterator-1 as a loop over its iterations
- `loops`: the `tosa.while_loop` builder of both (`TimeLoop`)
- `attention`: ScaledDotProductAttention-13
- `state`: ReadValue / Assign to TOSA variables
- `activation`: ReLU, Clamp, Gelu, HSigmoid, HSwish, Elu, Swish, PRelu, SoftPlus-4, ErfInv-17
- `cumulative`: CumSum-3 as a scan of shifted sums
- `indexing`: Roll-7 as slices and concatenations; GatherND, GatherElements as `tosa.gather`;
  NonZero of a constant
- `einsum`: Einsum-7 as transposes, sums and batched matmuls
- `scatter`: ScatterUpdate, ScatterNDUpdate, ScatterElementsUpdate with `tosa.scatter`
  (reductions through a one-hot table)
- `sorting`: TopK by ranks from a comparison table
- `quantization`: FakeQuantize-1; int8 Convolution / depthwise GroupConvolution / MatMul of
  quantized inputs
- `compression`: packed constants (u4, i4, nf4, u1, f8) and the decompression subgraphs of
  compressed weights as one `tosa_state.dequantize`

`common` holds what they share: the pattern base class and the diagnostics naming the layer,
with the names of the TOSA builder (`transforms/tosa_builder`: the `Emitter` and its helpers).
"""

from xdsl.pattern_rewriter import RewritePattern

from tosa_state.transforms.openvino_to_tosa.activation import ACTIVATION_PATTERNS
from tosa_state.transforms.openvino_to_tosa.attention import ATTENTION_PATTERNS
from tosa_state.transforms.openvino_to_tosa.common import Lowering, OpenVINOPattern
from tosa_state.transforms.openvino_to_tosa.compression import COMPRESSION_PATTERNS
from tosa_state.transforms.openvino_to_tosa.convolution import CONVOLUTION_PATTERNS
from tosa_state.transforms.openvino_to_tosa.cumulative import CUMULATIVE_PATTERNS
from tosa_state.transforms.openvino_to_tosa.data_movement import DATA_MOVEMENT_PATTERNS
from tosa_state.transforms.openvino_to_tosa.einsum import EINSUM_PATTERNS
from tosa_state.transforms.openvino_to_tosa.elementwise import ELEMENTWISE_PATTERNS
from tosa_state.transforms.openvino_to_tosa.indexing import INDEXING_PATTERNS
from tosa_state.transforms.openvino_to_tosa.matrix import MATRIX_PATTERNS
from tosa_state.transforms.openvino_to_tosa.quantization import QUANTIZATION_PATTERNS
from tosa_state.transforms.openvino_to_tosa.rnn_cells import RNN_CELL_PATTERNS
from tosa_state.transforms.openvino_to_tosa.scatter import SCATTER_PATTERNS
from tosa_state.transforms.openvino_to_tosa.sorting import SORTING_PATTERNS
from tosa_state.transforms.openvino_to_tosa.state import STATE_PATTERNS
from tosa_state.transforms.openvino_to_tosa.tensor_iterator import TENSOR_ITERATOR_PATTERNS

ALL_PATTERNS: tuple[type[OpenVINOPattern], ...] = (
    *QUANTIZATION_PATTERNS,  # first: its int8 products are tried before the float ones
    *DATA_MOVEMENT_PATTERNS,
    *ELEMENTWISE_PATTERNS,
    *MATRIX_PATTERNS,
    *CONVOLUTION_PATTERNS,
    *RNN_CELL_PATTERNS,
    *TENSOR_ITERATOR_PATTERNS,
    *ATTENTION_PATTERNS,
    *STATE_PATTERNS,
    *ACTIVATION_PATTERNS,
    *CUMULATIVE_PATTERNS,
    *INDEXING_PATTERNS,
    *SCATTER_PATTERNS,
    *SORTING_PATTERNS,
    *EINSUM_PATTERNS,
    *COMPRESSION_PATTERNS,
)


def conversion_patterns(lowering: Lowering) -> list[RewritePattern]:
    """One instance of every pattern, sharing `lowering`."""
    return [pattern(lowering) for pattern in ALL_PATTERNS]


__all__ = ["ALL_PATTERNS", "Lowering", "conversion_patterns"]
