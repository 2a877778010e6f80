// The xdsl.universe plugin: plain xdsl-opt parses, verifies and prints the stateful ops and
// runs our passes on them (xDSL's own tosa and ml_program dialects get the ops they lack).
// RUN: xdsl-opt %s | filecheck %s
// RUN: xdsl-opt %s | xdsl-opt | filecheck %s
// RUN: xdsl-opt %s -p tosa-to-mlprogram | filecheck %s --check-prefix=MLPROGRAM
// RUN: xdsl-opt %s -p tosa-to-mlprogram | xdsl-opt | filecheck %s --check-prefix=MLPROGRAM
// RUN: xdsl-opt %s -p convert-tosa-variables-to-memref | filecheck %s --check-prefix=MEMREF
// RUN: xdsl-opt %s -p tosa-hoist-variables | filecheck %s --check-prefix=HOIST
// A verifier error is xdsl-opt's diagnostic (printed with --verify-diagnostics), not a crash.
// RUN: sed 's/read @acc/read @nope/' %s | xdsl-opt --verify-diagnostics | filecheck %s --check-prefix=VERIFY

// CHECK:      tosa.variable @acc = dense<0.000000e+00> : tensor<2xf32>
// CHECK:      func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:   tosa.variable @legacy = dense<1> : tensor<1xi32>
// CHECK-NEXT:   %a = tosa.variable.read @acc : tensor<2xf32>
// CHECK-NEXT:   tosa.variable.write @acc, %x : tensor<2xf32>
// MLPROGRAM-DAG:  ml_program.global private mutable @acc(dense<0.000000e+00> : tensor<2xf32>) : tensor<2xf32>
// MLPROGRAM-DAG:  ml_program.global private mutable @legacy(dense<1> : tensor<1xi32>) : tensor<1xi32>
// MLPROGRAM:      %a = ml_program.global_load @acc : tensor<2xf32>
// MLPROGRAM-NEXT: ml_program.global_store @acc = %x : tensor<2xf32>
// MEMREF-DAG:  "memref.global"() <{initial_value = dense<0.000000e+00> : tensor<2xf32>, sym_name = "acc"
// MEMREF-DAG:  "memref.global"() <{initial_value = dense<1> : tensor<1xi32>, sym_name = "legacy"
// MEMREF:      memref.get_global @acc : memref<2xf32>
// MEMREF-NOT:  tosa.variable
// HOIST:       tosa.variable @legacy = dense<1> : tensor<1xi32>
// HOIST-NEXT:  func.func @step
// VERIFY:      'nope' has not been declared by 'tosa.variable'

tosa.variable @acc = dense<0.0> : tensor<2xf32>
func.func @step(%x: tensor<2xf32>) -> tensor<2xf32> {
  tosa.variable @legacy = dense<1> : tensor<1xi32>
  %a = tosa.variable.read @acc : tensor<2xf32>
  tosa.variable.write @acc, %x : tensor<2xf32>
  return %a : tensor<2xf32>
}
