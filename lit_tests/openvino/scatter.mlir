// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// CHECK-LABEL: func.func @scatter(
// CHECK-NEXT:    %0 = openvino.scatter_update %data, %rows, %upd2, %axis : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
// CHECK-NEXT:    %1 = openvino.scatter_nd_update %data, %tuples, %upd2 : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %2 = openvino.scatter_nd_update %data, %tuples, %upd2 {reduction = "sub"} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
// CHECK-NEXT:    %3 = openvino.scatter_elements_update %data, %elements, %upd, %axis : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
// CHECK-NEXT:    %4 = openvino.scatter_elements_update %data, %elements, %upd, %axis {reduction = "mean", use_init_val = false} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
func.func @scatter(%data: tensor<4x3xf32>, %rows: tensor<2xi64>, %tuples: tensor<2x1xi32>, %elements: tensor<2x3xi32>, %upd: tensor<2x3xf32>, %upd2: tensor<2x3xf32>, %axis: tensor<i64>) {
  %0 = openvino.scatter_update %data, %rows, %upd2, %axis : (tensor<4x3xf32>, tensor<2xi64>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  %1 = openvino.scatter_nd_update %data, %tuples, %upd2 {reduction = "none"} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %2 = openvino.scatter_nd_update %data, %tuples, %upd2 {reduction = "sub"} : (tensor<4x3xf32>, tensor<2x1xi32>, tensor<2x3xf32>) -> tensor<4x3xf32>
  %3 = openvino.scatter_elements_update %data, %elements, %upd, %axis {use_init_val = true} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  %4 = openvino.scatter_elements_update %data, %elements, %upd, %axis {reduction = "mean", use_init_val = false} : (tensor<4x3xf32>, tensor<2x3xi32>, tensor<2x3xf32>, tensor<i64>) -> tensor<4x3xf32>
  func.return
}
