// RUN: tosa-state-opt %s -p export-state-control | filecheck %s
// RUN: tosa-state-opt %s -p export-state-control --tosa-spelling=upstream | iree-opt > /dev/null

// Per variable a getter, a setter and a reset; a computed init's flag is stored true by the
// setter, false by the reset, and read by `state_initialized.<v>`; one reset of everything.
// A reset stores the initial value, zeros, or an empty tensor (a dynamic variable).

// CHECK:      func.func @main
// CHECK:      func.func @state_get.h() -> tensor<1x4xf32> attributes {tosa_state.state_control = "get"} {
// CHECK-NEXT:   %[[H:.*]] = ml_program.global_load @h : tensor<1x4xf32>
// CHECK-NEXT:   func.return %[[H]] : tensor<1x4xf32>
// CHECK:      func.func @state_set.h(%[[V:.*]]: tensor<1x4xf32>) attributes {tosa_state.state_control = "set"} {
// CHECK-NEXT:   ml_program.global_store @h = %[[V]] : tensor<1x4xf32>
// CHECK-NEXT:   func.return
// CHECK:      func.func @state_reset.h() attributes {tosa_state.state_control = "reset"} {
// CHECK-NEXT:   %[[I:.*]] = "tosa.const"() <{values = dense<1.500000e+00> : tensor<1x4xf32>}>
// CHECK-NEXT:   ml_program.global_store @h = %[[I]] : tensor<1x4xf32>
// CHECK:      func.func @state_set.c(%[[W:.*]]: tensor<2xi32>)
// CHECK-NEXT:   ml_program.global_store @c = %[[W]] : tensor<2xi32>
// CHECK-NEXT:   %[[T:.*]] = "tosa.const"() <{values = dense<true> : tensor<i1>}>
// CHECK-NEXT:   ml_program.global_store @c__initialized = %[[T]] : tensor<i1>
// CHECK:      func.func @state_reset.c()
// CHECK-NEXT:   %[[Z:.*]] = "tosa.const"() <{values = dense<0> : tensor<2xi32>}>
// CHECK-NEXT:   ml_program.global_store @c = %[[Z]] : tensor<2xi32>
// CHECK-NEXT:   %[[F:.*]] = "tosa.const"() <{values = dense<false> : tensor<i1>}>
// CHECK-NEXT:   ml_program.global_store @c__initialized = %[[F]] : tensor<i1>
// CHECK:      func.func @state_initialized.c() -> tensor<i1> attributes {tosa_state.state_control = "initialized"} {
// CHECK-NEXT:   ml_program.global_load @c__initialized : tensor<i1>
// CHECK:      func.func @state_reset.kv()
// CHECK-NEXT:   %[[ZERO:.*]] = arith.constant 0 : index
// CHECK-NEXT:   %[[E:.*]] = tensor.empty(%[[ZERO]], %[[ZERO]]) : tensor<?x2x?xf32>
// CHECK-NEXT:   ml_program.global_store @kv = %[[E]] : tensor<?x2x?xf32>
// CHECK:      func.func @state_reset_all() attributes {tosa_state.state_control = "reset"} {
// CHECK-NEXT:   "tosa.const"() <{values = dense<1.500000e+00>
// CHECK-NEXT:   ml_program.global_store @h
// CHECK-NEXT:   "tosa.const"() <{values = dense<0> : tensor<2xi32>}>
// CHECK-NEXT:   ml_program.global_store @c =
// CHECK-NEXT:   "tosa.const"() <{values = dense<false> : tensor<i1>}>
// CHECK-NEXT:   ml_program.global_store @c__initialized
// CHECK-NEXT:   arith.constant 0 : index
// CHECK-NEXT:   tensor.empty
// CHECK-NEXT:   ml_program.global_store @kv
// CHECK-NEXT:   func.return
// CHECK-NOT:  func.func
builtin.module {
  ml_program.global private mutable @h(dense<1.5> : tensor<1x4xf32>) : tensor<1x4xf32>
  ml_program.global private mutable @c(dense<0> : tensor<2xi32>) : tensor<2xi32>
  ml_program.global private mutable @c__initialized(dense<false> : tensor<i1>) : tensor<i1> {tosa_state.init_flag_of = "c"}
  ml_program.global private mutable @kv : tensor<?x2x?xf32>
  ml_program.global private @k(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
  func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
    %h = ml_program.global_load @h : tensor<1x4xf32>
    ml_program.global_store @h = %x : tensor<1x4xf32>
    func.return %h : tensor<1x4xf32>
  }
}
