// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p convert-tflite-to-tosa
// RUN: not tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa 2>&1 | filecheck %s --check-prefix=FAIL

// The pass fails at the first op it cannot convert, saying why (for an imported .tflite file
// the message names the operator: `model.tflite: error: operator #5 (WHILE) in subgraph
// 'main': ...`).

// A loop whose trip count depends on an input cannot be unrolled.
// FAIL: invalid.mlir:[[# @LINE + 5]]:3: error: 'tfl.while' op could not be converted to TOSA: the loop condition @cond does not fold to a constant (the trip count must be known at compile time to unroll the loop)
// FAIL-NEXT: note: in pass 'convert-tflite-to-tosa'
func.func @dynamic_trip_count(%n: tensor<i32>, %s: tensor<2xf32>) -> tensor<2xf32> {
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.while' op could not be converted to TOSA: the loop condition @cond does not fold to a constant (the trip count must be known at compile time to unroll the loop)}}
  %i, %m, %out = tfl.while %n, %n, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<i32>, tensor<2xf32>)
  func.return %out : tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %n: tensor<i32>, %s: tensor<2xf32>) -> tensor<i1> {
  %z = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  %c = tfl.less %z, %i : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %n: tensor<i32>, %s: tensor<2xf32>) -> (tensor<i32>, tensor<i32>, tensor<2xf32>) {
  func.return %i, %n, %s : tensor<i32>, tensor<i32>, tensor<2xf32>
}

// -----

// More iterations than the unroll limit (256).
func.func @too_long(%s: tensor<2xf32>) -> tensor<2xf32> {
  %z = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.while' op could not be converted to TOSA: the loop runs more than 256 iterations (the unroll limit)}}
  %i, %out = tfl.while %z, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  func.return %out : tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %s: tensor<2xf32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<1000> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %s: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %one = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %j = tfl.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  func.return %j, %s : tensor<i32>, tensor<2xf32>
}

// -----

// An error inside a loop body names the body's op.
// FAIL: invalid.mlir:[[# @LINE + 6]]:3: error: 'tfl.while' op could not be converted to TOSA:
// FAIL-SAME: invalid.mlir:[[# @LINE + 17]]:3: 'tfl.gather': index out of range [0, 2) in [5]
func.func @bad_index(%s: tensor<2xf32>) -> tensor<2xf32> {
  %z = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.gather': index out of range [0, 2) in [5]}}
  %i, %out = tfl.while %z, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  func.return %out : tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %s: tensor<2xf32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %s: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %one = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %j = tfl.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %five = tfl.pseudo_const {value = dense<[5]> : tensor<1xi32>} : tensor<1xi32>
  %g = tfl.gather %s, %five {axis = 0 : i32} : (tensor<2xf32>, tensor<1xi32>) -> tensor<1xf32>
  %t = tfl.concatenation %g, %g {axis = 0 : i32} : (tensor<1xf32>, tensor<1xf32>) -> tensor<2xf32>
  func.return %j, %t : tensor<i32>, tensor<2xf32>
}

// -----

// A variable read and written with two types.
func.func @two_types(%x: tensor<3xf32>) -> tensor<2xf32> {
  %h = tfl.var_handle {shared_name = "v"} : !tfl.resource
  %r = tfl.read_variable %h : (!tfl.resource) -> tensor<2xf32>
  // expected-note@+3 {{in pass 'convert-tflite-to-tosa'}}
  // expected-note@+2 {{1 more 'tfl' op(s) were left unconverted}}
  // expected-error@+1 {{'tfl.assign_variable' op could not be converted to TOSA: it writes tensor<3xf32> to variable 'v' of type tensor<2xf32>}}
  tfl.assign_variable %h, %x : !tfl.resource, tensor<3xf32>
  func.return %r : tensor<2xf32>
}

// -----

// A loop body that runs the same loop: refused (no endless translation).
func.func @recursive(%s: tensor<2xf32>) -> tensor<2xf32> {
  %z = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.while': subgraphs call themselves (@body -> @body)}}
  %i, %out = tfl.while %z, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  func.return %out : tensor<2xf32>
}
func.func private @cond(%i: tensor<i32>, %s: tensor<2xf32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<2> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %s: tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>) {
  %one = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %j = tfl.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %k, %t = tfl.while %j, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<2xf32>) -> (tensor<i32>, tensor<2xf32>)
  func.return %k, %t : tensor<i32>, tensor<2xf32>
}

// -----

// LiteRT's symmetric per-call input quantization (asymmetric_quantize_inputs = false).
func.func @hybrid_symmetric(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %w = tfl.pseudo_const {value = dense<[[1, -2, 3], [4, 5, -128]]> : tensor<2x3xi8>} : tensor<2x3xi8>
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.fully_connected' op could not be converted to TOSA: a hybrid FULLY_CONNECTED with symmetric input quantization (asymmetric_quantize_inputs = false) is not supported yet}}
  %y = tfl.fully_connected %x, %w {filter_scale = array<f32: 0.5>} : (tensor<1x3xf32>, tensor<2x3xi8>) -> tensor<1x2xf32>
  func.return %y : tensor<1x2xf32>
}

// -----

// int8 data movement keeps the values: a change of scale (a requantization) is refused.
func.func @requantizing_reshape(%x: tensor<1x4xi8>) -> tensor<4xi8> {
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.reshape' op could not be converted to TOSA: int8 inputs and results with different scales or zero points (requantizing data movement is not supported)}}
  %y = tfl.reshape %x {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: 0>, dimension = 0 : i64}], outputs = [{scale = array<f32: 0.25>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x4xi8>) -> tensor<4xi8>
  func.return %y : tensor<4xi8>
}

// -----

// Per-channel scales on an activation (only weights are quantized per channel).
func.func @per_channel_activation(%x: tensor<1x2xi8>) -> tensor<1x2xi8> {
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.relu' op could not be converted to TOSA: the input is quantized per channel (2 scales)}}
  %y = tfl.relu %x {tfl.quantization = {inputs = [{scale = array<f32: 0.5, 0.25>, zero_point = array<i64: 0, 0>, dimension = 1 : i64}], outputs = [{scale = array<f32: 0.25>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x2xi8>) -> tensor<1x2xi8>
  func.return %y : tensor<1x2xi8>
}

// -----

// A hybrid CONV_2D with SAME padding: LiteRT pads with each batch's zero point.
func.func @hybrid_conv_same(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x2x2xf32> {
  %w = tfl.pseudo_const {value = dense<1> : tensor<2x1x2x3xi8>} : tensor<2x1x2x3xi8>
  // expected-note@+2 {{in pass 'convert-tflite-to-tosa'}}
  // expected-error@+1 {{'tfl.conv_2d' op could not be converted to TOSA: a hybrid CONV_2D with padding (LiteRT pads with each batch's zero point) is not supported yet}}
  %y = tfl.conv_2d %x, %w {filter_scale = array<f32: 0.5>, padding = "SAME", stride_h = 1 : i32, stride_w = 1 : i32} : (tensor<1x2x2x3xf32>, tensor<2x1x2x3xi8>) -> tensor<1x2x2x2xf32>
  func.return %y : tensor<1x2x2x2xf32>
}
