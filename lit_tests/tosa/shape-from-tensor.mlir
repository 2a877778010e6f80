// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// tosa-state's extension of the shape operators: the values of an integer tensor computed
// from data as a shape (a pad amount), combined with the other shape ops.

// CHECK-LABEL: func.func @pad_by_data(
// CHECK-NEXT:    %[[S:.*]] = tosa.shape_from_tensor %amount : (tensor<2xi64>) -> !tosa.shape<2>
// CHECK-NEXT:    %[[Z:.*]] = tosa.const_shape {{ *}}{values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[P:.*]] = tosa.concat_shape %[[S]], %[[Z]] : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<4>
// CHECK-NEXT:    %[[F:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// CHECK-NEXT:    %{{.*}} = tosa.pad %x, %[[P]], %[[F]] : (tensor<2x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
func.func @pad_by_data(%x: tensor<2x4xf32>, %amount: tensor<2xi64>) -> tensor<?x?xf32> {
  %s = tosa.shape_from_tensor %amount : (tensor<2xi64>) -> !tosa.shape<2>
  %z = tosa.const_shape {values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
  %p = tosa.concat_shape %s, %z : (!tosa.shape<2>, !tosa.shape<2>) -> !tosa.shape<4>
  %f = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
  %r = tosa.pad %x, %p, %f : (tensor<2x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
  return %r : tensor<?x?xf32>
}
