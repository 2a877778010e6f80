// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifier of FakeQuantize.

func.func @one_level(%x: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error@+1 {{levels must be at least 2, got 1}}
  %0 = openvino.fake_quantize %x, %b, %b, %b, %b {levels = 1 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @integer_input(%x: tensor<4xi32>, %b: tensor<i32>) {
  // expected-error@+1 {{input must be a floating-point tensor, got tensor<4xi32>}}
  %0 = openvino.fake_quantize %x, %b, %b, %b, %b {levels = 256 : i64} : (tensor<4xi32>, tensor<i32>, tensor<i32>, tensor<i32>, tensor<i32>) -> tensor<4xi32>
  func.return
}

// -----

func.func @mixed_types(%x: tensor<4xf32>, %b: tensor<f32>, %h: tensor<f16>) {
  // expected-error@+1 {{input, bounds and result must have one element type, got f16, f32}}
  %0 = openvino.fake_quantize %x, %b, %h, %b, %b {levels = 256 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f16>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @broadcast_mode(%x: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error@+1 {{auto_broadcast must be one of numpy, none, got 'pdpd'}}
  %0 = openvino.fake_quantize %x, %b, %b, %b, %b {auto_broadcast = "pdpd", levels = 256 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @no_broadcast(%x: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error@+1 {{with auto_broadcast = "none" the operand shapes must match, got [4] and []}}
  %0 = openvino.fake_quantize %x, %b, %b, %b, %b {auto_broadcast = "none", levels = 256 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @bad_bound_shape(%x: tensor<4xf32>, %b: tensor<f32>, %c: tensor<3xf32>) {
  // expected-error@+1 {{shapes [4] and [3] cannot be broadcast (numpy rules)}}
  %0 = openvino.fake_quantize %x, %c, %b, %b, %b {levels = 256 : i64} : (tensor<4xf32>, tensor<3xf32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<4xf32>
  func.return
}

// -----

func.func @bad_result_shape(%x: tensor<4xf32>, %b: tensor<f32>) {
  // expected-error@+1 {{result shape [5] does not match the broadcast operand shape [4]}}
  %0 = openvino.fake_quantize %x, %b, %b, %b, %b {levels = 256 : i64} : (tensor<4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<5xf32>
  func.return
}
