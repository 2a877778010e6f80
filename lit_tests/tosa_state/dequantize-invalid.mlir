// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// One case per verifier rule of tosa_state.dequantize.

func.func @weights_size(%w: tensor<5xi8>, %s: tensor<2x1xf16>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op weights of [2, 4] x u4 are stored as tensor<4xi8>, got tensor<5xi8>}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<5xi8>, tensor<2x1xf16>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @weight_type(%w: tensor<4xi8>, %s: tensor<2x1xf16>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op unknown weights type 'u3'}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u3", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<2x1xf16>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @scale_shape(%w: tensor<4xi8>, %s: tensor<3x1xf16>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op scale of shape [3, 1] does not broadcast to the weights' shape [2, 4]}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<3x1xf16>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @scale_type(%w: tensor<4xi8>, %s: tensor<2x1xi8>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op the scale must be a tensor of floats}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<2x1xi8>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @zero_point_without_type(%w: tensor<4xi8>, %s: tensor<2x1xf16>, %z: tensor<1xi8>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op a zero point needs zero_point_type and zero_point_shape}}
  %0 = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<2x1xf16>, tensor<1xi8>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @zero_point_shape(%w: tensor<4xi8>, %s: tensor<2x1xf16>, %z: tensor<2xi8>) -> tensor<2x4xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op zero point of shape [3] does not broadcast to the weights' shape [2, 4]}}
  %0 = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4", weight_shape = array<i64: 2, 4>, zero_point_type = "u4", zero_point_shape = array<i64: 3>} : (tensor<4xi8>, tensor<2x1xf16>, tensor<2xi8>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @result_size(%w: tensor<4xi8>, %s: tensor<2x1xf16>) -> tensor<2x3xf32> {
  // expected-error@+1 {{'tosa_state.dequantize' op the result tensor<2x3xf32> must have the 8 elements of the weights}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<2x1xf16>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @result_type(%w: tensor<4xi8>, %s: tensor<2x1xf16>) -> tensor<2x4xi32> {
  // expected-error@+1 {{'tosa_state.dequantize' op the result must be a tensor of floats}}
  %0 = tosa_state.dequantize %w scale %s {weight_type = "u4", weight_shape = array<i64: 2, 4>} : (tensor<4xi8>, tensor<2x1xf16>) -> tensor<2x4xi32>
  func.return %0 : tensor<2x4xi32>
}
