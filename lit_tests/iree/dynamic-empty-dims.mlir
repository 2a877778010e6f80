// RUN: tosa-state-opt %s -p tosa-dynamic-empty-dims | filecheck %s
// RUN: tosa-state-opt %s -p tosa-dynamic-empty-dims --tosa-spelling=upstream | filecheck %s --check-prefix=NOZERO
// RUN: tosa-state-opt %s -p tosa-dynamic-empty-dims --tosa-spelling=upstream | iree-opt > /dev/null

// Size-0 dims typed `?`: an empty constant becomes tensor.empty of sizes 0; op results and
// block arguments (a cond_if's) and signatures are retyped; static dims stay.

// NOZERO-NOT: x0x
// NOZERO-NOT: <0x
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%c: tensor<i1>, %kv: tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
// CHECK-NEXT:    %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:    %[[E:.*]] = tensor.empty(%[[C0]]) : tensor<1x2x?x4xf32>
// CHECK-NEXT:    %[[R:.*]] = tosa.cond_if %c (%{{.*}} = %kv, %{{.*}} = %[[E]]) : tensor<i1> (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32> {
// CHECK:         } else {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<1x2x?x4xf32>, %[[B:.*]]: tensor<1x2x?x4xf32>):
// CHECK-NEXT:      %[[T:.*]] = tosa.abs %[[B]] : (tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
// CHECK-NEXT:      %[[A:.*]] = tosa.add %[[T]], %[[B]] : (tensor<1x2x?x4xf32>, tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32>
// CHECK-NEXT:      tosa.yield %[[A]] : tensor<1x2x?x4xf32>
func.func @main(%c: tensor<i1>, %kv: tensor<1x2x?x4xf32>) -> tensor<1x2x?x4xf32> {
  %e = "tosa.const"() <{values = dense<> : tensor<1x2x0x4xf32>}> : () -> tensor<1x2x0x4xf32>
  %r = "tosa.cond_if"(%c, %kv, %e) ({
  ^bb0(%a: tensor<1x2x?x4xf32>, %b: tensor<1x2x0x4xf32>):
    "tosa.yield"(%a) : (tensor<1x2x?x4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<1x2x?x4xf32>, %b: tensor<1x2x0x4xf32>):
    %t = tosa.abs %b : (tensor<1x2x0x4xf32>) -> tensor<1x2x0x4xf32>
    %s = tosa.add %t, %b : (tensor<1x2x0x4xf32>, tensor<1x2x0x4xf32>) -> tensor<1x2x0x4xf32>
    "tosa.yield"(%s) : (tensor<1x2x0x4xf32>) -> ()
  }) : (tensor<i1>, tensor<1x2x?x4xf32>, tensor<1x2x0x4xf32>) -> tensor<1x2x?x4xf32>
  func.return %r : tensor<1x2x?x4xf32>
}

// CHECK-LABEL: func.func @signature
// CHECK-SAME:    (%x: tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    %[[A:.*]] = tosa.abs %x : (tensor<?x3xf32>) -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %[[A]] : tensor<?x3xf32>
func.func @signature(%x: tensor<0x3xf32>) -> tensor<0x3xf32> {
  %a = tosa.abs %x : (tensor<0x3xf32>) -> tensor<0x3xf32>
  func.return %a : tensor<0x3xf32>
}
