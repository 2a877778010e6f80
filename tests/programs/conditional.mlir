// State accessed inside a region: the variable is only updated when the flag is set.
tosa.variable @level = dense<[100, 200]> : tensor<2xi32>
func.func @main(%flag: tensor<i1>, %x: tensor<2xi32>) -> (tensor<2xi32>, tensor<2xi32>) {
  %before = tosa.variable.read @level : tensor<2xi32>
  %r = tosa.cond_if %flag (%y = %x) : tensor<i1> (tensor<2xi32>) -> tensor<2xi32> {
  ^bb0(%y: tensor<2xi32>):
    %old = tosa.variable.read @level : tensor<2xi32>
    %new = tosa.add %old, %y : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi32>
    tosa.variable.write @level, %new : tensor<2xi32>
    tosa.yield %old : tensor<2xi32>
  } else {
  ^bb0(%y: tensor<2xi32>):
    tosa.yield %y : tensor<2xi32>
  }
  return %before, %r : tensor<2xi32>, tensor<2xi32>
}
