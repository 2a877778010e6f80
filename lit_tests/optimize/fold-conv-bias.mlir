// RUN: tosa-state-opt %s -p tosa-fold-conv-bias | filecheck %s

// A per-channel constant added to a convolution's result becomes its bias (either operand
// order; a scalar constant too; a depthwise convolution's bias as well).

// CHECK-LABEL: func.func @folded
// CHECK-NEXT:    %[[B1:.*]] = "tosa.const"() <{values = dense<[1.500000e+00, 2.500000e+00]> : tensor<2xf32>}>
// CHECK-NEXT:    %[[C1:.*]] = tosa.conv2d %x, %w, %[[B1]], %zp, %zp {{.*}} -> tensor<1x3x3x2xf32>
// CHECK-NEXT:    %[[B2:.*]] = "tosa.const"() <{values = dense<5.000000e-01> : tensor<2xf32>}>
// CHECK-NEXT:    %[[C2:.*]] = tosa.conv2d %x, %w, %[[B2]], %zp, %zp {{.*}} -> tensor<1x3x3x2xf32>
// CHECK-NEXT:    %[[B3:.*]] = "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00, 3.000000e+00, 4.000000e+00, 5.000000e+00, 6.000000e+00]> : tensor<6xf32>}>
// CHECK-NEXT:    %[[D:.*]] = tosa.depthwise_conv2d %x, %dw, %[[B3]], %zp, %zp {{.*}} -> tensor<1x3x3x6xf32>
// CHECK-NEXT:    func.return %[[C1]], %[[C2]], %[[D]]
func.func @folded(%x: tensor<1x3x3x3xf32>, %w: tensor<2x1x1x3xf32>, %dw: tensor<1x1x3x2xf32>, %zp: tensor<1xf32>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x6xf32>) {
  %bias = "tosa.const"() <{values = dense<[0.5, 0.5]> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c1 = tosa.conv2d %x, %w, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %per_channel = "tosa.const"() <{values = dense<[[[[1.0, 2.0]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %a1 = tosa.add %c1, %per_channel : (tensor<1x3x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %c2 = tosa.conv2d %x, %w, %zero, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x1x1x3xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %scalar = "tosa.const"() <{values = dense<0.5> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %a2 = tosa.add %scalar, %c2 : (tensor<1x1x1x1xf32>, tensor<1x3x3x2xf32>) -> tensor<1x3x3x2xf32>
  %d = tosa.depthwise_conv2d %x, %dw, %zero, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<1x1x3x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x6xf32>
  %dc = "tosa.const"() <{values = dense<[[[[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]]]]> : tensor<1x1x1x6xf32>}> : () -> tensor<1x1x1x6xf32>
  %a3 = tosa.add %d, %dc : (tensor<1x3x3x6xf32>, tensor<1x1x1x6xf32>) -> tensor<1x3x3x6xf32>
  func.return %a1, %a2, %a3 : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x6xf32>
}

// Left alone: a convolution with another use, an add varying along the positions, a
// non-constant add, an integer convolution (its bias is in the accumulator's scale).

// CHECK-LABEL: func.func @kept
// CHECK-COUNT-4: tosa.add
func.func @kept(%x: tensor<1x3x3x3xf32>, %w: tensor<2x1x1x3xf32>, %zp: tensor<1xf32>, %y: tensor<1x1x1x2xf32>, %q: tensor<1x3x3x3xi8>, %qw: tensor<2x1x1x3xi8>, %qb: tensor<2xi32>, %qzp: tensor<1xi8>) -> (tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xi32>) {
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<2xf32>}> : () -> tensor<2xf32>
  %c = tosa.conv2d %x, %w, %zero, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %k = "tosa.const"() <{values = dense<1.0> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %a1 = tosa.add %c, %k : (tensor<1x3x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %c2 = tosa.conv2d %x, %w, %zero, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %rows = "tosa.const"() <{values = dense<1.0> : tensor<1x3x1x1xf32>}> : () -> tensor<1x3x1x1xf32>
  %a2 = tosa.add %c2, %rows : (tensor<1x3x3x2xf32>, tensor<1x3x1x1xf32>) -> tensor<1x3x3x2xf32>
  %c3 = tosa.conv2d %x, %w, %zero, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xf32>, tensor<2x1x1x3xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x2xf32>
  %a3 = tosa.add %c3, %y : (tensor<1x3x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x3x3x2xf32>
  %qbias = "tosa.const"() <{values = dense<0> : tensor<2xi32>}> : () -> tensor<2xi32>
  %qc = tosa.conv2d %q, %qw, %qbias, %qzp, %qzp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x3x3x3xi8>, tensor<2x1x1x3xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x3x2xi32>
  %qk = "tosa.const"() <{values = dense<1> : tensor<1x1x1x2xi32>}> : () -> tensor<1x1x1x2xi32>
  %qa = tosa.add %qc, %qk : (tensor<1x3x3x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x3x3x2xi32>
  func.return %a1, %c, %a2, %a3, %qa : tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xf32>, tensor<1x3x3x2xi32>
}
