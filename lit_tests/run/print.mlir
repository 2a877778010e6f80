// tosa-state-run on an .mlir model: inputs by SSA name (or arg<i>), outputs by name attribute
// (or result<i>), a --print summary with names, dtypes, shapes, aligned rows and a step limit.

// RUN: python -c "import numpy as n; n.savez('%t.npz', x=n.arange(48, dtype='f4').reshape(6, 2, 4) / 4)"
// RUN: tosa-state-run %s --inputs %t.npz --reset-at 3 --print-limit 4 | FileCheck %s
// RUN: python -c "import numpy as n; n.savez('%t.arg.npz', arg0=n.arange(48, dtype='f4').reshape(6, 2, 4) / 4)"
// RUN: tosa-state-run %s --inputs %t.arg.npz --reset-at 3 --print-limit 4 | FileCheck %s
// RUN: tosa-state-run %s --inputs %t.npz --reset-at 3 --print-limit 0 | FileCheck %s --check-prefix=ALL

// CHECK:      model: entry 'main', 6 step(s), reset before step 3
// CHECK-NEXT: inputs:  x float32[2,4]
// CHECK-NEXT: outputs: sum float32[2,4], result1 float32[2,4]
// CHECK-NEXT: step 0:
// CHECK-NEXT:   sum     = {{\[\[}}0.   0.25 0.5  0.75]
// CHECK-NEXT:              [1.   1.25 1.5  1.75]]
// CHECK-NEXT:   result1 = {{\[\[}}0. 0. 0. 0.]
// CHECK-NEXT:              [0. 0. 0. 0.]]
// CHECK-NEXT: step 1:
// CHECK:      ... 2 step(s) not shown (--print-limit 0 shows all) ...
// CHECK-NEXT: step 4:
// CHECK:      step 5:
// CHECK-NEXT:   sum     = {{\[\[}}24.   24.75 25.5  26.25]
// CHECK-NEXT:              [27.   27.75 28.5  29.25]]
// CHECK-NEXT:   result1 = {{\[\[}}14.  14.5 15.  15.5]
// CHECK-NEXT:              [16.  16.5 17.  17.5]]
// CHECK-NEXT: final state:
// CHECK-NEXT:   acc float32[2,4] = {{\[\[}}24.   24.75 25.5  26.25]
// CHECK-NEXT:                       [27.   27.75 28.5  29.25]]
// CHECK-NOT:  {{.}}

// ALL-NOT:  not shown
// ALL:      step 3 (after reset):
// ALL-NOT:  not shown

tosa.variable @acc = dense<0.0> : tensor<2x4xf32>
func.func @main(%x: tensor<2x4xf32>) -> (tensor<2x4xf32> {tosa_state.name = "sum"}, tensor<2x4xf32>) {
  %a = tosa.variable.read @acc : tensor<2x4xf32>
  %s = tosa.add %a, %x : (tensor<2x4xf32>, tensor<2x4xf32>) -> tensor<2x4xf32>
  tosa.variable.write @acc, %s : tensor<2x4xf32>
  return %s, %a : tensor<2x4xf32>, tensor<2x4xf32>
}
