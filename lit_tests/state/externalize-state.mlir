// RUN: tosa-state-opt %s -p externalize-state | filecheck %s
// RUN: tosa-state-opt %s -p 'externalize-state,make-stateful{pairs="v=v,w=w"}' | filecheck %s --check-prefix=BACK

// Each variable becomes a trailing argument and result named after it. A read is the value
// last written before it (the argument before any write); the result is the last value
// written, or the argument itself for a variable the call never writes.
// CHECK:       func.func @main(%x: tensor<3xi32>,
// CHECK-SAME:    %[[V:.*]]: tensor<3xi32> {tosa_state.name = "v", tosa_state.initial_value = dense<[1, 2, 3]> : tensor<3xi32>},
// CHECK-SAME:    %[[W:.*]]: tensor<2xf32> {tosa_state.name = "w"})
// CHECK-SAME:    -> (tensor<3xi32>, tensor<3xi32>, tensor<3xi32> {tosa_state.name = "v"}, tensor<2xf32> {tosa_state.name = "w"}) {
// CHECK-NEXT:    %sum = tosa.add %[[V]], %x
// CHECK-NEXT:    %twice = tosa.add %sum, %sum
// CHECK-NEXT:    func.return %[[V]], %sum, %twice, %[[W]] : tensor<3xi32>, tensor<3xi32>, tensor<3xi32>, tensor<2xf32>
// CHECK-NOT:   tosa.variable

// make-stateful with the same names gives the module back (declarations in order, with
// their initial values; reads first, writes last), except that a variable without an
// initial value comes back as zeros, MakeStateful's start.
// BACK:        tosa.variable @v = dense<[1, 2, 3]> : tensor<3xi32>
// BACK-NEXT:   tosa.variable @w = dense<0.000000e+00> : tensor<2xf32>
// BACK-NEXT:   func.func @main(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
// BACK-NEXT:     %[[W:.*]] = tosa.variable.read @w : tensor<2xf32>
// BACK-NEXT:     %[[V:.*]] = tosa.variable.read @v : tensor<3xi32>
// BACK-NEXT:     %sum = tosa.add %[[V]], %x
// BACK-NEXT:     %twice = tosa.add %sum, %sum
// BACK-NEXT:     tosa.variable.write @v, %twice : tensor<3xi32>
// BACK-NEXT:     tosa.variable.write @w, %[[W]] : tensor<2xf32>
// BACK-NEXT:     func.return %[[V]], %sum : tensor<3xi32>, tensor<3xi32>
tosa.variable @v = dense<[1, 2, 3]> : tensor<3xi32>
tosa.variable @w : tensor<2xf32>
func.func @main(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %old = tosa.variable.read @v : tensor<3xi32>
  %sum = tosa.add %old, %x : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  tosa.variable.write @v, %sum : tensor<3xi32>
  %new = tosa.variable.read @v : tensor<3xi32>
  %twice = tosa.add %new, %new : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  tosa.variable.write @v, %twice : tensor<3xi32>
  func.return %old, %sum : tensor<3xi32>, tensor<3xi32>
}
