// RUN: tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa | filecheck %s

// Resource variables: VAR_HANDLE's shared_name names the tosa.variable; a CALL_ONCE init that
// folds to constants is the initial value; reads and writes stay in program order (a read
// after an ASSIGN_VARIABLE sees the new value, as in TFLite); WHILE with a constant trip count
// is unrolled (here twice); the subgraph functions are gone afterwards.

// CHECK:       tosa.variable @acc = dense<{{\[\[}}1.000000e+00, 2.000000e+00]]> : tensor<1x2xf32>
// CHECK-LABEL: func.func @main(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
// CHECK-NEXT:    %s = tosa.variable.read @acc : tensor<1x2xf32>
// CHECK-NEXT:    %[[T1:.*]] = tosa.tanh %s
// CHECK-NEXT:    %sum = tosa.tanh %[[T1]]
// CHECK-NEXT:    %[[A:.*]] = tosa.add %sum, %x
// CHECK-NEXT:    %y = tosa.clamp %[[A]] {max_val = 6.000000e+00 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT:    tosa.variable.write @acc, %y : tensor<1x2xf32>
// CHECK-NEXT:    %again = tosa.variable.read @acc : tensor<1x2xf32>
// CHECK-NEXT:    func.return %again : tensor<1x2xf32>
// CHECK-NEXT:  }
// CHECK-NOT:   func.func
func.func @main(%x: tensor<1x2xf32>) -> tensor<1x2xf32> {
  tfl.call_once {session_init_function = "init"}
  %h = tfl.var_handle {shared_name = "acc"} : !tfl.resource
  %s = tfl.read_variable %h : (!tfl.resource) -> tensor<1x2xf32>
  %zero = tfl.pseudo_const {value = dense<0> : tensor<i32>} : tensor<i32>
  %i, %sum = tfl.while %zero, %s {cond = @cond, body = @body} : (tensor<i32>, tensor<1x2xf32>) -> (tensor<i32>, tensor<1x2xf32>)
  %y = tfl.add %sum, %x {fused_activation_function = "RELU6"} : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
  tfl.assign_variable %h, %y : !tfl.resource, tensor<1x2xf32>
  %again = tfl.read_variable %h : (!tfl.resource) -> tensor<1x2xf32>
  func.return %again : tensor<1x2xf32>
}
func.func private @init() {
  %h = tfl.var_handle {shared_name = "acc"} : !tfl.resource
  %z = tfl.pseudo_const {value = dense<[[1.0, 2.0]]> : tensor<1x2xf32>} : tensor<1x2xf32>
  tfl.assign_variable %h, %z : !tfl.resource, tensor<1x2xf32>
  func.return
}
func.func private @cond(%i: tensor<i32>, %s: tensor<1x2xf32>) -> tensor<i1> {
  %n = tfl.pseudo_const {value = dense<2> : tensor<i32>} : tensor<i32>
  %c = tfl.less %i, %n : (tensor<i32>, tensor<i32>) -> tensor<i1>
  func.return %c : tensor<i1>
}
func.func private @body(%i: tensor<i32>, %s: tensor<1x2xf32>) -> (tensor<i32>, tensor<1x2xf32>) {
  %one = tfl.pseudo_const {value = dense<1> : tensor<i32>} : tensor<i32>
  %j = tfl.add %i, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  %t = tfl.tanh %s : (tensor<1x2xf32>) -> tensor<1x2xf32>
  func.return %j, %t : tensor<i32>, tensor<1x2xf32>
}

// -----

// A computed init (it reads another variable): the variable starts as zeros and the init runs
// on the first call and after each reset, guarded by the hidden flag @init__initialized.

// CHECK:       tosa.variable @b = dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:  tosa.variable @a = dense<0.000000e+00> : tensor<2xf32>
// CHECK-NEXT:  tosa.variable @init__initialized {tosa_state.init_flag_of = "init"} = dense<false> : tensor<i1>
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    tosa.variable.write @b, %x : tensor<2xf32>
// CHECK-NEXT:    %[[B:.*]] = tosa.variable.read @b : tensor<2xf32>
// CHECK:         %[[INIT:.*]] = tosa.mul %[[B]],
// CHECK-NEXT:    %[[DONE:.*]] = tosa.variable.read @init__initialized : tensor<i1>
// CHECK-NEXT:    %[[OLD:.*]] = tosa.variable.read @a : tensor<2xf32>
// CHECK:         %[[DONE1:.*]] = tosa.reshape %[[DONE]]
// CHECK-NEXT:    %[[SEL:.*]] = tosa.select %[[DONE1]], %[[OLD]], %[[INIT]]
// CHECK-NEXT:    tosa.variable.write @a, %[[SEL]] : tensor<2xf32>
// CHECK:         tosa.variable.write @init__initialized, %{{.*}} : tensor<i1>
// CHECK-NEXT:    %a = tosa.variable.read @a : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %hb = tfl.var_handle {shared_name = "b"} : !tfl.resource
  tfl.assign_variable %hb, %x : !tfl.resource, tensor<2xf32>
  tfl.call_once {session_init_function = "init"}
  %ha = tfl.var_handle {shared_name = "a"} : !tfl.resource
  %a = tfl.read_variable %ha : (!tfl.resource) -> tensor<2xf32>
  %one = tfl.pseudo_const {value = dense<1.0> : tensor<2xf32>} : tensor<2xf32>
  %next = tfl.add %a, %one : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tfl.assign_variable %ha, %next : !tfl.resource, tensor<2xf32>
  func.return %a : tensor<2xf32>
}
func.func private @init() {
  %hb = tfl.var_handle {shared_name = "b"} : !tfl.resource
  %b = tfl.read_variable %hb : (!tfl.resource) -> tensor<2xf32>
  %two = tfl.pseudo_const {value = dense<2.0> : tensor<2xf32>} : tensor<2xf32>
  %init = tfl.mul %b, %two : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %ha = tfl.var_handle {shared_name = "a"} : !tfl.resource
  tfl.assign_variable %ha, %init : !tfl.resource, tensor<2xf32>
  func.return
}
