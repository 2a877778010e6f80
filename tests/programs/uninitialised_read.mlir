// Reads a variable that has no initial value before it is ever written: every call
// fails until the state is set from outside.
tosa.variable @cache : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %c = tosa.variable.read @cache : tensor<2xf32>
  %y = tosa.add %c, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tosa.variable.write @cache, %y : tensor<2xf32>
  return %y : tensor<2xf32>
}
