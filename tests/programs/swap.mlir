// Two variables swap their values: both reads see the state before either write.
tosa.variable @a = dense<[1.0, 2.0]> : tensor<2xf32>
tosa.variable @b = dense<[10.0, 20.0]> : tensor<2xf32>
func.func @main() -> (tensor<2xf32>, tensor<2xf32>) {
  %a = tosa.variable.read @a : tensor<2xf32>
  %b = tosa.variable.read @b : tensor<2xf32>
  tosa.variable.write @a, %b : tensor<2xf32>
  tosa.variable.write @b, %a : tensor<2xf32>
  return %a, %b : tensor<2xf32>, tensor<2xf32>
}
