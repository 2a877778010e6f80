// RUN: tosa-state-opt %s -p tosa-unroll-loops | filecheck %s
// RUN: tosa-state-opt %s -p 'tosa-unroll-loops{max-trip-count=2}' | filecheck %s --check-prefix=LIMIT
// RUN: tosa-state-opt %s -p tosa-unroll-loops,tosa-rank0-conditions --tosa-spelling=upstream | iree-opt > /dev/null

// A counter from 0 while 3 > i, advanced by 1: three copies of the body, each taking the
// previous one's values; the loop's results are the last copy's.

// CHECK-LABEL: func.func @counted
// CHECK-NOT:     tosa.while_loop
// CHECK:         %[[A1:.*]] = tosa.add %x, %x
// CHECK:         %[[A2:.*]] = tosa.add %[[A1]], %[[A1]]
// CHECK:         %[[A3:.*]] = tosa.add %[[A2]], %[[A2]]
// CHECK-NOT:     tosa.add
// CHECK:         func.return %[[A3]] : tensor<4xf32>
// LIMIT-LABEL: func.func @counted
// LIMIT:         tosa.while_loop
func.func @counted(%x: tensor<4xf32>) -> tensor<4xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r:2 = tosa.while_loop (%i = %zero, %acc = %x) : (tensor<1xi32>, tensor<4xf32>) -> (tensor<1xi32>, tensor<4xf32>) {
    %n = "tosa.const"() <{values = dense<3> : tensor<1xi32>}> : () -> tensor<1xi32>
    %g = tosa.greater %n, %i : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %g : tensor<1xi1>
  } do {
  ^bb0(%i: tensor<1xi32>, %acc: tensor<4xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %j = tosa.add %i, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %a = tosa.add %acc, %acc : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %j, %a : tensor<1xi32>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
}

// Counting down (i > -1, i + -1, from 1): two copies.

// CHECK-LABEL: func.func @down
// CHECK-NOT:     tosa.while_loop
// CHECK-COUNT-2: tosa.negate
// CHECK-NOT:     tosa.negate
func.func @down(%x: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  %one = "tosa.const"() <{values = dense<1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
  %r:2 = tosa.while_loop (%i = %one, %acc = %x) : (tensor<1x1xi32>, tensor<4xf32>) -> (tensor<1x1xi32>, tensor<4xf32>) {
    %m = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %g = tosa.greater %i, %m : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
    tosa.yield %g : tensor<1x1xi1>
  } do {
  ^bb0(%i: tensor<1x1xi32>, %acc: tensor<4xf32>):
    %m = "tosa.const"() <{values = dense<-1> : tensor<1x1xi32>}> : () -> tensor<1x1xi32>
    %j = tosa.add %i, %m : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi32>
    %a = tosa.negate %acc, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
    tosa.yield %j, %a : tensor<1x1xi32>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
}

// Left alone: a bound that is not a constant (the trip count is known at run time only).

// CHECK-LABEL: func.func @unknown
// CHECK:         tosa.while_loop
func.func @unknown(%x: tensor<4xf32>, %n: tensor<1xi32>) -> tensor<4xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r:2 = tosa.while_loop (%i = %zero, %acc = %x) : (tensor<1xi32>, tensor<4xf32>) -> (tensor<1xi32>, tensor<4xf32>) {
    %g = tosa.greater %n, %i : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %g : tensor<1xi1>
  } do {
  ^bb0(%i: tensor<1xi32>, %acc: tensor<4xf32>):
    %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
    %j = tosa.add %i, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %a = tosa.add %acc, %acc : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    tosa.yield %j, %a : tensor<1xi32>, tensor<4xf32>
  }
  func.return %r#1 : tensor<4xf32>
}
