// Dynamic-shape state: @kv grows by the input's length along axis 1 every call (a KV
// cache), @lens keeps the lengths seen; both start empty (0 in each dynamic dim).
tosa.variable @kv : tensor<2x?x3xf32>
tosa.variable @lens : tensor<?xi32>
func.func @main(%x: tensor<2x?x3xf32>) -> (tensor<2x?x3xf32>, tensor<2x1x3xf32>) {
  %past = tosa.variable.read @kv : tensor<2x?x3xf32>
  %all = tosa.concat %past, %x {axis = 1 : i32} : (tensor<2x?x3xf32>, tensor<2x?x3xf32>) -> tensor<2x?x3xf32>
  %sum = tosa.reduce_sum %all {axis = 1 : i32} : (tensor<2x?x3xf32>) -> tensor<2x1x3xf32>
  %lens = tosa.variable.read @lens : tensor<?xi32>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %more = tosa.concat %lens, %one {axis = 0 : i32} : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
  tosa.variable.write @kv, %all : tensor<2x?x3xf32>
  tosa.variable.write @lens, %more : tensor<?xi32>
  return %all, %sum : tensor<2x?x3xf32>, tensor<2x1x3xf32>
}
