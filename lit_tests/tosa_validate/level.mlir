// RUN: not tosa-state-opt %s -p 'tosa-validate' 2>&1 | filecheck %s
// RUN: tosa-state-opt %s -p 'tosa-validate{level=none}' | filecheck %s --check-prefix=NONE

// Level 8k: no dynamic dimension (a growing KV cache), rank at most 6. Level none admits both.
// NONE: tosa.variable @kv
// CHECK: level.mlir:[[# @LINE + 1]]:1: error: 'tosa.variable' op failed level 8k check: shape of 'tensor<1x2x?x8xf32>' has a dynamic dimension [level]
tosa.variable @kv : tensor<1x2x?x8xf32>
func.func @main(%x: tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32> {
  // CHECK: level.mlir:[[# @LINE + 1]]:3: error: 'tosa.variable.read' op failed level 8k check: shape of 'tensor<1x2x?x8xf32>' has a dynamic dimension [level]
  %k = tosa.variable.read @kv : tensor<1x2x?x8xf32>
  tosa.variable.write @kv, %k : tensor<1x2x?x8xf32>
  // CHECK: level.mlir:[[# @LINE + 1]]:3: error: 'tosa.add' op failed level 8k check: rank 7 exceeds MAX_RANK 6 [level]
  %a = tosa.add %x, %x : (tensor<1x1x1x1x1x1x2xf32>, tensor<1x1x1x1x1x1x2xf32>) -> tensor<1x1x1x1x1x1x2xf32>
  return %a : tensor<1x1x1x1x1x1x2xf32>
}
