// Reads before and after a write in one call: the first sees the old value, the second
// the new one, and the old value is still used after the write.
tosa.variable @v = dense<[1, 2, 3]> : tensor<3xi32>
func.func @main(%x: tensor<3xi32>) -> (tensor<3xi32>, tensor<3xi32>) {
  %old = tosa.variable.read @v : tensor<3xi32>
  tosa.variable.write @v, %x : tensor<3xi32>
  %new = tosa.variable.read @v : tensor<3xi32>
  %sum = tosa.add %old, %new : (tensor<3xi32>, tensor<3xi32>) -> tensor<3xi32>
  return %old, %sum : tensor<3xi32>, tensor<3xi32>
}
