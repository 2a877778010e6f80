// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// CHECK-LABEL: func.func @indexing(
// CHECK-NEXT:    %0 = openvino.gather_nd %data, %tuples {batch_dims = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x5x1xi32>) -> tensor<2x5x3xf32>
// CHECK-NEXT:    %1 = openvino.gather_nd %data, %tuples : (tensor<2x4x3xf32>, tensor<2x5x1xi32>) -> tensor<2x5x4x3xf32>
// CHECK-NEXT:    %2 = openvino.gather_elements %data, %elements {axis = -1 : i64} : (tensor<2x4x3xf32>, tensor<2x4x1xi64>) -> tensor<2x4x1xf32>
// CHECK-NEXT:    %3 = openvino.non_zero %data : (tensor<2x4x3xf32>) -> tensor<3x?xi64>
// CHECK-NEXT:    %4 = openvino.einsum %data, %data {equation = "bij,bkj->bik"} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x4xf32>
func.func @indexing(%data: tensor<2x4x3xf32>, %tuples: tensor<2x5x1xi32>, %elements: tensor<2x4x1xi64>) {
  %0 = openvino.gather_nd %data, %tuples {batch_dims = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x5x1xi32>) -> tensor<2x5x3xf32>
  %1 = openvino.gather_nd %data, %tuples {batch_dims = 0 : i64} : (tensor<2x4x3xf32>, tensor<2x5x1xi32>) -> tensor<2x5x4x3xf32>
  %2 = openvino.gather_elements %data, %elements {axis = -1 : i64} : (tensor<2x4x3xf32>, tensor<2x4x1xi64>) -> tensor<2x4x1xf32>
  %3 = openvino.non_zero %data : (tensor<2x4x3xf32>) -> tensor<3x?xi64>
  %4 = openvino.einsum %data, %data {equation = "bij,bkj->bik"} : (tensor<2x4x3xf32>, tensor<2x4x3xf32>) -> tensor<2x4x4xf32>
  func.return
}
