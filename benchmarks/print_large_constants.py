"""Printing a model with large weights: time and peak memory, per way of printing.

`python benchmarks/print_large_constants.py [MEGABYTES]` (default 134) builds a module
whose weights (a `tosa.const` and a variable's initial value, f32) total MEGABYTES, and
prints it to a file, each way in a fresh process:

- `xdsl`: xDSL 0.74's own printer (what tosa-state-opt did before: it decodes every
  element to a Python float before printing the hex),
- `dense`: tosa-state's printer, `dense<"0x...">` hex straight from the bytes,
- `resources`: `--dense-resources-if-larger`: `dense_resource` blobs, hex-encoded in pieces
  as the file is written,
- `elided`: `--elide-large-constants`: no weights in the output.

It prints seconds and peak RSS for each, and the RSS of the built module alone.

Needs only the base install (`pip install -e .`).
"""

from __future__ import annotations

import json
import resource
import subprocess
import sys
import tempfile
import time
from io import StringIO
from pathlib import Path

import numpy as np
from xdsl.dialects.builtin import BytesAttr, DenseIntOrFPElementsAttr, ModuleOp, TensorType, f32
from xdsl.dialects.func import FuncOp, ReturnOp
from xdsl.printer import Printer

MODES = ("xdsl", "dense", "resources", "elided")


def weights_module(megabytes: float) -> ModuleOp:
    """A variable and a constant of f32 weights, `megabytes` in total."""
    from tosa_state.dialects.tosa.tensor import ConstOp
    from tosa_state.dialects.tosa.variables import VariableOp

    count = int(megabytes * 1e6 / 4 / 2)
    rng = np.random.default_rng(0)
    values = [rng.standard_normal(count, dtype=np.float32) for _ in range(2)]
    tensor = TensorType(f32, [count])
    dense = [DenseIntOrFPElementsAttr(tensor, BytesAttr(v.tobytes())) for v in values]
    const = ConstOp.build(properties={"values": dense[1]}, result_types=[tensor])
    func = FuncOp("main", ((), (tensor,)))
    func.body.block.add_ops([const, ReturnOp(const.results[0])])
    return ModuleOp([VariableOp("weights", tensor, dense[0]), func])


def _peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def child(mode: str, megabytes: float, out: str) -> dict[str, float]:
    """Build the module, print it `mode`'s way to `out`; seconds and peak RSS."""
    from tosa_state.printing import LargeConstants, write_module

    module = weights_module(megabytes)
    built = _peak_rss_mb()
    start = time.perf_counter()
    with open(out, "w") as stream:
        if mode == "xdsl":
            text = StringIO()
            Printer(stream=text).print_op(module)
            stream.write(text.getvalue())
        else:
            large = {
                "dense": LargeConstants(),
                "resources": LargeConstants(resources_over=1024),
                "elided": LargeConstants(elide_over=1024),
            }[mode]
            write_module(stream, module, large=large)
    seconds = time.perf_counter() - start
    return {"seconds": seconds, "peak_rss_mb": _peak_rss_mb(), "module_rss_mb": built,
            "output_mb": Path(out).stat().st_size / 1e6}


def main(megabytes: float) -> None:
    print(f"printing a module with {megabytes:g} MB of f32 weights (one process per row)")
    print(f"{'mode':<12}{'seconds':>10}{'peak RSS MB':>14}{'module RSS MB':>15}{'output MB':>11}")
    rows = {}
    with tempfile.TemporaryDirectory() as tmp:
        for mode in MODES:
            result = subprocess.run(
                [sys.executable, __file__, "--child", mode, str(megabytes), f"{tmp}/{mode}.mlir"],
                check=True, capture_output=True, text=True,
            )
            rows[mode] = json.loads(result.stdout)
            r = rows[mode]
            print(f"{mode:<12}{r['seconds']:>10.2f}{r['peak_rss_mb']:>14.0f}"
                  f"{r['module_rss_mb']:>15.0f}{r['output_mb']:>11.1f}")
    base = rows["xdsl"]
    for mode in MODES[1:]:
        print(f"{mode}: {rows[mode]['seconds'] / base['seconds']:.2f}x the time of xdsl, "
              f"{rows[mode]['peak_rss_mb'] - rows[mode]['module_rss_mb']:.0f} MB above the "
              f"module (xdsl: {base['peak_rss_mb'] - base['module_rss_mb']:.0f} MB)")


if __name__ == "__main__":
    if sys.argv[1:2] == ["--child"]:
        print(json.dumps(child(sys.argv[2], float(sys.argv[3]), sys.argv[4])))
    else:
        main(float(sys.argv[1]) if len(sys.argv) > 1 else 134.0)
