"""Frontends: MLIR text, OpenVINO IR (.xml + .bin) and TFLite (.tflite) into an xDSL module."""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tosa_state.diagnostics import ModelImportError
from tosa_state.frontends.mlir import parse_mlir, read_mlir_file

ACCEPTED = ("tosa-state reads MLIR text (.mlir), OpenVINO IR (.xml, its .bin beside it), "
            "TFLite (.tflite) and TOSA flatbuffers (.tosa)")
"""What model files the frontends read, for error messages."""

_OVC = "convert it to OpenVINO IR first: `ovc {path}` writes {stem}.xml and {stem}.bin"
_TORCH = ("convert it to OpenVINO IR first: `openvino.save_model(openvino.convert_model(model, "
          "example_input=...), '{stem}.xml')`")
_KERAS = ("convert it to OpenVINO IR first: `openvino.save_model(openvino.convert_model("
          "keras_model), '{stem}.xml')`")
_FOREIGN = {
    ".onnx": ("this is an ONNX model, which is not read directly", _OVC),
    ".pb": ("this is a TensorFlow model, which is not read directly", _OVC),
    ".pdmodel": ("this is a PaddlePaddle model, which is not read directly", _OVC),
    ".pt": ("this is a PyTorch file, which is not read directly", _TORCH),
    ".pth": ("this is a PyTorch file, which is not read directly", _TORCH),
    ".h5": ("this is a Keras model, which is not read directly", _KERAS),
    ".keras": ("this is a Keras model, which is not read directly", _KERAS),
    ".bin": ("this file holds the weights of an OpenVINO IR model",
             "pass its .xml instead: {stem}.xml"),
}
"""Model formats that are not read directly, with how to bring them to one that is."""


def read_model_file(ctx: Context, path: str | os.PathLike[str]) -> ModuleOp:
    """Read `path`: OpenVINO IR for `.xml` (its `.bin` beside it), a TFLite flatbuffer for
    `.tflite`, a TOSA flatbuffer for `.tosa`, MLIR text otherwise.

    A file in another format (`.onnx`, a binary file, ...) is a `ModelImportError` of one
    line saying what is read and how to convert it."""
    suffix = Path(path).suffix.lower()
    if suffix == ".tflite":
        from tosa_state.frontends.tflite import import_tflite

        return import_tflite(path, ctx)
    if suffix == ".xml":
        from tosa_state.frontends.openvino import import_openvino_ir

        return import_openvino_ir(path, ctx)
    if suffix == ".tosa":
        from tosa_state.frontends.tosa_flatbuffer import import_tosa

        return import_tosa(path, ctx)
    check_model_format(path)
    return read_mlir_file(ctx, path)


def verified_on_reading(path: str | os.PathLike[str]) -> bool:
    """Whether `read_model_file(path)` returns a verified module: OpenVINO IR is verified
    layer by layer as it is imported (errors name the layer), so verifying it again finds
    nothing; MLIR text is only parsed."""
    return Path(path).suffix.lower() == ".xml"


def check_model_format(path: str | os.PathLike[str]) -> None:
    """Refuse, in one line, a file that is neither MLIR text nor OpenVINO IR (nor TFLite)."""
    file = Path(path)
    if (foreign := _FOREIGN.get(file.suffix.lower())) is not None:
        what, how = foreign
        how = how.format(path=file, stem=file.with_suffix(""))
        raise ModelImportError(f"{path}: error: {what}; {ACCEPTED}; {how}")
    try:
        with file.open("rb") as stream:
            head = stream.read(4096)
    except OSError:
        return  # the reader reports it, with the reason
    try:
        head.decode("utf-8")
        binary = b"\0" in head
    except UnicodeDecodeError as error:
        binary = error.start < len(head) - 4  # not a character cut by the 4096-byte window
    if binary:
        raise ModelImportError(f"{path}: error: not a text file, so not MLIR; {ACCEPTED}; "
                               "other formats convert to OpenVINO IR with `ovc`")


__all__ = ["ACCEPTED", "check_model_format", "parse_mlir", "read_mlir_file", "read_model_file",
           "verified_on_reading"]
