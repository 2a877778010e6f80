// RUN: tosa-state-opt %s -p convert-tosa-variables-to-memref | filecheck %s
// RUN: tosa-state-opt %s -p convert-tosa-variables-to-memref | tosa-state-opt | filecheck %s

// The KV-cache pattern of the optimum-intel exports: the cache's read goes through a
// tosa.cond_if (a computed initial value on the first call), the new rows are concatenated
// along a dynamic axis and the result is written back at the end of the function, its
// value used meanwhile. The write moves up to the concat and appends in place: the read is
// a view of the buffer's corner (to_tensor + extract_slice, no copy). The concat stays, on
// at most one row of each operand (it checks the batches and fails with its own
// error). The buffer grows only along the dimensions that outgrow their capacity
// (arith.select keeps the others'): the appended one to twice its new length (room after a
// prefill), any other to max(length, 2 * capacity), the past is copied into the corner (nothing to
// copy when it is that corner: the interpreter's memref.copy of a buffer onto itself) and
// the new rows into the spare capacity after it; the concat's other user (the reduce_sum)
// reads the variable after the write, again a view.

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:   "memref.global"() <{initial_value, sym_name = "kv", sym_visibility = "private", type = memref<memref<?x2x?xf32>>}> : () -> ()
// CHECK-NEXT:   "memref.global"() <{initial_value = dense<0> : tensor<4xindex>, sym_name = "kv__sizes", sym_visibility = "private", type = memref<4xindex>}> {tosa_state.sizes_of = "kv"} : () -> ()
// CHECK-NEXT:   "memref.global"() <{initial_value = dense<false> : tensor<i1>, sym_name = "kv__initialized", sym_visibility = "private", type = memref<i1>}> : () -> ()
// CHECK-NEXT:   func.func @step(%x: tensor<?x2x1xf32>, %init: tensor<?x2x0xf32>) -> tensor<?x2x1xf32> {
// CHECK-NEXT:     %read = memref.get_global @kv__sizes : memref<4xindex>
// CHECK-NEXT:     %read_1 = arith.constant 0 : index
// CHECK-NEXT:     %read_2 = arith.constant 1 : index
// CHECK-NEXT:     %read_3 = memref.load %read[%read_1] : memref<4xindex>
// CHECK-NEXT:     %read_4 = memref.load %read[%read_2] : memref<4xindex>
// CHECK-NEXT:     %read_5 = memref.get_global @kv : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %read_6 = memref.load %read_5[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %read_7 = bufferization.to_tensor %read_6 restrict : memref<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %read_8 = tensor.extract_slice %read_7[0, 0, 0] [%read_3, 2, %read_4] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %ready = memref.get_global @kv__initialized : memref<i1>
// CHECK-NEXT:     %ready_1 = bufferization.to_tensor %ready restrict : memref<i1> to tensor<i1>
// CHECK-NEXT:     %past = tosa.cond_if %ready_1 (%a = %read_8, %b = %init) : tensor<i1> (tensor<?x2x?xf32>, tensor<?x2x0xf32>) -> tensor<?x2x?xf32> {
// CHECK-NEXT:     ^bb0(%a: tensor<?x2x?xf32>, %b: tensor<?x2x0xf32>):
// CHECK-NEXT:       tosa.yield %a : tensor<?x2x?xf32>
// CHECK-NEXT:     } else {
// CHECK-NEXT:     ^bb0(%a_1: tensor<?x2x?xf32>, %b_1: tensor<?x2x0xf32>):
// CHECK-NEXT:       tosa.yield %b_1 : tensor<?x2x0xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %0 = bufferization.to_buffer %past read_only : tensor<?x2x?xf32> to memref<?x2x?xf32>
// CHECK-NEXT:     %1 = bufferization.to_buffer %x read_only : tensor<?x2x1xf32> to memref<?x2x1xf32>
// CHECK-NEXT:     %2 = arith.constant 0 : index
// CHECK-NEXT:     %3 = arith.constant 1 : index
// CHECK-NEXT:     %4 = arith.constant 2 : index
// CHECK-NEXT:     %5 = arith.constant 3 : index
// CHECK-NEXT:     %6 = memref.get_global @kv__sizes : memref<4xindex>
// CHECK-NEXT:     %7 = memref.get_global @kv : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %8 = memref.load %7[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %9 = memref.dim %0, %2 : memref<?x2x?xf32>
// CHECK-NEXT:     %10 = memref.dim %1, %2 : memref<?x2x1xf32>
// CHECK-NEXT:     %11 = memref.dim %0, %4 : memref<?x2x?xf32>
// CHECK-NEXT:     %12 = arith.minui %11, %3 : index
// CHECK-NEXT:     %13 = tensor.extract_slice %past[0, 0, 0] [%9, 2, %12] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %14 = tensor.extract_slice %x[0, 0, 0] [%10, 2, 1] [1, 1, 1] : tensor<?x2x1xf32> to tensor<?x2x1xf32>
// CHECK-NEXT:     %all = tosa.concat %13, %14 {axis = 2 : i32} : (tensor<?x2x?xf32>, tensor<?x2x1xf32>) -> tensor<?x2x?xf32>
// CHECK-NEXT:     %15 = memref.dim %0, %4 : memref<?x2x?xf32>
// CHECK-NEXT:     %16 = arith.addi %15, %3 : index
// CHECK-NEXT:     %17 = memref.load %6[%4] : memref<4xindex>
// CHECK-NEXT:     %18 = arith.cmpi ugt, %9, %17 : index
// CHECK-NEXT:     %19 = arith.cmpi ugt, %17, %2 : index
// CHECK-NEXT:     %20 = memref.load %6[%5] : memref<4xindex>
// CHECK-NEXT:     %21 = arith.cmpi ugt, %16, %20 : index
// CHECK-NEXT:     %22 = arith.cmpi ugt, %20, %2 : index
// CHECK-NEXT:     %23 = arith.ori %18, %21 : i1
// CHECK-NEXT:     %24 = scf.if %23 -> (memref<?x2x?xf32>) {
// CHECK-NEXT:       %25 = arith.muli %17, %4 : index
// CHECK-NEXT:       %26 = arith.maxui %9, %25 : index
// CHECK-NEXT:       %27 = arith.select %18, %26, %17 : index
// CHECK-NEXT:       %28 = arith.muli %16, %4 : index
// CHECK-NEXT:       %29 = arith.select %21, %28, %20 : index
// CHECK-NEXT:       %30 = memref.alloc(%27, %29) : memref<?x2x?xf32>
// CHECK-NEXT:       memref.store %27, %6[%4] : memref<4xindex>
// CHECK-NEXT:       memref.store %29, %6[%5] : memref<4xindex>
// CHECK-NEXT:       memref.store %30, %7[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:       scf.yield %30 : memref<?x2x?xf32>
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %8 : memref<?x2x?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %31 = memref.subview %24[0, 0, 0] [%9, 2, %15] [1, 1, 1] : memref<?x2x?xf32> to memref<?x2x?xf32, strided<[?, ?, 1]>>
// CHECK-NEXT:     "memref.copy"(%0, %31) : (memref<?x2x?xf32>, memref<?x2x?xf32, strided<[?, ?, 1]>>) -> ()
// CHECK-NEXT:     %32 = memref.subview %24[0, 0, %15] [%9, 2, 1] [1, 1, 1] : memref<?x2x?xf32> to memref<?x2x1xf32, strided<[?, ?, 1], offset: ?>>
// CHECK-NEXT:     "memref.copy"(%1, %32) : (memref<?x2x1xf32>, memref<?x2x1xf32, strided<[?, ?, 1], offset: ?>>) -> ()
// CHECK-NEXT:     memref.store %9, %6[%2] : memref<4xindex>
// CHECK-NEXT:     memref.store %16, %6[%3] : memref<4xindex>
// CHECK-NEXT:     %33 = arith.ori %19, %22 : i1
// CHECK-NEXT:     %34 = arith.andi %23, %33 : i1
// CHECK-NEXT:     scf.if %34 {
// CHECK-NEXT:       memref.dealloc %8 : memref<?x2x?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %35 = memref.get_global @kv__sizes : memref<4xindex>
// CHECK-NEXT:     %36 = arith.constant 0 : index
// CHECK-NEXT:     %37 = arith.constant 1 : index
// CHECK-NEXT:     %38 = memref.load %35[%36] : memref<4xindex>
// CHECK-NEXT:     %39 = memref.load %35[%37] : memref<4xindex>
// CHECK-NEXT:     %40 = memref.get_global @kv : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %41 = memref.load %40[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %42 = bufferization.to_tensor %41 restrict : memref<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %43 = tensor.extract_slice %42[0, 0, 0] [%38, 2, %39] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %sum = tosa.reduce_sum %43 {axis = 2 : i32} : (tensor<?x2x?xf32>) -> tensor<?x2x1xf32>
// CHECK-NEXT:     %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
// CHECK-NEXT:     %44 = bufferization.to_buffer %true read_only : tensor<i1> to memref<i1>
// CHECK-NEXT:     %45 = memref.get_global @kv__initialized : memref<i1>
// CHECK-NEXT:     "memref.copy"(%44, %45) : (memref<i1>, memref<i1>) -> ()
// CHECK-NEXT:     func.return %sum : tensor<?x2x1xf32>
// CHECK-NEXT:   }
// CHECK-NEXT: }
tosa.variable @kv : tensor<?x2x?xf32>
tosa.variable @kv__initialized = dense<false> : tensor<i1>
func.func @step(%x: tensor<?x2x1xf32>, %init: tensor<?x2x0xf32>) -> tensor<?x2x1xf32> {
  %read = tosa.variable.read @kv : tensor<?x2x?xf32>
  %ready = tosa.variable.read @kv__initialized : tensor<i1>
  %past = tosa.cond_if %ready (%a = %read, %b = %init) : tensor<i1> (tensor<?x2x?xf32>, tensor<?x2x0xf32>) -> tensor<?x2x?xf32> {
  ^bb0(%a: tensor<?x2x?xf32>, %b: tensor<?x2x0xf32>):
    tosa.yield %a : tensor<?x2x?xf32>
  } else {
  ^bb0(%a: tensor<?x2x?xf32>, %b: tensor<?x2x0xf32>):
    tosa.yield %b : tensor<?x2x0xf32>
  }
  %all = tosa.concat %past, %x {axis = 2 : i32} : (tensor<?x2x?xf32>, tensor<?x2x1xf32>) -> tensor<?x2x?xf32>
  %sum = tosa.reduce_sum %all {axis = 2 : i32} : (tensor<?x2x?xf32>) -> tensor<?x2x1xf32>
  %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
  tosa.variable.write @kv__initialized, %true : tensor<i1>
  tosa.variable.write @kv, %all : tensor<?x2x?xf32>
  return %sum : tensor<?x2x1xf32>
}
