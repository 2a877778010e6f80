// RUN: tosa-state-opt %s -p convert-tosa-variables-to-memref | filecheck %s

// The appended rows may be less static than the cache (GPT-2's new keys are `[?, ?, ?, 8]`
// next to a `[?, 4, ?, 8]` cache: the heads come out of shape arithmetic): each slot of the
// buffer has its operand's exact type, a run-time size where the operand has `?`.

// CHECK-LABEL: func.func @append(
// CHECK:         %[[NEW:.*]] = bufferization.to_buffer %x read_only : tensor<?x?x1xf32> to memref<?x?x1xf32>
// CHECK:         %[[SLOT:.*]] = memref.subview %{{.*}}[0, 0, %{{.*}}] [%{{.*}}, %{{.*}}, 1] [1, 1, 1] : memref<?x2x?xf32> to memref<?x?x1xf32, strided<[?, ?, 1], offset: ?>>
// CHECK-NEXT:    "memref.copy"(%[[NEW]], %[[SLOT]]) : (memref<?x?x1xf32>, memref<?x?x1xf32, strided<[?, ?, 1], offset: ?>>) -> ()
tosa.variable @kv : tensor<?x2x?xf32>
func.func @append(%x: tensor<?x?x1xf32>) -> tensor<?x2x1xf32> {
  %past = tosa.variable.read @kv : tensor<?x2x?xf32>
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x2x?xf32>, tensor<?x?x1xf32>) -> tensor<?x2x?xf32>
  tosa.variable.write @kv, %all : tensor<?x2x?xf32>
  %s = tosa.reduce_sum %all {axis = 2 : i32} : (tensor<?x2x?xf32>) -> tensor<?x2x1xf32>
  return %s : tensor<?x2x1xf32>
}
