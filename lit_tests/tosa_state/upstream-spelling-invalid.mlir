// RUN: not tosa-state-opt %s --tosa-spelling=upstream -o %t 2>&1 | filecheck %s
// RUN: not test -e %t
// RUN: tosa-state-opt %s -p tosa-expand-dequantize --tosa-spelling=upstream | filecheck %s --check-prefix=LOWERED

// Upstream spelling promises text upstream MLIR parses: a tosa_state op is refused, naming
// the pass that lowers it, and nothing is written.
// CHECK: upstream-spelling-invalid.mlir:[[# @LINE + 4]]:3: error: 'tosa_state.dequantize' op has no upstream MLIR spelling: lower it first (-p '...,tosa-expand-dequantize')
// LOWERED-NOT: tosa_state
// LOWERED: tosa.mul
func.func @w(%w: tensor<4xi8>, %s: tensor<1xf32>) -> tensor<4xf32> {
  %0 = tosa_state.dequantize %w scale %s {weight_type = "i8", weight_shape = array<i64: 4>} : (tensor<4xi8>, tensor<1xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
