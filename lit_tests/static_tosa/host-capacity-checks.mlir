// RUN: tosa-state-opt %s --split-input-file -p 'tosa-static-state{capacity=8},tosa-host-capacity-checks' | filecheck %s

// A count variable's value and one row a call: the guard is left to the host, the count
// variable says what to check (count + 1 <= 8); nothing else changes.

// CHECK-LABEL: tosa.variable @k = dense<0.000000e+00> : tensor<1x2x8x4xf32>
// CHECK-NEXT:  tosa.variable @k__count {tosa_state.count_of = "k", tosa_state.capacity = 8 : i64, tosa_state.rows_per_call = 1 : i64} = dense<0.000000e+00> : tensor<1xf32>
// CHECK:       %[[HELD:.*]] = tosa.variable.read @k__count : tensor<1xf32>
// CHECK-NEXT:  %[[COUNT:.*]] = tosa.cast %[[HELD]] : (tensor<1xf32>) -> tensor<1xi32>
// CHECK-NOT:   tosa_state.check_capacity
// CHECK:       tosa.scatter
// CHECK:       tosa.variable.write @k__count
tosa.variable @k : tensor<1x2x?x4xf32>
func.func @main(%new: tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32> {
  %past = tosa.variable.read @k : tensor<1x2x?x4xf32>
  %all = tosa.concat %past, %new {axis = 2 : i32} : (tensor<1x2x?x4xf32>, tensor<1x2x1x4xf32>) -> tensor<1x2x?x4xf32>
  tosa.variable.write @k, %all : tensor<1x2x?x4xf32>
  func.return %all : tensor<1x2x?x4xf32>
}

// -----

// Rows known at run time only: the guard stays (the target check refuses it as not a
// TOSA operator), and the count variable records nothing.

// CHECK-LABEL: tosa.variable @k = dense<0.000000e+00> : tensor<1x8xf32>
// CHECK-NEXT:  tosa.variable @k__count {tosa_state.count_of = "k"} = dense<0.000000e+00> : tensor<1xf32>
// CHECK:       tosa_state.check_capacity
tosa.variable @k : tensor<1x?xf32>
func.func @main(%new: tensor<1x?xf32>) -> tensor<1x?xf32> {
  %past = tosa.variable.read @k : tensor<1x?xf32>
  %all = tosa.concat %past, %new {axis = 1 : i32} : (tensor<1x?xf32>, tensor<1x?xf32>) -> tensor<1x?xf32>
  tosa.variable.write @k, %all : tensor<1x?xf32>
  func.return %all : tensor<1x?xf32>
}
