// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// CHECK-LABEL: func.func @topk(
// CHECK-NEXT:    %0, %1 = openvino.topk %x, %k {axis = -1 : i64, mode = "max", sort = "value", stable = true} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
// CHECK-NEXT:    %2, %3 = openvino.topk %x, %k {axis = 0 : i64, mode = "min", sort = "none"} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<1x4xf32>, tensor<1x4xi32>)
func.func @topk(%x: tensor<2x4xf32>, %k: tensor<i64>) {
  %0, %1 = openvino.topk %x, %k {axis = -1 : i64, mode = "max", sort = "value", stable = true} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  %2, %3 = openvino.topk %x, %k {axis = 0 : i64, mode = "min", sort = "none", stable = false} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<1x4xf32>, tensor<1x4xi32>)
  func.return
}
