// RUN: tosa-state-opt %s -p tosa-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// A decoder step (inputs input_ids and attention_mask; a KV cache of rank 4, batch and
// time dynamic): before the cache's store, the mask is no longer than the stored value
// along time (device iree checks position_ids against the mask's length before the call).
// The message is the location of the op reading the mask.

// CHECK-LABEL: func.func @main(%input_ids: tensor<?x?xi32>, %attention_mask: tensor<?x?xi32>, %position_ids: tensor<?x?xi32>, %x: tensor<?x2x?x4xf32>) -> (tensor<?x2x?x4xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
// CHECK:         %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[END:.*]] = tensor.dim %all, %[[TWO]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LENGTH:.*]] = tensor.dim %attention_mask, %[[ONE]] : tensor<?x?xi32>
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi ule, %[[LENGTH]], %[[END]] : index
// CHECK-NEXT:    cf.assert %[[FITS]], "{{.*}}runtime-checks-decoder.mlir:[[# @LINE + 9]]:3: error: input 'attention_mask' is longer than the state holds with the new tokens"
// CHECK-NEXT:    ml_program.global_store @kv = %all : tensor<?x2x?x4xf32>
ml_program.global private mutable @kv : tensor<?x2x?x4xf32>
func.func @main(%input_ids: tensor<?x?xi32>, %attention_mask: tensor<?x?xi32>,
                %position_ids: tensor<?x?xi32>, %x: tensor<?x2x?x4xf32>)
    -> (tensor<?x2x?x4xf32>, tensor<?x?xf32>, tensor<?x?xf32>) {
  %past = ml_program.global_load @kv : tensor<?x2x?x4xf32>
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  ml_program.global_store @kv = %all : tensor<?x2x?x4xf32>
  %m = tosa.cast %attention_mask : (tensor<?x?xi32>) -> tensor<?x?xf32>
  %p = tosa.cast %position_ids : (tensor<?x?xi32>) -> tensor<?x?xf32>
  return %all, %m, %p : tensor<?x2x?x4xf32>, tensor<?x?xf32>, tensor<?x?xf32>
}
