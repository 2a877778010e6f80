"""Stateful integer models on Arm's Ethos-U NPUs: what Vela 5.2.0 makes of tosa-state's PRO-INT
`.tosa` artifact, of the `.tflite` itself, and of Arm's own TFLite legaliser's TOSA.

For each full-integer Keras model of `tests/tflite_models/quantized/` (TensorFlow's export:
the LSTM / GRU state kept in f32 between a QUANTIZE and a DEQUANTIZE) and each accelerator
(ethos-u55-128, ethos-u85-256), one line per route:

- `tosa-state`: `compile_tosa(model, profiles="pro_int", extensions="variable,doubleround")`
  (the state made int8 by `tosa-integer-state`), then `vela` on the `.tosa`;
- `tflite`: `vela` on the `.tflite` as TensorFlow wrote it (Vela falls back to the CPU for
  what the NPU cannot run);
- `arm-converter`: `tosa-converter-for-tflite` (its TOSA MLIR), checked with `tosa-opt` for the
  same target and serialized, then `vela` (a failure at any stage is printed as the result).

And the NNCF-quantized streaming convolution (`benchmarks/nncf_stream.py`, OpenVINO IR:
`nncf.quantize` at run time): `tosa-state` only (its frames, requantization and I/O made
integer by `tosa-integer-frames`, `tosa-integer-requantize`, `tosa-integer-io`); there is
no `.tflite` of it for the other two routes. Before Vela, its artifact must run in the
reference model bit-exact with OpenVINO CPU (on the quantized input, `f32(q) * scale` of
the output) over 8 steps.

Printed per line: the operators on the NPU / on the CPU (Vela's output `.tflite`: an
`ethos-u` custom operator is an NPU subgraph), the cycles and the inference time at Vela's
default system config, and the SRAM and flash used. Before Vela runs, tosa-state's artifact
must run in the TOSA reference model bit-exact with LiteRT (built-in kernels) over the
fixture's inputs, or the benchmark fails (`agreement.Disagreement`).

    python benchmarks/npu.py [--models seed_lstm_full_integer,...,nncf_stream] [--accelerators ...]

Run after `pip install -e '.[test]'` (ethos-u-vela, tosa-converter-for-tflite, tosa-tools,
ai-edge-litert); an absent tool is skipped with a line saying so.
"""

from __future__ import annotations

import argparse
import csv
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path

import numpy as np
from agreement import check_agreement

ROOT = Path(__file__).resolve().parent.parent
MODELS = ROOT / "tests" / "tflite_models" / "quantized"
NAMES = ("seed_lstm_full_integer", "gru_full_integer", "int8_ops_full_integer")
NNCF = "nncf_stream"
ACCELERATORS = ("ethos-u55-128", "ethos-u85-256")
PROFILES, EXTENSIONS = "pro_int", "variable,doubleround"
TARGET = (f"specification_version=1.0 level=8k profiles={PROFILES} "
          f"extensions={EXTENSIONS}")


def _tool(name: str) -> str | None:
    here = Path(sys.executable).parent / name
    return str(here) if here.is_file() else shutil.which(name)


def vela_operators(tflite: Path) -> list[str]:
    """The operators of a `.tflite` Vela wrote: `ethos-u` for an NPU subgraph, the builtin's
    name otherwise (tests/peers/vela.py reads placements with it too)."""
    from ai_edge_litert import schema_py_generated as schema

    model = schema.Model.GetRootAsModel(tflite.read_bytes(), 0)
    names = {v: k for k, v in vars(schema.BuiltinOperator).items() if not k.startswith("_")}
    found = []
    for g in range(model.SubgraphsLength()):
        graph = model.Subgraphs(g)
        for i in range(graph.OperatorsLength()):
            code = model.OperatorCodes(graph.Operators(i).OpcodeIndex())
            custom = code.CustomCode()
            found.append(custom.decode() if custom else names[max(
                code.BuiltinCode(), code.DeprecatedBuiltinCode())])
    return found


