"""A TOSA flatbuffer (`.tosa`) read back: `tosa-opt --tosa-deserialize` gives its graph as
MLIR, which is parsed as any model. The flatbuffer names inputs and outputs `TosaInput_<i>`
/ `TosaOutput_<i>`; when the manifest `tosa-state compile` wrote beside it
(`model.tosa.json`) is there, the ports get the model's own names back."""

from __future__ import annotations

import json
import os
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import ArrayAttr, DictionaryAttr, ModuleOp, StringAttr
from xdsl.dialects.func import FuncOp

from tosa_state.diagnostics import ModelImportError, TosaStateError
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.signature import NAME_ATTRS
from tosa_state.tosa_tools import MANIFEST_SUFFIX, tosa_opt


def import_tosa(path: str | os.PathLike[str], ctx: Context) -> ModuleOp:
    path = Path(path)
    if not path.is_file():
        raise ModelImportError(f"error: cannot read '{path}': no such file")
    try:
        text = tosa_opt(["--tosa-deserialize", f"--tosa-deserialize-filename={path}",
                         "--mlir-print-op-generic"], "module {}\n", f"read '{path}'")
    except TosaStateError as error:
        raise ModelImportError(f"{path}: {error}") from None
    module = parse_mlir(ctx, text, str(path))
    manifest = Path(f"{path}{MANIFEST_SUFFIX}")
    if manifest.is_file():
        _rename_ports(module, manifest)
    return module


def _rename_ports(module: ModuleOp, manifest: Path) -> None:
    try:
        doc = json.loads(manifest.read_text())
        names = {port["tensor"]: port["name"] for port in doc["inputs"] + doc["outputs"]}
    except (OSError, ValueError, KeyError, TypeError) as error:
        raise ModelImportError(f"error: cannot read the manifest '{manifest}': {error}"
                               ) from None
    key = NAME_ATTRS[0]
    for func in (op for op in module.body.block.ops if isinstance(op, FuncOp)):
        for field in ("arg_attrs", "res_attrs"):
            attrs = getattr(func, field)
            if attrs is None:
                continue
            renamed = []
            for entry in attrs.data:
                data = dict(entry.data) if isinstance(entry, DictionaryAttr) else {}
                tensor = data.get("tosa.tensor_name")
                if isinstance(tensor, StringAttr) and tensor.data in names:
                    data[key] = StringAttr(names[tensor.data])
                renamed.append(DictionaryAttr(data))
            setattr(func, field, ArrayAttr(renamed))
