// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// `tosa.while_loop` prints as upstream MLIR prints it: the initialization list names the
// `cond_graph` arguments (its block header is not printed), the `body_graph` has its own.
// `tosa.scatter` is the TOSA way to write a step's part of an output.
// tests/test_while_loop.py checks that upstream `iree-opt` parses this.

// CHECK-LABEL: func.func @running_sum
// CHECK:         %{{.*}}, %{{.*}}, %[[SUM:.*]], %[[YS:.*]] = tosa.while_loop (%[[T:.*]] = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}, %{{.*}} = %{{.*}}) : (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) -> (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) {
// CHECK-NEXT:      %[[N:.*]] = "tosa.const"() <{values = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:      %[[C:.*]] = tosa.greater %[[N]], %[[T]] : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
// CHECK-NEXT:      tosa.yield %[[C]] : tensor<1xi1>
// CHECK-NEXT:    } do {
// CHECK-NEXT:    ^bb0(%[[BT:.*]]: tensor<1xi32>, %[[BI:.*]]: tensor<2x1xi32>, %[[BACC:.*]]: tensor<2x3xf32>, %[[BYS:.*]]: tensor<2x5x3xf32>):
// CHECK:           %[[XT:.*]] = tosa.gather %{{.*}}, %[[BI]] : (tensor<2x5x3xf32>, tensor<2x1xi32>) -> tensor<2x1x3xf32>
// CHECK:           %[[YS2:.*]] = tosa.scatter %[[BYS]], %[[BI]], %{{.*}} : (tensor<2x5x3xf32>, tensor<2x1xi32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
// CHECK-NEXT:      tosa.yield %{{.*}}, %{{.*}}, %{{.*}}, %[[YS2]] : tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>
// CHECK-NEXT:    } attributes {note = "kept"}
// CHECK-NEXT:    func.return %[[YS]], %[[SUM]] : tensor<2x5x3xf32>, tensor<2x3xf32>
// GENERIC:       "tosa.while_loop"(%{{.*}}, %{{.*}}, %{{.*}}, %{{.*}}) ({
// GENERIC-NEXT:  ^bb0(%{{.*}}: tensor<1xi32>, %{{.*}}: tensor<2x1xi32>, %{{.*}}: tensor<2x3xf32>, %{{.*}}: tensor<2x5x3xf32>):
// GENERIC:       }, {
// GENERIC:       "tosa.scatter"
// GENERIC:       }) {note = "kept"} : (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) -> (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>)
func.func @running_sum(%x: tensor<2x5x3xf32>) -> (tensor<2x5x3xf32>, tensor<2x3xf32>) {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %idx0 = "tosa.const"() <{values = dense<0> : tensor<2x1xi32>}> : () -> tensor<2x1xi32>
  %acc0 = "tosa.const"() <{values = dense<0.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %ys0 = "tosa.const"() <{values = dense<0.0> : tensor<2x5x3xf32>}> : () -> tensor<2x5x3xf32>
  %r:4 = tosa.while_loop (%t = %zero, %i = %idx0, %acc = %acc0, %ys = %ys0) : (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) -> (tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>) {
    %n = "tosa.const"() <{values = dense<5> : tensor<1xi32>}> : () -> tensor<1xi32>
    %c = tosa.greater %n, %t : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%t: tensor<1xi32>, %i: tensor<2x1xi32>, %acc: tensor<2x3xf32>, %ys: tensor<2x5x3xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %one2 = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %t2 = tosa.add %t, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %i2 = tosa.add %i, %one2 : (tensor<2x1xi32>, tensor<1x1xi32>) -> tensor<2x1xi32>
    %xt = tosa.gather %x, %i : (tensor<2x5x3xf32>, tensor<2x1xi32>) -> tensor<2x1x3xf32>
    %s = tosa.const_shape {values = dense<[2, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
    %xt2 = tosa.reshape %xt, %s : (tensor<2x1x3xf32>, !tosa.shape<2>) -> tensor<2x3xf32>
    %acc2 = tosa.add %acc, %xt2 : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
    %s3 = tosa.const_shape {values = dense<[2, 1, 3]> : tensor<3xindex>} : () -> !tosa.shape<3>
    %a3 = tosa.reshape %acc2, %s3 : (tensor<2x3xf32>, !tosa.shape<3>) -> tensor<2x1x3xf32>
    %ys2 = tosa.scatter %ys, %i, %a3 : (tensor<2x5x3xf32>, tensor<2x1xi32>, tensor<2x1x3xf32>) -> tensor<2x5x3xf32>
    tosa.yield %t2, %i2, %acc2, %ys2 : tensor<1xi32>, tensor<2x1xi32>, tensor<2x3xf32>, tensor<2x5x3xf32>
  } attributes {note = "kept"}
  return %r#3, %r#2 : tensor<2x5x3xf32>, tensor<2x3xf32>
}

// CHECK-LABEL: func.func @no_carried_values
// CHECK-NEXT:    tosa.while_loop () : () -> () {
func.func @no_carried_values(%c: tensor<i1>) {
  tosa.while_loop () : () -> () {
    tosa.yield %c : tensor<i1>
  } do {
    "tosa.yield"() : () -> ()
  }
  return
}
