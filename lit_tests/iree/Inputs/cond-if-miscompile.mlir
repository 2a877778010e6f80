// IREE 3.13 miscompile (docs/runtime.md): a dynamic ml_program global selected by
// tosa.cond_if against an init computed OUTSIDE the if. Called with [1], [2,3], [4,5,6]
// it returns [1], [0,2,3], [0,0,0,4,5,6] instead of [1], [1,2,3], [1,2,3,4,5,6].
// tosa-sink-cond-if-inputs computes the init inside the else region, which gives the
// right results. Compile: iree-compile --iree-input-type=tosa
// --iree-hal-target-device=local --iree-hal-local-target-device-backends=llvm-cpu THIS
module {
  ml_program.global private mutable @kv : tensor<?xf32>
  ml_program.global private mutable @kv_init(dense<false> : tensor<i1>) : tensor<i1>
  func.func @main(%x: tensor<?xf32>) -> tensor<?xf32> {
    %flag = ml_program.global_load @kv_init : tensor<i1>
    %kv = ml_program.global_load @kv : tensor<?xf32>
    %c0 = arith.constant 0 : index
    %empty = tensor.empty(%c0) : tensor<?xf32>
    %sel = "tosa.cond_if"(%flag, %kv, %empty) ({
    ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
      "tosa.yield"(%a) : (tensor<?xf32>) -> ()
    }, {
    ^bb0(%a: tensor<?xf32>, %b: tensor<?xf32>):
      "tosa.yield"(%b) : (tensor<?xf32>) -> ()
    }) : (tensor<i1>, tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    %c = "tosa.concat"(%sel, %x) <{axis = 0 : i32}> : (tensor<?xf32>, tensor<?xf32>) -> tensor<?xf32>
    ml_program.global_store @kv = %c : tensor<?xf32>
    %t = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
    ml_program.global_store @kv_init = %t : tensor<i1>
    return %c : tensor<?xf32>
  }
}
