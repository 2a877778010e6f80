// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles="pro_int,pro_fp" extensions=controlflow}' 2>&1 | filecheck %s

// TOSA's control flow takes its values as block arguments: a branch that uses a value from
// outside is not conformant (upstream's strict spec alignment says the same).
func.func @main(%c: tensor<i1>, %x: tensor<4xi32>) -> tensor<4xi32> {
  // CHECK: spec.mlir:[[# @LINE + 2]]:3: error: 'tosa.cond_if' op requires the 'then' region to be isolated from above (it uses a value defined outside it) [spec]
  // CHECK: spec.mlir:[[# @LINE + 1]]:3: error: 'tosa.cond_if' op requires the 'else' region to be isolated from above (it uses a value defined outside it) [spec]
  %r = tosa.cond_if %c : tensor<i1> -> tensor<4xi32> {
    tosa.yield %x : tensor<4xi32>
  } else {
    tosa.yield %x : tensor<4xi32>
  }
  return %r : tensor<4xi32>
}
// CHECK: error: 2 violation(s)
