"""A streaming convolution quantized by NNCF (`nncf.quantize` at run time): the model of the
NNCF rows of `benchmarks/npu.py`, and of `tests/test_openvino_quantization.py`.

A Conv1d over the last `KERNEL - 1` frames (an OpenVINO `ReadValue` / `Assign` state
`frames`) and the `FRAMES` new ones, + bias, ReLU, then a Linear over the channels; NNCF
puts a FakeQuantize on the concat of the cache and the new frames (activations u8 / i8 per
tensor, weights i8 per channel) and another after the ReLU.

Building it needs `pip install -e '.[test]'` (OpenVINO, torch, NNCF).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np

CHANNELS, HIDDEN, UNITS, KERNEL, FRAMES = 4, 8, 6, 3, 5


def streaming_model(rng: np.random.Generator):  # -> ov.Model
    """The float model, its weights drawn from `rng`."""
    import openvino as ov
    import openvino.opset13 as ops
    from openvino.op.util import Variable, VariableInfo

    x = ops.parameter([1, CHANNELS, FRAMES], np.float32, name="x")
    info = VariableInfo()
    info.data_shape = ov.PartialShape([1, CHANNELS, KERNEL - 1])
    info.data_type = ov.Type.f32
    info.variable_id = "frames"
    variable = Variable(info)
    past = ops.read_value(ops.constant(np.zeros((1, CHANNELS, KERNEL - 1), np.float32)),
                          variable)
    window = ops.concat([past, x], 2)
    weights = rng.normal(0, 0.5, (HIDDEN, CHANNELS, KERNEL)).astype(np.float32)
    conv = ops.convolution(window, ops.constant(weights), [1], [0], [0], [1])
    bias = ops.constant(rng.normal(0, 0.1, (1, HIDDEN, 1)).astype(np.float32))
    act = ops.relu(ops.add(conv, bias))
    rows = ops.transpose(act, ops.constant(np.array([0, 2, 1], np.int64)))
    y = ops.matmul(rows, ops.constant(rng.normal(0, 0.5, (HIDDEN, UNITS)).astype(np.float32)),
                   False, False, name="y")
    kept = ops.slice(window, ops.constant(np.array([FRAMES])),
                     ops.constant(np.array([FRAMES + KERNEL - 1])), ops.constant(np.array([1])),
                     ops.constant(np.array([2])))
    return ov.Model([ops.result(y)], [ops.assign(kept, variable)], [x], "stream")


def quantized_stream(rng: np.random.Generator, xml: Path):  # -> ov.Model
    """The model quantized by `nncf.quantize` on 16 random calibration steps from `rng`,
    saved at `xml` (f32 constants kept)."""
    import nncf
    import openvino as ov

    model = streaming_model(rng)
    data = [{"x": rng.normal(0, 1, (1, CHANNELS, FRAMES)).astype(np.float32)}
            for _ in range(16)]
    quantized = nncf.quantize(model, nncf.Dataset(data), subset_size=16)
    ov.save_model(quantized, xml, compress_to_fp16=False)
    return quantized
