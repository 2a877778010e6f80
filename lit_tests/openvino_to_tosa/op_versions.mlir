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

// -----

// Broadcast-1 pdpd whose input ends at the target's last dim is the bidirectional broadcast:
// the target's 1 takes the input's 3.
// CHECK-LABEL: func.func @broadcast_pdpd(
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{ *}}{values = dense<[1, 2, 1, 3]> : tensor<4xindex>}
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %x, %[[S]] : (tensor<2x1x3xf32>, !tosa.shape<4>) -> tensor<1x2x1x3xf32>
// CHECK-NEXT:    %[[M:.*]] = tosa.const_shape {{ *}}{values = dense<[5, 1, 4, 1]> : tensor<4xindex>}
// CHECK-NEXT:    %[[T:.*]] = tosa.tile %[[R]], %[[M]] : (tensor<1x2x1x3xf32>, !tosa.shape<4>) -> tensor<5x2x4x3xf32>
// CHECK-NEXT:    func.return %[[T]]
func.func @broadcast_pdpd(%x: tensor<2x1x3xf32>) -> tensor<5x2x4x3xf32> {
  %shape = openvino.constant dense<[5, 2, 4, 1]> : tensor<4xi64>
  %0 = openvino.broadcast %x, %shape {mode = "pdpd", pdpd_axis = 1 : i64} : (tensor<2x1x3xf32>, tensor<4xi64>) -> tensor<5x2x4x3xf32>
  func.return %0 : tensor<5x2x4x3xf32>
}

// -----

// MVN-1 has its axes as the property reduction_axes (no axes operand); eps inside the sqrt.
// CHECK-LABEL: func.func @mvn_1(
// CHECK:         tosa.reduce_sum %x {axis = 1 : i32}
// CHECK:         tosa.reduce_sum %{{.*}} {axis = 2 : i32}
// CHECK:         tosa.rsqrt
// CHECK:         func.return
func.func @mvn_1(%x: tensor<2x3x4xf32>) -> tensor<2x3x4xf32> {
  %0 = openvino.mvn %x {normalize_variance = true, eps = 5.0e-01 : f64, eps_mode = "inside_sqrt", reduction_axes = array<i64: 1, 2>} : (tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}
