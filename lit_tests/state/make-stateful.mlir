// RUN: tosa-state-opt %s -p 'make-stateful{pairs="h0=h1,c0=c1"}' | filecheck %s
// RUN: tosa-state-opt %s -p 'make-stateful{pairs="h0=h1,c0=c1"},externalize-state' | filecheck %s --check-prefix=BACK

// Each input/output pair becomes a variable named input + output (as OpenVINO's
// MakeStateful), starting as zeros; the read opens the body, the write closes it, and the
// other inputs and outputs keep their order.
// CHECK:       tosa.variable @h0h1 = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  tosa.variable @c0c1 = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK-NEXT:  func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
// CHECK-NEXT:    %c0 = tosa.variable.read @c0c1 : tensor<1x4xf32>
// CHECK-NEXT:    %h0 = tosa.variable.read @h0h1 : tensor<1x4xf32>
// CHECK-NEXT:    %shift = "tosa.const"
// CHECK-NEXT:    %c1 = tosa.add %c0, %x
// CHECK-NEXT:    %h1 = tosa.tanh %c1
// CHECK-NEXT:    %y = tosa.mul %h1, %h0, %shift
// CHECK-NEXT:    tosa.variable.write @h0h1, %h1 : tensor<1x4xf32>
// CHECK-NEXT:    tosa.variable.write @c0c1, %c1 : tensor<1x4xf32>
// CHECK-NEXT:    func.return %y : tensor<1x4xf32>

// externalize-state gives the state back as trailing arguments and results, named after
// the variables, with their initial values on the arguments.
// BACK:       func.func @main(%x: tensor<1x4xf32>,
// BACK-SAME:    %h0: tensor<1x4xf32> {tosa_state.name = "h0h1", tosa_state.initial_value = dense<0.000000e+00> : tensor<1x4xf32>},
// BACK-SAME:    %c0: tensor<1x4xf32> {tosa_state.name = "c0c1", tosa_state.initial_value = dense<0.000000e+00> : tensor<1x4xf32>})
// BACK-SAME:    -> (tensor<1x4xf32>, tensor<1x4xf32> {tosa_state.name = "h0h1"}, tensor<1x4xf32> {tosa_state.name = "c0c1"})
// BACK:         func.return %y, %h1, %c1 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32>, %h0: tensor<1x4xf32>, %c0: tensor<1x4xf32>) -> (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>) {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %c1 = tosa.add %c0, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  %h1 = tosa.tanh %c1 : (tensor<1x4xf32>) -> tensor<1x4xf32>
  %y = tosa.mul %h1, %h0, %shift : (tensor<1x4xf32>, tensor<1x4xf32>, tensor<1xi8>) -> tensor<1x4xf32>
  func.return %h1, %y, %c1 : tensor<1x4xf32>, tensor<1x4xf32>, tensor<1x4xf32>
}
