// RUN: tosa-state-opt %s --split-input-file -p tosa-to-mlprogram | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p tosa-to-mlprogram | tosa-state-opt --split-input-file | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p tosa-to-mlprogram --print-op-generic | filecheck %s --check-prefix=GENERIC

// Upstream MLIR's lowering (its test, Conversion/TosaToMLProgram/tosa-to-mlprogram.mlir,
// plus uninitialised, dynamic and legacy variables): private mutable globals, loads
// typed like the reads, stores. Other ops are left alone (no dead-code elimination).

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    ml_program.global private mutable @var_x(dense<7.000000e+00> : tensor<1xf32>) : tensor<1xf32>
// CHECK-NEXT:    func.func @test_stateful_ops(%[[ARG:.*]]: tensor<1xf32>) -> tensor<1xf32> {
// CHECK-NEXT:      ml_program.global_store @var_x = %[[ARG]] : tensor<1xf32>
// CHECK-NEXT:      %[[LOAD:.*]] = ml_program.global_load @var_x : tensor<1xf32>
// CHECK-NEXT:      func.return %[[LOAD]] : tensor<1xf32>
// GENERIC:     "ml_program.global"() <{is_mutable, sym_name = "var_x", sym_visibility = "private", type = tensor<1xf32>, value = dense<7.000000e+00> : tensor<1xf32>}> : () -> ()
// GENERIC:     "ml_program.global_store"(%{{.*}}) <{global = @var_x}> : (tensor<1xf32>) -> ()
// GENERIC:     %{{.*}} = "ml_program.global_load"() <{global = @var_x}> : () -> tensor<1xf32>
module {
  tosa.variable @var_x = dense<7.000000e+00> : tensor<1xf32>
  func.func @test_stateful_ops(%arg0: tensor<1xf32>) -> (tensor<1xf32>) {
    tosa.variable.write @var_x, %arg0 : tensor<1xf32>
    %0 = tosa.variable.read @var_x : tensor<1xf32>
    return %0 : tensor<1xf32>
  }
}

// -----

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    ml_program.global private mutable @var_x : tensor<f32>
// CHECK-NEXT:    ml_program.global private mutable @dyn : tensor<2x?xi8>
// CHECK-NEXT:    func.func @f(%[[X:.*]]: tensor<f32>, %[[D:.*]]: tensor<2x?xi8>) -> tensor<f32> {
// CHECK-NEXT:      %[[UNUSED:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<f32>}> : () -> tensor<f32>
// CHECK-NEXT:      ml_program.global_store @var_x = %[[X]] : tensor<f32>
// CHECK-NEXT:      ml_program.global_store @dyn = %[[D]] : tensor<2x?xi8>
// CHECK-NEXT:      %[[R:.*]] = ml_program.global_load @var_x : tensor<f32>
// CHECK-NEXT:      %{{.*}} = ml_program.global_load @var_x : tensor<f32>
// CHECK-NEXT:      %[[S:.*]] = tosa.add %[[R]], %[[R]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
// CHECK-NEXT:      func.return %[[S]] : tensor<f32>
// GENERIC:     "ml_program.global"() <{is_mutable, sym_name = "var_x", sym_visibility = "private", type = tensor<f32>}> : () -> ()
tosa.variable @var_x : tensor<f32>
tosa.variable @dyn : tensor<2x?xi8>
func.func @f(%x: tensor<f32>, %d: tensor<2x?xi8>) -> tensor<f32> {
  %unused = "tosa.const"() <{values = dense<1.0> : tensor<f32>}> : () -> tensor<f32>
  tosa.variable_write @var_x, %x : tensor<f32>
  tosa.variable_write @dyn, %d : tensor<2x?xi8>
  %0 = tosa.variable_read @var_x : tensor<f32>
  %dead = tosa.variable_read @var_x : tensor<f32>
  %1 = tosa.add %0, %0 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  return %1 : tensor<f32>
}

// -----

// Legacy in-function declarations are hoisted first.
// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    ml_program.global private mutable @state(dense<0.000000e+00> : tensor<4xf32>) : tensor<4xf32>
// CHECK-NEXT:    func.func @step(%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %[[S:.*]] = ml_program.global_load @state : tensor<4xf32>
// CHECK-NEXT:      ml_program.global_store @state = %[[X]] : tensor<4xf32>
// CHECK-NEXT:      func.return %[[S]] : tensor<4xf32>
// CHECK-NOT:   tosa.variable
func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
  tosa.variable @state = dense<0.0> : tensor<4xf32>
  %s = tosa.variable.read @state : tensor<4xf32>
  tosa.variable.write @state, %x : tensor<4xf32>
  return %s : tensor<4xf32>
}
