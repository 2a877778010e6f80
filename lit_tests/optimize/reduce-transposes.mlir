// RUN: tosa-state-opt %s -p tosa-reduce-transposes | filecheck %s

// A 1-D convolution as OpenVINO's converter emits it (NCW around an NHWC conv2d), with the
// bias add and ReLU between two of them: the transposes sink past the reshapes and the
// elementwise ops (the bias is transposed at compile time), meet and cancel, and the
// reshapes then merge away: one transpose is left, the one the result needs.

// CHECK-LABEL: func.func @conv1d_chain
// CHECK-NEXT:    %[[C1:.*]] = tosa.conv2d %x, %w1, %bias, %zp, %zp {{.*}} -> tensor<1x1x2x3xf32>
// CHECK-NEXT:    %[[B:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}1.000000e+00, 2.000000e+00, 3.000000e+00]]]]> : tensor<1x1x1x3xf32>}>
// CHECK-NEXT:    %[[A:a]] = tosa.add %[[C1]], %[[B]] : (tensor<1x1x2x3xf32>, tensor<1x1x1x3xf32>) -> tensor<1x1x2x3xf32>
// CHECK-NEXT:    %[[RELU:relu]] = tosa.clamp %[[A]] {{.*}} : (tensor<1x1x2x3xf32>) -> tensor<1x1x2x3xf32>
// CHECK-NEXT:    %[[C2:.*]] = tosa.conv2d %[[RELU]], %w2, %bias, %zp, %zp {{.*}} -> tensor<1x1x2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {values = dense<[2, 3, 1]> : tensor<3xindex>}
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[C2]], %[[S]] : (tensor<1x1x2x3xf32>, !tosa.shape<3>) -> tensor<2x3x1xf32>
// CHECK-NEXT:    %[[T:.*]] = tosa.transpose %[[R]] {perms = array<i32: 2, 1, 0>} : (tensor<2x3x1xf32>) -> tensor<1x3x2xf32>
// CHECK-NEXT:    func.return %[[T]] : tensor<1x3x2xf32>
func.func @conv1d_chain(%x: tensor<1x1x2x4xf32>, %w1: tensor<3x1x1x4xf32>, %w2: tensor<3x1x1x3xf32>, %bias: tensor<3xf32>, %zp: tensor<1xf32>) -> tensor<1x3x2xf32> {
  %c1 = tosa.conv2d %x, %w1, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x4xf32>, tensor<3x1x1x4xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x3xf32>
  %t1 = tosa.transpose %c1 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x2x3xf32>) -> tensor<1x3x1x2xf32>
  %s3 = tosa.const_shape {values = dense<[1, 3, 2]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r1 = tosa.reshape %t1, %s3 : (tensor<1x3x1x2xf32>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  %b = "tosa.const"() <{values = dense<[[[1.0], [2.0], [3.0]]]> : tensor<1x3x1xf32>}> : () -> tensor<1x3x1xf32>
  %a = tosa.add %r1, %b : (tensor<1x3x2xf32>, tensor<1x3x1xf32>) -> tensor<1x3x2xf32>
  %relu = tosa.clamp %a {max_val = 3.40282347e+38 : f32, min_val = 0.0 : f32} : (tensor<1x3x2xf32>) -> tensor<1x3x2xf32>
  %s4 = tosa.const_shape {values = dense<[1, 3, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %r2 = tosa.reshape %relu, %s4 : (tensor<1x3x2xf32>, !tosa.shape<4>) -> tensor<1x3x1x2xf32>
  %t2 = tosa.transpose %r2 {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x3x1x2xf32>) -> tensor<1x1x2x3xf32>
  %c2 = tosa.conv2d %t2, %w2, %bias, %zp, %zp {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x2x3xf32>, tensor<3x1x1x3xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2x3xf32>
  %t3 = tosa.transpose %c2 {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x2x3xf32>) -> tensor<1x3x1x2xf32>
  %r3 = tosa.reshape %t3, %s3 : (tensor<1x3x1x2xf32>, !tosa.shape<3>) -> tensor<1x3x2xf32>
  func.return %r3 : tensor<1x3x2xf32>
}

// Inverse transposes cancel; a transpose that only moves size-1 dims is a reshape.

// CHECK-LABEL: func.func @pairs
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {values = dense<[5, 1, 4]> : tensor<3xindex>}
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %y, %[[S]] : (tensor<1x5x4xf32>, !tosa.shape<3>) -> tensor<5x1x4xf32>
// CHECK-NEXT:    func.return %x, %[[R]] : tensor<2x3x4xf32>, tensor<5x1x4xf32>
func.func @pairs(%x: tensor<2x3x4xf32>, %y: tensor<1x5x4xf32>) -> (tensor<2x3x4xf32>, tensor<5x1x4xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 2, 0, 1>} : (tensor<2x3x4xf32>) -> tensor<4x2x3xf32>
  %u = tosa.transpose %t {perms = array<i32: 1, 2, 0>} : (tensor<4x2x3xf32>) -> tensor<2x3x4xf32>
  %v = tosa.transpose %y {perms = array<i32: 1, 0, 2>} : (tensor<1x5x4xf32>) -> tensor<5x1x4xf32>
  func.return %u, %v : tensor<2x3x4xf32>, tensor<5x1x4xf32>
}

// The real and imaginary halves of a spectrum: the transpose moves below both slices, the
// squares and their sum, then cancels against the one in front of the next convolution.

// CHECK-LABEL: func.func @magnitude
// CHECK-NOT:     tosa.transpose
// CHECK:         %[[S0:.*]] = tosa.const_shape {values = dense<0> : tensor<3xindex>}
// CHECK-NEXT:    %[[Z:.*]] = tosa.const_shape {values = dense<[1, 4, 3]> : tensor<3xindex>}
// CHECK-NEXT:    %[[RE:re]] = tosa.slice %x, %[[S0]], %[[Z]] : (tensor<1x4x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x4x3xf32>
// CHECK-NEXT:    %[[S3:.*]] = tosa.const_shape {values = dense<[0, 0, 3]> : tensor<3xindex>}
// CHECK:         %[[IM:im]] = tosa.slice %x, %[[S3]], %{{.*}} : (tensor<1x4x6xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x4x3xf32>
// CHECK:         %[[RE2:.*]] = tosa.mul %[[RE]], %[[RE]], %{{.*}} : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
// CHECK-NEXT:    %[[IM2:.*]] = tosa.mul %[[IM]], %[[IM]], %{{.*}} : (tensor<1x4x3xf32>, tensor<1x4x3xf32>, tensor<1xi8>) -> tensor<1x4x3xf32>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.add %[[RE2]], %[[IM2]] : (tensor<1x4x3xf32>, tensor<1x4x3xf32>) -> tensor<1x4x3xf32>
// CHECK-NEXT:    func.return %[[SUM]] : tensor<1x4x3xf32>
func.func @magnitude(%x: tensor<1x4x6xf32>) -> tensor<1x4x3xf32> {
  %t = tosa.transpose %x {perms = array<i32: 0, 2, 1>} : (tensor<1x4x6xf32>) -> tensor<1x6x4xf32>
  %size = tosa.const_shape {values = dense<[1, 3, 4]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %start0 = tosa.const_shape {values = dense<0> : tensor<3xindex>} : () -> !tosa.shape<3>
  %start3 = tosa.const_shape {values = dense<[0, 3, 0]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %re = tosa.slice %t, %start0, %size : (tensor<1x6x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x3x4xf32>
  %im = tosa.slice %t, %start3, %size : (tensor<1x6x4xf32>, !tosa.shape<3>, !tosa.shape<3>) -> tensor<1x3x4xf32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %re2 = tosa.mul %re, %re, %shift : (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1xi8>) -> tensor<1x3x4xf32>
  %im2 = tosa.mul %im, %im, %shift : (tensor<1x3x4xf32>, tensor<1x3x4xf32>, tensor<1xi8>) -> tensor<1x3x4xf32>
  %sum = tosa.add %re2, %im2 : (tensor<1x3x4xf32>, tensor<1x3x4xf32>) -> tensor<1x3x4xf32>
  %back = tosa.transpose %sum {perms = array<i32: 0, 2, 1>} : (tensor<1x3x4xf32>) -> tensor<1x4x3xf32>
  func.return %back : tensor<1x4x3xf32>
}

// Left alone: a transpose with another use (moving it would duplicate it), an operand
// that is neither a constant nor transposed the same way, dynamic shapes.

// CHECK-LABEL: func.func @kept
// CHECK:         %[[T:.*]] = tosa.transpose %x {perms = array<i32: 1, 0>}
// CHECK-NEXT:    %[[E:.*]] = tosa.exp %[[T]]
// CHECK-NEXT:    %[[A:.*]] = tosa.add %[[T]], %y
// CHECK-NEXT:    %[[D:.*]] = tosa.transpose %z {perms = array<i32: 1, 0>}
// CHECK:         %[[N:.*]] = tosa.negate %[[D]]
func.func @kept(%x: tensor<2x3xf32>, %y: tensor<3x2xf32>, %z: tensor<?x3xf32>) -> (tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x?xf32>) {
  %t = tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<2x3xf32>) -> tensor<3x2xf32>
  %e = tosa.exp %t : (tensor<3x2xf32>) -> tensor<3x2xf32>
  %a = tosa.add %t, %y : (tensor<3x2xf32>, tensor<3x2xf32>) -> tensor<3x2xf32>
  %d = tosa.transpose %z {perms = array<i32: 1, 0>} : (tensor<?x3xf32>) -> tensor<3x?xf32>
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %n = tosa.negate %d, %zp, %zp : (tensor<3x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<3x?xf32>
  func.return %e, %a, %n : tensor<3x2xf32>, tensor<3x2xf32>, tensor<3x?xf32>
}
