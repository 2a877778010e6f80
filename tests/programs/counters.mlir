// Two variables of different element types (f32 and i32), updated in one call.
tosa.variable @total = dense<0.25> : tensor<f32>
tosa.variable @count = dense<0> : tensor<i32>
func.func @main(%x: tensor<f32>) -> (tensor<f32>, tensor<i32>) {
  %one = "tosa.const"() <{values = dense<1> : tensor<i32>}> : () -> tensor<i32>
  %half = "tosa.const"() <{values = dense<0.5> : tensor<f32>}> : () -> tensor<f32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %t = tosa.variable.read @total : tensor<f32>
  %c = tosa.variable.read @count : tensor<i32>
  %x2 = tosa.mul %x, %half, %shift : (tensor<f32>, tensor<f32>, tensor<1xi8>) -> tensor<f32>
  %t1 = tosa.add %t, %x2 : (tensor<f32>, tensor<f32>) -> tensor<f32>
  %c1 = tosa.add %c, %one : (tensor<i32>, tensor<i32>) -> tensor<i32>
  tosa.variable.write @total, %t1 : tensor<f32>
  tosa.variable.write @count, %c1 : tensor<i32>
  return %t1, %c1 : tensor<f32>, tensor<i32>
}