def vela(model: Path, accelerator: str, out: Path) -> str:
    """Vela on `model` (`.tosa` or `.tflite`): the line of figures, or why it failed."""
    result = subprocess.run([_tool("vela") or "vela", "--accelerator-config", accelerator,
                             "--output-dir", str(out), str(model)],
                            capture_output=True, text=True, timeout=600, check=False)
    if result.returncode != 0:
        lines = [line for line in (result.stdout + result.stderr).splitlines() if line.strip()]
        reasons = sorted({line.strip() for line in lines if "not supported" in line
                          or "Unsupported" in line})
        return "rejected: " + ("; ".join(reasons[:3]) or lines[-1][:120])
    ops = vela_operators(out / f"{model.stem}_vela.tflite")
    npu = sum(op == "ethos-u" for op in ops)
    (summary,) = list(csv.DictReader(next(out.glob(f"{model.stem}_summary_*.csv")).open()))
    return (f"NPU subgraphs {npu}, CPU ops {len(ops) - npu:>2} | "
            f"cycles {int(float(summary['cycles_total'])):>7} "
            f"({float(summary['inference_time']) * 1e6:7.1f} us) | "
            f"SRAM {float(summary['sram_memory_used']):6.2f} KiB, "
            f"flash {float(summary['off_chip_flash_memory_used']):7.2f} KiB")


def _check_reference(name: str, artifact: Path) -> None:
    """The `.tosa` itself in the TOSA reference model (read back: device `reference`)
    against LiteRT's built-in kernels, bit for bit."""
    from ai_edge_litert.interpreter import Interpreter, OpResolverType

    import tosa_state as ts

    path = MODELS / f"{name}.tflite"
    interpreter = Interpreter(model_path=str(path), experimental_op_resolver_type=(
        OpResolverType.BUILTIN_WITHOUT_DEFAULT_DELEGATES))
    interpreter.allocate_tensors()
    runner = interpreter.get_signature_runner()
    (input_name,) = runner.get_input_details()
    detail = runner.get_input_details()[input_name]
    reference = ts.compile_model(artifact, device="reference").create_infer_request()
    rng = np.random.default_rng(0)
    ours, theirs = [], []
    for _ in range(8):
        x = rng.standard_normal(detail["shape"]).astype(detail["dtype"])
        ours.append(reference.infer([x])[0])
        theirs.append(next(iter(runner(**{input_name: x}).values())))
    check_agreement(name, {"the TOSA reference model": np.stack(ours),
                           "LiteRT": np.stack(theirs)}, "LiteRT", 0.0)


def _check_nncf_reference(quantized: object, artifact: Path) -> None:
    """The NNCF model's `.tosa` in the TOSA reference model against OpenVINO CPU over 8
    steps: the CPU given the dequantized int8 input, the artifact's i32 output dequantized
    with the manifest's scales, bit for bit."""
    import json

    import openvino as ov

    import tosa_state as ts

    manifest = json.loads(Path(f"{artifact}.json").read_text())
    (x_port,), (y_port,) = manifest["inputs"], manifest["outputs"]
    scale = np.float32(x_port["quantization"]["scale"])
    zero_point = np.float32(x_port["quantization"]["zero_point"])
    out_scale = np.array(y_port["quantization"]["scale"], np.float32)
    reference = ts.compile_model(artifact, device="reference").create_infer_request()
    cpu = ov.Core().compile_model(quantized, "CPU", {"INFERENCE_PRECISION_HINT": "f32"}
                                  ).create_infer_request()
    rng = np.random.default_rng(0)
    ours, theirs = [], []
    for _ in range(8):
        q = rng.integers(-128, 128, x_port["shape"]).astype(np.int8)
        ours.append(reference.infer([q])[0].astype(np.float32) * out_scale)
        theirs.append(cpu.infer({"x": ((q - zero_point) * scale).astype(np.float32)})[0])
    check_agreement(NNCF, {"the TOSA reference model": np.stack(ours),
                           "OpenVINO CPU": np.stack(theirs)}, "OpenVINO CPU", 0.0)


