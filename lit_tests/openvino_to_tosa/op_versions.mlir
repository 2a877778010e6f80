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

// -----

// MaxPool-14 / AvgPool-14 ceil_torch: ceil's output size less a last window that would start
// in the end padding (5 + 1 + 1 by 2 with stride 2: 3 windows, ceil has 4). AvgPool with
// exclude_pad false divides by the whole kernel (OpenVINO counts the rounding's extra end as
// well): the input is padded with zeros first.
// CHECK-LABEL: func.func @ceil_torch(
// CHECK:         tosa.max_pool2d %{{.*}} {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x1xf32>) -> tensor<1x3x3x1xf32>
// CHECK:         tosa.pad %{{.*}} : (tensor<1x1x5x5xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x1x6x6xf32>
// CHECK:         tosa.avg_pool2d %{{.*}} {acc_type = f32, kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x6x6x1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x3x3x1xf32>
func.func @ceil_torch(%x: tensor<1x1x5x5xf32>) -> (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) {
  %0 = openvino.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, rounding_type = "ceil_torch"} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  %1 = openvino.avg_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 1, 1>, pads_end = array<i64: 1, 1>, rounding_type = "ceil_torch"} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  func.return %0, %1 : tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>
}

// -----

// LSTMCell-1 with peepholes P [3H] (f, i, o) and input_forget: P_f ⊙ C joins the f gate,
// i = 1 - f, P_o ⊙ C' (the new cell) joins the o gate.
// CHECK-LABEL: func.func @lstm_cell_1(
// CHECK:         %[[PF:.*]] = tosa.slice %p
// CHECK:         %[[PO:.*]] = tosa.slice %p
// CHECK:         %[[FC:.*]] = tosa.mul %{{.*}}, %c, %{{.*}} : (tensor<1x2xf32>, tensor<1x2xf32>, tensor<1xi8>) -> tensor<1x2xf32>
// CHECK:         %[[F:.*]] = tosa.sigmoid
// CHECK:         %[[ONE:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<1x1xf32>}>
// CHECK-NEXT:    %[[I:.*]] = tosa.sub %[[ONE]], %[[F]]
// CHECK:         %[[CELL:.*]] = tosa.add
// CHECK:         tosa.mul %{{.*}}, %[[CELL]]
// CHECK:         tosa.sigmoid
// CHECK:         tosa.tanh %[[CELL]]
func.func @lstm_cell_1(%x: tensor<1x3xf32>, %h: tensor<1x2xf32>, %c: tensor<1x2xf32>, %w: tensor<8x3xf32>, %r: tensor<8x2xf32>, %b: tensor<8xf32>, %p: tensor<6xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>) {
  %ho, %co = openvino.lstm_cell %x, %h, %c, %w, %r, %b, %p {hidden_size = 2 : i64, activations = ["sigmoid", "tanh", "tanh"], activations_alpha = array<f32>, activations_beta = array<f32>, clip = 0.0 : f32, input_forget = true} : (tensor<1x3xf32>, tensor<1x2xf32>, tensor<1x2xf32>, tensor<8x3xf32>, tensor<8x2xf32>, tensor<8xf32>, tensor<6xf32>) -> (tensor<1x2xf32>, tensor<1x2xf32>)
  func.return %ho, %co : tensor<1x2xf32>, tensor<1x2xf32>
}

// -----

// A dilated MaxPool (-8 / -14; AvgPool-16 likewise): TOSA's poolings have no dilation, so
// one window per kernel tap (a slice; a stride of 2 is a reshape to [.., 2] and a slice of
// its first column), combined by tosa.maximum. 1x1x5x5, kernel 2x1, dilation 2x1, stride 1x2.
// CHECK-LABEL: func.func @dilated_max_pool(
// CHECK:         tosa.slice %x, %{{.*}}, %{{.*}} : (tensor<1x1x5x5xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x3x5xf32>
// CHECK:         tosa.reshape %{{.*}} : (tensor<1x1x3x6xf32>, !tosa.shape<6>) -> tensor<1x1x3x1x3x2xf32>
// CHECK:         tosa.slice %x, %{{.*}}, %{{.*}} : (tensor<1x1x5x5xf32>, !tosa.shape<4>, !tosa.shape<4>) -> tensor<1x1x3x5xf32>
// CHECK:         %[[M:.*]] = tosa.maximum %{{.*}}, %{{.*}} : (tensor<1x1x3x3xf32>, tensor<1x1x3x3xf32>) -> tensor<1x1x3x3xf32>
// CHECK-NEXT:    func.return %[[M]]
func.func @dilated_max_pool(%x: tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32> {
  %0 = openvino.max_pool %x {kernel = array<i64: 2, 1>, strides = array<i64: 1, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, dilations = array<i64: 2, 1>} : (tensor<1x1x5x5xf32>) -> tensor<1x1x3x3xf32>
  func.return %0 : tensor<1x1x3x3xf32>
}
