// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p convert-openvino-to-tosa
// RUN: not tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa 2>&1 | filecheck %s --check-prefix=FAIL

// The pass fails at the first op it cannot convert (after an OpenVINO IR import, the message
// also names the layer: id, name, type and opset).

// A shape argument computed at run time.
// FAIL: invalid.mlir:[[# @LINE + 5]]:3: error: 'openvino.reshape' op could not be converted to TOSA: the target shape must be a constant (or computed from static shapes only)
// FAIL-NEXT: note: in pass 'convert-openvino-to-tosa'
// expected-note@+3 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+2 {{'openvino.reshape' op could not be converted to TOSA: the target shape must be a constant (or computed from static shapes only)}}
func.func @computed_shape(%x: tensor<6xf32>, %shape: tensor<2xi64>) -> tensor<?x?xf32> {
  %0 = openvino.reshape %x, %shape : (tensor<6xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

// A variable with a static init keeps its shape.
// expected-note@+5 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+4 {{'openvino.assign' op could not be converted to TOSA: it writes tensor<2x4xf32> to variable 'v' of type tensor<1x4xf32>: a variable with a static init keeps its shape across calls}}
func.func @grows(%x: tensor<2x4xf32>) -> tensor<?x4xf32> {
  %i = openvino.constant dense<0.0> : tensor<1x4xf32>
  %0 = openvino.read_value "v"(%i) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 4]>} : (tensor<1x4xf32>) -> tensor<?x4xf32>
  openvino.assign "v", %x {version = 6 : i64} : tensor<2x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// A variable of a dynamic rank needs an init.
// expected-note@+4 {{1 more 'openvino' op(s) were left unconverted}}
// expected-note@+3 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+2 {{'openvino.read_value' op could not be converted to TOSA: variable 'v' has a dynamic rank and no init}}
func.func @rank(%x: tensor<2x4xf32>) -> tensor<*xf32> {
  %0 = openvino.read_value "v" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<*>} : () -> tensor<*xf32>
  openvino.assign "v", %x {version = 6 : i64} : tensor<2x4xf32>
  func.return %0 : tensor<*xf32>
}

// -----

// Recurrent cells support the sigmoid, tanh and relu activations.
// expected-note@+6 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+5 {{'openvino.gru_cell' op could not be converted to TOSA: activation(s) softsign (supported: sigmoid, tanh, relu)}}
func.func @activation(%x: tensor<1x2xf32>, %h: tensor<1x3xf32>) -> tensor<1x3xf32> {
  %w = openvino.constant dense<0.5> : tensor<9x2xf32>
  %r = openvino.constant dense<0.25> : tensor<9x3xf32>
  %b = openvino.constant dense<0.0> : tensor<9xf32>
  %0 = openvino.gru_cell %x, %h, %w, %r, %b {hidden_size = 3 : i64, activations = ["softsign", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x2xf32>, tensor<1x3xf32>, tensor<9x2xf32>, tensor<9x3xf32>, tensor<9xf32>) -> tensor<1x3xf32>
  func.return %0 : tensor<1x3xf32>
}

// -----

// Unsigned integers are added, multiplied and compared (in the signless type of their width),
// not divided; the ops that depend on the failed one are counted.
// expected-note@+4 {{in pass 'convert-openvino-to-tosa'}}
// expected-error@+3 {{'openvino.divide' op could not be converted to TOSA: division of ui16 values}}
// expected-note@+2 {{1 more 'openvino' op(s) were left unconverted}}
func.func @unsigned(%x: tensor<4xui16>) -> tensor<4xui16> {
  %0 = openvino.divide %x, %x : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  %1 = openvino.multiply %0, %x : (tensor<4xui16>, tensor<4xui16>) -> tensor<4xui16>
  func.return %1 : tensor<4xui16>
}

// -----

// Range's length is data-dependent: its bounds must be constants (or fold to constants).
func.func @computed_range(%stop: tensor<i64>) -> tensor<?xi64> {
  %zero = openvino.constant dense<0> : tensor<i64>
  %one = openvino.constant dense<1> : tensor<i64>
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.range' op could not be converted to TOSA: stop must be a constant (or computed from static shapes only)}}
  %0 = openvino.range %zero, %stop, %one {output_type = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return %0 : tensor<?xi64>
}

// -----

// A TensorIterator must run at least once (OpenVINO rejects an empty sliced axis too).
func.func @ti_no_iteration(%x: tensor<1x0x2xf32>, %h: tensor<1x2xf32>) -> tensor<1x2xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.tensor_iterator' op could not be converted to TOSA: it runs no iteration (its sliced axes are empty), which OpenVINO rejects too}}
  %0 = openvino.tensor_iterator(%x, %h) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0>], back_edges = [#openvino.back_edge<from = 0, to = 1>]} : (tensor<1x0x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%xi: tensor<1x1x2xf32>, %hi: tensor<1x2xf32>):
    %axes = openvino.constant dense<1> : tensor<1xi64>
    %xs = openvino.squeeze %xi, %axes : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %s = openvino.add %xs, %hi : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    openvino.yield %s : tensor<1x2xf32>
  }
  func.return %0 : tensor<1x2xf32>
}

