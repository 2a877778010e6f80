"""A TOSA flatbuffer (`.tosa`) read back: `tosa-opt --tosa-deserialize` gives its graph as
MLIR, which is parsed as any model. The flatbuffer names inputs and outputs `TosaInput_<i>`
/ `TosaOutput_<i>`; when the manifest `tosa-state compile` wrote beside it
(`model.tosa.json`) is there, the ports get the model's own names back, and the count
variables of a static state what the host checks before each call (its `counts`)."""

from __future__ import annotations

import json
import os
from pathlib import Path

from xdsl.context import Context
from xdsl.dialects.builtin import (
    ArrayAttr,
    DictionaryAttr,
    IntegerAttr,
    ModuleOp,
    StringAttr,
    i64,
)
from xdsl.dialects.func import FuncOp

from tosa_state.diagnostics import ModelImportError, TosaStateError
from tosa_state.dialects.tosa.variables import iter_declarations
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.signature import NAME_ATTRS
from tosa_state.tosa_tools import MANIFEST_SUFFIX, tosa_opt
from tosa_state.transforms.tosa_host_capacity_checks import CAPACITY_ATTR, ROWS_ATTR
from tosa_state.transforms.tosa_static_state import COUNT_ATTR


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
        try:
            doc = json.loads(manifest.read_text())
            _rename_ports(module, doc)
            _restore_host_checks(module, doc)
        except (OSError, ValueError, KeyError, TypeError) as error:
            raise ModelImportError(f"error: cannot read the manifest '{manifest}': {error}"
                                   ) from None
    return module


def _restore_host_checks(module: ModuleOp, doc: dict) -> None:
    """The `counts` of the manifest's count variables back on their declarations
    (`tosa-host-capacity-checks`' record), for the device that runs the graph to check."""
    counts = {v["name"]: v["counts"] for v in doc["variables"] if "counts" in v}
    for op in iter_declarations(module):
        if (check := counts.get(op.var_name)) is not None:
            op.attributes[COUNT_ATTR] = StringAttr(str(check["variable"]))
            op.attributes[CAPACITY_ATTR] = IntegerAttr(int(check["capacity"]), i64)
            op.attributes[ROWS_ATTR] = IntegerAttr(int(check["rows_per_call"]), i64)


def _rename_ports(module: ModuleOp, doc: dict) -> None:
    names = {port["tensor"]: port["name"] for port in doc["inputs"] + doc["outputs"]}
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
