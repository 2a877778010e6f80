// Several reads of one variable with no write between them, one of them unused.
tosa.variable @v = dense<[2.0, -1.0]> : tensor<2xf32>
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %a = tosa.variable.read @v : tensor<2xf32>
  %b = tosa.variable.read @v : tensor<2xf32>
  %unused = tosa.variable.read @v : tensor<2xf32>
  %s = tosa.add %a, %b : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %t = tosa.add %s, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  tosa.variable.write @v, %t : tensor<2xf32>
  return %t : tensor<2xf32>
}
