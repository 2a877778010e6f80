// RUN: not tosa-state-opt %s -p tosa-expand-dequantize 2>&1 | filecheck %s

// CHECK: expand-dequantize-invalid.mlir:[[# @LINE + 2]]:3: error: 'tosa_state.dequantize' op of f8e4m3 weights has no TOSA 1.0 lowering (8-bit floats need TOSA's FP8 extension)
func.func @f8(%w: tensor<4xi8>, %s: tensor<1xf16>) -> tensor<4xf32> {
  %0 = tosa_state.dequantize %w scale %s {weight_type = "f8e4m3", weight_shape = array<i64: 4>} : (tensor<4xi8>, tensor<1xf16>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
