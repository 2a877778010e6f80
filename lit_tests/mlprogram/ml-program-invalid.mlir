// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics

// The verifier rules of upstream MLIR's ml_program ops, with its wording (checked
// against iree-opt). xDSL 0.74's own `ml_program.global` never runs its verifier.

// expected-error@+1 {{'ml_program.global' op immutable global must have an initial value}}
ml_program.global private @x : tensor<4xi32>

// -----
// expected-error@+1 {{expected 'public', 'private', or 'nested'}}
ml_program.global @x(dense<4> : tensor<4xi32>) : tensor<4xi32>

// -----
ml_program.global private @x(dense<1> : tensor<4xi32>) : tensor<4xi32>
func.func @f(%a: tensor<4xi32>) {
  // expected-error@+1 {{'ml_program.global_store' op cannot store to an immutable global @x}}
  ml_program.global_store @x = %a : tensor<4xi32>
  return
}

// -----
ml_program.global private mutable @x : tensor<4xi32>
func.func @f() {
  // expected-error@+1 {{'ml_program.global_load' op cannot load from global typed 'tensor<4xi32>' as 'tensor<3xi32>'}}
  %0 = ml_program.global_load @x : tensor<3xi32>
  return
}

// -----
func.func @f() {
  // expected-error@+1 {{'ml_program.global_load' op undefined global: @x}}
  %0 = ml_program.global_load @x : tensor<3xi32>
  return
}

// -----
ml_program.global private mutable @x : tensor<4xi32>
func.func @f(%a: tensor<4xf32>) {
  // expected-error@+1 {{'ml_program.global_store' op cannot store to a global typed 'tensor<4xi32>' from 'tensor<4xf32>'}}
  ml_program.global_store @x = %a : tensor<4xf32>
  return
}

// -----
ml_program.global private mutable @x(dense<1> : tensor<4xi32>) : tensor<4xi32>
func.func @f() {
  // expected-error@+1 {{'ml_program.global_load_const' op cannot load as const from mutable global @x}}
  %0 = ml_program.global_load_const @x : tensor<4xi32>
  return
}

// -----
// expected-error@+1 {{'ml_program.global' op visibility must be one of public, private, nested, got 'secret'}}
"ml_program.global"() <{sym_name = "x", sym_visibility = "secret", type = tensor<i1>, value = dense<true> : tensor<i1>}> : () -> ()

// -----
ml_program.global private mutable @x : tensor<4xi32>
// expected-error@unknown {{'builtin.module' op Redefinition of symbol "x"}}
ml_program.global private mutable @x : tensor<4xi32>
