// RUN: tosa-state-opt %s -p tosa-lower-shape-ops | filecheck %s
// RUN: tosa-state-opt %s -p tosa-lower-shape-ops --tosa-spelling=upstream | iree-opt > /dev/null

// A size read from data (tosa-state's `tosa.shape_from_tensor`): each element extracted and
// cast to `index`, then used as any run-time size (here a slice's length).

// CHECK-LABEL: func.func @slice_by_data
// CHECK-DAG:     %[[C0:.*]] = arith.constant 0 : index
// CHECK:         %[[E:.*]] = tensor.extract %count[%[[C0]]] : tensor<1xi64>
// CHECK-NEXT:    %[[N:.*]] = arith.index_cast %[[E]] : i64 to index
// CHECK:         tensor.extract_slice %x[{{.*}}] [%[[N]]] [1] : tensor<8xf32> to tensor<?xf32>
// CHECK-NOT:     tosa.shape_from_tensor
func.func @slice_by_data(%x: tensor<8xf32>, %count: tensor<1xi64>) -> tensor<?xf32> {
  %n = tosa.shape_from_tensor %count : (tensor<1xi64>) -> !tosa.shape<1>
  %start = tosa.const_shape {values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
  %r = tosa.slice %x, %start, %n : (tensor<8xf32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xf32>
  return %r : tensor<?xf32>
}
