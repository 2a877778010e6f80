// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p convert-tosa-variables-to-memref
// RUN: not tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref 2>&1 | filecheck %s --check-prefix=FAIL

// The pass fails, with a diagnostic at the first variable op it could not lower, when a
// variable op would be left.

// A dynamic variable needs a second global, `<name>__sizes`, for its lengths and capacities.
// FAIL: invalid.mlir:[[# @LINE + 4]]:1: error: 'tosa.variable' op could not be lowered by 'convert-tosa-variables-to-memref': variable 'dyn' has a dynamic type and needs a global named 'dyn__sizes' for its sizes, but that name is taken
// FAIL-NEXT: note: in pass 'convert-tosa-variables-to-memref'
// expected-note@+2 {{in pass 'convert-tosa-variables-to-memref'}}
// expected-error@+1 {{'tosa.variable' op could not be lowered by 'convert-tosa-variables-to-memref': variable 'dyn' has a dynamic type and needs a global named 'dyn__sizes' for its sizes, but that name is taken}}
tosa.variable @dyn : tensor<2x?xi8>
tosa.variable @dyn__sizes = dense<1> : tensor<2xi32>
func.func @f(%x: tensor<2x?xi8>) {
  tosa.variable.write @dyn, %x : tensor<2x?xi8>
  return
}

// -----

// A legacy declaration in a function that is not directly in a module cannot be hoisted.
// expected-error@+5 {{'tosa.variable' @v could not be hoisted: it is not at the top of a function body}}
// expected-note@+4 {{in pass 'convert-tosa-variables-to-memref'}}
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
