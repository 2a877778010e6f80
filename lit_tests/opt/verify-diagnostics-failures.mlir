// RUN: not tosa-state-opt %s --split-input-file --verify-diagnostics 2>&1 | filecheck %s
// RUN: not tosa-state-opt %s --split-input-file --verify-diagnostics=only-expected 2>&1 \
// RUN:   | filecheck %s --check-prefix=ONLY

// Each way an annotated file fails, in mlir-opt's wording, chunk by chunk: the run exits 1
// and reports every problem. With =only-expected, unexpected diagnostics are ignored.
// The chunks without errors are printed first (stdout), then the problems (stderr).

// CHECK-LABEL: func.func @nothing
// CHECK-LABEL: func.func @fine
// ONLY-LABEL: func.func @fine

// An annotation nothing produces.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:4: error: expected error "a message nobody produces" was not produced
// ONLY: verify-diagnostics-failures.mlir:[[# @LINE + 1]]:4: error: expected error "a message nobody produces" was not produced
// expected-error@below {{a message nobody produces}}
func.func @nothing() {
  return
}

// -----

// A diagnostic no annotation expects.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:3: error: unexpected error: 'tosa.variable.read' op 'a' has not been declared by 'tosa.variable'
// ONLY-NOT: unexpected error
func.func @unexpected() -> tensor<f32> {
  %0 = tosa.variable.read @a : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// The right text on the wrong line.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:3: error: unexpected error: 'tosa.variable.read' op 'b' has not been declared
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:6: error: expected error "'b' has not been declared" was not produced
func.func @wrong_line() -> tensor<f32> {
  %0 = tosa.variable.read @b : tensor<f32>
  // expected-error@+1 {{'b' has not been declared}}
  return %0 : tensor<f32>
}

// -----

// The right text with another severity: a near miss, reported at the annotation.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:47: error: 'error' diagnostic emitted when expecting a 'warning'
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 2]]:47: error: expected warning "'c' has not been declared" was not produced
func.func @near_miss() -> tensor<f32> {
  %0 = tosa.variable.read @c : tensor<f32> // expected-warning {{'c' has not been declared}}
  return %0 : tensor<f32>
}

// -----

// A regular expression that does not match, and one that does not compile.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:4: error: invalid regex: {{.*}}
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 5]]:3: error: unexpected error: 'tosa.variable.read' op 'd'
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 3]]:4: error: expected error "op '{{[{][{]}}[0-9]+{{[}][}]}}' has not been declared" was not produced
func.func @regex() -> tensor<f32> {
// expected-error-re@+2 {{op '{{[a-z}}' has not been declared}}
// expected-error-re@+1 {{op '{{[0-9]+}}' has not been declared}}
  %0 = tosa.variable.read @d : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// An annotation of an unknown location is not met by a located diagnostic.
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 4]]:3: error: unexpected error: 'tosa.variable.read' op 'e'
// CHECK: verify-diagnostics-failures.mlir:[[# @LINE + 1]]:4: error: expected error "has not been declared" was not produced
// expected-error@unknown {{has not been declared}}
func.func @unknown() -> tensor<f32> {
  %0 = tosa.variable.read @e : tensor<f32>
  return %0 : tensor<f32>
}

// -----

// Every chunk is checked: a later chunk without problems does not hide the earlier ones.
func.func @fine() {
  return
}
