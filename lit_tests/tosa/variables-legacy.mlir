// RUN: tosa-state-opt %s -p tosa-hoist-variables | filecheck %s
// RUN: tosa-state-opt %s -p tosa-hoist-variables --tosa-spelling=upstream | filecheck %s --check-prefix=UPSTREAM

// The legacy form of the TOSA RFC and 2023-2025 MLIR: declarations inside functions.
// The same name in two functions is one variable; hoisting keeps one declaration, in
// front of the first function that declares it, and leaves everything else alone.

// CHECK:       builtin.module {
// CHECK-NEXT:    tosa.variable @state = dense<0.000000e+00> : tensor<4xf32>
// CHECK-NEXT:    tosa.variable @count : tensor<1xi32>
// CHECK-NEXT:    func.func @step(%[[X:.*]]: tensor<4xf32>) -> tensor<4xf32> {
// CHECK-NEXT:      %[[S:.*]] = tosa.variable.read @state : tensor<4xf32>
// CHECK-NEXT:      tosa.variable.write @state, %[[X]] : tensor<4xf32>
// CHECK-NEXT:      func.return %[[S]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    func.func @peek() -> tensor<4xf32> {
// CHECK-NEXT:      %[[P:.*]] = tosa.variable.read @state : tensor<4xf32>
// CHECK-NEXT:      func.return %[[P]] : tensor<4xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:  }
// CHECK-NOT:   tosa.variable @

// UPSTREAM: tosa.variable @state = dense<0.000000e+00> : tensor<4xf32>
// UPSTREAM: tosa.variable_read @state : tensor<4xf32>
// UPSTREAM: tosa.variable_write @state, %{{.*}} : tensor<4xf32>
func.func @step(%x: tensor<4xf32>) -> tensor<4xf32> {
  tosa.variable @state = dense<0.0> : tensor<4xf32>
  tosa.variable @count : tensor<1xi32>
  %s = tosa.variable.read @state : tensor<4xf32>
  tosa.variable.write @state, %x : tensor<4xf32>
  return %s : tensor<4xf32>
}
func.func @peek() -> tensor<4xf32> {
  tosa.variable @state = dense<0.0> : tensor<4xf32>
  %s = tosa.variable.read @state : tensor<4xf32>
  return %s : tensor<4xf32>
}
