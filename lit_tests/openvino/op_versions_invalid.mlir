// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifiers of the properties that other opset versions of ops add.

func.func @broadcast_pdpd_axis(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %shape = openvino.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{openvino.broadcast: pdpd_axis must be >= -1, got -2}}
  %0 = openvino.broadcast %x, %shape {mode = "pdpd", pdpd_axis = -2 : i64} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @mvn_axes_twice(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %axes = openvino.constant dense<[1]> : tensor<1xi64>
  // expected-error@+1 {{openvino.mvn: takes either the axes operand or the reduction_axes property}}
  %0 = openvino.mvn %x, %axes {normalize_variance = true, eps = 1.0e-5 : f64, eps_mode = "inside_sqrt", reduction_axes = array<i64: 1>} : (tensor<2x3xf32>, tensor<1xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @mvn_no_axes(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{openvino.mvn: takes either the axes operand or the reduction_axes property}}
  %0 = openvino.mvn %x {normalize_variance = true, eps = 1.0e-5 : f64, eps_mode = "inside_sqrt"} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @lstm_cell_peepholes(%x: tensor<1x3xf32>, %h: tensor<1x2xf32>, %c: tensor<1x2xf32>, %w: tensor<8x3xf32>, %r: tensor<8x2xf32>, %b: tensor<8xf32>, %p: tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  // expected-error@+1 {{openvino.lstm_cell: P must have shape [6], got [4]}}
  %ho, %co = openvino.lstm_cell %x, %h, %c, %w, %r, %b, %p {hidden_size = 2 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x3xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<4xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  func.return %ho, %co : tensor<1x2xf32>, tensor<1x2xf32>
}
