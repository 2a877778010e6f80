"""Compiling a model with N bytes of weights: time and resident memory against N.

The model is one OpenVINO MatMul `x @ W^T` (transpose_b, as an LLM export's) with an f32 W
of 134 MB and 537 MB, saved as IR; a copy of each with every `.bin` offset moved by one byte
(as an optimum-intel export, whose first constant is one byte long) shows the unaligned path.
Each runtime compiles each model in a fresh subprocess (`tosa_state.compile_model` + a request;
OpenVINO's CPU plugin, one thread, f32) after compiling a small model (what is imported once
is not the weights); printed: compile seconds, resident MiB added by compiling, and after one
call. Run `python benchmarks/mapped_weights.py [--dir DIR]` (the models are written to DIR,
default a temporary directory).
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

COLS = 4096
SIZES_MB = (134, 537)

_CHILD = """
import json, resource, sys, time
import numpy as np

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

runtime, xml, small, cols = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if runtime == "openvino":
    import openvino as ov
    core = ov.Core()
    config = {"INFERENCE_NUM_THREADS": 1, "INFERENCE_PRECISION_HINT": "f32"}
    compile = lambda path: core.compile_model(path, "CPU", config).create_infer_request()
    call = lambda request, x: request.infer({"x": x})
else:
    import tosa_state
    compile = lambda path: tosa_state.compile_model(path).create_infer_request()
    call = lambda request, x: request.infer({"x": x})
call(compile(small), np.ones((1, 8), np.float32))
before = rss()
start = time.perf_counter()
request = compile(xml)
seconds = time.perf_counter() - start
compiled = rss() - before
call(request, np.ones((1, cols), np.float32))
print(json.dumps({"seconds": seconds, "compile": compiled, "call": rss() - before}))
"""


def _save(directory: Path, name: str, rows: int, cols: int) -> Path:
    import openvino as ov
    import openvino.opset13 as ops

    weights = np.random.default_rng(0).standard_normal((rows, cols), np.float32)
    x = ops.parameter([1, cols], np.float32, name="x")
    model = ov.Model([ops.matmul(x, ops.constant(weights), False, True)], [x], name)
    xml = directory / f"{name}.xml"
    ov.save_model(model, str(xml), compress_to_fp16=False)
    return xml


def _misaligned(xml: Path) -> Path:
    out = xml.with_name(f"{xml.stem}_off1.xml")
    out.write_text(re.sub(r'offset="(\d+)"', lambda m: f'offset="{int(m[1]) + 1}"',
                          xml.read_text()))
    with xml.with_suffix(".bin").open("rb") as source, \
            out.with_suffix(".bin").open("wb") as target:
        target.write(b"\0")
        while chunk := source.read(1 << 24):
            target.write(chunk)
    return out


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, help="where the models are written")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = args.dir or Path(temporary)
        directory.mkdir(parents=True, exist_ok=True)
        small = _save(directory, "small", 4, 8)
        print(f"{'weights':>20} {'runtime':>10} {'compile s':>9} {'+MiB compile':>12} "
              f"{'+MiB call':>9}")
        for mb in SIZES_MB:
            aligned = _save(directory, f"w{mb}", mb * 10**6 // (4 * COLS), COLS)
            for xml, how in ((aligned, "aligned"), (_misaligned(aligned), "off by 1")):
                for runtime in ("tosa-state", "openvino"):
                    done = subprocess.run(
                        [sys.executable, "-c", _CHILD, runtime, str(xml), str(small),
                         str(COLS)], capture_output=True, text=True, check=False)
                    if done.returncode:
                        print(f"{runtime}: {done.stderr.strip().splitlines()[-1:]}")
                        continue
                    f = json.loads(done.stdout.strip().splitlines()[-1])
                    print(f"{f'{mb} MB, {how}':>20} {runtime:>10} {f['seconds']:9.2f} "
                          f"{f['compile'] / 2**20:12.0f} {f['call'] / 2**20:9.0f}")
            for path in directory.glob(f"w{mb}*"):
                path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
