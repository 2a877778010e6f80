// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// The ops of decoder LLMs. Unsigned integers are computed in the signless type of their width,
// reinterpreted with tensor.bitcast (TOSA has no unsigned arithmetic); sums wrap around.

// CHECK-LABEL: func.func @unsigned_add(
// CHECK-NEXT:    %0 = tensor.bitcast %a : tensor<2xui8> to tensor<2xi8>
// CHECK-NEXT:    %1 = tensor.bitcast %b : tensor<2xui8> to tensor<2xi8>
// CHECK-NEXT:    %2 = tosa.add %0, %1 : (tensor<2xi8>, tensor<2xi8>) -> tensor<2xi8>
// CHECK-NEXT:    %3 = tensor.bitcast %2 : tensor<2xi8> to tensor<2xui8>
// CHECK-NEXT:    func.return %3 : tensor<2xui8>
func.func @unsigned_add(%a: tensor<2xui8>, %b: tensor<2xui8>) -> tensor<2xui8> {
  %0 = openvino.add %a, %b : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  func.return %0 : tensor<2xui8>
}

// -----

// Unsigned order: flip the sign bit, then compare signed. LessEqual swaps the operands.
// CHECK-LABEL: func.func @unsigned_less_equal(
// CHECK-NEXT:    %[[SIGN:.*]] = "tosa.const"() <{values = dense<-2147483648> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[A:.*]] = tensor.bitcast %a : tensor<2xui32> to tensor<2xi32>
// CHECK-NEXT:    %[[FA:.*]] = tosa.bitwise_xor %[[A]], %[[SIGN]] : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT:    %[[B:.*]] = tensor.bitcast %b : tensor<2xui32> to tensor<2xi32>
// CHECK-NEXT:    %[[FB:.*]] = tosa.bitwise_xor %[[B]], %[[SIGN]] : (tensor<2xi32>, tensor<1xi32>) -> tensor<2xi32>
// CHECK-NEXT:    %[[R:.*]] = tosa.greater_equal %[[FB]], %[[FA]] : (tensor<2xi32>, tensor<2xi32>) -> tensor<2xi1>
// CHECK-NEXT:    func.return %[[R]] : tensor<2xi1>
func.func @unsigned_less_equal(%a: tensor<2xui32>, %b: tensor<2xui32>) -> tensor<2xi1> {
  %0 = openvino.less_equal %a, %b : (tensor<2xui32>, tensor<2xui32>) -> tensor<2xi1>
  func.return %0 : tensor<2xi1>
}

// -----

// CHECK-LABEL: func.func @comparisons(
// CHECK-NEXT:    %0 = tosa.greater_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
// CHECK-NEXT:    %1 = tosa.equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
// CHECK-NEXT:    %2 = tosa.logical_not %1 : (tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT:    func.return %0, %2 : tensor<3x4xi1>, tensor<3x4xi1>
func.func @comparisons(%a: tensor<1x4xi64>, %b: tensor<3x1xi64>) -> (tensor<3x4xi1>, tensor<3x4xi1>) {
  %0 = openvino.greater_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
  %1 = openvino.not_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
  func.return %0, %1 : tensor<3x4xi1>, tensor<3x4xi1>
}

// -----

// Bitwise ops of booleans are the logical ones.
// CHECK-LABEL: func.func @booleans(
// CHECK-NEXT:    %0 = tosa.logical_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:    %1 = tosa.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:    %2 = tosa.logical_not %a : (tensor<4xi1>) -> tensor<4xi1>
// CHECK-NEXT:    %3 = tosa.bitwise_or %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %4 = tosa.bitwise_not %i : (tensor<4xi32>) -> tensor<4xi32>
func.func @booleans(%a: tensor<4xi1>, %b: tensor<4xi1>, %i: tensor<4xi32>) -> (tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>) {
  %0 = openvino.bitwise_and %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %1 = openvino.logical_xor %a, %b : (tensor<4xi1>, tensor<4xi1>) -> tensor<4xi1>
  %2 = openvino.bitwise_not %a : (tensor<4xi1>) -> tensor<4xi1>
  %3 = openvino.bitwise_or %i, %i : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %4 = openvino.bitwise_not %i : (tensor<4xi32>) -> tensor<4xi32>
  func.return %0, %1, %2, %3, %4 : tensor<4xi1>, tensor<4xi1>, tensor<4xi1>, tensor<4xi32>, tensor<4xi32>
}

// -----

// Range with constant bounds (of mixed types, as the PyTorch frontend emits) is a constant.
// CHECK-LABEL: func.func @range() -> tensor<3xi64> {
// CHECK-NEXT:    %0 = "tosa.const"() <{values = dense<[1, 4, 7]> : tensor<3xi64>}> : () -> tensor<3xi64>
func.func @range() -> tensor<?xi64> {
  %start = openvino.constant dense<1> : tensor<i32>
  %stop = openvino.constant dense<9> : tensor<i64>
  %step = openvino.constant dense<3> : tensor<i32>
  %0 = openvino.range %start, %stop, %step {output_type = i64} : (tensor<i32>, tensor<i64>, tensor<i32>) -> tensor<?xi64>
  func.return %0 : tensor<?xi64>
}

// -----

// Causal attention with one K/V head for two query heads: (Q * 1/sqrt(E)) K^T as a
// tosa.matmul (K tiled over the heads), plus -inf above the diagonal, softmax, times V.
// CHECK-LABEL: func.func @attention(
// CHECK-NEXT:    %[[SCALE:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
// CHECK:         %[[Q:.*]] = tosa.mul %q, %[[SCALE]], %{{.*}} : (tensor<1x2x3x4xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x2x3x4xf32>
// CHECK:         %[[K:.*]] = tosa.tile %k, %{{.*}} : (tensor<1x1x3x4xf32>, !tosa.shape<4>) -> tensor<1x2x3x4xf32>
// CHECK:         tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// CHECK:         tosa.matmul %{{.*}} : (tensor<2x3x4xf32>, tensor<2x4x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x3xf32>
// CHECK:         %[[MASK:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}0.000000e+00, 0xff800000, 0xff800000], [0.000000e+00, 0.000000e+00, 0xff800000], [0.000000e+00, 0.000000e+00, 0.000000e+00]]]]> : tensor<1x1x3x3xf32>}>
// CHECK-NEXT:    tosa.add %{{.*}}, %[[MASK]] : (tensor<1x2x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x2x3x3xf32>
// CHECK-NEXT:    tosa.reduce_max %{{.*}} {axis = 3 : i32}
// CHECK:         tosa.exp
// CHECK:         tosa.reduce_sum %{{.*}} {axis = 3 : i32}
// CHECK:         tosa.tile %v
// CHECK:         tosa.matmul %{{.*}} : (tensor<2x3x3xf32>, tensor<2x3x4xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x4xf32>
// CHECK:         func.return %{{.*}} : tensor<1x2x3x4xf32>
func.func @attention(%q: tensor<1x2x3x4xf32>, %k: tensor<1x1x3x4xf32>, %v: tensor<1x1x3x4xf32>) -> tensor<1x2x3x4xf32> {
  %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = true} : tensor<1x2x3x4xf32>, tensor<1x1x3x4xf32>, tensor<1x1x3x4xf32> -> tensor<1x2x3x4xf32>
  func.return %0 : tensor<1x2x3x4xf32>
}
