// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// The reference formula in f32 and i32 ops (constant bounds): d = x - il; d / (ih - il) as
// the reciprocal product, corrected once by its residual (the product exact by Veltkamp's
// split, 4097) and clamped to [-2, 2]; times levels - 1, rounded half to even (cast to i32
// and back); the value of each (bounds element, level) from a table (tosa.gather); ol at
// or below the range, oh above it; NaN stays. No f64.
// CHECK-LABEL: func.func @fq_float(
// CHECK-NOT:     f64
// CHECK:         %[[D:.*]] = tosa.sub %x, %lo : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[INV:.*]] = "tosa.const"() <{values = dense<{{\[\[}}5.000000e-01, 5.000000e-01, 2.000000e+00]]> : tensor<1x3xf32>}>
// CHECK:         %[[Q0:.*]] = tosa.mul %[[D]], %[[INV]]
// CHECK-NEXT:    %{{.*}} = tosa.clamp %[[Q0]] {max_val = 2.000000e+00 : f32, min_val = -2.000000e+00 : f32}
// CHECK-NEXT:    "tosa.const"() <{values = dense<4.097000e+03> : tensor<1x1xf32>}>
// CHECK:         %[[STEPS:.*]] = "tosa.const"() <{values = dense<1.500000e+01> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[T:.*]] = tosa.mul %{{.*}}, %[[STEPS]], %{{.*}} : (tensor<2x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[I:.*]] = tosa.cast %[[T]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[N:.*]] = tosa.cast %[[I]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK:         %[[V:.*]] = tosa.gather %{{.*}}, %{{.*}} : (tensor<1x48x1xf32>, tensor<1x6xi32>) -> tensor<1x6x1xf32>
// CHECK:         %[[BELOW:.*]] = tosa.greater_equal %lo, %x : (tensor<1x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[ABOVE:.*]] = tosa.greater %x, %hi : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xi1>
// CHECK:         %[[S:.*]] = tosa.select %[[ABOVE]]
// CHECK:         %[[R:.*]] = tosa.select %[[BELOW]], %{{.*}}, %[[S]]
// CHECK-NEXT:    %[[NUMBER:.*]] = tosa.equal %x, %x : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xi1>
// CHECK-NEXT:    %[[Y:.*]] = tosa.select %[[NUMBER]], %[[R]], %x
// CHECK-NEXT:    func.return %[[Y]]
func.func @fq_float(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %lo = openvino.constant dense<[[-1.0, 0.0, 1.0]]> : tensor<1x3xf32>
  %hi = openvino.constant dense<[[1.0, 2.0, 1.5]]> : tensor<1x3xf32>
  %olo = openvino.constant dense<0.0> : tensor<f32>
  %ohi = openvino.constant dense<3.0> : tensor<f32>
  %0 = openvino.fake_quantize %x, %lo, %hi, %olo, %ohi {levels = 16 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// Bounds computed at run time: the quotient is rounded once in f64 (no TOSA profile has it:
// such a model is no TOSA artifact).
// CHECK-LABEL: func.func @fq_computed(
// CHECK:         tosa.cast %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xf64>
func.func @fq_computed(%x: tensor<2x3xf32>, %lo: tensor<1x3xf32>) -> tensor<2x3xf32> {
  %hi = openvino.constant dense<[[1.0, 2.0, 1.5]]> : tensor<1x3xf32>
  %olo = openvino.constant dense<0.0> : tensor<f32>
  %ohi = openvino.constant dense<3.0> : tensor<f32>
  %0 = openvino.fake_quantize %x, %lo, %hi, %olo, %ohi {levels = 16 : i64} : (tensor<2x3xf32>, tensor<1x3xf32>, tensor<1x3xf32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// An int8 pair ([0, 2.55], 256 levels: scale 0.01, zero point 0): the level rounded into
// i32, rescaled to i8 with output zero point -128, back to i32 with input zero point -128,
// times the scale.
// CHECK-LABEL: func.func @pair(
// CHECK:         %[[L:.*]] = tosa.clamp %{{.*}} {max_val = 2.550000e+02 : f32, min_val = 0.000000e+00 : f32}
// CHECK-NEXT:    %[[I:.*]] = tosa.cast %[[L]] : (tensor<2x3xf32>) -> tensor<2x3xi32>
// CHECK-NEXT:    %[[M:.*]] = "tosa.const"() <{values = dense<1073741824> : tensor<1xi32>}>
// CHECK-NEXT:    %[[SH:.*]] = "tosa.const"() <{values = dense<30> : tensor<1xi8>}>
// CHECK-NEXT:    %[[Z32:.*]] = "tosa.const"() <{values = dense<0> : tensor<1xi32>}>
// CHECK-NEXT:    %[[Z8:.*]] = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}>
// CHECK-NEXT:    %[[Q:.*]] = tosa.rescale %[[I]], %[[M]], %[[SH]], %[[Z32]], %[[Z8]] {{.*}} -> tensor<2x3xi8>
// CHECK-NEXT:    %[[C:.*]] = tosa.rescale %[[Q]], %[[M]], %[[SH]], %[[Z8]], %[[Z32]] {{.*}} -> tensor<2x3xi32>
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %[[C]] : (tensor<2x3xi32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S:.*]] = "tosa.const"() <{values = dense<1.000000e-02> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[Y:.*]] = tosa.mul %[[F]], %[[S]]
// CHECK-NEXT:    func.return %[[Y]]
func.func @pair(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %lo = openvino.constant dense<0.0> : tensor<f32>
  %hi = openvino.constant dense<2.55> : tensor<f32>
  %0 = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// A Convolution of an int8 pair by weights that are int8 multiples of 0.5 and 0.25 per
// output channel: i8 x i8 tosa.conv2d (padding kept) into i32, times s_x * s_w[o].
// CHECK-LABEL: func.func @conv(
// CHECK:         %[[Q:.*]] = tosa.rescale {{.*}} -> tensor<1x2x6xi8>
// CHECK:         %[[X:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x1x6xi8>) -> tensor<1x1x6x2xi8>
// CHECK-NEXT:    %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}127, 2], [-20, 4], [1, -6]]], {{\[\[\[}}127, 0], [4, 2], [-1, 3]]]]> : tensor<2x1x3x2xi8>}>
// CHECK-NEXT:    %[[B:.*]] = "tosa.const"() <{values = dense<0> : tensor<2xi32>}>
// CHECK-NEXT:    %[[ACC:.*]] = tosa.conv2d %[[X]], %[[W]], %[[B]], %[[ZP:.*]], %[[ZP]] {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x6x2xi8>, tensor<2x1x3x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x5x2xi32>
// CHECK:         %[[F:.*]] = tosa.cast %{{.*}} : (tensor<1x2x5xi32>) -> tensor<1x2x5xf32>
// CHECK-NEXT:    %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}5.000000e-03], [2.500000e-03]]]> : tensor<1x2x1xf32>}>
// CHECK-NEXT:    %[[Y:.*]] = tosa.mul %[[F]], %[[S]]
// CHECK-NEXT:    func.return %[[Y]]
func.func @conv(%x: tensor<1x2x6xf32>) -> tensor<1x2x5xf32> {
  %lo = openvino.constant dense<-1.28> : tensor<f32>
  %hi = openvino.constant dense<1.27> : tensor<f32>
  %q = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<1x2x6xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x6xf32>
  %w = openvino.constant dense<[[[63.5, -10.0, 0.5], [1.0, 2.0, -3.0]], [[31.75, 1.0, -0.25], [0.0, 0.5, 0.75]]]> : tensor<2x2x3xf32>
  %0 = openvino.convolution %q, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 0>} : (tensor<1x2x6xf32>, tensor<2x2x3xf32>) -> tensor<1x2x5xf32>
  func.return %0 : tensor<1x2x5xf32>
}

// -----

// A MatMul of a transposed int8 pair: the transpose moves onto the i8 levels; tosa.matmul
// with the input zero point -128.
// CHECK-LABEL: func.func @matmul(
// CHECK:         %[[Z8:.*]] = "tosa.const"() <{values = dense<-128> : tensor<1xi8>}>
// CHECK-NEXT:    %[[Q:.*]] = tosa.rescale {{.*}} -> tensor<1x2x3xi8>
// CHECK-NEXT:    %[[T:.*]] = tosa.transpose %[[Q]] {perms = array<i32: 0, 2, 1>} : (tensor<1x2x3xi8>) -> tensor<1x3x2xi8>
// CHECK-NEXT:    %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}127, -5], [30, 127]]]> : tensor<1x2x2xi8>}>
// CHECK-NEXT:    %[[ACC:.*]] = tosa.matmul %[[T]], %[[W]], %[[Z8]], %{{.*}} : (tensor<1x3x2xi8>, tensor<1x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %[[ACC]]
// CHECK-NEXT:    %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.000000e-04, 1.000000e-03]]]> : tensor<1x1x2xf32>}>
// CHECK-NEXT:    tosa.mul %[[F]], %[[S]]
// CHECK-NOT:     tosa.rescale
func.func @matmul(%x: tensor<1x2x3xf32>) -> tensor<1x3x2xf32> {
  %lo = openvino.constant dense<0.0> : tensor<f32>
  %hi = openvino.constant dense<2.55> : tensor<f32>
  %q = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<1x2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x3xf32>
  %perm = openvino.constant dense<[0, 2, 1]> : tensor<3xi64>
  %t = openvino.transpose %q, %perm : (tensor<1x2x3xf32>, tensor<3xi64>) -> tensor<1x3x2xf32>
  %w = openvino.constant dense<[[1.27, -0.5], [0.3, 12.7]]> : tensor<2x2xf32>
  %0 = openvino.matmul %t, %w : (tensor<1x3x2xf32>, tensor<2x2xf32>) -> tensor<1x3x2xf32>
  func.return %0 : tensor<1x3x2xf32>
}

// -----

// The weights as `ov.save_model` stores a quantized model's (i8 -> Convert -> Multiply by a
// scale per output column): the stored int8 values and scales feed the i8 tosa.matmul; the
// tosa_state.dequantize the compressed weight became is left unused and erased.
// CHECK-LABEL: func.func @matmul_of_stored_int8(
// CHECK-NOT:     tosa_state.dequantize
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}127, -5], [30, 127]]]> : tensor<1x2x2xi8>}>
// CHECK-NEXT:    tosa.matmul %{{.*}}, %[[W]], %{{.*}} : (tensor<1x3x2xi8>, tensor<1x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x3x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[\[}}1.000000e-04, 1.000000e-03]]]> : tensor<1x1x2xf32>}>
// CHECK-NOT:     tosa_state.dequantize
func.func @matmul_of_stored_int8(%x: tensor<1x2x3xf32>) -> tensor<1x3x2xf32> {
  %lo = openvino.constant dense<0.0> : tensor<f32>
  %hi = openvino.constant dense<2.55> : tensor<f32>
  %q = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<1x2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x3xf32>
  %perm = openvino.constant dense<[0, 2, 1]> : tensor<3xi64>
  %t = openvino.transpose %q, %perm : (tensor<1x2x3xf32>, tensor<3xi64>) -> tensor<1x3x2xf32>
  %w8 = openvino.constant dense<[[127, -5], [30, 127]]> : tensor<2x2xi8>
  %wf = openvino.convert %w8 {destination_type = f32} : (tensor<2x2xi8>) -> tensor<2x2xf32>
  %s = openvino.constant dense<[[0.01, 0.1]]> : tensor<1x2xf32>
  %w = openvino.multiply %wf, %s : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
  %0 = openvino.matmul %t, %w : (tensor<1x3x2xf32>, tensor<2x2xf32>) -> tensor<1x3x2xf32>
  func.return %0 : tensor<1x3x2xf32>
}

