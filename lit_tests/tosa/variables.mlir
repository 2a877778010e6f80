// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The stateful ops in our (dotted) spelling: custom and generic forms round-trip.

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    tosa.variable @scalar = dense<3.140000e+00> : tensor<f32>
// CHECK-NEXT:    tosa.variable @acc = dense<0.000000e+00> : tensor<2x3xf32>
// CHECK-NEXT:    tosa.variable @counter : tensor<1xi32>
// CHECK-NEXT:    tosa.variable @dyn : tensor<2x?x8xi8>
// CHECK-NEXT:    tosa.variable @flag = dense<false> : tensor<i1>
// CHECK-NEXT:    tosa.variable @half = dense<[1.500000e+00, 2.000000e+00]> : tensor<2xf16>
// CHECK-NEXT:    tosa.variable @brain = dense<1.000000e+00> : tensor<4xbf16>
// CHECK-NEXT:    tosa.variable @bytes = dense<[0, 255]> : tensor<2xui8>
// CHECK-NEXT:    tosa.variable @wide = dense<-1> : tensor<1x1xi64>
tosa.variable @scalar = dense<3.14> : tensor<f32>
tosa.variable @acc = dense<0.0> : tensor<2x3xf32>
tosa.variable @counter : tensor<1xi32>
tosa.variable @dyn : tensor<2x?x8xi8>
tosa.variable @flag = dense<false> : tensor<i1>
tosa.variable @half = dense<[1.5, 2.0]> : tensor<2xf16>
tosa.variable @brain = dense<1.0> : tensor<4xbf16>
tosa.variable @bytes = dense<[0, 255]> : tensor<2xui8>
tosa.variable @wide = dense<-1> : tensor<1x1xi64>

// CHECK:       func.func @step(%{{.*}}: tensor<2x3xf32>) -> tensor<2x3xf32> {
// CHECK-NEXT:    %[[OLD:.*]] = tosa.variable.read @acc : tensor<2x3xf32>
// CHECK-NEXT:    tosa.variable.write @acc, %{{.*}} : tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = tosa.variable.read @counter : tensor<1xi32>
// CHECK-NEXT:    func.return %[[OLD]] : tensor<2x3xf32>
func.func @step(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %old = tosa.variable.read @acc : tensor<2x3xf32>
  tosa.variable.write @acc, %x : tensor<2x3xf32>
  %c = tosa.variable.read @counter : tensor<1xi32>
  return %old : tensor<2x3xf32>
}

// Upstream MLIR's generic form, property for property (sorted, as upstream prints them).
// GENERIC: "tosa.variable"() <{initial_value = dense<3.140000e+00> : tensor<f32>, sym_name = "scalar", type = f32, var_shape = dense<> : tensor<0xindex>}> : () -> ()
// GENERIC: "tosa.variable"() <{sym_name = "counter", type = i32, var_shape = dense<1> : tensor<1xindex>}> : () -> ()
// GENERIC: "tosa.variable"() <{sym_name = "dyn", type = i8, var_shape = dense<[2, -1, 8]> : tensor<3xindex>}> : () -> ()
// GENERIC: %{{.*}} = "tosa.variable.read"() <{name = "acc"}> : () -> tensor<2x3xf32>
// GENERIC: "tosa.variable.write"(%{{.*}}) <{name = "acc"}> : (tensor<2x3xf32>) -> ()
