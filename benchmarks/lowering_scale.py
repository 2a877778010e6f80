"""How compile cost grows with module size: N variables, each read and written once.

`python benchmarks/lowering_scale.py [N ...]` (default 200 2000) times, for each size:
parsing, verifying, and each lowering (`convert-tosa-variables-to-memref`,
`tosa-to-mlprogram`, each followed by the verification `tosa-state-opt` runs), and
prints each time with its ratio to the smallest size. Linear cost means a ratio close to
the size ratio (10x the module: about 10x the time). For reference, `iree-opt` (upstream
MLIR) parses, verifies and prints the same module in upstream spelling, when installed.

Needs only the base install (`pip install -e .`); the `iree-opt` row needs the `iree` extra
and is skipped with a line saying so otherwise.
"""

from __future__ import annotations

import gc
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable

from tosa_state.context import make_context
from tosa_state.frontends.mlir import parse_mlir
from tosa_state.printing import print_module
from tosa_state.transforms.pipeline import apply_pipeline
from tosa_state.verification import verify_module

LOWERINGS = ("convert-tosa-variables-to-memref", "tosa-to-mlprogram")
REPEATS = 2


def stateful_module(variables: int) -> str:
    """`variables` module-level variables; one function reads and writes each (3 ops per
    variable)."""
    lines = [f"tosa.variable @v{i} = dense<0.0> : tensor<4xf32>" for i in range(variables)]
    lines.append("func.func @main(%x: tensor<4xf32>) -> tensor<4xf32> {")
    for i in range(variables):
        lines.append(f"  %r{i} = tosa.variable.read @v{i} : tensor<4xf32>")
        lines.append(f"  tosa.variable.write @v{i}, %x : tensor<4xf32>")
    lines.append("  return %x : tensor<4xf32>")
    lines.append("}")
    return "\n".join(lines) + "\n"


def _seconds(action: Callable[[], object]) -> float:
    gc.collect()  # garbage of the previous stage is not this one's cost
    start = time.perf_counter()
    action()
    return time.perf_counter() - start


def measure(variables: int) -> dict[str, float]:
    """Seconds per stage for a module of `variables` variables."""
    text = stateful_module(variables)
    ctx = make_context()
    times = {"parse": _seconds(lambda: parse_mlir(ctx, text, "scale.mlir"))}
    module = parse_mlir(ctx, text, "scale.mlir")
    times["verify"] = _seconds(lambda: verify_module(module))
    for lowering in LOWERINGS:
        best = float("inf")
        for _ in range(REPEATS):  # the best of a few: the machine may be busy
            module = parse_mlir(ctx, text, "scale.mlir")
            best = min(best, _seconds(lambda m=module, p=lowering: apply_pipeline(ctx, m, p)))
        times[lowering] = best
    times["print"] = _seconds(lambda: print_module(module))
    iree_opt = shutil.which("iree-opt")
    if iree_opt is None:
        print("skipped: the iree-opt reference (not installed: pip install -e '.[iree]')")
    else:
        with tempfile.NamedTemporaryFile("w", suffix=".mlir") as upstream:
            upstream.write(print_module(parse_mlir(ctx, text), spelling="upstream"))
            upstream.flush()
            times["iree-opt (reference)"] = _seconds(lambda: subprocess.run(
                [iree_opt, upstream.name], check=True, capture_output=True
            ))
    return times


def main(sizes: list[int]) -> None:
    results = {n: measure(n) for n in sizes}
    base = sizes[0]
    header = f"{'stage':<36}" + "".join(f"{f'N={n} (s)':>14}" for n in sizes)
    header += "".join(f"{f'x{n // base} ratio':>12}" for n in sizes[1:])
    print(f"{len(LOWERINGS)} lowerings of N variables (3 ops each), times in seconds")
    print(header)
    for stage in results[base]:
        row = f"{stage:<36}" + "".join(f"{results[n][stage]:>14.3f}" for n in sizes)
        row += "".join(
            f"{results[n][stage] / results[base][stage]:>12.1f}" for n in sizes[1:]
        )
        print(row)


if __name__ == "__main__":
    main([int(a) for a in sys.argv[1:]] or [200, 2000])
