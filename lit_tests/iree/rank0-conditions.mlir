// RUN: tosa-state-opt %s -p tosa-rank0-conditions | filecheck %s
// RUN: tosa-state-opt %s -p tosa-rank0-conditions --tosa-spelling=upstream | iree-opt > /dev/null

// The condition of a cond_if, and the value a while_loop's cond_graph yields, reshaped to
// tensor<i1> (upstream's TOSA-to-SCF lowering takes rank 0 only). Rank 0 stays as it is.

// CHECK-LABEL: func.func @cond_if
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{.*}}values = dense<> : tensor<0xindex>{{.*}} -> !tosa.shape<0>
// CHECK-NEXT:    %[[C:.*]] = tosa.reshape %c, %[[S]] : (tensor<1x1xi1>, !tosa.shape<0>) -> tensor<i1>
// CHECK-NEXT:    %{{.*}} = tosa.cond_if %[[C]] {{.*}}: tensor<i1>
func.func @cond_if(%c: tensor<1x1xi1>, %x: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  %r = "tosa.cond_if"(%c, %x) ({
  ^bb0(%a: tensor<4xf32>):
    "tosa.yield"(%a) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>):
    %n = tosa.negate %a, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
    "tosa.yield"(%n) : (tensor<4xf32>) -> ()
  }) : (tensor<1x1xi1>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}

// CHECK-LABEL: func.func @while_loop
// CHECK:         %[[G:.*]] = tosa.greater
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{.*}}values = dense<> : tensor<0xindex>{{.*}} -> !tosa.shape<0>
// CHECK-NEXT:    %[[C:.*]] = tosa.reshape %[[G]], %[[S]] : (tensor<1xi1>, !tosa.shape<0>) -> tensor<i1>
// CHECK-NEXT:    tosa.yield %[[C]] : tensor<i1>
func.func @while_loop(%x: tensor<4xf32>) -> tensor<4xf32> {
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

// CHECK-LABEL: func.func @already_rank0
// CHECK-NOT:     tosa.reshape
func.func @already_rank0(%c: tensor<i1>, %x: tensor<4xf32>) -> tensor<4xf32> {
  %r = "tosa.cond_if"(%c, %x) ({
  ^bb0(%a: tensor<4xf32>):
    "tosa.yield"(%a) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>):
    "tosa.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
