// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref --print-op-generic | filecheck %s --check-prefix=GENERIC
// RUN: tosa-state-opt %s --split-input-file -p convert-tosa-variables-to-memref | tosa-state-opt --split-input-file | filecheck %s

// Declarations become mutable private memref globals (`uninitialized` without an initial
// value); a read copies the global into a fresh buffer when the value must outlive a
// later write; a write copies the value into the global. Other ops are left alone (no
// dead-code elimination: the unused constant stays).

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<2x3xf32>, sym_name = "acc", sym_visibility = "private", type = memref<2x3xf32>}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{initial_value, sym_name = "count", sym_visibility = "private", type = memref<1xi32>}> : () -> ()
// CHECK-NEXT:    func.func @step(%[[X:.*]]: tensor<2x3xf32>, %[[N:.*]]: tensor<1xi32>) -> (tensor<2x3xf32>, tensor<1xi32>) {
// CHECK-NEXT:      %[[UNUSED:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
// CHECK-NEXT:      %[[G:.*]] = memref.get_global @acc : memref<2x3xf32>
// CHECK-NEXT:      %[[B:.*]] = memref.alloc() : memref<2x3xf32>
// CHECK-NEXT:      "memref.copy"(%[[G]], %[[B]]) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
// CHECK-NEXT:      %[[OLD:.*]] = bufferization.to_tensor %[[B]] restrict : memref<2x3xf32> to tensor<2x3xf32>
// CHECK-NEXT:      %[[XB:.*]] = bufferization.to_buffer %[[X]] read_only : tensor<2x3xf32> to memref<2x3xf32>
// CHECK-NEXT:      %[[G2:.*]] = memref.get_global @acc : memref<2x3xf32>
// CHECK-NEXT:      "memref.copy"(%[[XB]], %[[G2]]) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
// CHECK-NEXT:      %[[NB:.*]] = bufferization.to_buffer %[[N]] read_only : tensor<1xi32> to memref<1xi32>
// CHECK-NEXT:      %[[C:.*]] = memref.get_global @count : memref<1xi32>
// CHECK-NEXT:      "memref.copy"(%[[NB]], %[[C]]) : (memref<1xi32>, memref<1xi32>) -> ()
// CHECK-NEXT:      %[[C2:.*]] = memref.get_global @count : memref<1xi32>
// CHECK-NEXT:      %[[NEW:.*]] = bufferization.to_tensor %[[C2]] restrict : memref<1xi32> to tensor<1xi32>
// CHECK-NEXT:      func.return %[[OLD]], %[[NEW]] : tensor<2x3xf32>, tensor<1xi32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }

// GENERIC:      "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<2x3xf32>, sym_name = "acc", sym_visibility = "private", type = memref<2x3xf32>}> : () -> ()
// GENERIC:      %{{.*}} = "memref.get_global"() <{name = @acc}> : () -> memref<2x3xf32>
// GENERIC-NEXT: %{{.*}} = "memref.alloc"() <{operandSegmentSizes = array<i32: 0, 0>}> : () -> memref<2x3xf32>
// GENERIC-NEXT: "memref.copy"(%{{.*}}, %{{.*}}) : (memref<2x3xf32>, memref<2x3xf32>) -> ()
// GENERIC-NEXT: %{{.*}} = "bufferization.to_tensor"(%{{.*}}) <{restrict}> : (memref<2x3xf32>) -> tensor<2x3xf32>
// GENERIC-NEXT: %{{.*}} = "bufferization.to_buffer"(%{{.*}}) <{read_only}> : (tensor<2x3xf32>) -> memref<2x3xf32>
tosa.variable @acc = dense<0.0> : tensor<2x3xf32>
tosa.variable @count : tensor<1xi32>
func.func @step(%x: tensor<2x3xf32>, %n: tensor<1xi32>) -> (tensor<2x3xf32>, tensor<1xi32>) {
  %unused = "tosa.const"() <{values = dense<1.0> : tensor<2x3xf32>}> : () -> tensor<2x3xf32>
  %old = tosa.variable.read @acc : tensor<2x3xf32>
  tosa.variable.write @acc, %x : tensor<2x3xf32>
  tosa.variable.write @count, %n : tensor<1xi32>
  %new = tosa.variable.read @count : tensor<1xi32>
  return %old, %new : tensor<2x3xf32>, tensor<1xi32>
}

// -----

// Legacy in-function declarations are hoisted first; every element type keeps its
// initial value.

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    "memref.global"() <{initial_value = dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf16>, sym_name = "half", sym_visibility = "private", type = memref<2xf16>}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{initial_value = dense<1.000000e+00> : tensor<4xbf16>, sym_name = "brain", sym_visibility = "private", type = memref<4xbf16>}> : () -> ()
// CHECK-NEXT:    "memref.global"() <{initial_value = dense<false> : tensor<i1>, sym_name = "flag", sym_visibility = "private", type = memref<i1>}> : () -> ()
// CHECK-NEXT:    func.func @f() -> tensor<i1> {
// CHECK-NEXT:      %[[G:.*]] = memref.get_global @flag : memref<i1>
// CHECK-NEXT:      %[[T:.*]] = bufferization.to_tensor %[[G]] restrict : memref<i1> to tensor<i1>
// CHECK-NEXT:      func.return %[[T]] : tensor<i1>
// CHECK-NOT:   tosa.variable
func.func @f() -> tensor<i1> {
  tosa.variable @half = dense<[1.5, 2.0]> : tensor<2xf16>
  tosa.variable @brain = dense<1.0> : tensor<4xbf16>
  tosa.variable @flag = dense<false> : tensor<i1>
  %0 = tosa.variable.read @flag : tensor<i1>
  return %0 : tensor<i1>
}
