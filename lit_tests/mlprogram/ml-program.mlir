// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | filecheck %s --check-prefix=GENERIC

// The ml_program ops in upstream MLIR's syntax. A global without `sym_visibility` is
// public (printed `public`, as upstream does); properties print in upstream's order.

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    ml_program.global private mutable @x(dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>) : tensor<2xf32>
// CHECK-NEXT:    ml_program.global private mutable @y : tensor<4xi32>
// CHECK-NEXT:    ml_program.global public @c(dense<4> : tensor<4xi32>) : tensor<?xi32>
// CHECK-NEXT:    ml_program.global nested @n(dense<1> : tensor<i8>) : tensor<i8> {note = "kept"}
// CHECK-NEXT:    ml_program.global public @p(dense<true> : tensor<i1>) : tensor<i1>
// CHECK-NEXT:    func.func @f(%[[A:.*]]: tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:      %[[L:.*]] = ml_program.global_load @x : tensor<2xf32>
// CHECK-NEXT:      ml_program.global_store @x = %[[A]] : tensor<2xf32>
// CHECK-NEXT:      %{{.*}} = ml_program.global_load_const @n : tensor<i8>
// CHECK-NEXT:      func.return %[[L]] : tensor<2xf32>

// GENERIC: "ml_program.global"() <{is_mutable, sym_name = "x", sym_visibility = "private", type = tensor<2xf32>, value = dense<[1.000000e+00, 2.000000e+00]> : tensor<2xf32>}> : () -> ()
// GENERIC: "ml_program.global"() <{is_mutable, sym_name = "y", sym_visibility = "private", type = tensor<4xi32>}> : () -> ()
// GENERIC: "ml_program.global"() <{sym_name = "c", sym_visibility = "public", type = tensor<?xi32>, value = dense<4> : tensor<4xi32>}> : () -> ()
// GENERIC: "ml_program.global"() <{sym_name = "p", type = tensor<i1>, value = dense<true> : tensor<i1>}> : () -> ()
// GENERIC: %{{.*}} = "ml_program.global_load"() <{global = @x}> : () -> tensor<2xf32>
// GENERIC: "ml_program.global_store"(%{{.*}}) <{global = @x}> : (tensor<2xf32>) -> ()
// GENERIC: %{{.*}} = "ml_program.global_load_const"() <{global = @n}> : () -> tensor<i8>
ml_program.global private mutable @x(dense<[1.0, 2.0]> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @y : tensor<4xi32>
ml_program.global public @c(dense<4> : tensor<4xi32>) : tensor<?xi32>
ml_program.global nested @n(dense<1> : tensor<i8>) : tensor<i8> {note = "kept"}
"ml_program.global"() <{sym_name = "p", type = tensor<i1>, value = dense<true> : tensor<i1>}> : () -> ()
func.func @f(%a: tensor<2xf32>) -> tensor<2xf32> {
  %0 = ml_program.global_load @x : tensor<2xf32>
  ml_program.global_store @x = %a : tensor<2xf32>
  %1 = ml_program.global_load_const @n : tensor<i8>
  return %0 : tensor<2xf32>
}
