// RUN: not tosa-state-opt %s --split-input-file -p externalize-state 2>&1 | filecheck %s

// CHECK: externalize-state-invalid.mlir:[[# @LINE + 5]]:5: error: externalize-state cannot move variable @v out of this access: only reads and writes directly in the body of 'main' can become its arguments and results
// CHECK-NEXT: note: in pass 'externalize-state'
tosa.variable @v = dense<0.0> : tensor<2xf32>
func.func @main(%c: tensor<1xi1>, %x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = tosa.cond_if %c : tensor<1xi1> -> tensor<2xf32> {
    %r = tosa.variable.read @v : tensor<2xf32>
    tosa.yield %r : tensor<2xf32>
  } else {
    tosa.yield %x : tensor<2xf32>
  }
  return %0 : tensor<2xf32>
}

// -----

// CHECK: externalize-state-invalid.mlir:[[# @LINE + 8]]:3: error: externalize-state cannot move variable @v out of this access: only reads and writes directly in the body of 'main' can become its arguments and results
tosa.variable @v = dense<0.0> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = tosa.variable.read @v : tensor<2xf32>
  %0 = func.call @bump(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func private @bump(%x: tensor<2xf32>) -> tensor<2xf32> {
  tosa.variable.write @v, %x : tensor<2xf32>
  return %x : tensor<2xf32>
}

// -----

// CHECK: externalize-state-invalid.mlir:[[# @LINE + 7]]:3: error: externalize-state cannot change the signature of 'main': it is called here
tosa.variable @v = dense<0.0> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %r = tosa.variable.read @v : tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @other(%x: tensor<2xf32>) -> tensor<2xf32> {
  %0 = func.call @main(%x) : (tensor<2xf32>) -> tensor<2xf32>
  return %0 : tensor<2xf32>
}
