"""Layering: no module imports another layer's it must not (read from the source, every
`import` and `from ... import` at any depth of a module, relative ones resolved).

The frontends are families that know nothing of each other: OpenVINO (`dialects.openvino`,
`frontends.openvino`, `transforms.openvino_to_tosa`, `transforms.convert_openvino_to_tosa`)
and TFLite (`dialects.tfl`, `frontends.tflite`, `transforms.tflite_to_tosa`,
`transforms.convert_tflite_to_tosa`). What both need lives below both: in the TOSA builder
(`transforms.tosa_builder`), which imports no family, or in a neutral module. Below them,
dialects import no frontend, pass or runtime, the passes and frontends do not import
the interpreter (constant folding goes through `tosa_state.folding`), the interpreter
imports no pass or frontend, and the `xdsl.universe` plugin no runtime."""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "tosa_state"

FAMILIES = {
    "OpenVINO": ("tosa_state.dialects.openvino", "tosa_state.frontends.openvino",
                 "tosa_state.transforms.openvino_to_tosa",
                 "tosa_state.transforms.convert_openvino_to_tosa"),
    "TFLite": ("tosa_state.dialects.tfl", "tosa_state.frontends.tflite",
               "tosa_state.transforms.tflite_to_tosa",
               "tosa_state.transforms.convert_tflite_to_tosa"),
}
"""The modules of each frontend, by prefix."""

BUILDER = "tosa_state.transforms.tosa_builder"
RUNTIME = ("tosa_state.interpreter", "tosa_state.devices", "tosa_state.validation",
           "tosa_state.api", "tosa_state.tools")

RULES: tuple[tuple[tuple[str, ...], tuple[str, ...], str], ...] = (
    *((FAMILIES[a], FAMILIES[b], f"the {a} frontend imports the {b} frontend")
      for a in FAMILIES for b in FAMILIES if a != b),
    ((BUILDER,), FAMILIES["OpenVINO"] + FAMILIES["TFLite"], "the TOSA builder imports a frontend"),
    (("tosa_state.dialects",), ("tosa_state.frontends", "tosa_state.transforms", *RUNTIME),
     "a dialect imports a frontend, a pass or the runtime"),
    (("tosa_state.frontends", "tosa_state.transforms"), RUNTIME,
     "a frontend or a pass imports the runtime"),
    (("tosa_state.interpreter",), ("tosa_state.frontends", "tosa_state.transforms"),
     "the interpreter imports a frontend or a pass"),
    (("tosa_state.universe",), RUNTIME,
     "the xdsl.universe plugin imports the runtime (tests/test_lazy_loading.py: nor lazily)"),
)
"""(importers, imported, what is wrong): no module under an importer prefix imports one
under an imported prefix."""


def _under(module: str, prefixes: tuple[str, ...]) -> bool:
    return any(module == p or module.startswith(p + ".") for p in prefixes)


def _modules(root: Path) -> dict[str, Path]:
    """Every module of the package at `root`, by dotted name (a package by its own name)."""
    found = {}
    for path in sorted(root.rglob("*.py")):
        parts = path.relative_to(root.parent).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        found[".".join(parts)] = path
    return found


def _imports(module: str, path: Path, modules: dict[str, Path]) -> Iterator[tuple[str, int]]:
    """The modules `module` imports, with the line: `from a import b` names the module `a.b`
    when there is one, else `a`."""
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield alias.name, node.lineno
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, *([base] if base else [])])
            for alias in node.names:
                child = f"{base}.{alias.name}"
                yield (child if child in modules else base), node.lineno


def violations(root: Path) -> list[str]:
    """`file:line: module imports module: what is wrong`, for every import a rule forbids
    in the package at `root`."""
    modules = _modules(root)
    found = []
    for module, path in modules.items():
        for imported, line in _imports(module, path, modules):
            for importers, forbidden, wrong in RULES:
                if _under(module, importers) and _under(imported, forbidden):
                    where = path.relative_to(root.parent)
                    found.append(f"{where}:{line}: {module} imports {imported}: {wrong}")
    return list(dict.fromkeys(found))  # `from a import b, c` is one import of `a`


