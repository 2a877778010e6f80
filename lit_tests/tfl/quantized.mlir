// RUN: tosa-state-opt %s | tosa-state-opt | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// QUANTIZE / DEQUANTIZE with their parameters, UNPACK, a hybrid FULLY_CONNECTED (int8 filter
// scales on the op) and int8 ops carrying `tfl.quantization`, as the frontend imports
// TFLite's dynamic-range and full-integer exports.

// CHECK-LABEL: func.func @main(
// CHECK:   %{{.*}} = tfl.quantize %x {scale = array<f32: 5.000000e-01>, zero_point = array<i64: -3>} : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8>
// CHECK:   tfl.unpack {{.*}}num = 2 : i32{{.*}}axis = 1 : i32
// CHECK:   tfl.add {{.*}}tfl.quantization = {inputs = [{scale = array<f32: 5.000000e-01>, zero_point = array<i64: -3>, dimension = 0 : i64}, {{.*}}], outputs = [{{.*}}]}
// CHECK:   tfl.dequantize %{{.*}} {quantized_dimension = 1 : i64, scale = array<f32: 2.500000e-01, 1.250000e-01, 1.000000e+00, 2.000000e+00>, zero_point = array<i64: 0, 0, 0, 0>} : (tensor<1x4xi8>) -> tensor<1x4xf32>
// CHECK:   tfl.fully_connected %{{.*}}, %{{.*}} {asymmetric_quantize_inputs = true, filter_scale = array<f32: 1.000000e-01, 2.000000e-01>} : (tensor<1x4xf32>, tensor<2x4xi8>) -> tensor<1x2xf32>
func.func @main(%x: tensor<1x2x4xf32>) -> tensor<1x2xf32> {
  %q = tfl.quantize %x {scale = array<f32: 0.5>, zero_point = array<i64: -3>} : (tensor<1x2x4xf32>) -> tensor<1x2x4xi8>
  %a, %b = tfl.unpack %q {num = 2 : i32, axis = 1 : i32} : (tensor<1x2x4xi8>) -> (tensor<1x4xi8>, tensor<1x4xi8>)
  %s = tfl.add %a, %b {tfl.quantization = {inputs = [{scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}, {scale = array<f32: 0.5>, zero_point = array<i64: -3>, dimension = 0 : i64}], outputs = [{scale = array<f32: 1.0>, zero_point = array<i64: 0>, dimension = 0 : i64}]}} : (tensor<1x4xi8>, tensor<1x4xi8>) -> tensor<1x4xi8>
  %d = tfl.dequantize %s {quantized_dimension = 1 : i64, scale = array<f32: 0.25, 0.125, 1.0, 2.0>, zero_point = array<i64: 0, 0, 0, 0>} : (tensor<1x4xi8>) -> tensor<1x4xf32>
  %w = tfl.pseudo_const {value = dense<[[1, 2, 3, 4], [-1, -2, -3, -4]]> : tensor<2x4xi8>} : tensor<2x4xi8>
  %y = tfl.fully_connected %d, %w {asymmetric_quantize_inputs = true, filter_scale = array<f32: 0.1, 0.2>} : (tensor<1x4xf32>, tensor<2x4xi8>) -> tensor<1x2xf32>
  func.return %y : tensor<1x2xf32>
}
