// RUN: tosa-state-opt %s --split-input-file -p 'tosa-static-state{capacity=8 rows-at-count=true}' | filecheck %s

// One row a call, read where it is stored: the readers of the concat read the past (all 8
// rows) with the new row scattered in at the count, and that value is stored. No slice, no
// concat is left.

// CHECK-LABEL: tosa.variable @k = dense<0.000000e+00> : tensor<1x2x8x4xf32>
// CHECK:       %[[PAST:.*]] = tosa.variable.read @k : tensor<1x2x8x4xf32>
// CHECK:       %[[COUNT:.*]] = tosa.cast %{{.*}} : (tensor<1xf32>) -> tensor<1xi32>
// CHECK:       tosa_state.check_capacity %[[COUNT]]
// CHECK-NOT:   tosa.slice
// CHECK:       %[[VALUES:.*]] = tosa.reshape %[[PAST]], %{{.*}} : (tensor<1x2x8x4xf32>, !tosa.shape<3>) -> tensor<2x8x4xf32>
// CHECK:       %[[UPDATES:.*]] = tosa.reshape %new, %{{.*}} : (tensor<1x2x1x4xf32>, !tosa.shape<3>) -> tensor<2x1x4xf32>
// CHECK:       %[[AT:.*]] = tosa.add %{{.*}}, %[[COUNT]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
// CHECK:       %[[SCATTERED:.*]] = tosa.scatter %[[VALUES]], %{{.*}}, %[[UPDATES]] : (tensor<2x8x4xf32>, tensor<2x1xi32>, tensor<2x1x4xf32>) -> tensor<2x8x4xf32>
// CHECK:       %[[ALL:.*]] = tosa.reshape %[[SCATTERED]], %{{.*}} : (tensor<2x8x4xf32>, !tosa.shape<4>) -> tensor<1x2x?x4xf32>
// CHECK-NOT:   tosa.concat %
// CHECK:       %[[STORED:.*]] = tosa.reshape %[[ALL]], %{{.*}} : (tensor<1x2x?x4xf32>, !tosa.shape<4>) -> tensor<1x2x8x4xf32>
// CHECK:       tosa.variable.write @k, %[[STORED]] : tensor<1x2x8x4xf32>
// CHECK-NEXT:  tosa.variable.write @k__count
// CHECK-NEXT:  func.return %[[ALL]]
tosa.variable @k : tensor<1x2x?x4xf32>
func.func @main(%new: tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x2x?x4xf32>
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x2x?x4xf32>
  func.return %all : tensor<1x2x?x4xf32>
}

// -----

// New rows whose count is known only at run time (a reshape's -1 before tosa-infer-shapes)
// are taken as the one row the entry is fed: their reshape to one row checks it when the
// module runs.

// CHECK-LABEL: func.func @one_at_run_time
// CHECK:       %[[ONE:.*]] = tosa.reshape %new, %{{.*}} : (tensor<1x?xf32>, !tosa.shape<3>) -> tensor<1x1x1xf32>
// CHECK:       tosa.scatter %{{.*}}, %{{.*}}, %[[ONE]] : (tensor<1x8x1xf32>, tensor<1x1xi32>, tensor<1x1x1xf32>) -> tensor<1x8x1xf32>
// CHECK-NOT:   tosa.concat %
tosa.variable @k : tensor<1x?xf32>
func.func @one_at_run_time(%new: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return %all : tensor<1x?xf32>
}
