// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref --verify-diagnostics
// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref --verify-diagnostics=only-expected

// mlir-opt's annotations, each form once; every chunk's diagnostics are all expected, so
// the run succeeds (exit 0).

// On the line itself.
func.func @same_line() -> tensor<f32> {
  %0 = tosa.variable.read @a : tensor<f32> // expected-error {{'a' has not been declared}}
  return %0 : tensor<f32>
}

// -----

// expected-error@+2 {{'tosa.variable.read' op 'b' has not been declared by 'tosa.variable'}}
func.func @plus() -> tensor<f32> {
  %0 = tosa.variable.read @b : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @minus() -> tensor<f32> {
  %0 = tosa.variable.read @c : tensor<f32>
  return %0 : tensor<f32>
  // expected-error@-2 {{'c' has not been}}
}

// -----

func.func @above() -> tensor<f32> {
  %0 = tosa.variable.read @d : tensor<f32>
  // expected-error@above {{declared by 'tosa.variable'}}
  return %0 : tensor<f32>
}

// -----

func.func @below() -> tensor<f32> {
  // expected-error@below {{'e' has not been declared}}
  %0 = tosa.variable.read @e : tensor<f32>
  return %0 : tensor<f32>
}

// -----

func.func @regex() -> tensor<f32> {
  // expected-error-re@below {{op '{{[a-z]}}' has not been declared by 'tosa.{{[a-z_]+}}'}}
  %0 = tosa.variable.read @f : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// A pass failure: its note (printed without a location) is on the error's line.
// expected-note@+2 {{in pass 'convert-tosa-variables-to-memref'}}
// expected-error@+1 {{needs a global named 'dyn__sizes' for its sizes, but that name is taken}}
tosa.variable @dyn : tensor<?xi8>
tosa.variable @dyn__sizes = dense<1> : tensor<2xi32>

// -----

// A module error has no location.
ml_program.global private mutable @x : tensor<4xi32>
// expected-error@unknown {{Redefinition of symbol "x"}}
ml_program.global private mutable @x : tensor<4xi32>

// -----

// A chunk without errors is printed and needs no annotation.
func.func @fine() {
  return
}
