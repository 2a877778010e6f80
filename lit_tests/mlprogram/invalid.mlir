// RUN: tosa-state-opt %s --verify-diagnostics -p tosa-to-mlprogram
// RUN: not tosa-state-opt %s -p tosa-to-mlprogram 2>&1 | filecheck %s --check-prefix=FAIL

// The pass fails, with a diagnostic, when a variable op would be left: here a legacy
// declaration in a function that is not directly in a module cannot be hoisted.

// FAIL: invalid.mlir:[[# @LINE + 7]]:7: error: 'tosa.variable' @v could not be hoisted: it is not at the top of a function body
// FAIL-NEXT: note: in pass 'tosa-to-mlprogram'
// expected-error@+5 {{'tosa.variable' @v could not be hoisted: it is not at the top of a function body}}
// expected-note@+4 {{in pass 'tosa-to-mlprogram'}}
func.func @outer(%c: tensor<i1>) {
  tosa.cond_if %c : tensor<i1> -> () {
    func.func @inner() -> tensor<2xf32> {
      tosa.variable @v = dense<1.0> : tensor<2xf32>
      %0 = tosa.variable.read @v : tensor<2xf32>
      return %0 : tensor<2xf32>
    }
    "tosa.yield"() : () -> ()
  } else {
    "tosa.yield"() : () -> ()
  }
  return
}
