// A read returned by a function that is called in the module: the caller writes the
// variable and then uses the value, which must still be the one read.
tosa.variable @v = dense<[0.5, 1.5]> : tensor<2xf32>
func.func private @peek() -> tensor<2xf32> {
  %r = tosa.variable.read @v : tensor<2xf32>
  return %r : tensor<2xf32>
}
func.func @main(%x: tensor<2xf32>) -> tensor<2xf32> {
  %p = func.call @peek() : () -> tensor<2xf32>
  tosa.variable.write @v, %x : tensor<2xf32>
  %q = tosa.add %p, %p : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  return %q : tensor<2xf32>
}
