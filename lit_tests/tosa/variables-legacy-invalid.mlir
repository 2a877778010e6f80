// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// The RFC's static rules for in-function declarations.

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
func.func @a() {
  tosa.variable @v : tensor<2xf32>
  return
}
func.func @b() {
  // expected-error@+1 {{'tosa.variable' op variable 'v' is declared with a different type or initial value elsewhere ('tensor<2xf32>' vs 'tensor<3xf32>')}}
  tosa.variable @v : tensor<3xf32>
  return
}

// -----
func.func @c() {
  tosa.variable @v = dense<0.0> : tensor<2xf32>
  return
}
func.func @d() {
  // expected-error@+1 {{'tosa.variable' op variable 'v' is declared with a different type or initial value elsewhere}}
  tosa.variable @v = dense<1.0> : tensor<2xf32>
  return
}

// -----
func.func @nested(%c: tensor<i1>) {
  "tosa.cond_if"(%c) ({
    // expected-error@+1 {{'tosa.variable' op must be declared directly in a module (or, in the legacy form, at the top of a function body), not inside 'tosa.cond_if'}}
    tosa.variable @v : tensor<2xf32>
    "tosa.yield"() : () -> ()
  }, {
    "tosa.yield"() : () -> ()
  }) : (tensor<i1>) -> ()
  return
}
