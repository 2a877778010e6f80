// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --tosa-spelling=upstream | filecheck %s --check-prefix=UPSTREAM
// RUN: tosa-state-opt %s --tosa-spelling=upstream | tosa-state-opt --tosa-spelling=upstream | filecheck %s --check-prefix=UPSTREAM
// RUN: tosa-state-opt %s --tosa-spelling=upstream --print-op-generic | filecheck %s --check-prefix=GENERIC

// Upstream MLIR's spellings parse to the same ops, print dotted by default and upstream
// on request (in custom and in generic form).

// CHECK:    %[[V:.*]] = tosa.variable.read @v : tensor<f32>
// CHECK:    tosa.variable.write @v, %[[V]] : tensor<f32>
// CHECK:    %{{.*}} = tosa.variable.read @v : tensor<f32>
// UPSTREAM: tosa.variable @v = dense<3.140000e+00> : tensor<f32>
// UPSTREAM: %[[V:.*]] = tosa.variable_read @v : tensor<f32>
// UPSTREAM: tosa.variable_write @v, %[[V]] : tensor<f32>
// UPSTREAM: %{{.*}} = tosa.variable_read @v : tensor<f32>
// GENERIC:  "tosa.variable"() <{initial_value = dense<3.140000e+00> : tensor<f32>, sym_name = "v", type = f32, var_shape = dense<> : tensor<0xindex>}> : () -> ()
// GENERIC:  %{{.*}} = "tosa.variable_read"() <{name = "v"}> : () -> tensor<f32>
// GENERIC:  "tosa.variable_write"(%{{.*}}) <{name = "v"}> : (tensor<f32>) -> ()
tosa.variable @v = dense<3.14> : tensor<f32>
func.func @f() -> tensor<f32> {
  %0 = tosa.variable_read @v : tensor<f32>
  tosa.variable_write @v, %0 : tensor<f32>
  %1 = "tosa.variable_read"() <{name = "v"}> : () -> tensor<f32>
  return %1 : tensor<f32>
}
