// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// The RFC's static rules for in-function declarations. Several functions may declare one
// name, even differently (function-scoped, as upstream): see variables-legacy-upstream.mlir
// and, for what hoisting refuses, hoist-variables-invalid.mlir.

func.func @twice() {
  tosa.variable @v : tensor<2xf32>
  // expected-error@+1 {{'tosa.variable' op redefinition of symbol named 'v'}}
  tosa.variable @v : tensor<2xf32>
  return
}

// -----
func.func @use_before_declaration() -> tensor<2xf32> {
  // expected-error@+1 {{'tosa.variable.read' op 'v' is used before its declaration in function 'use_before_declaration'}}
  %0 = tosa.variable.read @v : tensor<2xf32>
  tosa.variable @v = dense<1.0> : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// -----
func.func @nested(%c: tensor<i1>) {
  "tosa.cond_if"(%c) ({
    // expected-error@+1 {{'tosa.variable' op variable 'v' must be declared directly in a module (or, in the legacy form, at the top of a function body), not inside 'tosa.cond_if'}}
    tosa.variable @v : tensor<2xf32>
    "tosa.yield"() : () -> ()
  }, {
    "tosa.yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return
}
