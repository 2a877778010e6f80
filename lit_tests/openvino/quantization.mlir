// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// CHECK-LABEL: func.func @fake_quantize(
// CHECK-NEXT:    %0 = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %1 = openvino.fake_quantize %x, %c, %c, %c, %c {auto_broadcast = "none", levels = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %2 = openvino.fake_quantize %x, %row, %row, %row, %row {levels = 16 : i64} : (tensor<2x3xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
func.func @fake_quantize(%x: tensor<2x3xf32>, %lo: tensor<f32>, %hi: tensor<f32>, %c: tensor<2x3xf32>, %row: tensor<2x1x1xf32>) {
  %0 = openvino.fake_quantize %x, %lo, %hi, %lo, %hi {levels = 256 : i64} : (tensor<2x3xf32>, tensor<f32>, tensor<f32>, tensor<f32>, tensor<f32>) -> tensor<2x3xf32>
  %1 = openvino.fake_quantize %x, %c, %c, %c, %c {auto_broadcast = "none", levels = 2 : i64} : (tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>, tensor<2x3xf32>) -> tensor<2x3xf32>
  %2 = openvino.fake_quantize %x, %row, %row, %row, %row {levels = 16 : i64} : (tensor<2x3xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>, tensor<2x1x1xf32>) -> tensor<2x2x3xf32>
  func.return
}
