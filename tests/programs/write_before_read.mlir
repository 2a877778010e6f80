// A variable without initial value, written before it is read in every call.
tosa.variable @last : tensor<2xi32>
func.func @main(%x: tensor<2xi32>) -> tensor<2xi32> {
  %one = "tosa.const"() <{values = dense<1> : tensor<2xi32>}> : () -> tensor<2xi32>
  %x1 = tosa.add %x, %one : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  tosa.variable.write @last, %x1 : tensor<2xi32>
  %r = tosa.variable.read @last : tensor<2xi32>
  %y = tosa.add %r, %r : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
  return %y : tensor<2xi32>
}
