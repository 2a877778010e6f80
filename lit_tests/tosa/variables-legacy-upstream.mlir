// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --tosa-spelling=upstream | tosa-state-opt | filecheck %s
// RUN: not tosa-state-opt %s -p tosa-hoist-variables 2>&1 | filecheck %s --check-prefix=HOIST

// The shape of upstream MLIR's mlir/test/Dialect/Tosa/variables.mlir (legacy form, one
// module: the `// -----` lines below are plain comments, no --split-input-file): the same
// name declared in two functions with different types. Declarations are function-scoped,
// as in upstream's verifier, so the module verifies and round-trips. Only hoisting, which
// would make the two one module variable, refuses it, naming both declarations.

// HOIST: variables-legacy-upstream.mlir:[[# @LINE + 24]]:3: error: 'tosa.variable' @stored_var cannot be hoisted: function 'test_variable_tensor' declares it '= dense<-1> : tensor<2x4x8xi32>', function 'test_variable_scalar' '= dense<3.140000e+00> : tensor<f32>', and hoisting makes them one module variable
// HOIST-NEXT: variables-legacy-upstream.mlir:[[# @LINE + 8]]:3: note: the other declaration of @stored_var
// HOIST-NEXT: note: in pass 'tosa-hoist-variables'

// -----
// CHECK-LABEL:   @test_variable_scalar(
// CHECK-SAME:                        %[[ADD_VAL:.*]]: tensor<f32>) {
func.func @test_variable_scalar(%arg0: tensor<f32>) -> () {
  // CHECK:           tosa.variable @stored_var = dense<3.140000e+00> : tensor<f32>
  tosa.variable @stored_var = dense<3.14> : tensor<f32>
  // CHECK:           %[[STORED_VAL:.*]] = tosa.variable.read @stored_var : tensor<f32>
  %0 = tosa.variable.read @stored_var : tensor<f32>
  // CHECK:           %[[RESULT_ADD:.*]] = tosa.add %[[ADD_VAL]], %[[STORED_VAL]] : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %1 = "tosa.add"(%arg0, %0) : (tensor<f32>, tensor<f32>) -> tensor<f32>
  // CHECK:           tosa.variable.write @stored_var, %[[RESULT_ADD]] : tensor<f32>
  tosa.variable.write @stored_var, %1 : tensor<f32>
  return
}

// -----
// CHECK-LABEL:   @test_variable_tensor(
// CHECK-SAME:                        %[[ADD_VAL:.*]]: tensor<2x4x8xi32>) {
func.func @test_variable_tensor(%arg0: tensor<2x4x8xi32>) -> () {
  // CHECK:           tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi32>
  tosa.variable @stored_var = dense<-1> : tensor<2x4x8xi32>
  // CHECK:           %[[STORED_VAL:.*]] = tosa.variable.read @stored_var : tensor<2x4x8xi32>
  %0 = tosa.variable.read @stored_var : tensor<2x4x8xi32>
  // CHECK:           %[[RESULT_ADD:.*]] = tosa.add %[[ADD_VAL]], %[[STORED_VAL]] : (tensor<2x4x8xi32>, tensor<2x4x8xi32>) -> tensor<2x4x8xi32>
  %1 = "tosa.add"(%arg0, %0) : (tensor<2x4x8xi32>, tensor<2x4x8xi32>) -> tensor<2x4x8xi32>
  // CHECK:           tosa.variable.write @stored_var, %[[RESULT_ADD]] : tensor<2x4x8xi32>
  tosa.variable.write @stored_var, %1 : tensor<2x4x8xi32>
  return
}
