// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles="pro_int,pro_fp" extensions=""}' 2>&1 | filecheck %s

// Types no TOSA 1.0 profile has (i64, f64), and an operator that is not TOSA.
func.func @main(%x: tensor<4xi64>, %y: tensor<4xf64>, %w: tensor<4xi8>, %s: tensor<1xf32>) -> (tensor<4xi64>, tensor<4xf64>, tensor<4xf32>) {
  // CHECK: types.mlir:[[# @LINE + 1]]:3: error: 'tosa.add' op has types (i64, i64, i64), which no TOSA 1.0 profile or extension supports [profile]
  %a = tosa.add %x, %x : (tensor<4xi64>, tensor<4xi64>) -> tensor<4xi64>
  // CHECK: types.mlir:[[# @LINE + 1]]:3: error: 'tosa.add' op has types (f64, f64, f64), which no TOSA 1.0 profile or extension supports [profile]
  %b = tosa.add %y, %y : (tensor<4xf64>, tensor<4xf64>) -> tensor<4xf64>
  // CHECK: types.mlir:[[# @LINE + 1]]:3: error: 'tosa_state.dequantize' op is not a TOSA 1.0 operator: expand it (tosa-expand-dequantize) [operator]
  %c = tosa_state.dequantize %w scale %s {weight_type = "i8", weight_shape = array<i64: 4>} : (tensor<4xi8>, tensor<1xf32>) -> tensor<4xf32>
  return %a, %b, %c : tensor<4xi64>, tensor<4xf64>, tensor<4xf32>
}
// CHECK: error: 3 violation(s)
