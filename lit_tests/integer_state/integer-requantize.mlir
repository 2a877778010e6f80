// RUN: tosa-state-opt %s --split-input-file -p tosa-integer-requantize,dce | filecheck %s

// The f32 scale, bias, ReLU and quantize between an i8 convolution's accumulator and the
// int8 result become integer ops fitted to give the same int8 on every accumulator the
// convolution can produce (its weights, bias and input zero point bound them): a shift
// left for a fractional offset, the offset per channel, a rounding multiply per channel,
// a saturating rescale to int8.
// CHECK-LABEL: func.func @requantized
// CHECK-NOT:     f32
// CHECK:         %[[S:.*]] = tosa.mul %acc, %{{.*}}, %{{.*}} : (tensor<1x1x3x2xi32>, tensor<1x1x1x1xi32>, tensor<1xi8>) -> tensor<1x1x3x2xi32>
// CHECK:         %[[B:.*]] = tosa.add %[[S]], %{{.*}} : (tensor<1x1x3x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x1x3x2xi32>
// CHECK:         %[[M:.*]] = tosa.mul %[[B]], %{{.*}}, %{{.*}} : (tensor<1x1x3x2xi32>, tensor<1x1x1x2xi32>, tensor<1xi8>) -> tensor<1x1x3x2xi32>
// CHECK:         %[[Q:.*]] = tosa.rescale %[[M]], {{.*}} rounding_mode = SINGLE_ROUND, scale32 = true} : (tensor<1x1x3x2xi32>, tensor<1xi32>, tensor<1xi8>, tensor<1xi32>, tensor<1xi8>) -> tensor<1x1x3x2xi8>
// CHECK-NEXT:    func.return %[[Q]] : tensor<1x1x3x2xi8>
func.func @requantized(%x: tensor<1x1x3x2xi8>) -> tensor<1x1x3x2xi8> {
  %zp = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %w = "tosa.const"() <{values = dense<[[[[1, 2]]], [[[3, -1]]]]> : tensor<2x1x1x2xi8>}> : () -> tensor<2x1x1x2xi8>
  %b = "tosa.const"() <{values = dense<[5, -7]> : tensor<2xi32>}> : () -> tensor<2xi32>
  %acc = tosa.conv2d %x, %w, %b, %zp, %zp {acc_type = i32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 1, 1>} : (tensor<1x1x3x2xi8>, tensor<2x1x1x2xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x3x2xi32>
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[0.0213, 0.0171]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %bias = "tosa.const"() <{values = dense<[[[[0.113, -0.207]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %inv = "tosa.const"() <{values = dense<37.7> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %off = "tosa.const"() <{values = dense<-128.0> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
  %f = tosa.cast %acc : (tensor<1x1x3x2xi32>) -> tensor<1x1x3x2xf32>
  %m = tosa.mul %f, %s, %shift : (tensor<1x1x3x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x1x3x2xf32>
  %a = tosa.add %m, %bias : (tensor<1x1x3x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x1x3x2xf32>
  %r = tosa.clamp %a {max_val = 3.40282347e+38 : f32, min_val = 0.000000e+00 : f32} : (tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xf32>
  %l = tosa.mul %r, %inv, %shift : (tensor<1x1x3x2xf32>, tensor<1x1x1x1xf32>, tensor<1xi8>) -> tensor<1x1x3x2xf32>
  %o = tosa.add %l, %off : (tensor<1x1x3x2xf32>, tensor<1x1x1x1xf32>) -> tensor<1x1x3x2xf32>
  %c = tosa.clamp %o {max_val = 1.270000e+02 : f32, min_val = -1.280000e+02 : f32} : (tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xf32>
  %q = tosa.cast %c : (tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xi8>
  func.return %q : tensor<1x1x3x2xi8>
}

// -----

// An accumulator of unknown range (an argument): left as it is.
// CHECK-LABEL: func.func @unknown_range
// CHECK:         tosa.cast %acc : (tensor<1x1x3x2xi32>) -> tensor<1x1x3x2xf32>
func.func @unknown_range(%acc: tensor<1x1x3x2xi32>) -> tensor<1x1x3x2xi8> {
  %shift = "tosa.const"() <{values = dense<0> : tensor<1xi8>}> : () -> tensor<1xi8>
  %s = "tosa.const"() <{values = dense<[[[[0.0213, 0.0171]]]]> : tensor<1x1x1x2xf32>}> : () -> tensor<1x1x1x2xf32>
  %f = tosa.cast %acc : (tensor<1x1x3x2xi32>) -> tensor<1x1x3x2xf32>
  %m = tosa.mul %f, %s, %shift : (tensor<1x1x3x2xf32>, tensor<1x1x1x2xf32>, tensor<1xi8>) -> tensor<1x1x3x2xf32>
  %q = tosa.cast %m : (tensor<1x1x3x2xf32>) -> tensor<1x1x3x2xi8>
  func.return %q : tensor<1x1x3x2xi8>
}
