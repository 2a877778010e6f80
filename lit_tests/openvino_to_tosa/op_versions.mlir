// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// Other opset versions of ops tosa-state has: where their conversion differs from the version
// the other tests cover.

// Squeeze (-1 and -15) leaves an axis whose dim is statically not 1, as OpenVINO: a reshape
// of [2,1,3,1] by axes [1, 2] to [2,3,1].
// CHECK-LABEL: func.func @squeeze_skips_a_non_1_dim(
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{ *}}{values = dense<[2, 3, 1]> : tensor<3xindex>}
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %x, %[[S]] : (tensor<2x1x3x1xf32>, !tosa.shape<3>) -> tensor<2x3x1xf32>
// CHECK-NEXT:    %[[S2:.*]] = tosa.const_shape {{ *}}{values = dense<[2, 1, 3]> : tensor<3xindex>}
// CHECK-NEXT:    %[[R2:.*]] = tosa.reshape %x, %[[S2]] : (tensor<2x1x3x1xf32>, !tosa.shape<3>) -> tensor<2x1x3xf32>
// CHECK-NEXT:    func.return %[[R]], %[[R2]]
func.func @squeeze_skips_a_non_1_dim(%x: tensor<2x1x3x1xf32>) -> (tensor<2x3x1xf32>, tensor<2x1x3xf32>) {
  %axes = openvino.constant dense<[1, 2]> : tensor<2xi64>
  %0 = openvino.squeeze %x, %axes {allow_axis_skip = true} : (tensor<2x1x3x1xf32>, tensor<2xi64>) -> tensor<2x3x1xf32>
  %axes2 = openvino.constant dense<[0, -1]> : tensor<2xi64>
  %1 = openvino.squeeze %x, %axes2 : (tensor<2x1x3x1xf32>, tensor<2xi64>) -> tensor<2x1x3xf32>
  func.return %0, %1 : tensor<2x3x1xf32>, tensor<2x1x3xf32>
}
