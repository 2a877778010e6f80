"""`interpreter/scf.py`: the `scf` ops a hand-written module may hold run as the dialect
says (`scf.if` is also what the memref lowering emits: a plan writes it as a Python `if`),
without importing xDSL's whole interpreter package."""

from __future__ import annotations

import subprocess
import sys

import numpy as np

import tosa_state as ts
from tosa_state.frontends.mlir import parse_mlir

LOOPS = """
func.func @main(%x: tensor<2xf32>) -> (tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>) {
  %c0 = arith.constant 0 : index
  %c1 = arith.constant 1 : index
  %c3 = arith.constant 3 : index
  %c5 = arith.constant 5 : index
  %which = arith.constant WHICH : index
  %doubled = scf.for %i = %c0 to %c3 step %c1 iter_args(%acc = %x) -> (tensor<2xf32>) {
    %next = tosa.add %acc, %acc : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %next : tensor<2xf32>
  }
  %n, %added = scf.while (%k = %c0, %acc = %x) : (index, tensor<2xf32>) -> (index, tensor<2xf32>) {
    %more = arith.cmpi ult, %k, %c5 : index
    scf.condition(%more) %k, %acc : index, tensor<2xf32>
  } do {
  ^bb0(%k2: index, %acc2: tensor<2xf32>):
    %k3 = arith.addi %k2, %c1 : index
    %sum = tosa.add %acc2, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    scf.yield %k3, %sum : index, tensor<2xf32>
  }
  %small = arith.cmpi ult, %which, %c1 : index
  %picked = scf.if %small -> (tensor<2xf32>) {
    scf.yield %doubled : tensor<2xf32>
  } else {
    scf.yield %added : tensor<2xf32>
  }
  %switched = scf.index_switch %which -> tensor<2xf32>
  case 0 {
    scf.yield %x : tensor<2xf32>
  }
  case 1 {
    scf.yield %doubled : tensor<2xf32>
  }
  default {
    scf.yield %added : tensor<2xf32>
  }
  return %doubled, %added, %picked, %switched : tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>
}
"""


def test_scf_loops_branches_and_switches_run() -> None:
    x = np.array([1.0, -2.0], np.float32)
    for which, (picked, switched) in {0: (8, 1), 1: (6, 8), 7: (6, 6)}.items():
        text = LOOPS.replace("WHICH", str(which))
        module = parse_mlir(ts.make_context(), text, "loops.mlir")
        request = ts.compile_model(module, pipeline="").create_infer_request()
        doubled, added, got_picked, got_switched = request.infer([x])
        np.testing.assert_array_equal(doubled, 8 * x)  # three doublings
        np.testing.assert_array_equal(added, 6 * x)  # x plus five more
        np.testing.assert_array_equal(got_picked, picked * x)
        np.testing.assert_array_equal(got_switched, switched * x)


def test_running_a_model_does_not_import_xdsls_interpreter_package() -> None:
    code = ("import sys, numpy as np, tosa_state as ts\n"
            "ts.compile_model('examples/lstm_cell.xml').create_infer_request()\n"
            "print(sorted(m for m in sys.modules if m.startswith('xdsl.interpreters')))\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"
