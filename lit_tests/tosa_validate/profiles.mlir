// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles=pro_int extensions=""}' 2>&1 | filecheck %s --check-prefix=INT
// RUN: not tosa-state-opt %s -p 'tosa-validate{profiles=pro_fp extensions=""}' 2>&1 | filecheck %s --check-prefix=FP

// Every op the target refuses is named, with its location and the rule; then a count.
// INT: profiles.mlir:[[# @LINE + 4]]:1: error: 'tosa.variable' op with types (f32) requires any of [pro_fp] profiles/extensions to be specified in the target [profile]
// INT: profiles.mlir:[[# @LINE + 3]]:1: error: 'tosa.variable' op requires the 'variable' extension [extension]
// FP-NOT: [profile]
// FP: profiles.mlir:[[# @LINE + 1]]:1: error: 'tosa.variable' op requires the 'variable' extension [extension]
tosa.variable @acc = dense<0.0> : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32>, %i: tensor<4xi32>, %j: tensor<4xi32>) -> (tensor<1x4xf32>, tensor<4xi1>, tensor<4xi32>) {
  // INT: profiles.mlir:[[# @LINE + 2]]:3: error: 'tosa.variable.read' op with types (f32) requires any of [pro_fp]
  // FP: profiles.mlir:[[# @LINE + 1]]:3: error: 'tosa.variable.read' op requires the 'variable' extension [extension]
  %a = tosa.variable.read @acc : tensor<1x4xf32>
  // INT: profiles.mlir:[[# @LINE + 1]]:3: error: 'tosa.add' op with types (f32, f32, f32) requires any of [pro_fp]
  %s = tosa.add %a, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  // An i32 comparison is PRO-INT only (a loop counter needs pro_int).
  // FP: profiles.mlir:[[# @LINE + 1]]:3: error: 'tosa.greater' op with types (i32, i32, bool) requires any of [pro_int] profiles/extensions to be specified in the target [profile]
  %g = tosa.greater %i, %j : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi1>
  // An i32 addition is in both profiles.
  // INT-NOT: 'tosa.add' op with types (i32
  // FP-NOT: 'tosa.add' op with types (i32
  %n = tosa.add %i, %j : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  tosa.variable.write @acc, %s : tensor<1x4xf32>
  return %s, %g, %n : tensor<1x4xf32>, tensor<4xi1>, tensor<4xi32>
}
// INT: error: 7 violation(s) of the TOSA target 'specification_version=1.0 level=8k profiles=pro_int'
// FP: error: 4 violation(s) of the TOSA target 'specification_version=1.0 level=8k profiles=pro_fp'
