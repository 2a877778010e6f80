// RUN: tosa-state-opt %S/Inputs/cond-if-miscompile.mlir -p tosa-sink-cond-if-inputs | filecheck %s
// RUN: tosa-state-opt %S/Inputs/cond-if-miscompile.mlir -p tosa-sink-cond-if-inputs --tosa-spelling=upstream | iree-opt > /dev/null
// RUN: tosa-state-opt %s -p tosa-sink-cond-if-inputs | filecheck %s --check-prefix=KEPT
// RUN: tosa-state-opt %s -p tosa-sink-cond-if-inputs --tosa-spelling=upstream | iree-opt > /dev/null

// The reproducer of IREE 3.13's cond_if miscompile (docs/runtime.md): the init the else
// branch selects is computed inside it; the input and its computation outside are gone.

// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[F:.*]] = ml_program.global_load @kv_init
// CHECK-NEXT:    %[[KV:.*]] = ml_program.global_load @kv
// CHECK-NEXT:    %{{.*}} = tosa.cond_if %[[F]] (%[[A:.*]] = %[[KV]]) : tensor<i1> (tensor<?xf32>) -> tensor<?xf32> {
// CHECK-NEXT:    ^bb0(%[[A]]: tensor<?xf32>):
// CHECK-NEXT:      tosa.yield %[[A]]
// CHECK-NEXT:    } else {
// CHECK-NEXT:    ^bb0(%{{.*}}: tensor<?xf32>):
// CHECK-NEXT:      %[[C0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[E:.*]] = tensor.empty(%[[C0]]) : tensor<?xf32>
// CHECK-NEXT:      tosa.yield %[[E]]
// CHECK-NEXT:    }
// CHECK-NEXT:    tosa.concat
// An input both branches use stays; one used by neither is dropped; one computed from an
// op with effects (a global load) is left as it is.

// KEPT-LABEL: func.func @kept
// KEPT:         tosa.cond_if %c (%{{.*}} = %x, %{{.*}} = %g)
// KEPT-NOT:     tosa.negate
func.func @kept(%c: tensor<i1>, %x: tensor<4xf32>, %zp: tensor<1xf32>) -> tensor<4xf32> {
  %n = tosa.negate %x, %zp, %zp : (tensor<4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4xf32>
  %g = ml_program.global_load @g : tensor<4xf32>
  %r = "tosa.cond_if"(%c, %x, %n, %g) ({
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>, %d: tensor<4xf32>):
    %s = tosa.add %a, %d : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
    "tosa.yield"(%s) : (tensor<4xf32>) -> ()
  }, {
  ^bb0(%a: tensor<4xf32>, %b: tensor<4xf32>, %d: tensor<4xf32>):
    "tosa.yield"(%a) : (tensor<4xf32>) -> ()
  }) : (tensor<i1>, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %r : tensor<4xf32>
}
ml_program.global private mutable @g(dense<0.0> : tensor<4xf32>) : tensor<4xf32>
