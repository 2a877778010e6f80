"""Where device `iree`'s time goes (docs/runtime.md, "Device iree: where the time goes").

LSTM cell (`lstm_cell.py`'s, hidden size H): per step, interleaved in one process, one
thread, medians of 15 batches of 200 steps, in µs:

- `numpy step` / `numpy matvec`: the hand-written cell, and its `[x, h] @ W` alone;
- `iree infer`: `InferRequest.infer` on device iree (input checks, marshalling, call,
  results copied out);
- `iree invoke`: `VmContext.invoke` of the compiled `main` with a ready input buffer,
  nothing copied out: the module's own time (its dispatches and IREE's runtime);
- `iree matvec`: the same for a module holding only the matmul `[1, 2H] x [2H, 4H]`.

`--llm`: IREE's scheduling statistics (`--iree-scheduling-dump-statistics-format`) of
`llm_decode.py`'s tiny Llama, compiled as it is and with `llm_decode.DECODE_SHAPES`:
submissions (command buffers) and dispatches per `main`, counted in the program (both
branches of every run-time `if`).

Run after `pip install -e '.[iree]'`; `--llm` after `pip install -e '.[test]'` (the export).
"""

from __future__ import annotations

import os

if __name__ == "__main__":  # one BLAS thread for numpy, set before numpy is imported
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import re
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import numpy as np
from lstm_cell import LstmWeights, NumpyLstm, _dense, median_step_seconds, tosa_lstm_module


def _invoker(request: object) -> Callable[[np.ndarray], object]:
    """`main` of `request`'s context called with one prepared input buffer."""
    import iree.runtime as rt

    call = request.device_request.call  # type: ignore[attr-defined]  (an IreeRequest)
    ready: dict[int, object] = {}

    def invoke(x: np.ndarray) -> object:
        buffer = ready.get(id(x))
        if buffer is None:
            buffer = ready[id(x)] = call._allocator.allocate_buffer_copy(
                memory_type=rt.MemoryType.DEVICE_LOCAL, allowed_usage=rt.BufferUsage.DEFAULT,
                device=call._device, buffer=x, element_type=rt.HalElementType.FLOAT_32)
        inputs = rt.VmVariantList(1)
        inputs.push_ref(buffer)
        results = rt.VmVariantList(1)
        call._vm_context.invoke(call._function, inputs, results)
        return results

    return invoke


def lstm(hidden: int) -> dict[str, float]:
    from tosa_state import compile_model, make_context
    from tosa_state.frontends.mlir import parse_mlir

    weights = LstmWeights.random(hidden)
    cell = parse_mlir(make_context(), tosa_lstm_module(weights), "lstm.mlir")
    request = compile_model(cell, device="iree").create_infer_request()
    k, n = weights.w.shape
    lhs, rhs, out = f"tensor<1x1x{k}xf32>", f"tensor<1x{k}x{n}xf32>", f"tensor<1x1x{n}xf32>"
    matvec = parse_mlir(make_context(), f"""
func.func @main(%xh: {lhs}) -> {out} {{
  %w = "tosa.const"() <{{values = {_dense(weights.w.reshape(1, k, n))}}}> : () -> {rhs}
  %zp = "tosa.const"() <{{values = dense<0.0> : tensor<1xf32>}}> : () -> tensor<1xf32>
  %mm = tosa.matmul %xh, %w, %zp, %zp
      : ({lhs}, {rhs}, tensor<1xf32>, tensor<1xf32>) -> {out}
  return %mm : {out}
}}""", "matvec.mlir")
    matvec_request = compile_model(matvec, device="iree").create_infer_request()
    xs = [x.reshape(1, hidden) for x in
          np.random.default_rng(0).standard_normal((200, hidden)).astype(np.float32)]
    xhs = {id(x): np.concatenate([x, x], axis=1).reshape(1, 1, k) for x in xs}
    numpy_cell, w = NumpyLstm(weights), weights.w
    invoke_cell, invoke_matvec = _invoker(request), _invoker(matvec_request)
    steppers: dict[str, Callable[[np.ndarray], object]] = {
        "numpy step": numpy_cell.step,
        "numpy matvec": lambda x: xhs[id(x)].reshape(1, k) @ w,
        "iree infer": lambda x: request.infer([x]),
        "iree invoke": invoke_cell,
        "iree matvec": lambda x: invoke_matvec(xhs[id(x)]),
    }
    for step in steppers.values():  # warm up
        for x in xs[:20]:
            step(x)
    return {name: 1e6 * t for name, t in median_step_seconds(steppers, xs, 15).items()}


@contextmanager
def module_texts() -> Iterator[list[str]]:
    """The MLIR texts device iree compiles meanwhile."""
    import tosa_state.devices.iree as device

    texts: list[str] = []
    original = device.compile_module_text

    def keep(text: str, *args: object, **kwargs: object) -> Path:
        texts.append(text)
        return original(text, *args, **kwargs)  # type: ignore[arg-type]

    device.compile_module_text = keep
    try:
        yield texts
    finally:
        device.compile_module_text = original


def scheduling(text: str) -> dict[str, int]:
    """IREE's static scheduling statistics of a module (submissions, dispatches, ...)."""
    from tosa_state.devices.iree_compile import DEFAULT_FLAGS, iree_compile_tool

    tool, _ = iree_compile_tool()
    with tempfile.TemporaryDirectory() as folder:
        stats = Path(folder) / "stats.txt"
        subprocess.run([tool, *DEFAULT_FLAGS, "--compile-to=stream",
                        "--iree-scheduling-dump-statistics-format=pretty",
                        f"--iree-scheduling-dump-statistics-file={stats}", "-", "-o",
                        str(Path(folder) / "out.mlir")], input=text, text=True, check=True)
        found = re.findall(r"//\s+([A-Za-z>\- ]+): (\d+)", stats.read_text())
    return {name.strip(): int(value) for name, value in found}


def llm() -> None:
    from llm_decode import DECODE_SHAPES
    from llm_models import export

    import tosa_state

    xml = export(["llama"], Path.home() / ".cache" / "tosa-state" / "llm_exports")["llama"]
    with module_texts() as texts:
        tosa_state.compile_model(xml, device="iree")
        tosa_state.compile_model(xml, device="iree", input_shapes=DECODE_SHAPES)
    for label, text in zip(("as exported", "decode shapes"), texts, strict=True):
        stats = scheduling(text)
        print(f"tiny Llama, {label:>13}: " + ", ".join(
            f"{stats[key]} {key.lower()}" for key in ("Submissions", "Dispatches", "D->H Syncs")))


def main() -> int:
    import argparse

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--hidden", type=int, default=512)
    parser.add_argument("--llm", action="store_true", help="the tiny Llama's statistics too")
    args = parser.parse_args()
    f = lstm(args.hidden)
    print(f"LSTM cell H={args.hidden}, median µs per step (one thread)")
    for name, us in f.items():
        print(f"{name:>13} {us:8.1f}  {us / f['numpy step']:5.2f}x numpy step")
    if args.llm:
        llm()
    return 0


if __name__ == "__main__":
    sys.exit(main())
