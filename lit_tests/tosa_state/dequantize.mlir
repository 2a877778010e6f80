// RUN: tosa-state-opt %s --split-input-file | filecheck %s
// RUN: tosa-state-opt %s --split-input-file --print-op-generic | tosa-state-opt --split-input-file | filecheck %s

// tosa_state.dequantize: a compressed weight (stored bytes, scale, optional zero point).

// CHECK-LABEL: func.func @int4_groups(
// CHECK-NEXT:    %0 = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4", weight_shape = array<i64: 2, 2, 2>, zero_point_type = "u4", zero_point_shape = array<i64: 2, 2, 1>} : (tensor<4xi8>, tensor<2x2x1xf16>, tensor<2xi8>) -> tensor<2x4xf32>
func.func @int4_groups(%w: tensor<4xi8>, %s: tensor<2x2x1xf16>, %z: tensor<2xi8>) -> tensor<2x4xf32> {
  %0 = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4", weight_shape = array<i64: 2, 2, 2>, zero_point_type = "u4", zero_point_shape = array<i64: 2, 2, 1>} : (tensor<4xi8>, tensor<2x2x1xf16>, tensor<2xi8>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// CHECK-LABEL: func.func @int8_sym(
// CHECK-NEXT:    %0 = tosa_state.dequantize %w scale %s {weight_type = "i8", weight_shape = array<i64: 2, 3>} : (tensor<6xi8>, tensor<2x1xf32>) -> tensor<2x3xf16>
func.func @int8_sym(%w: tensor<6xi8>, %s: tensor<2x1xf32>) -> tensor<2x3xf16> {
  %0 = tosa_state.dequantize %w scale %s {weight_type = "i8", weight_shape = array<i64: 2, 3>} : (tensor<6xi8>, tensor<2x1xf32>) -> tensor<2x3xf16>
  func.return %0 : tensor<2x3xf16>
}
