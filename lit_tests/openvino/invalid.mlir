// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file | filecheck %s

// The openvino dialect's verifiers.

func.func @rv3_without_init() -> tensor<2xf32> {
  // expected-error@+1 {{ReadValue-3 requires an init operand}}
  %0 = openvino.read_value "v" {version = 3 : i64} : () -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @rv3_with_declaration(%x: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{ReadValue-3 takes its type from init; variable_type and variable_shape are opset 6 properties}}
  %0 = openvino.read_value "v"(%x) {version = 3 : i64, variable_type = f32} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @rv6_shape_does_not_relax(%x: tensor<1x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{variable_shape [2,4] does not relax the init value's shape [1,4]}}
  %0 = openvino.read_value "v"(%x) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2, 4]>} : (tensor<1x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

func.func @rv6_interval_does_not_contain(%x: tensor<1x4xf32>) -> tensor<?x4xf32> {
  // expected-error@+1 {{variable_shape [2..5,4] does not relax the init value's shape [1,4]}}
  %0 = openvino.read_value "v"(%x) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[2:5, 4]>} : (tensor<1x4xf32>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

func.func @rv6_rank_differs(%x: tensor<1x4xf32>) -> tensor<4xf32> {
  // expected-error@+1 {{variable_shape [4] does not relax the init value's shape [1,4]}}
  %0 = openvino.read_value "v"(%x) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[4]>} : (tensor<1x4xf32>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}

// -----

func.func @rv6_static_does_not_relax_dynamic(%x: tensor<?x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{variable_shape [1,4] does not relax the init value's shape [?,4]}}
  %0 = openvino.read_value "v"(%x) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : (tensor<?x4xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @rv6_type_differs(%x: tensor<1x4xi32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{variable_type f32 does not relax the init value's element type i32 (it must be equal, or dynamic)}}
  %0 = openvino.read_value "v"(%x) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : (tensor<1x4xi32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @rv6_without_shape() -> tensor<1x4xf32> {
  // expected-error@+1 {{ReadValue-6 requires variable_shape}}
  %0 = openvino.read_value "v" {version = 6 : i64, variable_type = f32} : () -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @rv6_result_does_not_fit() -> tensor<3x4xf32> {
  // expected-error@+1 {{result shape [3,4] does not fit variable_shape [1..2,4]}}
  %0 = openvino.read_value "v" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1:2, 4]>} : () -> tensor<3x4xf32>
  func.return %0 : tensor<3x4xf32>
}

// -----

func.func @rv_bad_version() -> tensor<1x4xf32> {
  // expected-error@+1 {{version must be 3 or 6, got 5}}
  %0 = openvino.read_value "v" {version = 5 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : () -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @rv_empty_id() -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.read_value: variable_id must not be empty}}
  %0 = openvino.read_value "" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[1, 4]>} : () -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @assign_bad_version(%x: tensor<2xf32>) {
  // expected-error@+1 {{openvino.assign: version must be 3 or 6, got 4}}
  openvino.assign "v", %x {version = 4 : i64} : tensor<2xf32>
  func.return
}

// -----

func.func @add_bad_broadcast(%a: tensor<2x3xf32>, %b: tensor<4xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{openvino.add: shapes [2,3] and [1,4] cannot be broadcast (numpy rules)}}
  %0 = openvino.add %a, %b : (tensor<2x3xf32>, tensor<4xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @add_no_broadcast(%a: tensor<2x3xf32>, %b: tensor<3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{openvino.add: with auto_broadcast = "none" the operand shapes must match, got [2,3] and [3]}}
  %0 = openvino.add %a, %b {auto_broadcast = "none"} : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @add_pdpd(%a: tensor<2x3xf32>) -> tensor<2x3xf32> {
  // expected-error@+1 {{openvino.add: auto_broadcast must be one of numpy, none, got 'pdpd'}}
  %0 = openvino.add %a, %a {auto_broadcast = "pdpd"} : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

func.func @add_mixed_types(%a: tensor<2xf32>, %b: tensor<2xf16>) -> tensor<2xf32> {
  // expected-error@+1 {{openvino.add: lhs and rhs must have one element type, got f16, f32}}
  %0 = openvino.add %a, %b : (tensor<2xf32>, tensor<2xf16>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @greater_not_boolean(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{openvino.greater: result element type must be i1, got f32}}
  %0 = openvino.greater %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @split_count(%a: tensor<2x6xf32>, %axis: tensor<i64>) -> tensor<2x3xf32> {
  // expected-error@+1 {{openvino.split: num_splits = 3 but the op has 2 results}}
  %0:2 = openvino.split %a, %axis {num_splits = 3 : i64} : (tensor<2x6xf32>, tensor<i64>) -> (tensor<2x3xf32>, tensor<2x3xf32>)
  func.return %0#0 : tensor<2x3xf32>
}

// -----

func.func @convert_mismatch(%a: tensor<2xf32>) -> tensor<2xf16> {
  // expected-error@+1 {{openvino.convert: result element type f16 differs from destination_type i32}}
  %0 = openvino.convert %a {destination_type = i32} : (tensor<2xf32>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

func.func @clamp_bounds(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{openvino.clamp: min 3.0 is greater than max 1.0}}
  %0 = openvino.clamp %a {min = 3.0 : f64, max = 1.0 : f64} : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @broadcast_explicit(%a: tensor<2xf32>, %s: tensor<2xi64>) -> tensor<?x?xf32> {
  // expected-error@+1 {{openvino.broadcast: axes_mapping is given exactly in explicit mode}}
  %0 = openvino.broadcast %a, %s {mode = "explicit"} : (tensor<2xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %0 : tensor<?x?xf32>
}

// -----

func.func @shape_of_size(%a: tensor<2x3xf32>) -> tensor<3xi64> {
  // expected-error@+1 {{openvino.shape_of: result has 3 elements for an input of rank 2}}
  %0 = openvino.shape_of %a : (tensor<2x3xf32>) -> tensor<3xi64>
  func.return %0 : tensor<3xi64>
}

// -----

func.func @reshape_float_shape(%a: tensor<2x3xf32>, %s: tensor<2xf32>) -> tensor<3x2xf32> {
  // expected-error@+1 {{openvino.reshape: shape must be an integer tensor, got tensor<2xf32>}}
  %0 = openvino.reshape %a, %s {special_zero = false} : (tensor<2x3xf32>, tensor<2xf32>) -> tensor<3x2xf32>
  func.return %0 : tensor<3x2xf32>
}

// -----

func.func @lstm_weights(%x: tensor<1x3xf32>, %h: tensor<1x4xf32>, %w: tensor<12x3xf32>, %r: tensor<16x4xf32>, %b: tensor<16xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.lstm_cell: W must have shape [16,3], got [12,3]}}
  %ho, %co = openvino.lstm_cell %x, %h, %h, %w, %r, %b {hidden_size = 4 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<1x4xf32>, tensor<12x3xf32>, tensor<16x4xf32>, tensor<16xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>)
  func.return %ho : tensor<1x4xf32>
}

// -----

func.func @gru_activations(%x: tensor<1x3xf32>, %h: tensor<1x4xf32>, %w: tensor<12x3xf32>, %r: tensor<12x4xf32>, %b: tensor<12xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.gru_cell: expects 2 activations, got 3}}
  %0 = openvino.gru_cell %x, %h, %w, %r, %b {hidden_size = 4 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32} : (tensor<1x3xf32>, tensor<1x4xf32>, tensor<12x3xf32>, tensor<12x4xf32>, tensor<12xf32>) -> tensor<1x4xf32>
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @rnn_sequence_activations(%x: tensor<1x2x3xf32>, %h: tensor<1x2x4xf32>, %n: tensor<1xi32>, %w: tensor<2x4x3xf32>, %r: tensor<2x4x4xf32>, %b: tensor<2x4xf32>) -> tensor<1x2x2x4xf32> {
  // expected-error@+1 {{openvino.rnn_sequence: expects 1 (or 2, per direction) activations, got 3}}
  %y, %ho = openvino.rnn_sequence %x, %h, %n, %w, %r, %b {hidden_size = 4 : i64, activations = ["tanh", "tanh", "relu"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "bidirectional"} : (tensor<1x2x3xf32>, tensor<1x2x4xf32>, tensor<1xi32>, tensor<2x4x3xf32>, tensor<2x4x4xf32>, tensor<2x4xf32>) -> (tensor<1x2x2x4xf32>, tensor<1x2x4xf32>)
  func.return %y : tensor<1x2x2x4xf32>
}

// -----

func.func @ti_port_map(%h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.tensor_iterator: input_port_map internal index 3 is out of range [0, 1)}}
  %0 = openvino.tensor_iterator(%h0) {input_port_map = [#openvino.port_map<external = 0, internal = 3>], output_port_map = [#openvino.port_map<external = 0, internal = 0>], back_edges = []} : (tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%h: tensor<1x4xf32>):
    openvino.yield %h : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @ti_back_edge(%h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.tensor_iterator: back edge to body argument 1, which has no initial value in input_port_map}}
  %0 = openvino.tensor_iterator(%h0) {input_port_map = [#openvino.port_map<external = 0, internal = 0>], output_port_map = [#openvino.port_map<external = 0, internal = 0>], back_edges = [#openvino.back_edge<from = 0, to = 1>]} : (tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%h: tensor<1x4xf32>, %g: tensor<1x4xf32>):
    openvino.yield %h : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @constant_type() -> tensor<3xf32> {
  // expected-error@+1 {{openvino.constant: result type tensor<3xf32> differs from the value's type tensor<2xf32>}}
  %0 = "openvino.constant"() <{value = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<3xf32>
  func.return %0 : tensor<3xf32>
}

// -----

func.func @loop_condition_out_of_range(%trip: tensor<i32>, %go: tensor<i1>, %h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.loop: condition index 1 is out of range [0, 1)}}
  %0 = openvino.loop(%trip, %go, %h0) {input_port_map = [#openvino.port_map<external = 2, internal = 0>], output_port_map = [#openvino.port_map<external = 0, internal = 0>], back_edges = [], current_iteration = -1 : i64, condition = 1 : i64} : (tensor<i32>, tensor<i1>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%h: tensor<1x4xf32>):
    openvino.yield %h : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @loop_iteration_mapped(%trip: tensor<i32>, %go: tensor<i1>, %h0: tensor<1x4xf32>) -> tensor<1x4xf32> {
  // expected-error@+1 {{openvino.loop: body argument 0 is the current iteration and is mapped to an input too}}
  %0 = openvino.loop(%trip, %go, %h0) {input_port_map = [#openvino.port_map<external = 2, internal = 0>], output_port_map = [#openvino.port_map<external = 0, internal = 0>], back_edges = [], current_iteration = 0 : i64, condition = 0 : i64} : (tensor<i32>, tensor<i1>, tensor<1x4xf32>) -> tensor<1x4xf32> {
  ^bb0(%h: tensor<1x4xf32>):
    openvino.yield %h : tensor<1x4xf32>
  }
  func.return %0 : tensor<1x4xf32>
}

// -----

func.func @yield_outside() {
  // expected-error@+1 {{'openvino.yield' expects parent op to be one of 'openvino.tensor_iterator', 'openvino.loop'}}
  openvino.yield
}

// -----

func.func @gru_sequence_bias(%x: tensor<2x3x1xf32>, %h: tensor<2x1x1xf32>, %n: tensor<2xi32>, %w: tensor<1x3x1xf32>, %r: tensor<1x3x1xf32>, %b: tensor<1x3xf32>) {
  // expected-error@+1 {{openvino.gru_sequence: B must have shape [1,4], got [1,3]}}
  %y, %ho = openvino.gru_sequence %x, %h, %n, %w, %r, %b {hidden_size = 1 : i64, activations = ["sigmoid", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "forward", linear_before_reset = true} : (tensor<2x3x1xf32>, tensor<2x1x1xf32>, tensor<2xi32>, tensor<1x3x1xf32>, tensor<1x3x1xf32>, tensor<1x3xf32>) -> (tensor<2x1x3x1xf32>, tensor<2x1x1xf32>)
  func.return
}

// -----

func.func @lstm_sequence_direction(%x: tensor<2x3x1xf32>, %h: tensor<2x1x1xf32>, %n: tensor<2xi32>, %w: tensor<1x4x1xf32>, %b: tensor<1x4xf32>) {
  // expected-error@+1 {{openvino.lstm_sequence: direction must be one of forward, reverse, bidirectional, got 'sideways'}}
  %y, %ho, %co = openvino.lstm_sequence %x, %h, %h, %n, %w, %w, %b {hidden_size = 1 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "sideways"} : (tensor<2x3x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2xi32>, tensor<1x4x1xf32>, tensor<1x4x1xf32>, tensor<1x4xf32>) -> (tensor<2x1x3x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>)
  func.return
}

// -----

// CHECK-LABEL: func.func @lstm_sequence_ok(
// CHECK: openvino.lstm_sequence %x, %h, %h, %n, %w, %w, %b {{{.*}}direction = "bidirectional"}
func.func @lstm_sequence_ok(%x: tensor<2x3x1xf32>, %h: tensor<2x2x1xf32>, %n: tensor<2xi32>, %w: tensor<2x4x1xf32>, %b: tensor<2x4xf32>) {
  %y, %ho, %co = openvino.lstm_sequence %x, %h, %h, %n, %w, %w, %b {hidden_size = 1 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, direction = "bidirectional"} : (tensor<2x3x1xf32>, tensor<2x2x1xf32>, tensor<2x2x1xf32>, tensor<2xi32>, tensor<2x4x1xf32>, tensor<2x4x1xf32>, tensor<2x4xf32>) -> (tensor<2x2x3x1xf32>, tensor<2x2x1xf32>, tensor<2x2x1xf32>)
  func.return
}

// -----

func.func @bitwise_on_floats(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{openvino.bitwise_and: operands must be boolean or integer tensors, got tensor<2xf32>}}
  %0 = openvino.bitwise_and %a, %a : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @bitwise_not_on_floats(%a: tensor<2xf32>) -> tensor<2xf32> {
  // expected-error@+1 {{openvino.bitwise_not: operands must be boolean or integer tensors, got tensor<2xf32>}}
  %0 = openvino.bitwise_not %a : (tensor<2xf32>) -> tensor<2xf32>
  func.return %0 : tensor<2xf32>
}

// -----

func.func @less_equal_not_boolean(%a: tensor<2xi64>) -> tensor<2xi64> {
  // expected-error@+1 {{openvino.less_equal: result element type must be i1, got i64}}
  %0 = openvino.less_equal %a, %a : (tensor<2xi64>, tensor<2xi64>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

func.func @logical_xor_of_integers(%a: tensor<2xi32>) -> tensor<2xi1> {
  // expected-error@+1 {{openvino.logical_xor: operands must be boolean (i1) tensors}}
  %0 = openvino.logical_xor %a, %a : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

func.func @range_not_scalar(%a: tensor<2xi64>, %b: tensor<i64>) -> tensor<?xi64> {
  // expected-error@+1 {{openvino.range: start must be a scalar, got tensor<2xi64>}}
  %0 = openvino.range %a, %b, %b {output_type = i64} : (tensor<2xi64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return %0 : tensor<?xi64>
}

// -----

func.func @range_output_type(%b: tensor<i64>) -> tensor<?xi32> {
  // expected-error@+1 {{openvino.range: result element type i32 differs from output_type i64}}
  %0 = openvino.range %b, %b, %b {output_type = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi32>
  func.return %0 : tensor<?xi32>
}

// -----

func.func @range_rank(%b: tensor<i64>) -> tensor<2x2xi64> {
  // expected-error@+1 {{openvino.range: result must be 1-D, got tensor<2x2xi64>}}
  %0 = openvino.range %b, %b, %b {output_type = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<2x2xi64>
  func.return %0 : tensor<2x2xi64>
}

// -----

func.func @sdpa_grouped_heads(%q: tensor<1x4x3x16xf32>, %k: tensor<1x2x5x16xf32>, %v: tensor<1x2x5x8xf32>) -> tensor<1x4x3x8xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: the batch dims of key [1,2,5,16] do not broadcast to the query's [1,4,3,16]}}
  %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = false} : tensor<1x4x3x16xf32>, tensor<1x2x5x16xf32>, tensor<1x2x5x8xf32> -> tensor<1x4x3x8xf32>
  func.return %0 : tensor<1x4x3x8xf32>
}

// -----

func.func @sdpa_embedding(%q: tensor<1x4x3x16xf32>, %k: tensor<1x4x5x8xf32>, %v: tensor<1x4x5x8xf32>) -> tensor<1x4x3x8xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: query [1,4,3,16] and key [1,4,5,8] differ in the embedding dim}}
  %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x5x8xf32>, tensor<1x4x5x8xf32> -> tensor<1x4x3x8xf32>
  func.return %0 : tensor<1x4x3x8xf32>
}

// -----

func.func @sdpa_sequence(%q: tensor<1x4x3x16xf32>, %k: tensor<1x4x5x16xf32>, %v: tensor<1x4x6x8xf32>) -> tensor<1x4x3x8xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: key [1,4,5,16] and value [1,4,6,8] differ in the sequence dim}}
  %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x5x16xf32>, tensor<1x4x6x8xf32> -> tensor<1x4x3x8xf32>
  func.return %0 : tensor<1x4x3x8xf32>
}

// -----

func.func @sdpa_mask_type(%q: tensor<1x4x3x16xf32>, %m: tensor<3x5xi32>) -> tensor<1x4x3x16xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: attention_mask must be boolean or of the query's type f32, got i32}}
  %0 = openvino.scaled_dot_product_attention %q, %q, %q mask %m {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32> mask tensor<3x5xi32> -> tensor<1x4x3x16xf32>
  func.return %0 : tensor<1x4x3x16xf32>
}

// -----

func.func @sdpa_sink_shape(%q: tensor<1x4x3x16xf32>, %m: tensor<3x3xf32>, %s: tensor<f32>, %sink: tensor<1x4x1x2xf32>) -> tensor<1x4x3x16xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: sink must end in a dim of 1 (one extra score per row), got tensor<1x4x1x2xf32>}}
  %0 = openvino.scaled_dot_product_attention %q, %q, %q mask %m scale %s sink %sink {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32> mask tensor<3x3xf32> scale tensor<f32> sink tensor<1x4x1x2xf32> -> tensor<1x4x3x16xf32>
  func.return %0 : tensor<1x4x3x16xf32>
}

// -----

func.func @sdpa_scale_shape(%q: tensor<1x4x3x16xf32>, %m: tensor<3x3xf32>, %s: tensor<2xf32>) -> tensor<1x4x3x16xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: scale must be a scalar, got tensor<2xf32>}}
  %0 = openvino.scaled_dot_product_attention %q, %q, %q mask %m scale %s {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32> mask tensor<3x3xf32> scale tensor<2xf32> -> tensor<1x4x3x16xf32>
  func.return %0 : tensor<1x4x3x16xf32>
}

// -----

func.func @sdpa_result(%q: tensor<1x4x3x16xf32>) -> tensor<1x4x3x8xf32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: result shape [1,4,3,8] is not [1,4,3,16]}}
  %0 = openvino.scaled_dot_product_attention %q, %q, %q {causal = false} : tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32>, tensor<1x4x3x16xf32> -> tensor<1x4x3x8xf32>
  func.return %0 : tensor<1x4x3x8xf32>
}

// -----

func.func @sdpa_integers(%q: tensor<1x4x3x16xi32>) -> tensor<1x4x3x16xi32> {
  // expected-error@+1 {{openvino.scaled_dot_product_attention: query must be a float tensor}}
  %0 = openvino.scaled_dot_product_attention %q, %q, %q {causal = false} : tensor<1x4x3x16xi32>, tensor<1x4x3x16xi32>, tensor<1x4x3x16xi32> -> tensor<1x4x3x16xi32>
  func.return %0 : tensor<1x4x3x16xi32>
}

// -----

func.func @identity_element_type(%a: tensor<2xf32>) -> tensor<2xf16> {
  // expected-error@+1 {{openvino.identity: result type tensor<2xf16> differs from the input type tensor<2xf32>}}
  %0 = openvino.identity %a : (tensor<2xf32>) -> tensor<2xf16>
  func.return %0 : tensor<2xf16>
}

// -----

func.func @identity_refines_shape(%a: tensor<?x4xf32>) -> tensor<2x4xf32> {
  // expected-error@+1 {{openvino.identity: result type tensor<2x4xf32> differs from the input type tensor<?x4xf32>}}
  %0 = openvino.identity %a : (tensor<?x4xf32>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}
