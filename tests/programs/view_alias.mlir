// Values derived from a read (a reshape is a view of its input at run time) must keep
// the old state after the variable is written.
tosa.variable @grid = dense<[[1, 2], [3, 4]]> : tensor<2x2xi32>
func.func @main(%x: tensor<2x2xi32>) -> (tensor<4xi32>, tensor<2x2xi32>) {
  %g = tosa.variable.read @grid : tensor<2x2xi32>
  %shape = tosa.const_shape {values = dense<[4]> : tensor<1xindex>} : () -> !tosa.shape<1>
  %flat = tosa.reshape %g, %shape : (tensor<2x2xi32>, !tosa.shape<1>) -> tensor<4xi32>
  %same = tosa.identity %g : (tensor<2x2xi32>) -> tensor<2x2xi32>
  tosa.variable.write @grid, %x : tensor<2x2xi32>
  return %flat, %same : tensor<4xi32>, tensor<2x2xi32>
}
