"""OpenVINO IR (`model.xml` + `model.bin`, IR v10 / v11) to the `openvino` dialect.

`import_openvino_ir(xml_path, ctx)` (in `importer`) drives the import. The other modules:

- `xml_reader`: hardened XML reading with positions; `graph`: layers, ports, edges, their
  checks and the topological order; `element_types`: OpenVINO element types; `weights`: the
  `.bin` file;
- by OpenVINO op family, named like the modules of `tosa_state/dialects/openvino/` and
  `tosa_state/transforms/openvino_to_tosa/`: `elementwise`, `data_movement`, `matrix`,
  `convolution`, `rnn_cells`, `tensor_iterator`, `state`, `activation`, `cumulative`,
  `indexing`, `scatter`, `sorting`, `einsum`; each ends with the table of the layer
  types it imports (`ELEMENTWISE_LAYERS`, ...); `common` holds what they share (`OpBuilder`,
  `OpSpec`).
"""

from tosa_state.frontends.openvino.common import OpSpec
from tosa_state.frontends.openvino.element_types import (
    ELEMENT_TYPES,
    ElementType,
    openvino_element_name,
)
from tosa_state.frontends.openvino.importer import SUPPORTED_OPS, import_openvino_ir

__all__ = [
    "ELEMENT_TYPES",
    "SUPPORTED_OPS",
    "ElementType",
    "OpSpec",
    "import_openvino_ir",
    "openvino_element_name",
]
