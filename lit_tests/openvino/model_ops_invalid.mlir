// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifiers of SoftPlus, ErfInv, CumSum and Roll.

func.func @softplus_of_integers(%x: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{input must be a floating-point tensor, got tensor<2xi32>}}
  %0 = openvino.softplus %x : (tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

func.func @erfinv_of_integers(%x: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error@+1 {{input must be a floating-point tensor, got tensor<2xi64>}}
  %0 = openvino.erfinv %x : (tensor<2xi64>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

func.func @cumsum_axis_not_scalar(%x: tensor<2x3xf32>, %axis: tensor<2xi64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{axis must be a scalar, got tensor<2xi64>}}
  %0 = openvino.cumsum %x, %axis : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_float_axis(%x: tensor<2x3xf32>, %axis: tensor<f32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{axis must be an integer tensor, got tensor<f32>}}
  %0 = openvino.cumsum %x, %axis : (tensor<2x3xf32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @cumsum_of_booleans(%x: tensor<2xi1>, %axis: tensor<i64>) -> tensor<2xi1> {
  // expected-error@+1 {{input must be numeric, got tensor<2xi1>}}
  %0 = openvino.cumsum %x, %axis : (tensor<2xi1>, tensor<i64>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

func.func @cumsum_changes_shape(%x: tensor<2x3xf32>, %axis: tensor<i64>) -> tensor<2x4xf32> {
  // expected-error@+1 {{result shape [2,4] differs from the input shape [2,3]}}
  %0 = openvino.cumsum %x, %axis : (tensor<2x3xf32>, tensor<i64>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @roll_shift_axes_mismatch(%x: tensor<2x3xf32>, %shift: tensor<2xi64>, %axes: tensor<3xi64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{shift has 2 elements but axes has 3}}
  %0 = openvino.roll %x, %shift, %axes : (tensor<2x3xf32>, tensor<2xi64>, tensor<3xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @roll_shifts_for_a_scalar_axis(%x: tensor<2x3xf32>, %shift: tensor<2xi64>, %axis: tensor<i64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{shift has 2 elements but axes has 1}}
  %0 = openvino.roll %x, %shift, %axis : (tensor<2x3xf32>, tensor<2xi64>, tensor<i64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @roll_axes_of_rank_two(%x: tensor<2x3xf32>, %shift: tensor<i64>, %axes: tensor<1x1xi64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{axes must be 0-D or 1-D, got tensor<1x1xi64>}}
  %0 = openvino.roll %x, %shift, %axes : (tensor<2x3xf32>, tensor<i64>, tensor<1x1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @roll_changes_type(%x: tensor<2x3xf32>, %shift: tensor<i64>) -> tensor<2x3xf16> {
  // expected-error@+1 {{input and result must have one element type, got f16, f32}}
  %0 = openvino.roll %x, %shift, %shift : (tensor<2x3xf32>, tensor<i64>, tensor<i64>) -> tensor<2x3xf16>
  func.return %0 : tensor<2x3xf16>
}

