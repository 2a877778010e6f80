// RUN: tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa | filecheck %s

// A hybrid FULLY_CONNECTED (int8 filter, f32 activations; TFLite's dynamic-range form) as
// LiteRT computes it: each input row quantized per call (scale = (max(x,0) - min(x,0)) / 255,
// zero point rounded half away from zero), an i8 x i8 -> i32 tosa.matmul by the int8 filter
// (transposed, still int8), minus zero point x the filter's row sums, times row scale x
// channel scale in f32, plus the bias.

// CHECK-LABEL: func.func @hybrid(
// CHECK:         tosa.reduce_min %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK:         tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK:         "tosa.const"() <{values = dense<0.00392156886> : tensor<1x1xf32>}>
// CHECK:         %[[INV:.*]] = tosa.reciprocal
// CHECK:         %[[Q:.*]] = tosa.cast %{{.*}} : (tensor<2x3xf32>) -> tensor<2x3xi8>
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1, 4], [-2, 5], [3, -128]]]> : tensor<1x3x2xi8>}>
// CHECK:         %[[DOT:.*]] = tosa.matmul %{{.*}}, %[[W]], %{{.*}}, %{{.*}} : (tensor<1x2x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[}}2, -119]]> : tensor<1x2xi32>}>
// CHECK:         tosa.sub %{{.*}}, %{{.*}} : (tensor<2x2xi32>, tensor<2x2xi32>) -> tensor<2x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[}}5.000000e-01, 2.500000e-01]]> : tensor<1x2xf32>}>
// CHECK:         tosa.cast %{{.*}} : (tensor<2x2xi32>) -> tensor<2x2xf32>
// CHECK:         tosa.add %{{.*}}, %{{.*}} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NOT:     xf32>}> : () -> tensor<1x3x2xf32>
func.func @hybrid(%x: tensor<2x3xf32>) -> tensor<2x2xf32> {
  %w = tfl.pseudo_const {value = dense<[[1, -2, 3], [4, 5, -128]]> : tensor<2x3xi8>} : tensor<2x3xi8>
  %b = tfl.pseudo_const {value = dense<[0.5, -0.5]> : tensor<2xf32>} : tensor<2xf32>
  %y = tfl.fully_connected %x, %w, %b {asymmetric_quantize_inputs = true, filter_scale = array<f32: 0.5, 0.25>} : (tensor<2x3xf32>, tensor<2x3xi8>, tensor<2xf32>) -> tensor<2x2xf32>
  func.return %y : tensor<2x2xf32>
}

// -----

// A hybrid CONV_2D (VALID): each batch's input quantized as a whole, an i8 tosa.conv2d by the
// int8 filter into i32, minus zero point x the filter's sums per output channel, times batch
// scale x channel scale, plus the bias.

// CHECK-LABEL: func.func @hybrid_conv(
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<2x1x2x3xi8>}>
// CHECK:         tosa.reduce_min %{{.*}} {axis = 1 : i32} : (tensor<1x12xf32>) -> tensor<1x1xf32>
// CHECK:         %[[ACC:.*]] = tosa.conv2d %{{.*}}, %[[W]], %{{.*}}, %{{.*}}, %{{.*}} {acc_type = i32, {{.*}}} : (tensor<1x2x2x3xi8>, tensor<2x1x2x3xi8>, tensor<2xi32>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x2x1x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[\[\[}}6, -3]]]]> : tensor<1x1x1x2xi32>}>
// CHECK:         tosa.sub %[[ACC]], %{{.*}} : (tensor<1x2x1x2xi32>, tensor<1x1x1x2xi32>) -> tensor<1x2x1x2xi32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[\[\[}}5.000000e-01, 2.500000e-01]]]]> : tensor<1x1x1x2xf32>}>
// CHECK:         tosa.add %{{.*}}, %{{.*}} : (tensor<1x2x1x2xf32>, tensor<1x1x1x2xf32>) -> tensor<1x2x1x2xf32>
func.func @hybrid_conv(%x: tensor<1x2x2x3xf32>) -> tensor<1x2x1x2xf32> {
  %w = tfl.pseudo_const {value = dense<[[[[1, 2, 3], [0, 0, 0]]], [[[-1, -1, -1], [0, 0, 0]]]]> : tensor<2x1x2x3xi8>} : tensor<2x1x2x3xi8>
  %b = tfl.pseudo_const {value = dense<[0.5, -0.5]> : tensor<2xf32>} : tensor<2xf32>
  %y = tfl.conv_2d %x, %w, %b {filter_scale = array<f32: 0.5, 0.25>, padding = "VALID", stride_h = 1 : i32, stride_w = 1 : i32} : (tensor<1x2x2x3xf32>, tensor<2x1x2x3xi8>, tensor<2xf32>) -> tensor<1x2x1x2xf32>
  func.return %y : tensor<1x2x1x2xf32>
}

