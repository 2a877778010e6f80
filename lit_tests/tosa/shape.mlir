// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The shape operators of TOSA's dynamic-shape extension: a reshape whose target shape is
// computed at run time from the input's dynamic dimension.

// CHECK-LABEL: func.func @main(%{{.*}}: tensor<?x6xf32>) -> (tensor<?x3x2xf32>, !tosa.shape<1>) {
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %{{.*}} {axis = 0 : i32} : (tensor<?x6xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[C:.*]] = tosa.const_shape {{.*}}{values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[S:.*]] = tosa.concat_shape %[[D]], %[[C]] : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %{{.*}}, %[[S]] : (tensor<?x6xf32>, !tosa.shape<3>) -> tensor<?x3x2xf32>
// CHECK-NEXT:    %[[A:.*]] = tosa.add_shape %[[D]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[M:.*]] = tosa.mul_shape %[[A]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[B:.*]] = tosa.sub_shape %[[M]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[F:.*]] = tosa.div_floor_shape %[[B]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[X:.*]] = tosa.max_shape %[[F]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[N:.*]] = tosa.min_shape %[[X]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    func.return %[[R]], %[[N]] : tensor<?x3x2xf32>, !tosa.shape<1>
// GENERIC: "tosa.dim"(%{{.*}}) <{axis = 0 : i32}> : (tensor<?x6xf32>) -> !tosa.shape<1>
// GENERIC: "tosa.concat_shape"(%{{.*}}, %{{.*}}) : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
func.func @main(%x: tensor<?x6xf32>) -> (tensor<?x3x2xf32>, !tosa.shape<1>) {
  %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x6xf32>) -> !tosa.shape<1>
  %c = tosa.const_shape {values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %s = tosa.concat_shape %d, %c : (!tosa.shape<1>, !tosa.shape<2>) -> !tosa.shape<3>
  %r = tosa.reshape %x, %s : (tensor<?x6xf32>, !tosa.shape<3>) -> tensor<?x3x2xf32>
  %a = tosa.add_shape %d, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %m = tosa.mul_shape %a, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %b = tosa.sub_shape %m, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %f = tosa.div_floor_shape %b, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %mx = tosa.max_shape %f, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %mn = tosa.min_shape %mx, %d : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  return %r, %mn : tensor<?x3x2xf32>, !tosa.shape<1>
}
