"""The TOSA builder shared by the conversions to TOSA (`convert-openvino-to-tosa`,
`convert-tflite-to-tosa`): `values` (what a converter asks of a value: its dims, element
type, constant contents; `Unsupported` when it cannot be converted), `emitter` (the
`Emitter` that builds, folds, verifies and reuses the TOSA ops replacing one op), `reuse`
(the table of equal pure ops emitted once per block), `products` (numpy matmul and one-axis
reductions) and `rescale` (`tosa.rescale` by real factors, as TFLite scales integers).

What both conversions need lives here (or in a neutral module), never in one of them: the
builder imports no source dialect or conversion, and neither conversion imports the other
(`tests/test_layering.py`). A source dialect's constant op that patterns read before it is
converted (`openvino.constant`) is registered by its conversion (`values.register_constant`).
"""
