// RUN: tosa-state-opt %s -p tosa-demote-i64 --split-input-file --verify-diagnostics | filecheck %s
// RUN: tosa-state-opt %s -p tosa-demote-i64 --split-input-file --verify-diagnostics --tosa-spelling=upstream | filecheck %s --check-prefix=NOI64

// Every i64 tensor as i32: the signature, block arguments, results, constants and globals;
// other types stay. A cast from i32 to i64 is gone.

// NOI64-NOT: i64
// CHECK:       ml_program.global private mutable @pos(dense<7> : tensor<1xi32>) : tensor<1xi32>
// CHECK-LABEL: func.func @main
// CHECK-SAME:    (%ids: tensor<1x4xi32>, %x: tensor<1x4xf32>, %x32: tensor<1x4xi32>) -> (tensor<1x4xf32>, tensor<1x4xi32>)
// CHECK-NEXT:    %[[P:.*]] = ml_program.global_load @pos : tensor<1xi32>
// CHECK-NEXT:    %[[C:.*]] = "tosa.const"() <{values = dense<[[1, -2, 3, 2147483647]]> : tensor<1x4xi32>}> : () -> tensor<1x4xi32>
// CHECK-NEXT:    %[[A:.*]] = tosa.add %ids, %[[C]] : (tensor<1x4xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %[[A]] : (tensor<1x4xi32>) -> tensor<1x4xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.add %[[F]], %x
// CHECK-NEXT:    %[[N:.*]] = tosa.add %x32, %[[A]] : (tensor<1x4xi32>, tensor<1x4xi32>) -> tensor<1x4xi32>
builtin.module {
  ml_program.global private mutable @pos(dense<7> : tensor<1xi64>) : tensor<1xi64>
  func.func @main(%ids: tensor<1x4xi64>, %x: tensor<1x4xf32>, %x32: tensor<1x4xi32>) -> (tensor<1x4xf32>, tensor<1x4xi64>) {
    %p = ml_program.global_load @pos : tensor<1xi64>
    %c = "tosa.const"() <{values = dense<[[1, -2, 3, 2147483647]]> : tensor<1x4xi64>}> : () -> tensor<1x4xi64>
    %a = tosa.add %ids, %c : (tensor<1x4xi64>, tensor<1x4xi64>) -> tensor<1x4xi64>
    %f = tosa.cast %a : (tensor<1x4xi64>) -> tensor<1x4xf32>
    %s = tosa.add %f, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<1x4xf32>
    %w = tosa.cast %x32 : (tensor<1x4xi32>) -> tensor<1x4xi64>
    %n = tosa.add %w, %a : (tensor<1x4xi64>, tensor<1x4xi64>) -> tensor<1x4xi64>
    ml_program.global_store @pos = %p : tensor<1xi64>
    func.return %s, %a : tensor<1x4xf32>, tensor<1x4xi64>
  }
}

// -----

func.func @too_large() -> tensor<2xi64> {
  // expected-note@+2 {{in pass 'tosa-demote-i64'}}
  // expected-error@+1 {{'tosa.const' op has an i64 value beyond i32's range; 'tosa-demote-i64' cannot compute it in i32}}
  %c = "tosa.const"() <{values = dense<[1, 4294967296]> : tensor<2xi64>}> : () -> tensor<2xi64>
  func.return %c : tensor<2xi64>
}
