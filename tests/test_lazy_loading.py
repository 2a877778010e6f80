"""Loading is lazy: the `xdsl.universe` plugin (loaded by every `xdsl-opt` run in the
environment), `tosa_state` and `tosa_state.transforms` import no pass, runtime or validation
until one is used (`benchmarks/import_cost.py` measures what that saves). Each check of
what a fresh process imports runs in a subprocess."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

import tosa_state.transforms as transforms
from tosa_state.universe import UNIVERSE


def _fresh(code: str) -> dict[str, object]:
    """Run `code` in a fresh interpreter; it leaves its answer in `out`."""
    result = subprocess.run(
        [sys.executable, "-c", f"import json, sys\nout = {{}}\n{code}\nprint(json.dumps(out))"],
        capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout.splitlines()[-1])


_OURS = "sorted(m for m in sys.modules if m.split('.')[0] == 'tosa_state')"


def test_the_universe_imports_no_pass_runtime_or_validation() -> None:
    out = _fresh(f"import tosa_state.universe as u\nout['modules'] = {_OURS}\n"
                 "out['passes'] = sorted(u.UNIVERSE.all_passes)")
    assert out["modules"] == ["tosa_state", "tosa_state.transforms", "tosa_state.universe"]
    assert out["passes"] == sorted(transforms.PASSES)


def test_the_package_loads_its_names_on_first_use() -> None:
    out = _fresh(f"import tosa_state as ts\nout['before'] = {_OURS}\n"
                 f"ts.compile_model\nout['after'] = {_OURS}")
    assert out["before"] == ["tosa_state"]
    assert {"tosa_state.api", "tosa_state.runtime"} <= set(out["after"])


def test_a_folding_pass_runs_in_a_process_without_the_runtime() -> None:
    """`Pass().apply(make_context(), module)` with only the pass imported: constant folding
    imports the interpreter's evaluator at its first use (`folding.DEFAULT_EVALUATOR`)."""
    out = _fresh(
        "from tosa_state.context import make_context\n"
        "from tosa_state.frontends.mlir import parse_mlir\n"
        "from tosa_state.transforms import ConvertOpenVINOToTosaPass\n"
        "text = '''func.func @f() -> tensor<2xf32> {\n"
        "  %a = openvino.constant dense<[1.0, 2.0]> : tensor<2xf32>\n"
        "  %b = openvino.constant dense<[10.0, 20.0]> : tensor<2xf32>\n"
        "  %s = openvino.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>\n"
        "  func.return %s : tensor<2xf32>\n}'''\n"
        "before = 'tosa_state.interpreter.functions' in sys.modules\n"
        "ctx = make_context()\n"
        "module = parse_mlir(ctx, text, 'f.mlir')\n"
        "ConvertOpenVINOToTosaPass().apply(ctx, module)\n"
        "out['before'] = before\n"
        "out['after'] = 'tosa_state.interpreter.functions' in sys.modules\n"
        "out['ir'] = str(module)")
    assert out == {"before": False, "after": True, "ir": out["ir"]}
    assert "dense<[1.100000e+01, 2.200000e+01]>" in out["ir"], out["ir"]
    assert "openvino." not in out["ir"] and "tosa.add" not in out["ir"]


@pytest.mark.parametrize("name", sorted(transforms.PASSES))
def test_each_registered_pass_loads_under_its_name(name: str) -> None:
    """The table names each pass once, as its class does, in the module named after it."""
    cls = UNIVERSE.all_passes[name]()
    assert cls.name == name
    assert cls.__module__ == f"tosa_state.transforms.{name.replace('-', '_')}"
    assert getattr(transforms, transforms.PASSES[name]) is cls
    assert transforms.PASSES[name] in transforms.__all__


def test_an_unknown_name_is_an_attribute_error() -> None:
    import tosa_state

    with pytest.raises(AttributeError, match="has no attribute 'NoSuchPass'"):
        _ = transforms.NoSuchPass  # type: ignore[attr-defined]
    with pytest.raises(AttributeError, match="has no attribute 'compile'"):
        _ = tosa_state.compile  # type: ignore[attr-defined]
