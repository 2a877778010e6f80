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
// reads the variable after the write, again a view. The globals' get_globals and the index
// constants are made once, at the top of the function, for every access.

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:   "memref.global"() <{initial_value, sym_name = "kv", sym_visibility = "private", type = memref<memref<?x2x?xf32>>}> : () -> ()
// CHECK-NEXT:   "memref.global"() <{initial_value = dense<0> : tensor<4xindex>, sym_name = "kv__sizes", sym_visibility = "private", type = memref<4xindex>}> {tosa_state.sizes_of = "kv"} : () -> ()
// CHECK-NEXT:   "memref.global"() <{initial_value = dense<false> : tensor<i1>, sym_name = "kv__initialized", sym_visibility = "private", type = memref<i1>}> : () -> ()
// CHECK-NEXT:   func.func @step(%x: tensor<?x2x1xf32>, %init: tensor<?x2x0xf32>) -> tensor<?x2x1xf32> {
// CHECK-NEXT:     %0 = memref.get_global @kv__sizes : memref<4xindex>
// CHECK-NEXT:     %1 = arith.constant 0 : index
// CHECK-NEXT:     %2 = arith.constant 1 : index
// CHECK-NEXT:     %3 = memref.get_global @kv : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %4 = arith.constant 2 : index
// CHECK-NEXT:     %5 = arith.constant 3 : index
// CHECK-NEXT:     %read = memref.load %0[%1] : memref<4xindex>
// CHECK-NEXT:     %read_1 = memref.load %0[%2] : memref<4xindex>
// CHECK-NEXT:     %read_2 = memref.load %3[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %read_3 = bufferization.to_tensor %read_2 restrict : memref<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %read_4 = tensor.extract_slice %read_3[0, 0, 0] [%read, 2, %read_1] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %ready = memref.get_global @kv__initialized : memref<i1>
// CHECK-NEXT:     %ready_1 = bufferization.to_tensor %ready restrict : memref<i1> to tensor<i1>
// CHECK-NEXT:     %past = tosa.cond_if %ready_1 (%a = %read_4, %b = %init) : tensor<i1> (tensor<?x2x?xf32>, tensor<?x2x0xf32>) -> tensor<?x2x?xf32> {
// CHECK-NEXT:     ^bb0(%a: tensor<?x2x?xf32>, %b: tensor<?x2x0xf32>):
// CHECK-NEXT:       tosa.yield %a : tensor<?x2x?xf32>
// CHECK-NEXT:     } else {
// CHECK-NEXT:     ^bb0(%a_1: tensor<?x2x?xf32>, %b_1: tensor<?x2x0xf32>):
// CHECK-NEXT:       tosa.yield %b_1 : tensor<?x2x0xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %6 = bufferization.to_buffer %past read_only : tensor<?x2x?xf32> to memref<?x2x?xf32>
// CHECK-NEXT:     %7 = bufferization.to_buffer %x read_only : tensor<?x2x1xf32> to memref<?x2x1xf32>
// CHECK-NEXT:     %8 = memref.load %3[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %9 = memref.dim %6, %1 : memref<?x2x?xf32>
// CHECK-NEXT:     %10 = memref.dim %7, %1 : memref<?x2x1xf32>
// CHECK-NEXT:     %11 = memref.dim %6, %4 : memref<?x2x?xf32>
// CHECK-NEXT:     %12 = arith.minui %11, %2 : index
// CHECK-NEXT:     %13 = tensor.extract_slice %past[0, 0, 0] [%9, 2, %12] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %14 = tensor.extract_slice %x[0, 0, 0] [%10, 2, 1] [1, 1, 1] : tensor<?x2x1xf32> to tensor<?x2x1xf32>
// CHECK-NEXT:     %all = tosa.concat %13, %14 {axis = 2 : i32} : (tensor<?x2x?xf32>, tensor<?x2x1xf32>) -> tensor<?x2x?xf32>
// CHECK-NEXT:     %15 = arith.addi %11, %2 : index
// CHECK-NEXT:     %16 = memref.load %0[%4] : memref<4xindex>
// CHECK-NEXT:     %17 = arith.cmpi ugt, %9, %16 : index
// CHECK-NEXT:     %18 = arith.cmpi ugt, %16, %1 : index
// CHECK-NEXT:     %19 = memref.load %0[%5] : memref<4xindex>
// CHECK-NEXT:     %20 = arith.cmpi ugt, %15, %19 : index
// CHECK-NEXT:     %21 = arith.cmpi ugt, %19, %1 : index
// CHECK-NEXT:     %22 = arith.ori %17, %20 : i1
// CHECK-NEXT:     %23 = scf.if %22 -> (memref<?x2x?xf32>) {
// CHECK-NEXT:       %24 = arith.muli %16, %4 : index
// CHECK-NEXT:       %25 = arith.maxui %9, %24 : index
// CHECK-NEXT:       %26 = arith.select %17, %25, %16 : index
// CHECK-NEXT:       %27 = arith.muli %15, %4 : index
// CHECK-NEXT:       %28 = arith.select %20, %27, %19 : index
// CHECK-NEXT:       %29 = memref.alloc(%26, %28) : memref<?x2x?xf32>
// CHECK-NEXT:       memref.store %26, %0[%4] : memref<4xindex>
// CHECK-NEXT:       memref.store %28, %0[%5] : memref<4xindex>
// CHECK-NEXT:       memref.store %29, %3[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:       scf.yield %29 : memref<?x2x?xf32>
// CHECK-NEXT:     } else {
// CHECK-NEXT:       scf.yield %8 : memref<?x2x?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %30 = memref.subview %23[0, 0, 0] [%9, 2, %11] [1, 1, 1] : memref<?x2x?xf32> to memref<?x2x?xf32, strided<[?, ?, 1]>>
// CHECK-NEXT:     "memref.copy"(%6, %30) : (memref<?x2x?xf32>, memref<?x2x?xf32, strided<[?, ?, 1]>>) -> ()
// CHECK-NEXT:     %31 = memref.subview %23[0, 0, %11] [%9, 2, 1] [1, 1, 1] : memref<?x2x?xf32> to memref<?x2x1xf32, strided<[?, ?, 1], offset: ?>>
// CHECK-NEXT:     "memref.copy"(%7, %31) : (memref<?x2x1xf32>, memref<?x2x1xf32, strided<[?, ?, 1], offset: ?>>) -> ()
// CHECK-NEXT:     memref.store %9, %0[%1] : memref<4xindex>
// CHECK-NEXT:     memref.store %15, %0[%2] : memref<4xindex>
// CHECK-NEXT:     %32 = arith.ori %18, %21 : i1
// CHECK-NEXT:     %33 = arith.andi %22, %32 : i1
// CHECK-NEXT:     scf.if %33 {
// CHECK-NEXT:       memref.dealloc %8 : memref<?x2x?xf32>
// CHECK-NEXT:     }
// CHECK-NEXT:     %34 = memref.load %0[%1] : memref<4xindex>
// CHECK-NEXT:     %35 = memref.load %0[%2] : memref<4xindex>
// CHECK-NEXT:     %36 = memref.load %3[] : memref<memref<?x2x?xf32>>
// CHECK-NEXT:     %37 = bufferization.to_tensor %36 restrict : memref<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %38 = tensor.extract_slice %37[0, 0, 0] [%34, 2, %35] [1, 1, 1] : tensor<?x2x?xf32> to tensor<?x2x?xf32>
// CHECK-NEXT:     %sum = tosa.reduce_sum %38 {axis = 2 : i32} : (tensor<?x2x?xf32>) -> tensor<?x2x1xf32>
// CHECK-NEXT:     %true = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
// CHECK-NEXT:     %39 = bufferization.to_buffer %true read_only : tensor<i1> to memref<i1>
// CHECK-NEXT:     %40 = memref.get_global @kv__initialized : memref<i1>
// CHECK-NEXT:     "memref.copy"(%39, %40) : (memref<i1>, memref<i1>) -> ()
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
