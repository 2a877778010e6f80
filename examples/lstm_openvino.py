"""Generate the bundled OpenVINO example: a stateful LSTM cell (hidden size 8) as OpenVINO IR.

- `lstm_cell.xml` / `lstm_cell.bin`: an LSTMCell-4 whose hidden and cell state live in the
  ReadValue-6 / Assign-6 variables `h` and `c` (zeros initially). The weights are those of
  `lstm_cell.mlir` (`LstmWeights.random(hidden=8, seed=7)`), so both examples compute the same
  cell. Input `x` [1, 8], output `h` [1, 8].
- `lstm_cell_inputs.npz`: 6 steps of input, `x` with a leading step axis (the steps of
  `lstm_inputs.npz`).

Run from the repository root (needs the `openvino` package):

    python examples/lstm_openvino.py            # write the three files
    python examples/lstm_openvino.py --check    # compare with lstm_cell.mlir and OpenVINO
    tosa-state-run examples/lstm_cell.xml --inputs examples/lstm_cell_inputs.npz --print
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parent / "benchmarks"))

from lstm_cell import LstmWeights  # noqa: E402

HIDDEN = 8
STEPS = 6


def lstm_model(weights: LstmWeights):  # -> openvino.Model
    """The cell as an OpenVINO model. LSTMCell's W / R / B are [4H, I] / [4H, H] / [4H] in gate
    order f, i, c, o: the transposed halves of the example's [2H, 4H] matrix."""
    import openvino as ov
    import openvino.opset13 as ops

    h = weights.hidden
    x = ops.parameter([1, h], np.float32, name="x")
    zeros = ops.constant(np.zeros((1, h), np.float32))
    h_read = ops.read_value(zeros, "h", np.float32, [1, h], name="h_read")
    c_read = ops.read_value(zeros, "c", np.float32, [1, h], name="c_read")
    w = np.ascontiguousarray(weights.w[:h].T)
    r = np.ascontiguousarray(weights.w[h:].T)
    cell = ops.lstm_cell(x, h_read, c_read, ops.constant(w), ops.constant(r),
                         ops.constant(weights.b), h, name="cell")
    # The Python API's Assign takes a node, not the cell's second output: c goes through a
    # reshape to its own shape.
    c_new = ops.reshape(cell.output(1), ops.constant(np.array([1, h], np.int64)), False,
                        name="c_new")
    sinks = [ops.assign(cell, "h", name="h_write"), ops.assign(c_new, "c", name="c_write")]
    return ov.Model([ops.result(cell, name="h")], sinks, [x], "lstm_cell")


def inputs() -> np.ndarray:
    return np.random.default_rng(1).standard_normal((STEPS, 1, HIDDEN)).astype(np.float32)


def generate() -> None:
    import openvino as ov

    weights = LstmWeights.random(hidden=HIDDEN, seed=7)
    ov.save_model(lstm_model(weights), str(HERE / "lstm_cell.xml"), compress_to_fp16=False)
    np.savez(HERE / "lstm_cell_inputs.npz", x=inputs())


def check() -> None:
    """tosa-state on the IR vs tosa-state on lstm_cell.mlir (and the OpenVINO runtime)."""
    import tosa_state

    xs = np.load(HERE / "lstm_cell_inputs.npz")["x"]
    from_ir = tosa_state.compile_model(HERE / "lstm_cell.xml").create_infer_request()
    from_mlir = tosa_state.compile_model(HERE / "lstm_cell.mlir").create_infer_request()
    ours = np.stack([from_ir.infer([x])[0] for x in xs])
    mlir = np.stack([from_mlir.infer([x])[0] for x in xs])
    print(f"max |IR - MLIR example| = {np.max(np.abs(ours - mlir)):.3g}")
    try:
        import openvino as ov
    except ImportError:
        return
    compiled = ov.Core().compile_model(str(HERE / "lstm_cell.xml"), "CPU",
                                       {"INFERENCE_PRECISION_HINT": "f32"})
    request = compiled.create_infer_request()
    theirs = np.stack([np.array(request.infer([x])[0]) for x in xs])
    print(f"max |tosa-state - OpenVINO| = {np.max(np.abs(ours - theirs)):.3g}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n", 1)[0])
    parser.add_argument("--check", action="store_true", help="compare instead of generating")
    if parser.parse_args().check:
        check()
    else:
        generate()


if __name__ == "__main__":
    main()
