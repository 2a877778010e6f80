// RUN: tosa-state-opt %s -p 'tosa-validate' | filecheck %s
// RUN: tosa-state-opt %s -p 'tosa-validate{profiles="pro_int,pro_fp" level=none extensions="variable,controlflow"}' | filecheck %s

// A float stateful graph is legal for PRO-FP with the variable extension at level 8k, and
// the pass leaves it unchanged.
// CHECK: tosa.variable @acc = dense<0.000000e+00> : tensor<1x4xf32>
// CHECK: tosa.add
tosa.variable @acc = dense<0.0> : tensor<1x4xf32>
func.func @main(%x: tensor<1x4xf32>) -> tensor<1x4xf32> {
  %a = tosa.variable.read @acc : tensor<1x4xf32>
  %s = tosa.add %a, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
  tosa.variable.write @acc, %s : tensor<1x4xf32>
  return %s : tensor<1x4xf32>
}
