// RUN: tosa-state-opt %s -p 'tosa-constants-to-parameters{min-bytes=64}' | filecheck %s
// RUN: tosa-state-opt %s -p 'tosa-constants-to-parameters{min-bytes=64 scope="weights"}' --tosa-spelling=upstream | filecheck %s --check-prefix=SCOPE
// RUN: tosa-state-opt %s -p 'tosa-constants-to-parameters' | filecheck %s --check-prefix=DEFAULT

// Constants of at least min-bytes bytes become named parameters (immutable globals loaded
// as constants), in the module's order; equal constants share one; smaller constants and
// splats stay; a taken symbol name is not reused.

// CHECK:       ml_program.global private @__parameter_p0(#stream.parameter.named<"model"::"p0"> : tensor<4x4xf32>) : tensor<4x4xf32>
// CHECK-NEXT:  ml_program.global private @___parameter_p1(#stream.parameter.named<"model"::"p1"> : tensor<16xi32>) : tensor<16xi32>
// CHECK-NEXT:  ml_program.global private mutable @__parameter_p1(dense<0.000000e+00> : tensor<2xf32>) : tensor<2xf32>
// CHECK-LABEL: func.func @main
// CHECK-NEXT:    %[[W:.*]] = ml_program.global_load_const @__parameter_p0 : tensor<4x4xf32>
// CHECK-NEXT:    %[[SMALL:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}>
// CHECK-NEXT:    %[[SPLAT:.*]] = "tosa.const"() <{values = dense<1.500000e+00> : tensor<4x4xf32>}>
// CHECK-NEXT:    %[[AGAIN:.*]] = ml_program.global_load_const @__parameter_p0 : tensor<4x4xf32>
// CHECK-NEXT:    %[[I:.*]] = ml_program.global_load_const @___parameter_p1 : tensor<16xi32>
// CHECK-NOT:     tosa.const
// CHECK:         func.return

// SCOPE:       #stream.parameter.named<"weights"::"p0">
// SCOPE:       #stream.parameter.named<"weights"::"p1">

// DEFAULT-NOT: #stream.parameter
builtin.module {
  ml_program.global private mutable @__parameter_p1(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<4x4xf32>) -> (tensor<4x4xf32>, tensor<2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<16xi32>) {
    %w = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
    %small = "tosa.const"() <{values = dense<[1.0, 2.0]> : tensor<2xf32>}> : () -> tensor<2xf32>
    %splat = "tosa.const"() <{values = dense<1.5> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
    %again = "tosa.const"() <{values = dense<[[1.0, 2.0, 3.0, 4.0], [5.0, 6.0, 7.0, 8.0], [9.0, 10.0, 11.0, 12.0], [13.0, 14.0, 15.0, 16.0]]> : tensor<4x4xf32>}> : () -> tensor<4x4xf32>
    %i = "tosa.const"() <{values = dense<[0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]> : tensor<16xi32>}> : () -> tensor<16xi32>
    func.return %w, %small, %splat, %again, %i : tensor<4x4xf32>, tensor<2xf32>, tensor<4x4xf32>, tensor<4x4xf32>, tensor<16xi32>
  }
}