// -----

// Weights that are not int8 multiples of a per-channel scale: the float MatMul of the
// dequantized pair (always correct).
// CHECK-LABEL: func.func @float_weights(
// CHECK:         %[[S:.*]] = "tosa.const"() <{values = dense<1.000000e-02> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[Y:.*]] = tosa.mul %{{.*}}, %[[S]], %{{.*}} : (tensor<1x3xf32>, tensor<1x1xf32>, tensor<1xi8>) -> tensor<1x3xf32>
// CHECK:         tosa.reshape %[[Y]], %{{.*}} -> tensor<1x1x3xf32>
// CHECK:         tosa.matmul %{{.*}} : (tensor<1x1x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x2xf32>
func.func @float_weights(%x: tensor<1x3xf32>) -> tensor<1x2xf32> {
  %lo = openvino.constant dense<0.0> : tensor<f32>
  %hi = openvino.constant dense<2.55> : tensor<f32>
  %q = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<1x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x3xf32>
  %w = openvino.constant dense<[[0.1, 0.2], [0.3, 0.4], [0.5, 0.7]]> : tensor<3x2xf32>
  %0 = openvino.matmul %q, %w : (tensor<1x3xf32>, tensor<3x2xf32>) -> tensor<1x2xf32>
  func.return %0 : tensor<1x2xf32>
}

