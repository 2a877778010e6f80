// RUN: tosa-state-opt %s -p tosa-lower-shape-ops | filecheck %s
// RUN: tosa-state-opt %s -p tosa-lower-shape-ops --tosa-spelling=upstream | iree-opt > /dev/null

// Run-time shapes as index scalars: a reshape to [d0, d1 * 4] (tensor.reshape with an i64
// shape tensor), a slice with a computed size (tensor.extract_slice, cast to the op's
// more static type), a broadcasting tile with run-time multiples (linalg.generic), a
// computed shape with a -1; the shape ops are gone. A constant shape stays for upstream.

// CHECK-LABEL: func.func @main
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK-DAG:     %[[D0:.*]] = tensor.dim %x, %[[C0]] : tensor<?x?x4xf32>
// CHECK-DAG:     %[[C1:.*]] = arith.constant 1 : index
// CHECK-DAG:     %[[D1:.*]] = tensor.dim %x, %[[C1]] : tensor<?x?x4xf32>
// CHECK-DAG:     %[[FOUR:.*]] = arith.constant 4 : index
// CHECK-DAG:     %[[M:.*]] = arith.muli %[[D1]], %[[FOUR]] : index
// CHECK:         %[[I0:.*]] = arith.index_cast %[[D0]] : index to i64
// CHECK-NEXT:    %[[I1:.*]] = arith.index_cast %[[M]] : index to i64
// CHECK-NEXT:    %[[S:.*]] = tensor.from_elements %[[I0]], %[[I1]] : tensor<2xi64>
// CHECK-NEXT:    %[[R:.*]] = tensor.reshape %x(%[[S]]) : (tensor<?x?x4xf32>, tensor<2xi64>) -> tensor<?x?xf32>
// CHECK:         %[[E:.*]] = tensor.extract_slice %[[R]][{{.*}}] [{{.*}}] [1, 1] : tensor<?x?xf32> to tensor<?x?xf32>
// CHECK-NEXT:    %[[SC:.*]] = tensor.cast %[[E]] : tensor<?x?xf32> to tensor<1x?xf32>
// CHECK:         %[[EMPTY:.*]] = tensor.empty(%[[D0]]) : tensor<?x3xf32>
// CHECK-NEXT:    %[[T:.*]] = linalg.generic {{.*}}affine_map<(d0, d1) -> (0, d1)>, affine_map<(d0, d1) -> (d0, d1)>{{.*}} ins(%b : tensor<1x3xf32>) outs(%[[EMPTY]] : tensor<?x3xf32>)
// CHECK:         tosa.reshape %x, %{{.*}} : (tensor<?x?x4xf32>, !tosa.shape<3>) -> tensor<?x?x4xf32>
// A -1 entry: the element count over the other sizes.
// CHECK:         %[[N0:.*]] = tensor.dim %x
// CHECK:         %[[N1:.*]] = tensor.dim %x
// CHECK-NEXT:    %[[N01:.*]] = arith.muli %[[N0]], %[[N1]] : index
// CHECK:         %[[N2:.*]] = tensor.dim %x
// CHECK-NEXT:    %[[N:.*]] = arith.muli %[[N01]], %[[N2]] : index
// CHECK-NEXT:    %[[Q:.*]] = arith.divui %[[N]], %[[D0]] : index
// CHECK-NEXT:    %[[J0:.*]] = arith.index_cast %[[D0]] : index to i64
// CHECK-NEXT:    %[[J1:.*]] = arith.index_cast %[[Q]] : index to i64
// CHECK-NEXT:    %[[FS:.*]] = tensor.from_elements %[[J0]], %[[J1]] : tensor<2xi64>
// CHECK-NEXT:    tensor.reshape %x(%[[FS]])
// CHECK-NOT:     tosa.dim
// CHECK-NOT:     _shape
func.func @main(%x: tensor<?x?x4xf32>, %b: tensor<1x3xf32>) -> (tensor<?x?xf32>, tensor<1x?xf32>, tensor<?x3xf32>, tensor<?x?x4xf32>, tensor<?x?xf32>) {
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<?x?x4xf32>) -> !tosa.shape<1>
  %d1 = tosa.dim %x {axis = 1 : i32} : (tensor<?x?x4xf32>) -> !tosa.shape<1>
  %four = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %wide = tosa.mul_shape %d1, %four : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %shape = tosa.concat_shape %d0, %wide : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %shape : (tensor<?x?x4xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %zero = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %size = tosa.concat_shape %one, %wide : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %s = tosa.slice %r, %zero, %size : (tensor<?x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x?xf32>
  %times = tosa.concat_shape %d0, %one : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %t = tosa.tile %b, %times : (tensor<1x3xf32>, !tosa.shape<2>) -> tensor<?x3xf32>
  %same = tosa.const_shape {values = dense<[-1, 2, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k = tosa.reshape %x, %same : (tensor<?x?x4xf32>, !tosa.shape<3>) -> tensor<?x?x4xf32>
  %minus = tosa.const_shape {values = dense<-1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %flat_shape = tosa.concat_shape %d0, %minus : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %flat = tosa.reshape %x, %flat_shape : (tensor<?x?x4xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  func.return %r, %s, %t, %k, %flat : tensor<?x?xf32>, tensor<1x?xf32>, tensor<?x3xf32>, tensor<?x?x4xf32>, tensor<?x?xf32>
}
