"""Compiling a model with N bytes of weights: time and resident memory against N.

The model is one OpenVINO MatMul `x @ W^T` (transpose_b, as an LLM export's) with an f32 W
of 134 MB and 537 MB, saved as IR; a copy of each with every `.bin` offset moved by one byte
(as an optimum-intel export, whose first constant is one byte long) shows the unaligned path.
Each runtime compiles each model in a fresh subprocess (`tosa_state.compile_model` + a request;
OpenVINO's CPU plugin, one thread, f32) after compiling a small model (what is imported once
is not the weights); printed: compile seconds, resident MiB added by compiling, and after one
call. Run `python benchmarks/mapped_weights.py [--dir DIR] [--only openvino|tflite]` (the
models are written to DIR, default a temporary directory).

The TFLite rows: one FULLY_CONNECTED by an f32 weight of ~134 MB (`tests/tflite_writer.py`),
its buffer inside the flatbuffer (aligned) and after it one byte off (`offset` / `size`),
tosa-state's `compile_model` + a request against creating LiteRT's interpreter
(`Interpreter` + `allocate_tensors`, with its default XNNPACK delegate, which packs the
weights, and with the builtin kernels only), each in fresh subprocesses, `--repeats` times
alternated (the median printed); then in one process, alternated, the ratio of the compile
time to LiteRT's interpreter creation (what a loaded machine hits both alike).

Run after `pip install -e '.[test]'` (OpenVINO, ai-edge-litert).
"""

from __future__ import annotations

import json
import re
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

COLS = 4096
SIZES_MB = (134, 537)
TFLITE_MB = 134
TESTS = Path(__file__).resolve().parent.parent / "tests"

_CHILD = """
import json, resource, sys, time
import numpy as np

def rss():
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * resource.getpagesize()

runtime, xml, small, cols = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
if runtime.startswith("litert"):
    from ai_edge_litert.interpreter import Interpreter, OpResolverType
    options = {} if runtime == "litert" else {
        "experimental_op_resolver_type": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES}
    def compile(path):
        interpreter = Interpreter(model_path=path, **options)
        interpreter.allocate_tensors()
        return interpreter
    def call(interpreter, x):
        interpreter.set_tensor(interpreter.get_input_details()[0]["index"], x)
        interpreter.invoke()
elif runtime == "openvino":
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


_TIMING = """
import statistics, sys, time
import numpy as np
from ai_edge_litert.interpreter import Interpreter, OpResolverType
import tosa_state

path, repeats = sys.argv[1], int(sys.argv[2])
builtin = {"experimental_op_resolver_type": OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES}
runs = {
    "tosa-state": lambda: tosa_state.compile_model(path).create_infer_request(),
    "litert": lambda: Interpreter(model_path=path).allocate_tensors(),
    "litert-builtin": lambda: Interpreter(model_path=path, **builtin).allocate_tensors(),
}
times = {name: [] for name in runs}
for _ in range(repeats + 1):  # the first round (imports, caches) is not counted
    for name, run in runs.items():
        start = time.perf_counter()
        run()
        times[name].append(time.perf_counter() - start)
for name in ("litert", "litert-builtin"):
    ratios = [a / b for a, b in zip(times["tosa-state"][1:], times[name][1:])]
    print(f"{name}: {statistics.median(times[name][1:]) * 1e3:.1f} ms, tosa-state "
          f"{statistics.median(times['tosa-state'][1:]) * 1e3:.1f} ms, ratio min / median / "
          f"max {min(ratios):.2f} / {statistics.median(ratios):.2f} / {max(ratios):.2f}")
"""


def _child(runtime: str, model: Path, small: Path) -> dict[str, float] | str:
    done = subprocess.run([sys.executable, "-c", _CHILD, runtime, str(model), str(small),
                           str(COLS)], capture_output=True, text=True, check=False)
    if done.returncode:
        return f"{runtime}: {done.stderr.strip().splitlines()[-1:]}"
    found: dict[str, float] = json.loads(done.stdout.strip().splitlines()[-1])
    return found


def _tflite_rows(directory: Path, repeats: int) -> None:
    """The TFLite rows (see the module's docstring)."""
    sys.path.insert(0, str(TESTS))
    from tflite_writer import fully_connected

    rows = TFLITE_MB * 10**6 // (4 * COLS)
    rng = np.random.default_rng(0)
    weight = rng.standard_normal((rows, COLS), np.float32)
    bias = np.zeros(rows, np.float32)
    small = fully_connected(directory / "small.tflite", weight[:4, :8].copy(), bias[:4])
    models = {"inside": fully_connected(directory / "fc.tflite", weight, bias),
              "after, off by 1": fully_connected(directory / "fc_off1.tflite", weight, bias,
                                                 external=True, misaligned=True)}
    del weight
    for how, model in models.items():
        found: dict[str, list[dict[str, float]]] = {}
        for _ in range(repeats):
            for runtime in ("tosa-state", "litert", "litert-builtin"):
                result = _child(runtime, model, small)
                if isinstance(result, str):
                    print(result)
                    continue
                found.setdefault(runtime, []).append(result)
        for runtime, results in found.items():
            def median(key: str, results: list[dict[str, float]] = results) -> float:
                return statistics.median(r[key] for r in results)
            print(f"{f'tflite {TFLITE_MB} MB, {how}':>26} {runtime:>14} "
                  f"{median('seconds'):9.2f} {median('compile') / 2**20:12.0f} "
                  f"{median('call') / 2**20:9.0f}")
    done = subprocess.run([sys.executable, "-c", _TIMING, str(models["inside"]), str(repeats)],
                          capture_output=True, text=True, check=False)
    print("compile against LiteRT's interpreter creation, one process, alternated:")
    print(done.stdout.strip() or done.stderr.strip().splitlines()[-1:])


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--dir", type=Path, help="where the models are written")
    parser.add_argument("--only", choices=("openvino", "tflite"), help="one half only")
    parser.add_argument("--repeats", type=int, default=3, help="TFLite runs per runtime")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as temporary:
        directory = args.dir or Path(temporary)
        directory.mkdir(parents=True, exist_ok=True)
        print(f"{'weights':>26} {'runtime':>14} {'compile s':>9} {'+MiB compile':>12} "
              f"{'+MiB call':>9}")
        if args.only != "openvino":
            _tflite_rows(directory, args.repeats)
        if args.only == "tflite":
            return 0
        small = _save(directory, "small", 4, 8)
        for mb in SIZES_MB:
            aligned = _save(directory, f"w{mb}", mb * 10**6 // (4 * COLS), COLS)
            for xml, how in ((aligned, "aligned"), (_misaligned(aligned), "off by 1")):
                for runtime in ("tosa-state", "openvino"):
                    f = _child(runtime, xml, small)
                    if isinstance(f, str):
                        print(f)
                        continue
                    print(f"{f'{mb} MB, {how}':>26} {runtime:>14} {f['seconds']:9.2f} "
                          f"{f['compile'] / 2**20:12.0f} {f['call'] / 2**20:9.0f}")
            for path in directory.glob(f"w{mb}*"):
                path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
