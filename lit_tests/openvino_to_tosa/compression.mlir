// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// Compressed weights: each decompression subgraph (Convert -> [Subtract zero point] ->
// Multiply scale -> [Reshape] -> [Convert]) becomes one tosa_state.dequantize of the stored
// bytes; a packed constant used otherwise is decoded.

// int4 with groups and a u4 zero point (NNCF's INT4_ASYM): the weight stays 4 bytes.
// CHECK-LABEL: func.func @int4_asym(
// CHECK-DAG:     %[[S:.*]] = "tosa.const"() <{values = dense<{{.*}}> : tensor<2x2x1xf16>}> : () -> tensor<2x2x1xf16>
// CHECK-DAG:     %[[W:.*]] = "tosa.const"() <{values = dense<[33, 67, -123, 15]> : tensor<4xi8>}> : () -> tensor<4xi8>
// CHECK-DAG:     %[[Z:.*]] = "tosa.const"() <{values = dense<[120, 8]> : tensor<2xi8>}> : () -> tensor<2xi8>
// CHECK:         %[[D:.*]] = tosa_state.dequantize %[[W]] scale %[[S]] zero_point %[[Z]] {weight_type = "u4", weight_shape = array<i64: 2, 2, 2>, zero_point_type = "u4", zero_point_shape = array<i64: 2, 2, 1>} : (tensor<4xi8>, tensor<2x2x1xf16>, tensor<2xi8>) -> tensor<2x4xf32>
// CHECK-NOT:     openvino.
// CHECK:         tosa.matmul
func.func @int4_asym(%x: tensor<1x4xf32>) -> tensor<1x2xf32> {
  %w = openvino.packed_constant dense<[33, 67, 133, 15]> : tensor<4xui8> -> tensor<2x2x2xui4>
  %wf = openvino.convert %w {destination_type = f16} : (tensor<2x2x2xui4>) -> tensor<2x2x2xf16>
  %z = openvino.packed_constant dense<[120, 8]> : tensor<2xui8> -> tensor<2x2x1xui4>
  %zf = openvino.convert %z {destination_type = f16} : (tensor<2x2x1xui4>) -> tensor<2x2x1xf16>
  %d = openvino.subtract %wf, %zf : (tensor<2x2x2xf16>, tensor<2x2x1xf16>) -> tensor<2x2x2xf16>
  %s2 = openvino.constant dense<[[[0.5], [1.0]], [[0.25], [2.0]]]> : tensor<2x2x1xf16>
  %m = openvino.multiply %d, %s2 : (tensor<2x2x2xf16>, tensor<2x2x1xf16>) -> tensor<2x2x2xf16>
  %shape = openvino.constant dense<[2, 4]> : tensor<2xi64>
  %r = openvino.reshape %m, %shape : (tensor<2x2x2xf16>, tensor<2xi64>) -> tensor<2x4xf16>
  %f = openvino.convert %r {destination_type = f32} : (tensor<2x4xf16>) -> tensor<2x4xf32>
  %y = openvino.matmul %x, %f {transpose_b = true} : (tensor<1x4xf32>, tensor<2x4xf32>) -> tensor<1x2xf32>
  func.return %y : tensor<1x2xf32>
}

// -----

// int8 per channel without zero point (INT8_SYM), the scale on the left of the Multiply.
// CHECK-LABEL: func.func @int8_sym(
// CHECK:         %[[D:.*]] = tosa_state.dequantize %{{.*}} scale %{{.*}} {weight_type = "i8", weight_shape = array<i64: 2, 3>} : (tensor<6xi8>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %{{.*}} = tosa.add %x, %[[D]]
func.func @int8_sym(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %w = openvino.constant dense<[[1, -2, 3], [-128, 127, 0]]> : tensor<2x3xi8>
  %wf = openvino.convert %w {destination_type = f32} : (tensor<2x3xi8>) -> tensor<2x3xf32>
  %s = openvino.constant dense<[[0.5], [0.25]]> : tensor<2x1xf32>
  %m = openvino.multiply %s, %wf : (tensor<2x1xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %y = openvino.add %x, %m : (tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %y : tensor<2x3xf32>
}

// -----

// Not a decompression subgraph: the converted weight has a second use. Both uses see the
// decoded constant (folded: the weights are small), nothing is fused.
// CHECK-LABEL: func.func @shared_convert(
// CHECK-NOT:     tosa_state.dequantize
// CHECK:         "tosa.const"() <{values = dense<[1.000000e+00, 2.000000e+00, -8.000000e+00, -1.000000e+00]> : tensor<4xf32>}>
func.func @shared_convert(%x: tensor<4xf32>) -> (tensor<4xf32>, tensor<4xf32>) {
  %w = openvino.packed_constant dense<[33, 248]> : tensor<2xui8> -> tensor<4xi4>
  %f = openvino.convert %w {destination_type = f32} : (tensor<4xi4>) -> tensor<4xf32>
  %s = openvino.constant dense<0.5> : tensor<1xf32>
  %m = openvino.multiply %f, %s : (tensor<4xf32>, tensor<1xf32>) -> tensor<4xf32>
  %y = openvino.add %f, %x : (tensor<4xf32>, tensor<4xf32>) -> tensor<4xf32>
  func.return %m, %y : tensor<4xf32>, tensor<4xf32>
}

// -----

// A packed constant alone: u1 (most significant bit first), decoded (and its Convert folded).
// CHECK-LABEL: func.func @u1_mask(
// CHECK:         "tosa.const"() <{values = dense<[1.000000e+00, 0.000000e+00, 1.000000e+00, 1.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 0.000000e+00, 1.000000e+00]> : tensor<9xf32>}>
func.func @u1_mask() -> tensor<9xf32> {
  %w = openvino.packed_constant dense<[176, 128]> : tensor<2xui8> -> tensor<9xui1>
  %f = openvino.convert %w {destination_type = f32} : (tensor<9xui1>) -> tensor<9xf32>
  func.return %f : tensor<9xf32>
}
