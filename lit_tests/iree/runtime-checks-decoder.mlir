// RUN: tosa-state-opt %s -p tosa-runtime-checks | filecheck %s
// RUN: tosa-state-opt %s -p tosa-runtime-checks --tosa-spelling=upstream | iree-opt > /dev/null

// A decoder step (inputs input_ids and attention_mask; KV caches of rank 4, batch and time
// dynamic): before the last cache's store, the mask is no longer than the longest stored
// value along time (a layer with a sliding window may keep fewer; device iree checks
// position_ids against the mask's length before the call). The message is the location of
// the op reading the mask.

// CHECK-LABEL: func.func @main(%input_ids: tensor<?x?xi32>, %attention_mask: tensor<?x?xi32>, %x: tensor<?x2x?x4xf32>) -> (tensor<?x2x?x4xf32>, tensor<?x?xf32>) {
// CHECK:         ml_program.global_store @kv = %all : tensor<?x2x?x4xf32>
// CHECK:         %kept = tosa.slice %all, %start, %size : (tensor<?x2x?x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:    %[[TWO:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[FULL:.*]] = tensor.dim %all, %[[TWO]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:    %[[TWO2:.*]] = arith.constant 2 : index
// CHECK-NEXT:    %[[WINDOW:.*]] = tensor.dim %kept, %[[TWO2]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:    %[[END:.*]] = arith.maxui %[[FULL]], %[[WINDOW]] : index
// CHECK-NEXT:    %[[ONE:.*]] = arith.constant 1 : index
// CHECK-NEXT:    %[[LENGTH:.*]] = tensor.dim %attention_mask, %[[ONE]] : tensor<?x?xi32>
// CHECK-NEXT:    %[[FITS:.*]] = arith.cmpi ule, %[[LENGTH]], %[[END]] : index
// CHECK-NEXT:    cf.assert %[[FITS]], "{{.*}}runtime-checks-decoder.mlir:[[# @LINE + 13]]:3: error: input 'attention_mask' is longer than the state holds with the new tokens"
// CHECK-NEXT:    ml_program.global_store @window = %kept : tensor<?x2x?x4xf32>
ml_program.global private mutable @kv : tensor<?x2x?x4xf32>
ml_program.global private mutable @window : tensor<?x2x?x4xf32>
func.func @main(%input_ids: tensor<?x?xi32>, %attention_mask: tensor<?x?xi32>,
                %x: tensor<?x2x?x4xf32>) -> (tensor<?x2x?x4xf32>, tensor<?x?xf32>) {
  %past = ml_program.global_load @kv : tensor<?x2x?x4xf32>
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  ml_program.global_store @kv = %all : tensor<?x2x?x4xf32>
  %start = tosa.const_shape {values = dense<0> : tensor<4xindex>} : () -> !tosa.shape<4>
  %size = tosa.const_shape {values = dense<[-1, 2, 1, 4]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %kept = tosa.slice %all, %start, %size : (tensor<?x2x?x4xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<?x2x?x4xf32>
  ml_program.global_store @window = %kept : tensor<?x2x?x4xf32>
  %m = tosa.cast %attention_mask : (tensor<?x?xi32>) -> tensor<?x?xf32>
  return %all, %m : tensor<?x2x?x4xf32>, tensor<?x?xf32>
}
