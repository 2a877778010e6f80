// RUN: tosa-state-opt %s --verify-diagnostics --split-input-file

// The verifiers of the properties that other opset versions of ops add.

func.func @broadcast_pdpd_axis(%x: tensor<3xf32>) -> tensor<2x3xf32> {
  %shape = openvino.constant dense<[2, 3]> : tensor<2xi64>
  // expected-error@+1 {{openvino.broadcast: pdpd_axis must be >= -1, got -2}}
  %0 = openvino.broadcast %x, %shape {mode = "pdpd", pdpd_axis = -2 : i64} : (tensor<3xf32>, tensor<2xi64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}