// -----

// A Loop bounded by its condition only (trip count -1) is refused, naming the op.
func.func @loop_unbounded(%x: tensor<1x3x2xf32>, %h: tensor<1x2xf32>) -> tensor<1x2xf32> {
  %trip = openvino.constant dense<-1> : tensor<i64>
  %go = openvino.constant dense<true> : tensor<i1>
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.loop' op could not be converted to TOSA: a trip count of -1 (a loop bounded by its condition only)}}
  %0 = openvino.loop(%trip, %go, %x, %h) {input_port_map = [#openvino.port_map<external = 2, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 3, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>], current_iteration = -1 : i64, condition = 0 : i64} : (tensor<i64>, tensor<i1>, tensor<1x3x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32> {
  ^bb0(%xi: tensor<1x1x2xf32>, %hi: tensor<1x2xf32>):
    %true = openvino.constant dense<true> : tensor<i1>
    %axes = openvino.constant dense<1> : tensor<1xi64>
    %xs = openvino.squeeze %xi, %axes : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %s = openvino.add %xs, %hi : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    openvino.yield %true, %s : tensor<i1>, tensor<1x2xf32>
  }
  func.return %0 : tensor<1x2xf32>
}

// -----

// A concatenated output whose step value has a dynamic dim (the batch): its zeros would be
// built before the loop, where the body value's sizes are not known.
func.func @ti_dynamic_batch_output(%x: tensor<?x3x2xf32>, %h: tensor<?x2xf32>) -> tensor<?x3x2xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.tensor_iterator' op could not be converted to TOSA: output 0 has dynamic dims [?,1,2] and is not a back edge (its zeros are built before the loop)}}
  %0 = openvino.tensor_iterator(%x, %h) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<?x3x2xf32>, tensor<?x2xf32>) -> tensor<?x3x2xf32> {
  ^bb0(%xi: tensor<?x1x2xf32>, %hi: tensor<?x2xf32>):
    %axes = openvino.constant dense<1> : tensor<1xi64>
    %xs = openvino.squeeze %xi, %axes : (tensor<?x1x2xf32>, tensor<1xi64>) -> tensor<?x2xf32>
    %s = openvino.add %xs, %hi : (tensor<?x2xf32>, tensor<?x2xf32>) -> tensor<?x2xf32>
    %y = openvino.unsqueeze %s, %axes : (tensor<?x2xf32>, tensor<1xi64>) -> tensor<?x1x2xf32>
    openvino.yield %y, %s : tensor<?x1x2xf32>, tensor<?x2xf32>
  }
  func.return %0 : tensor<?x3x2xf32>
}

// -----

// The sliced ports must agree on the iteration count: 3 input parts, 4 output parts.
func.func @ti_count_mismatch(%x: tensor<1x3x2xf32>) -> tensor<1x4x2xf32> {
  // expected-note@+2 {{in pass 'convert-openvino-to-tosa'}}
  // expected-error@+1 {{'openvino.tensor_iterator' op could not be converted to TOSA: cannot tell the iteration count (candidates: [3, 4])}}
  %0 = openvino.tensor_iterator(%x) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>], back_edges = []} : (tensor<1x3x2xf32>) -> tensor<1x4x2xf32> {
  ^bb0(%xi: tensor<1x1x2xf32>):
    %s = openvino.relu %xi : (tensor<1x1x2xf32>) -> tensor<1x1x2xf32>
    openvino.yield %s : tensor<1x1x2xf32>
  }
  func.return %0 : tensor<1x4x2xf32>
}

// -----

// A strided convolution over a dynamic length is refused (TOSA's padding is static; the
// fitting end padding would depend on the length).
// expected-note@+4 {{in pass 'convert-openvino-to-tosa'}}
func.func @strided_dynamic(%x: tensor<1x4x?xf32>) -> tensor<1x4x?xf32> {
  %w = openvino.constant dense<1.0> : tensor<4x1x1x3xf32>
  // expected-error@+1 {{'openvino.group_convolution' op could not be converted to TOSA: a strided convolution or pooling over a dynamic spatial size}}
  %0 = openvino.group_convolution %x, %w {strides = array<i64: 2>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>, dilations = array<i64: 1>, auto_pad = "explicit"} : (tensor<1x4x?xf32>, tensor<4x1x1x3xf32>) -> tensor<1x4x?xf32>
  func.return %0 : tensor<1x4x?xf32>
}
