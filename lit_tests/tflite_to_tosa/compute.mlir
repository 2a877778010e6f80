// RUN: tosa-state-opt %s --split-input-file -p convert-tflite-to-tosa | filecheck %s

// Compute ops: FULLY_CONNECTED is a tosa.matmul by the transposed (folded) filter plus bias;
// STRIDED_SLICE is slices (a stride as a reshape to [n, stride] and its first column, no
// tosa.gather: the Ethos-U55 runs none); GATHER with constant indices a tosa.gather; CONV_2D is
// tosa.conv2d as it is (NHWC / OHWI) with SAME padding made explicit (the odd pad after).

// CHECK-LABEL: func.func @fully_connected(
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.000000e+00, 4.000000e+00], [2.000000e+00, 5.000000e+00], [3.000000e+00, 6.000000e+00]]]> : tensor<1x3x2xf32>}>
// CHECK:         tosa.matmul %{{.*}}, %[[W]], {{.*}} -> tensor<1x2x2xf32>
// CHECK:         tosa.add {{.*}} : (tensor<2x2xf32>, tensor<1x2xf32>) -> tensor<2x2xf32>
// CHECK-NEXT:    tosa.clamp {{.*}}min_val = 0.000000e+00 : f32
// CHECK:         %y = tosa.reshape {{.*}} -> tensor<2x1x2xf32>

// CHECK-LABEL: func.func @strided_slice_and_gather(
// CHECK:         %[[ROW:.*]] = tosa.slice %x, {{.*}} -> tensor<1x4xf32>
// CHECK:         %[[PAIRS:.*]] = tosa.reshape %[[ROW]], {{.*}} -> tensor<1x2x2xf32>
// CHECK:         %[[FIRST:.*]] = tosa.slice %[[PAIRS]], {{.*}} -> tensor<1x2x1xf32>
// CHECK:         %row = tosa.reshape %[[FIRST]], {{.*}} -> tensor<2xf32>
// CHECK:         "tosa.const"() <{values = dense<{{\[\[}}2, 0]]> : tensor<1x2xi32>}>
// CHECK:         tosa.gather {{.*}} -> tensor<1x2x4xf32>

// CHECK-LABEL: func.func @conv_same(
// CHECK:         %y = tosa.conv2d %x, %w, {{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 1, 0, 1>, stride = array<i64: 2, 2>} : {{.*}} -> tensor<1x2x2x3xf32>

func.func @fully_connected(%x: tensor<2x1x3xf32>) -> tensor<2x1x2xf32> {
  %w = tfl.pseudo_const {value = dense<[[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]> : tensor<2x3xf32>} : tensor<2x3xf32>
  %b = tfl.pseudo_const {value = dense<[0.5, -0.5]> : tensor<2xf32>} : tensor<2xf32>
  %y = tfl.fully_connected %x, %w, %b {fused_activation_function = "RELU", keep_num_dims = true} : (tensor<2x1x3xf32>, tensor<2x3xf32>, tensor<2xf32>) -> tensor<2x1x2xf32>
  func.return %y : tensor<2x1x2xf32>
}

// -----

func.func @strided_slice_and_gather(%x: tensor<3x4xf32>) -> (tensor<2xf32>, tensor<2x4xf32>) {
  %b = tfl.pseudo_const {value = dense<[1, 0]> : tensor<2xi32>} : tensor<2xi32>
  %e = tfl.pseudo_const {value = dense<[2, 4]> : tensor<2xi32>} : tensor<2xi32>
  %s = tfl.pseudo_const {value = dense<[1, 2]> : tensor<2xi32>} : tensor<2xi32>
  %row = tfl.strided_slice %x, %b, %e, %s {shrink_axis_mask = 1 : i32} : (tensor<3x4xf32>, tensor<2xi32>, tensor<2xi32>, tensor<2xi32>) -> tensor<2xf32>
  %i = tfl.pseudo_const {value = dense<[2, 0]> : tensor<2xi32>} : tensor<2xi32>
  %g = tfl.gather %x, %i {axis = 0 : i32} : (tensor<3x4xf32>, tensor<2xi32>) -> tensor<2x4xf32>
  func.return %row, %g : tensor<2xf32>, tensor<2x4xf32>
}

// -----

func.func @conv_same(%x: tensor<1x4x4x2xf32>) -> tensor<1x2x2x3xf32> {
  %w = tfl.pseudo_const {value = dense<0.25> : tensor<3x3x3x2xf32>} : tensor<3x3x3x2xf32>
  %y = tfl.conv_2d %x, %w {padding = "SAME", stride_h = 2 : i32, stride_w = 2 : i32} : (tensor<1x4x4x2xf32>, tensor<3x3x3x2xf32>) -> tensor<1x2x2x3xf32>
  func.return %y : tensor<1x2x2x3xf32>
}
