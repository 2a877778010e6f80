// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// The ops of the optimum-intel architectures: SoftPlus, ErfInv, CumSum, Roll.

// CHECK-LABEL: func.func @model_ops(
// CHECK-NEXT:    %0 = openvino.softplus %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:    %1 = openvino.cumsum %x, %axis : (tensor<2x?xf32>, tensor<i64>) -> tensor<2x?xf32>
// CHECK-NEXT:    %2 = openvino.cumsum %i, %axis {exclusive = true, reverse = true} : (tensor<3xi32>, tensor<i64>) -> tensor<3xi32>
// CHECK-NEXT:    %3 = openvino.roll %x, %shift, %axes : (tensor<2x?xf32>, tensor<2xi64>, tensor<2xi32>) -> tensor<2x?xf32>
// CHECK-NEXT:    %4 = openvino.roll %i, %axis, %axis : (tensor<3xi32>, tensor<i64>, tensor<i64>) -> tensor<3xi32>
// CHECK-NEXT:    %5 = openvino.erfinv %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
func.func @model_ops(%x: tensor<2x?xf32>, %i: tensor<3xi32>, %axis: tensor<i64>, %shift: tensor<2xi64>, %axes: tensor<2xi32>) {
  %0 = openvino.softplus %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  %1 = openvino.cumsum %x, %axis {exclusive = false} : (tensor<2x?xf32>, tensor<i64>) -> tensor<2x?xf32>
  %2 = openvino.cumsum %i, %axis {exclusive = true, reverse = true} : (tensor<3xi32>, tensor<i64>) -> tensor<3xi32>
  %3 = openvino.roll %x, %shift, %axes : (tensor<2x?xf32>, tensor<2xi64>, tensor<2xi32>) -> tensor<2x?xf32>
  %4 = openvino.roll %i, %axis, %axis : (tensor<3xi32>, tensor<i64>, tensor<i64>) -> tensor<3xi32>
  %5 = openvino.erfinv %x : (tensor<2x?xf32>) -> tensor<2x?xf32>
  func.return
}