// -----

// A hybrid UNIDIRECTIONAL_SEQUENCE_LSTM as LiteRT's x86 kernel computes it, bit for bit: x and
// h quantized per row (i8 tosa.matmul products), and the gates' sigmoid and tanh as Eigen's
// SSE code (no tosa.sigmoid / tosa.tanh): the sigmoid's exp(x/2) squared, 2^m from its
// exponent bits (logical_left_shift + bitcast), the tanh's rational on [-7.907, 7.907]. The
// sigmoid runs once on the forget, output and input gates side by side ([1, 3 x 2]).

// CHECK-LABEL: func.func @hybrid_lstm(
// CHECK:         tosa.matmul %{{.*}} : (tensor<1x1x3xi8>, tensor<1x3x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x2xi32>
// CHECK:         tosa.matmul %{{.*}} : (tensor<1x1x2xi8>, tensor<1x2x2xi8>, tensor<1xi8>, tensor<1xi8>) -> tensor<1x1x2xi32>
// CHECK:         "tosa.const"() <{values = dense<16.6355324> : tensor<1x1xf32>}>
// CHECK:         %[[BITS:.*]] = tosa.logical_left_shift %{{.*}}, %{{.*}} : (tensor<1x6xi32>, tensor<1x1xi32>) -> tensor<1x6xi32>
// CHECK-NEXT:    tensor.bitcast %[[BITS]] : tensor<1x6xi32> to tensor<1x6xf32>
// CHECK:         "tosa.const"() <{values = dense<-1.040000e+02> : tensor<1x1xf32>}>
// CHECK:         tosa.clamp %{{.*}} {max_val = 7.90738964 : f32, min_val = -7.90738964 : f32}
// CHECK:         tosa.clamp %[[C:[0-9]+]] {max_val = 7.90738964 : f32, min_val = -7.90738964 : f32}
// CHECK-NOT:     tosa.sigmoid
// CHECK-NOT:     tosa.tanh
// CHECK:         tosa.variable.write @c, %[[C]] : tensor<1x2xf32>
func.func @hybrid_lstm(%x: tensor<1x1x3xf32>) -> tensor<1x1x2xf32> {
  %w = tfl.pseudo_const {value = dense<[[1, -2, 3], [4, 5, -127]]> : tensor<2x3xi8>} : tensor<2x3xi8>
  %r = tfl.pseudo_const {value = dense<[[7, -1], [2, 3]]> : tensor<2x2xi8>} : tensor<2x2xi8>
  %b = tfl.pseudo_const {value = dense<[0.0, 1.0]> : tensor<2xf32>} : tensor<2xf32>
  %h = tfl.variable_tensor {tensor_name = "h"} : tensor<1x2xf32>
  %c = tfl.variable_tensor {tensor_name = "c"} : tensor<1x2xf32>
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %h, %c) <{asymmetric_quantize_inputs = true, fused_activation_function = "TANH", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0>, weight_scales = {input_to_input_weights = 0.5 : f32, input_to_forget_weights = 0.5 : f32, input_to_cell_weights = 0.5 : f32, input_to_output_weights = 0.5 : f32, recurrent_to_input_weights = 0.25 : f32, recurrent_to_forget_weights = 0.25 : f32, recurrent_to_cell_weights = 0.25 : f32, recurrent_to_output_weights = 0.25 : f32}}> : (tensor<1x1x3xf32>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x3xi8>, tensor<2x2xi8>, tensor<2x2xi8>, tensor<2x2xi8>, tensor<2x2xi8>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x1x2xf32>
  func.return %y : tensor<1x1x2xf32>
}
