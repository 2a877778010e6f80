// RUN: tosa-state-opt --verify-diagnostics %s
// RUN: tosa-state-opt --verify-diagnostics=only-expected %s
// RUN: not tosa-state-opt --verify-diagnostics=sometimes %s 2>&1 | filecheck %s

// As in mlir-opt, `--verify-diagnostics` takes a value only as `=value`: the input file after
// it is the input, not the flag's value (the runs above exit 0 only if the expected error is
// produced from this file).

tosa.variable @v : tensor<2xf32>
func.func @f() -> tensor<2xf32> {
  // expected-error@+1 {{'tosa.variable.read' op 'nope' has not been declared by 'tosa.variable'}}
  %0 = tosa.variable.read @nope : tensor<2xf32>
  return %0 : tensor<2xf32>
}

// CHECK: invalid choice: 'sometimes'