def test_the_package_keeps_its_layers() -> None:
    assert violations(PACKAGE) == []


def test_the_rules_see_the_frontends_and_the_builder() -> None:
    """The rules are checked where they apply: each prefix names modules that exist."""
    modules = _modules(PACKAGE)
    for prefixes in (*FAMILIES.values(), (BUILDER,), RUNTIME):
        for prefix in prefixes:
            assert any(_under(m, (prefix,)) for m in modules), prefix


def _tree(tmp_path: Path, files: dict[str, str]) -> Path:
    """A package `tosa_state` under `tmp_path` with the given modules (others empty)."""
    root = tmp_path / "tosa_state"
    for name in ("dialects/openvino/ops.py", "dialects/tfl/ops.py", "frontends/tflite/reader.py",
                 "frontends/openvino/weights.py", "transforms/openvino_to_tosa/matrix.py",
                 "transforms/tflite_to_tosa/rnn.py", "transforms/tosa_builder/values.py",
                 "interpreter/plan.py", "diagnostics.py", *files):
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        for parent in path.relative_to(root).parents:
            (root / parent / "__init__.py").touch()
        path.write_text(files.get(name, ""))
    return root


BAD_IMPORTS = {
    "conversion to conversion": (
        "transforms/tflite_to_tosa/rnn.py",
        "from tosa_state.transforms.openvino_to_tosa.matrix import matmul\n",
        "the TFLite frontend imports the OpenVINO frontend"),
    "conversion to conversion, inside a function": (
        "transforms/openvino_to_tosa/matrix.py",
        "def f():\n    from tosa_state.transforms.tflite_to_tosa import rnn\n",
        "the OpenVINO frontend imports the TFLite frontend"),
    "conversion to conversion, relative": (
        "transforms/tflite_to_tosa/rnn.py",
        "from ..openvino_to_tosa.matrix import matmul\n",
        "the TFLite frontend imports the OpenVINO frontend"),
    "frontend to frontend": (
        "frontends/tflite/reader.py",
        "from tosa_state.frontends.openvino.weights import read_into\n",
        "the TFLite frontend imports the OpenVINO frontend"),
    "dialect to dialect": (
        "dialects/tfl/ops.py",
        "import tosa_state.dialects.openvino.ops\n",
        "the TFLite frontend imports the OpenVINO frontend"),
    "builder to a dialect, as a package's attribute": (
        "transforms/tosa_builder/values.py",
        "from tosa_state.dialects import openvino as ov\n",
        "the TOSA builder imports a frontend"),
    "builder to a conversion": (
        "transforms/tosa_builder/values.py",
        "from tosa_state.transforms.tflite_to_tosa.rnn import x\n",
        "the TOSA builder imports a frontend"),
    "pass to the interpreter": (
        "transforms/tflite_to_tosa/rnn.py",
        "from tosa_state.interpreter import plan\n",
        "a frontend or a pass imports the runtime"),
}


@pytest.mark.parametrize("case", BAD_IMPORTS)
def test_a_bad_import_is_reported(tmp_path: Path, case: str) -> None:
    module, source, wrong = BAD_IMPORTS[case]
    root = _tree(tmp_path, {module: source})
    found = violations(root)
    assert len(found) == 1, found
    assert found[0].startswith(f"tosa_state/{module}:{source.count(chr(10))}: ")
    assert found[0].endswith(f": {wrong}")


def test_allowed_imports_are_not_reported(tmp_path: Path) -> None:
    """Each family uses its own modules, the builder and the neutral ones."""
    root = _tree(tmp_path, {
        "transforms/tflite_to_tosa/rnn.py": (
            "from tosa_state.transforms.tosa_builder.values import dims\n"
            "from tosa_state.dialects.tfl import ops\nfrom tosa_state import diagnostics\n"
            "from . import rnn\n"),
        "transforms/tosa_builder/values.py": "from tosa_state.diagnostics import brief\n",
        "frontends/openvino/weights.py": "from ...dialects.openvino.ops import x\n",
    })
    assert violations(root) == []