// -----

// A depthwise GroupConvolution of an int8 pair (zero point 50 - 128 = -78) by int8
// multiples of 0.5 and 0.25: i8 tosa.depthwise_conv2d into i32, times s_x * s_w[o].
// CHECK-LABEL: func.func @depthwise(
// CHECK:         %[[ZP:.*]] = "tosa.const"() <{values = dense<-78> : tensor<1xi8>}>
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[\[}}127], [-20]], {{\[\[}}-1], [127]]]]> : tensor<1x2x2x1xi8>}>
// CHECK:         tosa.depthwise_conv2d %{{.*}}, %[[W]], %{{.*}}, %[[ZP]], %{{.*}} {acc_type = i32, {{.*}}} : (tensor<1x1x4x2xi8>, tensor<1x2x2x1xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3x2xi32>
// CHECK:         %[[S:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}5.000000e-03], [2.500000e-03]]]> : tensor<1x2x1xf32>}>
// CHECK-NEXT:    tosa.mul %{{.*}}, %[[S]]
func.func @depthwise(%x: tensor<1x2x4xf32>) -> tensor<1x2x3xf32> {
  %lo = openvino.constant dense<-0.5> : tensor<f32>
  %hi = openvino.constant dense<2.05> : tensor<f32>
  %q = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<1x2x4xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<1x2x4xf32>
  %w = openvino.constant dense<[[[[63.5, -0.5]]], [[[-5.0, 31.75]]]]> : tensor<2x1x1x2xf32>
  %0 = openvino.group_convolution %q, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 0>, pads_end = array<i64: 0>} : (tensor<1x2x4xf32>, tensor<2x1x1x2xf32>) -> tensor<1x2x3xf32>
  func.return %0 : tensor<1x2x3xf32>
}
