// RUN: tosa-state-opt %s --split-input-file -p 'tosa-integers-in-float' | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p 'tosa-integers-in-float,tosa-validate{profiles=pro_fp extensions=""}' | filecheck %s --check-prefix=VALID
// RUN: tosa-state-opt %s --split-input-file -p 'tosa-integers-in-float{profiles="pro_int,pro_fp"}' | filecheck %s --check-prefix=BOTH

// A decoder's causal mask: positions compared, selected, moved, in i32 (PRO-INT only),
// computed in f32 for a PRO-FP target; the gather's indices stay i32.

// CHECK-LABEL: func.func @mask
// CHECK-DAG: %[[FP:.*]] = tosa.cast %pos : (tensor<1x4xi32>) -> tensor<1x4xf32>
// CHECK-DAG: %[[FL:.*]] = "tosa.const"() <{values = dense<2.000000e+00> : tensor<1x1xf32>}>
// CHECK: %[[G:.*]] = tosa.greater_equal %[[FL]], %[[FP]] : (tensor<1x1xf32>, tensor<1x4xf32>) -> tensor<1x4xi1>
// CHECK: %[[S:.*]] = tosa.select %[[G]], %[[FP]], %{{.*}} : (tensor<1x4xi1>, tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
// CHECK: %[[R:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<1x4xf32>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK: %[[I:.*]] = tosa.cast %[[R]] : (tensor<2x2xf32>) -> tensor<2x2xi32>
// CHECK: %[[SUM:.*]] = tosa.reduce_sum %[[R]] {axis = 1 : i32} : (tensor<2x2xf32>) -> tensor<2x1xf32>
// CHECK: %[[SI:.*]] = tosa.cast %[[SUM]] : (tensor<2x1xf32>) -> tensor<2x1xi32>
// CHECK: tosa.gather %table, %[[I]] : (tensor<2x8x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
// CHECK: func.return {{.*}}, %[[SI]]

// VALID-LABEL: func.func @mask
// BOTH-LABEL: func.func @mask
// BOTH-NOT: tosa.cast
func.func @mask(%pos: tensor<1x4xi32>, %table: tensor<2x8x3xf32>) -> (tensor<2x2x3xf32>, tensor<2x1xi32>) {
  %limit = "tosa.const"() <{values = dense<2> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %zero = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %ge = tosa.greater_equal %limit, %pos : (tensor<1x1xi32>, tensor<1x4xi32>) -> tensor<1x4xi1>
  %kept = tosa.select %ge, %pos, %zero : (tensor<1x4xi1>, tensor<1x4xi32>, tensor<1x1xi32>) -> tensor<1x4xi32>
  %shape = tosa.const_shape {values = dense<2> : tensor<2xindex>} : () -> !tosa.shape<2>
  %idx = tosa.reshape %kept, %shape : (tensor<1x4xi32>, !tosa.shape<2>) -> tensor<2x2xi32>
  %sum = tosa.reduce_sum %idx {axis = 1 : i32} : (tensor<2x2xi32>) -> tensor<2x1xi32>
  %g = tosa.gather %table, %idx : (tensor<2x8x3xf32>, tensor<2x2xi32>) -> tensor<2x2x3xf32>
  func.return %g, %sum : tensor<2x2x3xf32>, tensor<2x1xi32>
}

// -----

// Casts between i32 and bool, and a gather of bool values (which no profile has).

// CHECK-LABEL: func.func @bools
// CHECK: %[[F:.*]] = tosa.cast %m : (tensor<1x4xi32>) -> tensor<1x4xf32>
// CHECK: %[[E:.*]] = tosa.equal %[[F]], %{{.*}} : (tensor<1x4xf32>, tensor<1x1xf32>) -> tensor<1x4xi1>
// CHECK: %[[B:.*]] = tosa.logical_not %[[E]] : (tensor<1x4xi1>) -> tensor<1x4xi1>
// CHECK: %[[O:.*]] = tosa.select %[[B]], %{{.*}}, %{{.*}} : (tensor<1x4xi1>, tensor<1x1xf32>, tensor<1x1xf32>) -> tensor<1x4xf32>
// CHECK: tosa.cast %[[O]] : (tensor<1x4xf32>) -> tensor<1x4xi32>
// CHECK: %[[V:.*]] = tosa.select %b, %{{.*}}, %{{.*}} : (tensor<1x4x1xi1>, tensor<1x1x1xf32>, tensor<1x1x1xf32>) -> tensor<1x4x1xf32>
// CHECK: %[[G:.*]] = tosa.gather %[[V]], %i : (tensor<1x4x1xf32>, tensor<1x2xi32>) -> tensor<1x2x1xf32>
// CHECK: tosa.greater %[[G]], %{{.*}} : (tensor<1x2x1xf32>, tensor<1x1x1xf32>) -> tensor<1x2x1xi1>

// VALID-LABEL: func.func @bools
// BOTH-LABEL: func.func @bools
// BOTH: tosa.cast %m : (tensor<1x4xi32>) -> tensor<1x4xi1>
// BOTH: tosa.gather {{.*}} : (tensor<1x4x1xf32>, tensor<1x2xi32>) -> tensor<1x2x1xf32>
func.func @bools(%m: tensor<1x4xi32>, %b: tensor<1x4x1xi1>, %i: tensor<1x2xi32>) -> (tensor<1x4xi32>, tensor<1x2x1xi1>) {
  %flags = tosa.cast %m : (tensor<1x4xi32>) -> tensor<1x4xi1>
  %back = tosa.cast %flags : (tensor<1x4xi1>) -> tensor<1x4xi32>
  %g = tosa.gather %b, %i : (tensor<1x4x1xi1>, tensor<1x2xi32>) -> tensor<1x2x1xi1>
  func.return %back, %g : tensor<1x4xi32>, tensor<1x2x1xi1>
}