def _artifact(model: Path, name: str, folder: Path, peer: str,
              check: Callable[[Path], None]) -> Path:
    """tosa-state's PRO-INT artifact of `model`, saved in `folder` and checked (`check`
    raises unless the reference model runs it bit-exact with `peer`)."""
    import tosa_state as ts

    artifact = ts.compile_tosa(model, PROFILES, EXTENSIONS)
    ours = folder / f"{name}.tosa"
    artifact.save(ours)
    check(ours)
    state = sum(v["size_bytes"] for v in artifact.manifest()["variables"])
    print(f"{name}: {state} bytes of int8 state; the artifact in the reference model is "
          f"bit-exact with {peer}")
    return ours


def _nncf(folder: Path, accelerators: list[str]) -> None:
    """The NNCF rows: tosa-state's artifact only."""
    try:
        from nncf_stream import quantized_stream
    except ImportError as error:  # pragma: no cover - the test extra has both
        print(f"{NNCF}: skipped: {error}")
        return
    quantized = quantized_stream(np.random.default_rng(3), folder / f"{NNCF}.xml")
    ours = _artifact(folder / f"{NNCF}.xml", NNCF, folder, "OpenVINO CPU",
                     lambda tosa: _check_nncf_reference(quantized, tosa))
    for accelerator in accelerators:
        line = vela(ours, accelerator, folder / f"{NNCF}-{accelerator}")
        print(f"  {accelerator:14} {'tosa-state':14} {line}")
        for route in ("tflite", "arm-converter"):
            print(f"  {accelerator:14} {route:14} n/a: an OpenVINO model")


def _arm_converter(name: str, folder: Path) -> Path | str:
    """Arm's legaliser's TOSA of the model serialized for the target, or why not."""
    from tosa_state.tosa_tools import tool

    converter = _tool("tosa-converter-for-tflite")
    if converter is None:
        return "skipped: tosa-converter-for-tflite is not installed"
    text = folder / f"{name}.arm.mlir"
    run = subprocess.run([converter, str(MODELS / f"{name}.tflite"), "--text", "-o", str(text)],
                         capture_output=True, text=True, timeout=300, check=False)
    if run.returncode != 0:
        return "converter failed: " + (run.stderr.strip().splitlines() or ["?"])[-1][:120]
    tosa = folder / f"{name}.arm.tosa"
    check = subprocess.run([str(tool("tosa-opt")), str(text), f"--tosa-attach-target={TARGET}",
                            "--tosa-validate=strict-op-spec-alignment",
                            f"--tosa-serialize=tosa-flatbuffer-filename={tosa}",
                            "-o", str(folder / f"{name}.arm.out.mlir")],
                           capture_output=True, text=True, timeout=300,
                           check=False)
    if check.returncode != 0:
        errors = [line for line in check.stderr.splitlines() if "error:" in line]
        return f"tosa-opt refuses it for {PROFILES}: {len(errors)} error(s), first: " + \
            (errors[0].split("error:", 1)[1].strip()[:100] if errors else "?")
    return tosa


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--models", default=",".join((*NAMES, NNCF)))
    parser.add_argument("--accelerators", default=",".join(ACCELERATORS))
    args = parser.parse_args()
    if _tool("vela") is None:
        print("skipped: vela is not installed (pip install -e '.[test]')")
        return

    with tempfile.TemporaryDirectory(prefix="npu_") as tmp:
        folder = Path(tmp)
        for name in args.models.split(","):
            if name == NNCF:
                _nncf(folder, args.accelerators.split(","))
                continue
            ours = _artifact(MODELS / f"{name}.tflite", name, folder, "LiteRT",
                             lambda tosa, name=name: _check_reference(name, tosa))
            arm = _arm_converter(name, folder)
            for accelerator in args.accelerators.split(","):
                routes = {"tosa-state": ours, "tflite": MODELS / f"{name}.tflite",
                          "arm-converter": arm}
                for route, model in routes.items():
                    out = folder / f"{name}-{route}-{accelerator}"
                    line = model if isinstance(model, str) else vela(model, accelerator, out)
                    print(f"  {accelerator:14} {route:14} {line}")


if __name__ == "__main__":
    main()
