"""`.tflite` models written at test time with LiteRT's flatbuffer schema (its object API), for
models TensorFlow is not needed to make: a FULLY_CONNECTED of a given weight, its large
buffers inside the flatbuffer or after it (`offset` / `size`, as the converter stores the
buffers of models over 2 GB)."""

from __future__ import annotations

from pathlib import Path

import flatbuffers
import numpy as np
from ai_edge_litert import schema_py_generated as schema

EXTERNAL_ALIGNMENT = 64
"""Where buffers stored after the flatbuffer start (`misaligned`: one byte past it)."""


def _tensor(name: str, shape: tuple[int, ...], buffer: int) -> schema.TensorT:
    tensor = schema.TensorT()
    tensor.name, tensor.shape, tensor.buffer = name, list(shape), buffer
    tensor.type = schema.TensorType.FLOAT32
    return tensor


def _pack(model: schema.ModelT) -> bytes:
    builder = flatbuffers.Builder(1024)
    builder.Finish(model.Pack(builder), file_identifier=b"TFL3")
    return bytes(builder.Output())


def fully_connected(path: Path, weight: np.ndarray, bias: np.ndarray, external: bool = False,
                    misaligned: bool = False) -> Path:
    """`y = x @ weight^T + bias` (FULLY_CONNECTED, f32; `x` [1, K], `weight` [N, K]) written
    to `path`. `external`: the weight's and bias's bytes after the flatbuffer, each at a
    multiple of `EXTERNAL_ALIGNMENT` (plus one byte if `misaligned`)."""
    units, depth = weight.shape
    model = schema.ModelT()
    model.version, model.description = 3, "fully_connected"
    code = schema.OperatorCodeT()
    code.builtinCode = code.deprecatedBuiltinCode = schema.BuiltinOperator.FULLY_CONNECTED
    code.version = 1
    model.operatorCodes = [code]
    blobs = [np.ascontiguousarray(weight, "<f4").tobytes(),
             np.ascontiguousarray(bias, "<f4").tobytes()]
    buffers = [schema.BufferT() for _ in range(4)]  # 0: empty, as every converter's
    for buffer, blob in zip(buffers[1:3], blobs, strict=True):
        if external:
            buffer.offset, buffer.size = 2, len(blob)  # placeholders: the same layout
        else:
            buffer.data = np.frombuffer(blob, np.uint8)
    model.buffers = buffers
    graph = schema.SubGraphT()
    graph.name = "main"
    graph.tensors = [_tensor("x", (1, depth), 0), _tensor("weight", (units, depth), 1),
                     _tensor("bias", (units,), 2), _tensor("y", (1, units), 3)]
    graph.inputs, graph.outputs = [0], [3]
    op = schema.OperatorT()
    op.opcodeIndex, op.inputs, op.outputs = 0, [0, 1, 2], [3]
    op.builtinOptionsType = schema.BuiltinOptions.FullyConnectedOptions
    op.builtinOptions = schema.FullyConnectedOptionsT()
    graph.operators = [op]
    model.subgraphs = [graph]
    data = _pack(model)
    if not external:
        path.write_bytes(data)
        return path
    position, layout = len(data), []
    for buffer, blob in zip(buffers[1:3], blobs, strict=True):
        position = -(-position // EXTERNAL_ALIGNMENT) * EXTERNAL_ALIGNMENT + misaligned
        buffer.offset = position
        layout.append(position)
        position += len(blob)
    packed = _pack(model)
    assert len(packed) == len(data)
    with path.open("wb") as file:
        file.write(packed)
        for start, blob in zip(layout, blobs, strict=True):
            file.write(b"\0" * (start - file.tell()))
            file.write(blob)
    return path
