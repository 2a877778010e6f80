// A model storing a global inside a tosa.while_loop body (lit_tests/iree/stores-last-regions.mlir).
ml_program.global private mutable @a(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
func.func @step(%x: tensor<2xf32>, %n: tensor<1xi32>) -> tensor<2xf32> {
  %zero = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
  %one = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
  %r:2 = tosa.while_loop (%i = %zero, %acc = %x) : (tensor<1xi32>, tensor<2xf32>) -> (tensor<1xi32>, tensor<2xf32>) {
    %c = tosa.greater %n, %i : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi1>
    tosa.yield %c : tensor<1xi1>
  } do {
  ^bb0(%i: tensor<1xi32>, %acc: tensor<2xf32>):
    %j = tosa.add %i, %one : (tensor<1xi32>, tensor<1xi32>) -> tensor<1xi32>
    %s = tosa.add %acc, %acc : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    ml_program.global_store @a = %s : tensor<2xf32>
    tosa.yield %j, %s : tensor<1xi32>, tensor<2xf32>
  }
  return %r#1 : tensor<2xf32>
}
