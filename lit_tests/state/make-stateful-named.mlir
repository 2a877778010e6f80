// RUN: tosa-state-opt %s -p 'make-stateful{pairs="state=stateN"}' | filecheck %s
// RUN: tosa-state-opt %s -p 'make-stateful{pairs="arg1=result0"}' | filecheck %s --check-prefix=INDEX

// Inputs and outputs by their name attributes (an OpenVINO import); a state output that is
// the state input itself writes back what it read; a dynamic shape gives a variable without
// an initial value; the attributes of the other ports stay.
// CHECK:       tosa.variable @statestateN : tensor<?x8xi32>
// CHECK-NEXT:  func.func @main(%arg0: tensor<2xf32> {openvino.name = "input"}) -> (tensor<2xf32> {openvino.name = "output"}) {
// CHECK-NEXT:    %[[STATE:.*]] = tosa.variable.read @statestateN : tensor<?x8xi32>
// CHECK-NEXT:    tosa.variable.write @statestateN, %[[STATE]] : tensor<?x8xi32>
// CHECK-NEXT:    func.return %arg0 : tensor<2xf32>

// Ports by position: the variable is named after the keys given.
// INDEX:       tosa.variable @arg1result0 : tensor<?x8xi32>
// INDEX:         tosa.variable.write @arg1result0
func.func @main(%arg0: tensor<2xf32> {openvino.name = "input"}, %arg1: tensor<?x8xi32> {openvino.name = "state"}) -> (tensor<?x8xi32> {openvino.name = "stateN"}, tensor<2xf32> {openvino.name = "output"}) {
  func.return %arg1, %arg0 : tensor<?x8xi32>, tensor<2xf32>
}
