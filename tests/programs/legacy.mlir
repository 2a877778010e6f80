// The legacy form (TOSA RFC, 2023 MLIR): declarations at the top of the function bodies;
// the same name in two functions is one variable.
func.func private @bump(%x: tensor<4xf32>) {
  tosa.variable @state = dense<0.0> : tensor<4xf32>
  %s = tosa.variable.read @state : tensor<4xf32>
  %t = tosa.add %s, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  tosa.variable.write @state, %t : tensor<4xf32>
  return
}
func.func @main(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  tosa.variable @state = dense<0.0> : tensor<4xf32>
  tosa.variable @calls : tensor<1xi32>
  %before = tosa.variable.read @state : tensor<4xf32>
  func.call @bump(%x) : (tensor<4xf32>) -> ()
  %after = tosa.variable.read @state : tensor<4xf32>
  return %before, %after : tensor<4xf32>, tensor<4xf32>
}
