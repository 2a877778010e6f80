// RUN: tosa-state-opt %s --split-input-file --verify-diagnostics -p tosa-hoist-variables

// Hoisting makes each name one module variable: declarations of one name in several
// functions (or in a function and the module) must agree on type and initial value. The
// error is at the declaration that cannot merge, the note at the one it would merge into.

func.func @a() {
  // expected-note@+1 {{the other declaration of @v}}
  tosa.variable @v : tensor<2xf32>
  return
}
func.func @b() {
  // expected-note@+2 {{in pass 'tosa-hoist-variables'}}
  // expected-error@+1 {{'tosa.variable' @v cannot be hoisted: function 'b' declares it ': tensor<3xf32>', function 'a' ': tensor<2xf32>', and hoisting makes them one module variable}}
  tosa.variable @v : tensor<3xf32>
  return
}

// -----
func.func @c() {
  // expected-note@+1 {{the other declaration of @v}}
  tosa.variable @v = dense<0.0> : tensor<2xf32>
  return
}
func.func @d() {
  // expected-note@+2 {{in pass 'tosa-hoist-variables'}}
  // expected-error@+1 {{function 'd' declares it '= dense<1.000000e+00> : tensor<2xf32>', function 'c' '= dense<0.000000e+00> : tensor<2xf32>'}}
  tosa.variable @v = dense<1.0> : tensor<2xf32>
  return
}

// -----
// expected-note@+1 {{the other declaration of @v}}
tosa.variable @v : tensor<2xi8>
func.func @e() {
  // expected-note@+2 {{in pass 'tosa-hoist-variables'}}
  // expected-error@+1 {{function 'e' declares it ': tensor<2xi32>', the module ': tensor<2xi8>'}}
  tosa.variable @v : tensor<2xi32>
  return
}
