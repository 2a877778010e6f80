// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// The dynamic-shape forms of the ops of decoder LLMs: sizes known only at run time are
// `tosa.dim`s and shape arithmetic.

// A beam_idx reorder of a KV cache: tosa.gather on the cache as [1, batch, rest]. Negative
// indices count from the end (Gather-8): the batch as a tensor (a reduce_sum of a run-time
// tile of ones) is added where an index is negative.
// CHECK-LABEL: func.func @beam_reorder(
// CHECK-NEXT:    %[[B:.*]] = tosa.dim %cache {axis = 0 : i32} : (tensor<?x2x?x16xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[S:.*]] = tosa.dim %cache {axis = 2 : i32} : (tensor<?x2x?x16xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[W:.*]] = tosa.dim %beam {axis = 0 : i32} : (tensor<?xi32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[ONE:.*]] = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[ONES:.*]] = tosa.tile %[[ONE]], %[[B]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[BATCH:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[UP:.*]] = tosa.add %beam, %[[BATCH]] : (tensor<?xi32>, tensor<1xi32>) -> tensor<?xi32>
// CHECK-NEXT:    %[[NEG:.*]] = tosa.greater %[[ZERO]], %beam : (tensor<1xi32>, tensor<?xi32>) -> tensor<?xi1>
// CHECK-NEXT:    %[[WRAPPED:.*]] = tosa.select %[[NEG]], %[[UP]], %beam : (tensor<?xi1>, tensor<?xi32>, tensor<?xi32>) -> tensor<?xi32>
// CHECK-NEXT:    %[[C32:.*]] = tosa.const_shape {{ *}}{values = dense<32> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[INNER:.*]] = tosa.mul_shape %[[S]], %[[C32]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[C1:.*]] = tosa.const_shape {{ *}}{values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[VS:.*]] = tosa.concat_shape %[[C1]], %[[B]], %[[INNER]] : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
// CHECK-NEXT:    %[[V:.*]] = tosa.reshape %cache, %[[VS]] : (tensor<?x2x?x16xf32>, !tosa.shape<3>) -> tensor<1x?x?xf32>
// CHECK-NEXT:    %[[IS:.*]] = tosa.concat_shape %[[C1]], %[[W]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
// CHECK-NEXT:    %[[I:.*]] = tosa.reshape %[[WRAPPED]], %[[IS]] : (tensor<?xi32>, !tosa.shape<2>) -> tensor<1x?xi32>
// CHECK-NEXT:    %[[G:.*]] = tosa.gather %[[V]], %[[I]] : (tensor<1x?x?xf32>, tensor<1x?xi32>) -> tensor<1x?x?xf32>
// CHECK:         %[[OS:.*]] = tosa.concat_shape %[[W]], %{{.*}}, %[[S]], %{{.*}} : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<4>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[G]], %[[OS]] : (tensor<1x?x?xf32>, !tosa.shape<4>) -> tensor<?x2x?x16xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<?x2x?x16xf32>
func.func @beam_reorder(%cache: tensor<?x2x?x16xf32>, %beam: tensor<?xi32>) -> tensor<?x2x?x16xf32> {
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.gather %cache, %beam, %axis {batch_dims = 0 : i64} : (tensor<?x2x?x16xf32>, tensor<?xi32>, tensor<i64>) -> tensor<?x2x?x16xf32>
  func.return %0 : tensor<?x2x?x16xf32>
}

// -----

// Positions 0 .. length - 1 with the length known at run time: a slice of [0, ..., 8192).
// CHECK-LABEL: func.func @positions(
// CHECK-NEXT:    %[[L:.*]] = tosa.dim %ids {axis = 1 : i32} : (tensor<?x?xi64>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[T:.*]] = "tosa.const"() <{values = dense<"0x0000{{.*}}"> : tensor<8192xi64>}> : () -> tensor<8192xi64>
// CHECK-NEXT:    %[[Z:.*]] = tosa.const_shape {{ *}}{values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[R:.*]] = tosa.slice %[[T]], %[[Z]], %[[L]] : (tensor<8192xi64>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi64>
// CHECK-NEXT:    func.return %[[R]] : tensor<?xi64>
func.func @positions(%ids: tensor<?x?xi64>) -> tensor<?xi64> {
  %shape = openvino.shape_of %ids : (tensor<?x?xi64>) -> tensor<2xi64>
  %index = openvino.constant dense<1> : tensor<i64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %length = openvino.gather %shape, %index, %axis {batch_dims = 0 : i64} : (tensor<2xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  %zero = openvino.constant dense<0> : tensor<i64>
  %one = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.range %zero, %length, %one {output_type = i64} : (tensor<i64>, tensor<i64>, tensor<i64>) -> tensor<?xi64>
  func.return %0 : tensor<?xi64>
}

// -----

// A linear layer on [batch, tokens, 64]: one tosa.matmul over all rows (no copy of the
// weights per batch).
// CHECK-LABEL: func.func @linear(
// CHECK-NEXT:    %[[B:.*]] = tosa.dim %x {axis = 0 : i32} : (tensor<?x?x64xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[T:.*]] = tosa.dim %x {axis = 1 : i32} : (tensor<?x?x64xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[ROWS:.*]] = tosa.mul_shape %[[B]], %[[T]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK:         %[[A:.*]] = tosa.reshape %x, %{{.*}} : (tensor<?x?x64xf32>, !tosa.shape<3>) -> tensor<1x?x64xf32>
// CHECK:         %[[P:.*]] = tosa.matmul %[[A]], %{{.*}} : (tensor<1x?x64xf32>, tensor<1x64x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x32xf32>
// CHECK:         %[[OS:.*]] = tosa.concat_shape %[[B]], %[[T]], %{{.*}} : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[P]], %[[OS]] : (tensor<1x?x32xf32>, !tosa.shape<3>) -> tensor<?x?x32xf32>
func.func @linear(%x: tensor<?x?x64xf32>, %w: tensor<32x64xf32>) -> tensor<?x?x32xf32> {
  %0 = openvino.matmul %x, %w {transpose_b = true} : (tensor<?x?x64xf32>, tensor<32x64xf32>) -> tensor<?x?x32xf32>
  func.return %0 : tensor<?x?x32xf32>
}

// -----

// Slice-8 of the last (static) dim of a tensor with dynamic dims (rotate_half of RoPE).
// CHECK-LABEL: func.func @half(
// CHECK-NEXT:    %[[B:.*]] = tosa.dim %x {axis = 0 : i32} : (tensor<?x4x?x16xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[S:.*]] = tosa.dim %x {axis = 2 : i32} : (tensor<?x4x?x16xf32>) -> !tosa.shape<1>
// CHECK:         %[[R:.*]] = tosa.slice %x, %{{.*}}, %{{.*}} : (tensor<?x4x?x16xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<?x4x?x8xf32>
func.func @half(%x: tensor<?x4x?x16xf32>) -> tensor<?x4x?x8xf32> {
  %start = openvino.constant dense<[8]> : tensor<1xi64>
  %stop = openvino.constant dense<[9223372036854775807]> : tensor<1xi64>
  %step = openvino.constant dense<[1]> : tensor<1xi64>
  %axes = openvino.constant dense<[3]> : tensor<1xi64>
  %0 = openvino.slice %x, %start, %stop, %step, %axes : (tensor<?x4x?x16xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x4x?x8xf32>
  func.return %0 : tensor<?x4x?x8xf32>
}
