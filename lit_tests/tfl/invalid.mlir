// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The tfl dialect's verifiers.

func.func @broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{tfl.add: shapes [2,3] and [4] do not broadcast}}
  %0 = tfl.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @activation(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{tfl.mul: fused_activation_function must be one of NONE, RELU, RELU_N1_TO_1, RELU6, TANH, got 'GELU'}}
  %0 = tfl.mul %a, %a {fused_activation_function = "GELU"} : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @less_result(%a: tensor<2xi32>) -> tensor<2xi32> {
  // expected-error@+1 {{tfl.less: result element type must be i1, got i32}}
  %0 = tfl.less %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  func.return %0 : tensor<2xi32>
}

// -----

func.func @logical_and(%a: tensor<2xf32>) -> tensor<2xi1> {
  // expected-error@+1 {{tfl.logical_and: lhs must be a boolean (i1) tensor, got tensor<2xf32>}}
  %0 = tfl.logical_and %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

func.func @fully_connected(%x: tensor<1x5xf32>, %w: tensor<3x4xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{tfl.fully_connected: input [1,5] is not made of rows of 4}}
  %0 = tfl.fully_connected %x, %w : (tensor<1x5xf32>, tensor<3x4xf32>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

func.func @fully_connected_bias(%x: tensor<1x4xf32>, %w: tensor<3x4xf32>, %b: tensor<4xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{tfl.fully_connected: bias must have shape [3], got [4]}}
  %0 = tfl.fully_connected %x, %w, %b : (tensor<1x4xf32>, tensor<3x4xf32>, tensor<4xf32>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

func.func @fully_connected_hybrid_scales(%x: tensor<1x4xf32>, %w: tensor<3x4xi8>) -> tensor<1x3xf32> {
  // expected-error@+1 {{tfl.fully_connected: filter_scale needs 1 or 3 values, got 2}}
  %0 = tfl.fully_connected %x, %w {filter_scale = array<f32: 0.5, 0.25>} : (tensor<1x4xf32>, tensor<3x4xi8>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

func.func @fully_connected_hybrid_types(%x: tensor<1x4xf32>, %w: tensor<3x4xf32>) -> tensor<1x3xf32> {
  // expected-error@+1 {{tfl.fully_connected: a hybrid fully_connected takes an i8 filter and f32 input}}
  %0 = tfl.fully_connected %x, %w {filter_scale = array<f32: 0.5>} : (tensor<1x4xf32>, tensor<3x4xf32>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

func.func @conv(%x: tensor<1x5x5x3xf32>, %w: tensor<8x3x3x2xf32>) -> tensor<1x5x5x8xf32> {
  // expected-error@+1 {{tfl.conv_2d: input [1,5,5,3] (NHWC) and filter [8,3,3,2] (OHWI) do not match}}
  %0 = tfl.conv_2d %x, %w {padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32} : (tensor<1x5x5x3xf32>, tensor<8x3x3x2xf32>) -> tensor<1x5x5x8xf32>
  func.return %0 : tensor<1x5x5x8xf32>
}

// -----

func.func @conv_shape(%x: tensor<1x5x5x3xf32>, %w: tensor<8x3x3x3xf32>) -> tensor<1x5x5x8xf32> {
  // expected-error@+1 {{tfl.conv_2d: result shape [1,5,5,8] does not match the expected [1,3,3,8]}}
  %0 = tfl.conv_2d %x, %w {padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32} : (tensor<1x5x5x3xf32>, tensor<8x3x3x3xf32>) -> tensor<1x5x5x8xf32>
  func.return %0 : tensor<1x5x5x8xf32>
}

// -----

func.func @concat(%a: tensor<1x2xf32>, %b: tensor<2x2xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{tfl.concatenation: cannot concatenate [1,2] and [2,2] along axis 1}}
  %0 = tfl.concatenation %a, %b {axis = 1 : i32} : (tensor<1x2xf32>, tensor<2x2xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @gather_axis(%p: tensor<4x3xf32>, %i: tensor<i32>) -> tensor<3xf32> {
  // expected-error@+1 {{tfl.gather: axis 2 is out of range for rank 2}}
  %0 = tfl.gather %p, %i {axis = 2 : i32} : (tensor<4x3xf32>, tensor<i32>) -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @reshape(%x: tensor<2x3xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{tfl.reshape: cannot reshape [2,3] to [4]}}
  %0 = tfl.reshape %x : (tensor<2x3xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @split(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %axis = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  // expected-error@+1 {{tfl.split: num_splits is 3 but there are 2 results}}
  %p:2 = tfl.split %axis, %x {num_splits = 3 : i32} : (tensor<i32>, tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  func.return %p#0 : tensor<1x2xf32>
}

// -----

func.func @slice(%x: tensor<2x3xf32>, %b: tensor<3xi32>) -> tensor<1x1xf32> {
  // expected-error@+1 {{tfl.slice: begin must have shape [2]}}
  %0 = tfl.slice %x, %b, %b : (tensor<2x3xf32>, tensor<3xi32>, tensor<3xi32>) -> tensor<1x1xf32>
  func.return %0 : tensor<1x1xf32>
}

// -----

func.func @var_handle() {
  // expected-error@+1 {{tfl.var_handle: shared_name must not be empty}}
  %h = tfl.var_handle {shared_name = ""} : !tfl.resource
  func.return
}

// -----

func.func @while_missing(%i: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{tfl.while: cond function @nope does not exist}}
  %0 = tfl.while %i {cond = @nope, body = @nope} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}

// -----

func.func @while_body_types(%i: tensor<i32>) -> tensor<i32> {
  // expected-error@+1 {{tfl.while: body @body must map the loop values to values of the same types}}
  %0 = tfl.while %i {cond = @cond, body = @body} : (tensor<i32>) -> tensor<i32>
  func.return %0 : tensor<i32>
}
func.func private @cond(%i: tensor<i32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<3> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>) -> tensor<f32> {
  %f = tfl.pseudo_const {value = dense<3.0> : tensor<f32>} : tensor<f32>
  func.return %f : tensor<f32>
}

// -----

func.func @call_once() {
  // expected-error@+1 {{tfl.call_once: init function @init must take and return nothing}}
  tfl.call_once {session_init_function = "init"}
  func.return
}
func.func private @init(%x: tensor<f32>) {
  func.return
}

// -----

func.func @lstm_weights(%x: tensor<1x2x3xf32>, %w: tensor<2x3xf32>, %bad: tensor<2x4xf32>, %r: tensor<2x2xf32>, %b: tensor<2xf32>, %h: tensor<1x2xf32>) -> tensor<1x2x2xf32> {
  // expected-error@+1 {{tfl.unidirectional_sequence_lstm: input_to_cell_weights must have shape [2,3], got [2,4]}}
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %bad, %w, %r, %r, %r, %r, %b, %b, %b, %b, %h, %h) <{operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0>}> : (tensor<1x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x4xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2x2xf32>
  func.return %y : tensor<1x2x2xf32>
}

// -----

func.func @variable_tensor() -> tensor<2xf32> {
  // expected-error@+1 {{tfl.variable_tensor: tensor_name must not be empty}}
  %v = tfl.variable_tensor {tensor_name = ""} : tensor<2xf32>
  func.return %v : tensor<2xf32>
}

// -----

func.func @quantize_types(%x: tensor<2xf32>) -> tensor<2xi16> {
  // expected-error@+1 {{tfl.quantize: converts between f32 and i8, got f32 -> i16}}
  %0 = tfl.quantize %x {scale = array<f32: 0.5>, zero_point = array<i64: 0>} : (tensor<2xf32>) -> tensor<2xi16>
  func.return %0 : tensor<2xi16>
}

// -----

func.func @dequantize_channels(%x: tensor<2x3xi8>) -> tensor<2x3xf32> {
  // expected-error@+1 {{tfl.dequantize: 2 scales do not match dimension 1 of [2, 3]}}
  %0 = tfl.dequantize %x {quantized_dimension = 1 : i64, scale = array<f32: 0.5, 0.25>, zero_point = array<i64: 0, 0>} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @dequantize_zero_points(%x: tensor<2xi8>) -> tensor<2xf32> {
  // expected-error@+1 {{tfl.dequantize: needs as many zero points as scales}}
  %0 = tfl.dequantize %x {scale = array<f32: 0.5>, zero_point = array<i64: 0, 1>} : (tensor<2xi8>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @unpack_count(%x: tensor<3x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{tfl.unpack: num is 2, there are 2 results and dim 0 of [3,4] to unpack}}
  %a, %b = tfl.unpack %x {num = 2 : i32, axis = 0 : i32} : (tensor<3x4xf32>) -> (tensor<4xf32>, tensor<4xf32>)
  func.return %a : tensor<4xf32>
}

// -----

func.func @lstm_hybrid_scale(%x: tensor<1x1x2xf32>, %w: tensor<3x2xf32>, %r: tensor<3x3xf32>, %b: tensor<3xf32>, %h: tensor<1x3xf32>) -> tensor<1x1x3xf32> {
  // expected-error@+1 {{tfl.unidirectional_sequence_lstm: weight_scales names input_to_forget_weights, which is not an i8 weight of the op}}
  %0 = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %r, %r, %r, %b, %b, %b, %h, %h) <{operandSegmentSizes = array<i32: 1, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0>, weight_scales = {input_to_forget_weights = 0.5 : f32}}> : (tensor<1x1x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3x3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<3xf32>, tensor<1x3xf32>, tensor<1x3xf32>) -> tensor<1x1x3xf32>
  func.return %0 : tensor<1x1x3xf32>
}
