"""What loading tosa-state costs a process that does not run a model: the `xdsl.universe`
plugin (which every `xdsl-opt` run in the environment loads) and plain `xdsl-opt` runs.

Each case runs in a fresh subprocess, `--repeats` times, the cases alternated (a loaded
machine slows each alike); printed per case: the median wall and CPU (user + system)
seconds of the whole process, and how many `tosa_state` modules it imported. The cases:

- `import tosa_state.universe` (what the plugin entry point loads);
- `import xdsl.universe` alone (xDSL's own share of the above, for reference);
- `xdsl-opt` printing a module with no stateful op (the plugin loaded, no pass of ours);
- `xdsl-opt -p tosa-to-mlprogram` on a `tosa.variable` (one of our passes loaded on use).

`--pythonpath DIR` measures another checkout (put first on `PYTHONPATH`, as the tests do),
e.g. the code before the lazy registration. Run `python benchmarks/import_cost.py` after
`pip install -e .` (no extra needed).
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

_CHILD = """
import json, resource, sys, time
start = time.perf_counter()
{body}
wall = time.perf_counter() - start
usage = resource.getrusage(resource.RUSAGE_SELF)
modules = sum(1 for m in sys.modules if m == "tosa_state" or m.startswith("tosa_state."))
print(json.dumps({{"cpu": usage.ru_utime + usage.ru_stime, "modules": modules}}),
      file=sys.stderr)
"""

_XDSL_OPT = """
sys.argv = ["xdsl-opt", *{args!r}]
from xdsl.tools.xdsl_opt import main
try:
    main()
except SystemExit:
    pass
sys.stdout.flush()
"""

STATEFUL = """tosa.variable @acc = dense<0.0> : tensor<2xf32>
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tosa.variable.read @acc : tensor<2xf32>
  tosa.variable.write @acc, %x : tensor<2xf32>
  return %a : tensor<2xf32>
}
"""

PLAIN = """func.func @f(%x: i32) -> i32 {
  return %x : i32
}
"""


def _cases(directory: Path) -> dict[str, str]:
    stateful, plain = directory / "stateful.mlir", directory / "plain.mlir"
    stateful.write_text(STATEFUL)
    plain.write_text(PLAIN)
    return {
        "import tosa_state.universe": "import tosa_state.universe",
        "import xdsl.universe": "import xdsl.universe",
        "xdsl-opt (no pass)": _XDSL_OPT.format(args=[str(plain)]),
        "xdsl-opt -p tosa-to-mlprogram": _XDSL_OPT.format(
            args=[str(stateful), "-p", "tosa-to-mlprogram"]),
    }


def _run(body: str, env: dict[str, str], cwd: str) -> tuple[float, float, int]:
    """Wall seconds of the whole process, its CPU seconds, `tosa_state` modules imported
    (run in `cwd`: `python -c` puts the working directory first on `sys.path`)."""
    start = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", _CHILD.format(body=body)], env=env,
                            cwd=cwd, capture_output=True, text=True, check=False)
    wall = time.perf_counter() - start
    if result.returncode != 0:
        raise SystemExit(f"the case failed:\n{body}\n{result.stderr}")
    report = json.loads(result.stderr.strip().splitlines()[-1])
    return wall, report["cpu"], report["modules"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--pythonpath", type=Path, default=Path(__file__).resolve().parents[1])
    args = parser.parse_args()
    env = {**os.environ, "PYTHONPATH": os.pathsep.join(
        p for p in (str(args.pythonpath), os.environ.get("PYTHONPATH")) if p)}
    with tempfile.TemporaryDirectory() as tmp:
        cases = _cases(Path(tmp))
        runs: dict[str, list[tuple[float, float, int]]] = {name: [] for name in cases}
        for _ in range(args.repeats):
            for name, body in cases.items():
                runs[name].append(_run(body, env, tmp))
    print(f"{args.pythonpath}, {args.repeats} runs each, load average "
          f"{os.getloadavg()[0]:.1f}")
    print(f"{'case':34} {'wall s':>7} {'cpu s':>7} {'tosa_state modules':>19}")
    for name, results in runs.items():
        wall = statistics.median(r[0] for r in results)
        cpu = statistics.median(r[1] for r in results)
        print(f"{name:34} {wall:7.2f} {cpu:7.2f} {results[0][2]:19d}")


if __name__ == "__main__":
    main()
