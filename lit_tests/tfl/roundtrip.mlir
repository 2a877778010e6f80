// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// The tfl dialect prints and parses back: a stateful step with a WHILE over two functions and
// a CALL_ONCE init, as the TFLite frontend imports Keras exports.

// CHECK-LABEL: func.func @main(
// CHECK:   tfl.call_once {session_init_function = "init"}
// CHECK:   %[[H:.*]] = tfl.var_handle {shared_name = "lstm/rnn_state"} : !tfl.resource
// CHECK:   %[[S:.*]] = tfl.read_variable %[[H]] : (!tfl.resource) -> tensor<1x4xf32>
// CHECK:   %{{.*}}, %[[OUT:.*]] = tfl.while %{{.*}}, %[[S]] {cond = @cond, body = @body} : (tensor<i32>, tensor<1x4xf32>) -> (tensor<i32>, tensor<1x4xf32>)
// CHECK:   tfl.assign_variable %[[H]], %[[OUT]] : !tfl.resource, tensor<1x4xf32>
// CHECK:   %{{.*}} = tfl.fully_connected %[[OUT]], %{{.*}}, %{{.*}} {fused_activation_function = "RELU", keep_num_dims = true} : (tensor<1x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<1x2xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  tfl.call_once {session_init_function = "init"}
  %h = tfl.var_handle {shared_name = "lstm/rnn_state"} : !tfl.resource
  %s = tfl.read_variable %h : (!tfl.resource) -> tensor<1x4xf32>
  %zero = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  %i, %out = tfl.while %zero, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<1x4xf32>) -> (tensor<i32>, tensor<1x4xf32>)
  tfl.assign_variable %h, %out : !tfl.resource, tensor<1x4xf32>
  %w = tfl.pseudo_const {value = dense<1.0> : tensor<2x4xf32>} : tensor<2x4xf32>
  %b = tfl.pseudo_const {value = dense<0.5> : tensor<2xf32>} : tensor<2xf32>
  %y = tfl.fully_connected %out, %w, %b {fused_activation_function = "RELU", keep_num_dims = true} : (tensor<1x4xf32>, tensor<2x4xf32>, tensor<2xf32>) -> tensor<1x2xf32>
  func.return %y : tensor<1x2xf32>
}
// CHECK-LABEL: func.func private @init()
func.func private @init() {
  %h = tfl.var_handle {shared_name = "lstm/rnn_state"} : !tfl.resource
  %z = tfl.pseudo_const {value = dense<0.0> : tensor<1x4xf32>} : tensor<1x4xf32>
  tfl.assign_variable %h, %z : !tfl.resource, tensor<1x4xf32>
  func.return
}
// CHECK-LABEL: func.func private @cond(
// CHECK:   tfl.less
func.func private @cond(%i: tensor<i32>, %s: tensor<1x4xf32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<3> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
// CHECK-LABEL: func.func private @body(
// CHECK:   tfl.add %{{.*}}, %{{.*}} : (tensor<i32>, tensor<i32>) -> tensor<i32>
// CHECK:   tfl.tanh
// CHECK:   tfl.strided_slice {{.*}}shrink_axis_mask = 1 : i32
// CHECK:   tfl.split {{.*}}num_splits = 2 : i32
// CHECK:   tfl.concatenation {{.*}}axis = 1 : i32
func.func private @body(%i: tensor<i32>, %s: tensor<1x4xf32>) -> (tensor<i32>, tensor<1x4xf32>) {
  %one = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %j = tfl.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %t = tfl.tanh %s : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %b = tfl.pseudo_const {value = dense<0> : tensor<2xi32>} : tensor<2xi32>
  %e = tfl.pseudo_const {value = dense<[1, 4]> : tensor<2xi32>} : tensor<2xi32>
  %st = tfl.pseudo_const {value = dense<1> : tensor<2xi32>} : tensor<2xi32>
  %row = tfl.strided_slice %t, %b, %e, %st {shrink_axis_mask = 1 : i32} : (tensor<1x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<4xf32>
  %axis = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %p:2 = tfl.split %axis, %t {num_splits = 2 : i32} : (tensor<i32>, tensor<1x4xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  %c = tfl.concatenation %p#1, %p#0 {axis = 1 : i32} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x4xf32>
  func.return %j, %c : tensor<i32>, tensor<1x4xf32>
}
