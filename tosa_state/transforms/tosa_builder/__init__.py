"""The TOSA builder shared by the conversions to TOSA (`convert-openvino-to-tosa`,
`convert-tflite-to-tosa`): `values` (what a converter asks of a value: its dims, element
type, constant contents; `Unsupported` when it cannot be converted), `emitter` (the
`Emitter` that builds, folds, verifies and reuses the TOSA ops replacing one op) and
`reuse` (the table of equal pure ops emitted once per block) and `scales` (a real factor as
`tosa.rescale`'s multiplier and shift).
"""
