// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// GatherND, GatherElements: one tosa.gather at flat rows computed from the wrapped indices;
// NonZero of a constant folds; Einsum as transposes and a batched tosa.matmul.

// batch_dims 1: per batch, pairs (i, j) address rows i * 3 + j of [2, 12, 1].
// CHECK-LABEL: func.func @gather_nd(
// CHECK:         %[[T:.*]] = tosa.reshape %idx, %{{.*}} -> tensor<10x2xi32>
// CHECK-NEXT:    %[[SIZES:.*]] = "tosa.const"() <{values = dense<{{\[\[}}4, 3]]> : tensor<1x2xi32>}>
// CHECK:         %[[W:.*]] = tosa.select
// CHECK-NEXT:    %[[STRIDES:.*]] = "tosa.const"() <{values = dense<{{\[\[}}3, 1]]> : tensor<1x2xi32>}>
// CHECK:         %[[S:.*]] = tosa.mul %[[W]], %[[STRIDES]]
// CHECK-NEXT:    %[[FLAT:.*]] = tosa.reduce_sum %[[S]] {axis = 1 : i32} : (tensor<10x2xi32>) -> tensor<10x1xi32>
// CHECK:         %[[ROWS:.*]] = tosa.reshape %[[FLAT]], %{{.*}} -> tensor<2x5xi32>
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<2x12x1xf32>
// CHECK-NEXT:    %[[G:.*]] = tosa.gather %[[DATA]], %[[ROWS]] : (tensor<2x12x1xf32>, tensor<2x5xi32>) -> tensor<2x5x1xf32>
// CHECK-NEXT:    tosa.reshape %[[G]], %{{.*}} -> tensor<2x5xf32>
func.func @gather_nd(%data: tensor<2x4x3xf32>, %idx: tensor<2x5x2xi32>) -> tensor<2x5xf32> {
  %0 = openvino.gather_nd %data, %idx {batch_dims = 1 : i64} : (tensor<2x4x3xf32>, tensor<2x5x2xi32>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

// CHECK-LABEL: func.func @gather_elements(
// CHECK:         %[[I:.*]] = tosa.cast %{{.*}} : (tensor<1x4xi64>) -> tensor<1x4xi32>
// CHECK:         %[[W:.*]] = tosa.select
// CHECK-NEXT:    %[[BASE:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 0, 3, 3]]> : tensor<1x4xi32>}>
// CHECK-NEXT:    %[[FLAT:.*]] = tosa.add %[[W]], %[[BASE]]
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<1x6x1xf32>
// CHECK-NEXT:    %[[G:.*]] = tosa.gather %[[DATA]], %[[FLAT]] : (tensor<1x6x1xf32>, tensor<1x4xi32>) -> tensor<1x4x1xf32>
// CHECK:         tosa.reshape %[[G]], %{{.*}} -> tensor<2x2xf32>
func.func @gather_elements(%data: tensor<2x3xf32>, %idx: tensor<2x2xi64>) -> tensor<2x2xf32> {
  %0 = openvino.gather_elements %data, %idx {axis = 1 : i64} : (tensor<2x3xf32>, tensor<2x2xi64>) -> tensor<2x2xf32>
  func.return %0 : tensor<2x2xf32>
}

// -----

// CHECK-LABEL: func.func @non_zero(
// CHECK-NEXT:    %[[C:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 1], [1, 0]]> : tensor<2x2xi64>}>
// CHECK-NEXT:    func.return %[[C]]
func.func @non_zero() -> tensor<2x?xi64> {
  %x = openvino.constant dense<[[0, 3], [5, 0]]> : tensor<2x2xi32>
  %0 = openvino.non_zero %x : (tensor<2x2xi32>) -> tensor<2x?xi64>
  func.return %0 : tensor<2x?xi64>
}

// -----

// Attention scores: b, h batch; d contracted; k moves after d.
// CHECK-LABEL: func.func @einsum_scores(
// CHECK:         %[[Q:.*]] = tosa.reshape %q, %{{.*}} -> tensor<2x3x4xf32>
// CHECK-NEXT:    %[[KT:.*]] = tosa.transpose %k {perms = array<i32: 0, 1, 3, 2>}
// CHECK:         %[[K:.*]] = tosa.reshape %[[KT]], %{{.*}} -> tensor<2x4x5xf32>
// CHECK:         %[[P:.*]] = tosa.matmul %[[Q]], %[[K]], %{{.*}}, %{{.*}} : (tensor<2x3x4xf32>, tensor<2x4x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// CHECK:         tosa.reshape %[[P]], %{{.*}} -> tensor<1x2x3x5xf32>
func.func @einsum_scores(%q: tensor<1x2x3x4xf32>, %k: tensor<1x2x5x4xf32>) -> tensor<1x2x3x5xf32> {
  %0 = openvino.einsum %q, %k {equation = "bhqd,bhkd->bhqk"} : (tensor<1x2x3x4xf32>, tensor<1x2x5x4xf32>) -> tensor<1x2x3x5xf32>
  func.return %0 : tensor<1x2x3x5xf32>
}

// -----

// One operand: the dropped labels summed, the rest transposed to the output order.
// CHECK-LABEL: func.func @einsum_sum_transpose(
// CHECK-NEXT:    %[[S:.*]] = tosa.reduce_sum %x {axis = 1 : i32} : (tensor<2x3x4xf32>) -> tensor<2x1x4xf32>
// CHECK:         %[[R:.*]] = tosa.reshape %[[S]], %{{.*}} -> tensor<2x4xf32>
// CHECK-NEXT:    %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 1, 0>}
// CHECK-NEXT:    func.return %[[T]]
func.func @einsum_sum_transpose(%x: tensor<2x3x4xf32>) -> tensor<4x2xf32> {
  %0 = openvino.einsum %x {equation = "ijk->ki"} : (tensor<2x3x4xf32>) -> tensor<4x2xf32>
  func.return %0 : tensor<4x2xf32>
}
