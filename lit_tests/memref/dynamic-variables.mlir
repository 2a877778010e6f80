// RUN: tosa-state-opt %s -p 'convert-tosa-variables-to-memref{elide-copies=false}' | filecheck %s
// RUN: tosa-state-opt %s -p 'convert-tosa-variables-to-memref{elide-copies=false}' | tosa-state-opt | filecheck %s

// A dynamic-shape variable cannot be a memref.global of its own type: it becomes a global
// holding a pointer to a buffer (allocated by the first write) and an index global with
// the lengths, then the capacities, of its dynamic dimensions (all 0: it starts empty).
// A read copies the buffer's used corner; a write grows the buffer when the value does not
// fit (along each dimension that outgrows its capacity, to max(length, 2 * capacity):
// amortised doubling; the others keep theirs), copies the value into its corner, records
// the new length, and frees the old buffer after the copy. (elide-copies=false: the
// copy-free reads and the appends in place are in append-in-place.mlir.)

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    "memref.global"() <{initial_value, sym_name = "kv", sym_visibility = "private", type = memref<memref<2x?xf32>>}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{initial_value = dense<0> : tensor<2xindex>, sym_name = "kv__sizes", sym_visibility = "private", type = memref<2xindex>}> {tosa_state.sizes_of = "kv"} : () -> ()
// CHECK-NEXT:    func.func @step(%[[X:.*]]: tensor<2x?xf32>) -> tensor<2x?xf32> {
// The globals and index constants every access uses are made once, at the top.
// CHECK-NEXT:      %[[S:.*]] = memref.get_global @kv__sizes : memref<2xindex>
// CHECK-NEXT:      %[[I0:.*]] = arith.constant 0 : index
// CHECK-NEXT:      %[[P:.*]] = memref.get_global @kv : memref<memref<2x?xf32>>
// CHECK-NEXT:      %[[I1:.*]] = arith.constant 1 : index
// CHECK-NEXT:      %[[I2:.*]] = arith.constant 2 : index
// CHECK-NEXT:      %[[LEN:.*]] = memref.load %[[S]][%[[I0]]] : memref<2xindex>
// CHECK-NEXT:      %[[BUF:.*]] = memref.load %[[P]][] : memref<memref<2x?xf32>>
// CHECK-NEXT:      %[[USED:.*]] = memref.subview %[[BUF]][0, 0] [2, %[[LEN]]] [1, 1] : memref<2x?xf32> to memref<2x?xf32, strided<[?, 1]>>
// CHECK-NEXT:      %[[COPY:.*]] = memref.alloc(%[[LEN]]) : memref<2x?xf32>
// CHECK-NEXT:      "memref.copy"(%[[USED]], %[[COPY]]) : (memref<2x?xf32, strided<[?, 1]>>, memref<2x?xf32>) -> ()
// CHECK-NEXT:      %[[PAST:.*]] = bufferization.to_tensor %[[COPY]] restrict : memref<2x?xf32> to tensor<2x?xf32>
// CHECK-NEXT:      %[[ALL:.*]] = tosa.concat %[[PAST]], %[[X]] {axis = 1 : i32} : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
// CHECK-NEXT:      %[[V:.*]] = bufferization.to_buffer %[[ALL]] read_only : tensor<2x?xf32> to memref<2x?xf32>
// CHECK-NEXT:      %[[OLD:.*]] = memref.load %[[P]][] : memref<memref<2x?xf32>>
// CHECK-NEXT:      %[[N:.*]] = memref.dim %[[V]], %[[I1]] : memref<2x?xf32>
// CHECK-NEXT:      %[[CAP:.*]] = memref.load %[[S]][%[[I1]]] : memref<2xindex>
// CHECK-NEXT:      %[[GROW:.*]] = arith.cmpi ugt, %[[N]], %[[CAP]] : index
// CHECK-NEXT:      %[[HAD:.*]] = arith.cmpi ugt, %[[CAP]], %[[I0]] : index
// CHECK-NEXT:      %[[TARGET:.*]] = scf.if %[[GROW]] -> (memref<2x?xf32>) {
// CHECK-NEXT:        %[[TWICE:.*]] = arith.muli %[[CAP]], %[[I2]] : index
// CHECK-NEXT:        %[[DOUBLED:.*]] = arith.maxui %[[N]], %[[TWICE]] : index
// CHECK-NEXT:        %[[NEWCAP:.*]] = arith.select %[[GROW]], %[[DOUBLED]], %[[CAP]] : index
// CHECK-NEXT:        %[[NEW:.*]] = memref.alloc(%[[NEWCAP]]) : memref<2x?xf32>
// CHECK-NEXT:        memref.store %[[NEWCAP]], %[[S]][%[[I1]]] : memref<2xindex>
// CHECK-NEXT:        memref.store %[[NEW]], %[[P]][] : memref<memref<2x?xf32>>
// CHECK-NEXT:        scf.yield %[[NEW]] : memref<2x?xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:        scf.yield %[[OLD]] : memref<2x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[CORNER:.*]] = memref.subview %[[TARGET]][0, 0] [2, %[[N]]] [1, 1] : memref<2x?xf32> to memref<2x?xf32, strided<[?, 1]>>
// CHECK-NEXT:      "memref.copy"(%[[V]], %[[CORNER]]) : (memref<2x?xf32>, memref<2x?xf32, strided<[?, 1]>>) -> ()
// CHECK-NEXT:      memref.store %[[N]], %[[S]][%[[I0]]] : memref<2xindex>
// CHECK-NEXT:      %[[FREE:.*]] = arith.andi %[[GROW]], %[[HAD]] : i1
// CHECK-NEXT:      scf.if %[[FREE]] {
// CHECK-NEXT:        memref.dealloc %[[OLD]] : memref<2x?xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      func.return %[[ALL]] : tensor<2x?xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
tosa.variable @kv : tensor<2x?xf32>
func.func @step(%x: tensor<2x?xf32>) -> tensor<2x?xf32> {
  %past = tosa.variable.read @kv : tensor<2x?xf32>
  %all = tosa.concat %past, %x {axis = 1 : i32} : (tensor<2x?xf32>, tensor<2x?xf32>) -> tensor<2x?xf32>
  tosa.variable.write @kv, %all : tensor<2x?xf32>
  return %all : tensor<2x?xf32>
}
