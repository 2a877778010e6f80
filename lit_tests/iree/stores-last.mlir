// RUN: tosa-state-opt %s -p mlprogram-stores-last | filecheck %s
// RUN: tosa-state-opt %s -p mlprogram-stores-last --tosa-spelling=upstream | iree-opt > /dev/null

// Each store moves to the end of the function; a load of the global after its store reads
// the stored value (in the block and nested in a region), and of two stores of one global
// the later stays.

// CHECK-LABEL: func.func @step(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
// CHECK-NEXT:    %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
// CHECK-NEXT:    %a = ml_program.global_load @a : tensor<2xf32>
// CHECK-NEXT:    %s = tosa.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %t = tosa.add %s, %s : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:    %r = tosa.cond_if %c (%arg = %x) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
// CHECK-NEXT:    ^bb0(%arg: tensor<2xf32>):
// CHECK-NEXT:      %u = tosa.sub %s, %arg : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
// CHECK-NEXT:      tosa.yield %u : tensor<2xf32>
// CHECK-NEXT:    } else {
// CHECK-NEXT:    ^bb0(%arg_1: tensor<2xf32>):
// CHECK-NEXT:      tosa.yield %arg_1 : tensor<2xf32>
// CHECK-NEXT:    }
// CHECK-NEXT:    %b = ml_program.global_load @b : tensor<2xf32>
// CHECK-NEXT:    %v = tosa.mul %r, %b, %shift : (tensor<2xf32>, tensor<2xf32>, tensor<1xi8>) -> tensor<2xf32>
// CHECK-NEXT:    ml_program.global_store @a = %t : tensor<2xf32>
// CHECK-NEXT:    ml_program.global_store @b = %v : tensor<2xf32>
// CHECK-NEXT:    func.return %v : tensor<2xf32>
// CHECK-NEXT:  }
ml_program.global private mutable @a(dense<0.0> : tensor<2xf32>) : tensor<2xf32>
ml_program.global private mutable @b(dense<1.0> : tensor<2xf32>) : tensor<2xf32>
func.func @step(%x: tensor<2xf32>, %c: tensor<i1>) -> tensor<2xf32> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %a = ml_program.global_load @a : tensor<2xf32>
  %s = tosa.add %a, %x : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  ml_program.global_store @a = %s : tensor<2xf32>
  %again = ml_program.global_load @a : tensor<2xf32>
  %t = tosa.add %again, %again : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
  %r = tosa.cond_if %c (%arg = %x) : tensor<i1> (tensor<2xf32>) -> tensor<2xf32> {
  ^bb0(%arg: tensor<2xf32>):
    %inner = ml_program.global_load @a : tensor<2xf32>
    %u = tosa.sub %inner, %arg : (tensor<2xf32>, tensor<2xf32>) -> tensor<2xf32>
    tosa.yield %u : tensor<2xf32>
  } else {
  ^bb0(%arg: tensor<2xf32>):
    tosa.yield %arg : tensor<2xf32>
  }
  ml_program.global_store @a = %t : tensor<2xf32>
  %b = ml_program.global_load @b : tensor<2xf32>
  %v = tosa.mul %r, %b, %shift : (tensor<2xf32>, tensor<2xf32>, tensor<1xi8>) -> tensor<2xf32>
  ml_program.global_store @b = %v : tensor<2xf32>
  return %v : tensor<2xf32>
}
