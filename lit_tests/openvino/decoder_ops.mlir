// RUN: tosa-state-opt %s | filecheck %s
// RUN: tosa-state-opt %s --print-op-generic | tosa-state-opt | filecheck %s

// The ops of decoder LLMs (optimum-intel exports): Range, the bitwise and the remaining
// comparison / logical ops, ScaledDotProductAttention.

// CHECK-LABEL: func.func @decoder_ops(
// CHECK-NEXT:    %0 = openvino.range %start, %stop, %step {output_type = i64} : (tensor<i32>, tensor<i64>, tensor<i32>) -> tensor<?xi64>
// CHECK-NEXT:    %1 = openvino.less_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
// CHECK-NEXT:    %2 = openvino.greater_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
// CHECK-NEXT:    %3 = openvino.not_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
// CHECK-NEXT:    %4 = openvino.logical_xor %1, %2 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT:    %5 = openvino.bitwise_and %1, %3 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
// CHECK-NEXT:    %6 = openvino.bitwise_or %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
// CHECK-NEXT:    %7 = openvino.bitwise_xor %a, %a : (tensor<1x4xi64>, tensor<1x4xi64>) -> tensor<1x4xi64>
// CHECK-NEXT:    %8 = openvino.bitwise_not %u : (tensor<2xui8>) -> tensor<2xui8>
func.func @decoder_ops(%start: tensor<i32>, %stop: tensor<i64>, %step: tensor<i32>, %a: tensor<1x4xi64>, %b: tensor<3x1xi64>, %u: tensor<2xui8>) {
  %0 = openvino.range %start, %stop, %step {output_type = i64} : (tensor<i32>, tensor<i64>, tensor<i32>) -> tensor<?xi64>
  %1 = openvino.less_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
  %2 = openvino.greater_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
  %3 = openvino.not_equal %a, %b : (tensor<1x4xi64>, tensor<3x1xi64>) -> tensor<3x4xi1>
  %4 = openvino.logical_xor %1, %2 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %5 = openvino.bitwise_and %1, %3 : (tensor<3x4xi1>, tensor<3x4xi1>) -> tensor<3x4xi1>
  %6 = openvino.bitwise_or %u, %u : (tensor<2xui8>, tensor<2xui8>) -> tensor<2xui8>
  %7 = openvino.bitwise_xor %a, %a : (tensor<1x4xi64>, tensor<1x4xi64>) -> tensor<1x4xi64>
  %8 = openvino.bitwise_not %u : (tensor<2xui8>) -> tensor<2xui8>
  func.return
}

// CHECK-LABEL: func.func @attention(
// CHECK-NEXT:    %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = true} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> -> tensor<?x4x?x8xf32>
// CHECK-NEXT:    %1 = openvino.scaled_dot_product_attention %q, %k, %v mask %bool_mask {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x1x?x?xi1> -> tensor<?x4x?x8xf32>
// CHECK-NEXT:    %2 = openvino.scaled_dot_product_attention %q, %k, %v mask %float_mask scale %scale {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x?xf32> scale tensor<f32> -> tensor<?x4x?x8xf32>
// CHECK-NEXT:    %3 = openvino.scaled_dot_product_attention %q, %k, %v mask %float_mask scale %scale sink %sink {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x?xf32> scale tensor<f32> sink tensor<1x4x1x1xf32> -> tensor<?x4x?x8xf32>
func.func @attention(%q: tensor<?x4x?x16xf32>, %k: tensor<?x1x?x16xf32>, %v: tensor<?x1x?x8xf32>, %bool_mask: tensor<?x1x?x?xi1>, %float_mask: tensor<?x?xf32>, %scale: tensor<f32>, %sink: tensor<1x4x1x1xf32>) {
  %0 = openvino.scaled_dot_product_attention %q, %k, %v {causal = true} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> -> tensor<?x4x?x8xf32>
  %1 = openvino.scaled_dot_product_attention %q, %k, %v mask %bool_mask {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x1x?x?xi1> -> tensor<?x4x?x8xf32>
  %2 = openvino.scaled_dot_product_attention %q, %k, %v mask %float_mask scale %scale {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x?xf32> scale tensor<f32> -> tensor<?x4x?x8xf32>
  %3 = openvino.scaled_dot_product_attention %q, %k, %v mask %float_mask scale %scale sink %sink {causal = false} : tensor<?x4x?x16xf32>, tensor<?x1x?x16xf32>, tensor<?x1x?x8xf32> mask tensor<?x?xf32> scale tensor<f32> sink tensor<1x4x1x1xf32> -> tensor<?x4x?x8xf32>
  func.return
}
