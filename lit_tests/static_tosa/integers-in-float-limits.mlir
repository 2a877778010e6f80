// RUN: tosa-state-opt %s -p 'tosa-integers-in-float' | filecheck %s
// RUN: not tosa-state-opt %s -p 'tosa-integers-in-float,tosa-validate{profiles=pro_fp extensions=""}' 2>&1 | filecheck %s --check-prefix=REFUSED

// An i32 constant beyond 2^24 is not exact in f32: the op stays as it is, and the target
// check names it.

// CHECK-LABEL: func.func @too_large
// CHECK-NOT: tosa.cast
// CHECK: tosa.greater %x, %big : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi1>
func.func @too_large(%x: tensor<2xi32>) -> tensor<2xi1> {
  %big = "tosa.const"() <{values = dense<16777217> : tensor<1xi32>}> : () -> tensor<1xi32>
  // REFUSED: integers-in-float-limits.mlir:[[# @LINE + 1]]:3: error: 'tosa.greater' op with types (i32, i32, bool) requires any of [pro_int] profiles/extensions to be specified in the target [profile]
  %g = tosa.greater %x, %big : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi1>
  func.return %g : tensor<2xi1>
}
