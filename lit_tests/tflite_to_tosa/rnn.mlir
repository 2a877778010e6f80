// RUN: tosa-state-opt %s -p convert-tflite-to-tosa | filecheck %s
// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s --check-prefix=ROUND

// UNIDIRECTIONAL_SEQUENCE_LSTM (what TensorFlow makes of a tf_keras LSTM): unrolled over its
// two steps; its state inputs are variable tensors, which become tosa.variables (zeros at
// first) read before the loop and written with the final h and c after it, so the state
// persists across calls as in LiteRT. cell_clip clamps the cell state.

// ROUND: %h = tfl.variable_tensor {tensor_name = "h"} : tensor<1x2xf32>
// ROUND: "tfl.unidirectional_sequence_lstm"(%x, {{.*}}cell_clip = 1.000000e+01 : f32{{.*}}time_major = false

// CHECK:       tosa.variable @h = dense<0.000000e+00> : tensor<1x2xf32>
// CHECK-NEXT:  tosa.variable @c = dense<0.000000e+00> : tensor<1x2xf32>
// CHECK-LABEL: func.func @main(
// CHECK-NEXT:    %h = tosa.variable.read @h : tensor<1x2xf32>
// CHECK-NEXT:    %c = tosa.variable.read @c : tensor<1x2xf32>
// CHECK:         tosa.clamp %{{.*}} {max_val = 1.000000e+01 : f32, min_val = -1.000000e+01 : f32}
// CHECK:         %[[C:.*]] = tosa.clamp %{{.*}} {max_val = 1.000000e+01 : f32, min_val = -1.000000e+01 : f32}
// CHECK:         %[[H:.*]] = tosa.mul
// CHECK-NEXT:    %[[H3:.*]] = tosa.reshape %[[H]]
// CHECK-NEXT:    tosa.variable.write @h, %[[H]] : tensor<1x2xf32>
// CHECK-NEXT:    tosa.variable.write @c, %[[C]] : tensor<1x2xf32>
// CHECK-NEXT:    %y = tosa.concat %{{.*}}, %[[H3]] {axis = 1 : i32} : (tensor<1x1x2xf32>, tensor<1x1x2xf32>) -> tensor<1x2x2xf32>
func.func @main(%x: tensor<1x2x3xf32>) -> tensor<1x2x2xf32> {
  %w = tfl.pseudo_const {value = dense<0.5> : tensor<2x3xf32>} : tensor<2x3xf32>
  %r = tfl.pseudo_const {value = dense<0.25> : tensor<2x2xf32>} : tensor<2x2xf32>
  %b = tfl.pseudo_const {value = dense<0.0> : tensor<2xf32>} : tensor<2xf32>
  %h = tfl.variable_tensor {tensor_name = "h"} : tensor<1x2xf32>
  %c = tfl.variable_tensor {tensor_name = "c"} : tensor<1x2xf32>
  %y = "tfl.unidirectional_sequence_lstm"(%x, %w, %w, %w, %w, %r, %r, %r, %r, %b, %b, %b, %b, %h, %c) <{cell_clip = 10.0 : f32, fused_activation_function = "TANH", operandSegmentSizes = array<i32: 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 1, 1, 1, 1, 0, 0, 1, 1, 0, 0, 0, 0>}> : (tensor<1x2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2x2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<2xf32>, tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2x2xf32>
  func.return %y : tensor<1x2x2xf32>
}
