// An accumulator: each call adds its input to the state and returns the new sum.
tosa.variable @acc = dense<[1.0, -2.0, 0.5]> : tensor<3xf32>
func.func @main(%x: tensor<3xf32>) -> tensor<3xf32> {
  %0 = tosa.variable.read @acc : tensor<3xf32>
  %1 = tosa.add %0, %x : (tensor<3xf32>, tensor<3xf32>) -> tensor<3xf32>
  tosa.variable.write @acc, %1 : tensor<3xf32>
  return %1 : tensor<3xf32>
}
