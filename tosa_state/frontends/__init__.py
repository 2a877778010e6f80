"""Frontends: MLIR text and OpenVINO IR (.xml + .bin) into an xDSL module."""

from __future__ import annotations

import os
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ModuleOp

from tosa_state.frontends.mlir import parse_mlir, read_mlir_file


def read_model_file(ctx: Context, path: str | os.PathLike[str]) -> ModuleOp:
    """Read `path`: OpenVINO IR for `.xml` (its `.bin` beside it), MLIR text otherwise."""
    if Path(path).suffix.lower() == ".xml":
        from tosa_state.frontends.openvino import import_openvino_ir

        return import_openvino_ir(path, ctx)
    return read_mlir_file(ctx, path)


__all__ = ["parse_mlir", "read_mlir_file", "read_model_file"]
