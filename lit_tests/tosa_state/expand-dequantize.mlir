// RUN: tosa-state-opt %s --split-input-file -p tosa-expand-dequantize | filecheck %s
// RUN: tosa-state-opt %s --split-input-file -p tosa-expand-dequantize --tosa-spelling=upstream | iree-opt --split-input-file | filecheck %s --check-prefix=UPSTREAM

// tosa-expand-dequantize: the op as TOSA integer ops on the stored bytes (the weights stay
// an i8 constant of the packed bytes), then the zero point, the scale and the reshape.

// CHECK-LABEL: func.func @u4_groups(
// CHECK-SAME:      %w: tensor<4xi8>, %s: tensor<2x2x1xf16>) -> tensor<2x4xf32>
// CHECK-NEXT:    %[[I:.*]] = tosa.cast %w : (tensor<4xi8>) -> tensor<4xi32>
// CHECK-NEXT:    %[[M255:.*]] = "tosa.const"() <{values = dense<255> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[B:.*]] = tosa.bitwise_and %[[I]], %[[M255]] : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[M15:.*]] = "tosa.const"() <{values = dense<15> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[LO:.*]] = tosa.bitwise_and %[[B]], %[[M15]] : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
// CHECK-NEXT:    %[[FOUR:.*]] = "tosa.const"() <{values = dense<4> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[HI:.*]] = tosa.logical_right_shift %[[B]], %[[FOUR]] : (tensor<4xi32>, tensor<1xi32>) -> tensor<4xi32>
// CHECK:         %[[PAIRS:.*]] = tosa.concat %{{.*}}, %{{.*}} {axis = 1 : i32} : (tensor<4x1xi32>, tensor<4x1xi32>) -> tensor<4x2xi32>
// CHECK:         %[[CODES:.*]] = tosa.reshape %[[PAIRS]], %{{.*}} : (tensor<4x2xi32>, !tosa.shape<1>) -> tensor<8xi32>
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %[[CODES]] : (tensor<8xi32>) -> tensor<8xf32>
// CHECK:         %[[G:.*]] = tosa.reshape %[[F]], %{{.*}} : (tensor<8xf32>, !tosa.shape<3>) -> tensor<2x2x2xf32>
// CHECK-NEXT:    %[[Z:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}8.000000e+00], [7.000000e+00]], {{\[\[}}8.000000e+00], [0.000000e+00]]]> : tensor<2x2x1xf32>}> : () -> tensor<2x2x1xf32>
// CHECK-NEXT:    %[[D:.*]] = tosa.sub %[[G]], %[[Z]] : (tensor<2x2x2xf32>, tensor<2x2x1xf32>) -> tensor<2x2x2xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.cast %s : (tensor<2x2x1xf16>) -> tensor<2x2x1xf32>
// CHECK:         %[[P:.*]] = tosa.mul %[[D]], %[[S]], %{{.*}} : (tensor<2x2x2xf32>, tensor<2x2x1xf32>, tensor<1xi8>) -> tensor<2x2x2xf32>
// CHECK:         %[[R:.*]] = tosa.reshape %[[P]], %{{.*}} : (tensor<2x2x2xf32>, !tosa.shape<2>) -> tensor<2x4xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<2x4xf32>
// UPSTREAM-LABEL: func.func @u4_groups(
// UPSTREAM:        tosa.logical_right_shift
// UPSTREAM:        tosa.mul
func.func @u4_groups(%w: tensor<4xi8>, %s: tensor<2x2x1xf16>) -> tensor<2x4xf32> {
  %z = "tosa.const"() <{values = dense<[120, 8]> : tensor<2xi8>}> : () -> tensor<2xi8>
  %0 = tosa_state.dequantize %w scale %s zero_point %z {weight_type = "u4", weight_shape = array<i64: 2, 2, 2>, zero_point_type = "u4", zero_point_shape = array<i64: 2, 2, 1>} : (tensor<4xi8>, tensor<2x2x1xf16>, tensor<2xi8>) -> tensor<2x4xf32>
  func.return %0 : tensor<2x4xf32>
}

// -----

// i8 per channel: a cast, the scale, no zero point, no reshape; an f16 result is cast last.
// CHECK-LABEL: func.func @i8_channels(
// CHECK-NEXT:    %[[F:.*]] = tosa.cast %w : (tensor<6xi8>) -> tensor<6xf32>
// CHECK:         %[[P:.*]] = tosa.mul
// CHECK-NEXT:    %[[H:.*]] = tosa.cast %[[P]] : (tensor<2x3xf32>) -> tensor<2x3xf16>
// CHECK-NEXT:    func.return %[[H]] : tensor<2x3xf16>
// UPSTREAM-LABEL: func.func @i8_channels(
func.func @i8_channels(%w: tensor<6xi8>, %s: tensor<2x1xf32>) -> tensor<2x3xf16> {
  %0 = tosa_state.dequantize %w scale %s {weight_type = "i8", weight_shape = array<i64: 2, 3>} : (tensor<6xi8>, tensor<2x1xf32>) -> tensor<2x3xf16>
  func.return %0 : tensor<2x3xf16>
}

// -----

// nf4: the codes index the 16 NormalFloat values with a tosa.gather.
// CHECK-LABEL: func.func @nf4(
// CHECK:         %[[T:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<1x16x1xf32>}> : () -> tensor<1x16x1xf32>
// CHECK:         tosa.gather %[[T]], %{{.*}} : (tensor<1x16x1xf32>, tensor<1x4xi32>) -> tensor<1x4x1xf32>
// UPSTREAM-LABEL: func.func @nf4(
func.func @nf4(%w: tensor<2xi8>, %s: tensor<1xf16>) -> tensor<4xf32> {
  %0 = tosa_state.dequantize %w scale %s {weight_type = "nf4", weight_shape = array<i64: 4>} : (tensor<2xi8>, tensor<1xf16>) -> tensor<4xf32>
  func.return %0 : tensor<4xf32>
}
