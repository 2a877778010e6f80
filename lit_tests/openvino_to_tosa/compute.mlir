// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// Compute ops: numpy broadcasting reshapes operands to one rank; shape subgraphs fold to
// constants; MatMul is a rank-3 tosa.matmul with its transposes.

// CHECK-LABEL: func.func @broadcasting(
// CHECK-SAME: %a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xi1>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S13:.*]] = tosa.const_shape {{ *}}{values = dense<[1, 3]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[B:.*]] = tosa.reshape %b, %[[S13]] : (tensor<3xf32>, !tosa.shape<2>) -> tensor<1x3xf32>
// CHECK-NEXT:    %[[SUB:.*]] = tosa.sub %a, %[[B]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[SEL:.*]] = tosa.select %c, %[[SUB]], %[[B]] : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[SEL]] : tensor<2x3xf32>
func.func @broadcasting(%a: tensor<2x3xf32>, %b: tensor<3xf32>, %c: tensor<2x1xi1>) -> tensor<2x3xf32> {
  %0 = openvino.subtract %a, %b : (tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  %1 = openvino.select %c, %0, %b : (tensor<2x1xi1>, tensor<2x3xf32>, tensor<3xf32>) -> tensor<2x3xf32>
  func.return %1 : tensor<2x3xf32>
}

// -----

// ShapeOf -> Gather -> Concat -> Reshape (the PyTorch frontend's shape arithmetic) folds to a
// single tosa.reshape with a constant shape.
// CHECK-LABEL: func.func @shape_subgraph(
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{ *}}{values = dense<[4, 6]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %x, %[[S]] : (tensor<4x2x3xf32>, !tosa.shape<2>) -> tensor<4x6xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<4x6xf32>
func.func @shape_subgraph(%x: tensor<4x2x3xf32>) -> tensor<?x?xf32> {
  %shape = openvino.shape_of %x : (tensor<4x2x3xf32>) -> tensor<3xi64>
  %index = openvino.constant dense<[0]> : tensor<1xi64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %batch = openvino.gather %shape, %index, %axis : (tensor<3xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %rest = openvino.constant dense<[-1]> : tensor<1xi64>
  %target = openvino.concat %batch, %rest {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %r = openvino.reshape %x, %target : (tensor<4x2x3xf32>, tensor<2xi64>) -> tensor<?x?xf32>
  func.return %r : tensor<?x?xf32>
}

// -----

// MatMul with transpose_b: the constant weight is transposed at compile time; the operands
// become rank 3 for tosa.matmul (zero points 0) and the product goes back to rank 2.
// CHECK-LABEL: func.func @matmul_transpose_b(
// CHECK-DAG:     %[[ZP:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}> : () -> tensor<1xf32>
// CHECK-DAG:     %[[W:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}1.000000e+00, 3.000000e+00, 5.000000e+00], [2.000000e+00, 4.000000e+00, 6.000000e+00]]]> : tensor<1x2x3xf32>}> : () -> tensor<1x2x3xf32>
// CHECK-DAG:     %[[X:.*]] = tosa.reshape %x, %{{.*}} : (tensor<4x2xf32>, !tosa.shape<3>) -> tensor<1x4x2xf32>
// CHECK:         %[[P:.*]] = tosa.matmul %[[X]], %[[W]], %[[ZP]], %[[ZP]] : (tensor<1x4x2xf32>, tensor<1x2x3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x4x3xf32>
// CHECK:         %[[Y:.*]] = tosa.reshape %[[P]], %{{.*}} : (tensor<1x4x3xf32>, !tosa.shape<2>) -> tensor<4x3xf32>
// CHECK-NEXT:    func.return %[[Y]] : tensor<4x3xf32>
func.func @matmul_transpose_b(%x: tensor<4x2xf32>) -> tensor<4x3xf32> {
  %w = openvino.constant dense<[[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]> : tensor<3x2xf32>
  %y = openvino.matmul %x, %w {transpose_b = true} : (tensor<4x2xf32>, tensor<3x2xf32>) -> tensor<4x3xf32>
  func.return %y : tensor<4x3xf32>
}

// -----

// transpose_a on a computed operand is a tosa.transpose of its rank-3 form; batch dims
// broadcast (the [3, 2] operand is tiled over the batch of 2).
// CHECK-LABEL: func.func @matmul_transpose_a_batched(
// CHECK:         %[[A:.*]] = tosa.transpose %a {perms = array<i32: 0, 2, 1>} : (tensor<2x3x4xf32>) -> tensor<2x4x3xf32>
// CHECK:         %[[B:.*]] = tosa.tile %{{.*}}, %{{.*}} : (tensor<1x3x2xf32>, !tosa.shape<3>) -> tensor<2x3x2xf32>
// CHECK:         %[[P:.*]] = tosa.matmul %[[A]], %[[B]], %{{.*}}, %{{.*}} : (tensor<2x4x3xf32>, tensor<2x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x4x2xf32>
// CHECK-NEXT:    func.return %[[P]] : tensor<2x4x2xf32>
func.func @matmul_transpose_a_batched(%a: tensor<2x3x4xf32>, %b: tensor<3x2xf32>) -> tensor<2x4x2xf32> {
  %y = openvino.matmul %a, %b {transpose_a = true} : (tensor<2x3x4xf32>, tensor<3x2xf32>) -> tensor<2x4x2xf32>
  func.return %y : tensor<2x4x2xf32>
}

// -----

// Integer floor division (m_pythondiv, the default) corrects tosa.intdiv's truncation; the
// truncating division is the tosa.intdiv itself (shared: equal ops the conversion creates
// are merged).
// CHECK-LABEL: func.func @floor_division(
// CHECK:         %[[Q:.*]] = tosa.intdiv %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK:         tosa.logical_xor
// CHECK:         %[[R:.*]] = tosa.sub %[[Q]], %{{.*}} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
// CHECK-NEXT:    func.return %[[R]], %[[Q]]
func.func @floor_division(%a: tensor<4xi32>, %b: tensor<4xi32>) -> (tensor<4xi32>, tensor<4xi32>) {
  %0 = openvino.divide %a, %b : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  %1 = openvino.divide %a, %b {m_pythondiv = false} : (tensor<4xi32>, tensor<4xi32>) -> tensor<4xi32>
  func.return %0, %1 : tensor<4xi32>, tensor<4xi32>
}

// -----

// Softmax subtracts the maximum along the axis before exp, and multiplies by the reciprocal
// of the sum; Sqrt is pow(x, 0.5).
// CHECK-LABEL: func.func @softmax_and_sqrt(
// CHECK:         %[[M:.*]] = tosa.reduce_max %x {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK:         %[[D:.*]] = tosa.sub %x, %[[M]] : (tensor<2x3xf32>, tensor<2x1xf32>) -> tensor<2x3xf32>
// CHECK:         %[[E:.*]] = tosa.exp %[[D]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 1 : i32} : (tensor<2x3xf32>) -> tensor<2x1xf32>
// CHECK:         %[[R:.*]] = tosa.reciprocal %[[S]] : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK:         %[[P:.*]] = tosa.mul %[[E]], %[[R]], %{{.*}} : (tensor<2x3xf32>, tensor<2x1xf32>, tensor<1xi8>) -> tensor<2x3xf32>
// CHECK:         %[[Q:.*]] = tosa.pow %x, %{{.*}} : (tensor<2x3xf32>, tensor<1x1xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[P]], %[[Q]]
func.func @softmax_and_sqrt(%x: tensor<2x3xf32>) -> (tensor<2x3xf32>, tensor<2x3xf32>) {
  %0 = openvino.softmax %x {axis = -1 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = openvino.sqrt %x : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0, %1 : tensor<2x3xf32>, tensor<2x3xf32>
}

// -----

// LogSoftmax-5 is `(x - max) - log(sum(exp(x - max)))` along the axis.
// CHECK-LABEL: func.func @log_softmax(
// CHECK:         %[[M:.*]] = tosa.reduce_max %x {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK:         %[[D:.*]] = tosa.sub %x, %[[M]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[E:.*]] = tosa.exp %[[D]] : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK:         %[[S:.*]] = tosa.reduce_sum %[[E]] {axis = 0 : i32} : (tensor<2x3xf32>) -> tensor<1x3xf32>
// CHECK:         %[[L:.*]] = tosa.log %[[S]] : (tensor<1x3xf32>) -> tensor<1x3xf32>
// CHECK:         %[[R:.*]] = tosa.sub %[[D]], %[[L]] : (tensor<2x3xf32>, tensor<1x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @log_softmax(%x: tensor<2x3xf32>) -> tensor<2x3xf32> {
  %0 = openvino.log_softmax %x {axis = -2 : i64} : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// PRelu with a 1-D slope as long as dimension 1 applies it per channel: the slope becomes
// [1, C, 1] before the multiply.
// CHECK-LABEL: func.func @prelu_per_channel(
// CHECK:         %[[S:.*]] = tosa.reshape %slope, %{{.*}} : (tensor<3xf32>, !tosa.shape<3>) -> tensor<1x3x1xf32>
// CHECK:         %[[N:.*]] = tosa.greater %{{.*}}, %x : (tensor<1x1x1xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xi1>
// CHECK:         %[[P:.*]] = tosa.mul %x, %[[S]], %{{.*}} : (tensor<2x3x4xf32>, tensor<1x3x1xf32>, tensor<1xi8>) -> tensor<2x3x4xf32>
// CHECK:         tosa.select %[[N]], %[[P]], %x : (tensor<2x3x4xi1>, tensor<2x3x4xf32>, tensor<2x3x4xf32>) -> tensor<2x3x4xf32>
func.func @prelu_per_channel(%x: tensor<2x3x4xf32>, %slope: tensor<3xf32>) -> tensor<2x3x4xf32> {
  %0 = openvino.prelu %x, %slope : (tensor<2x3x4xf32>, tensor<3xf32>) -> tensor<2x3x4xf32>
  func.return %0 : tensor<2x3x4xf32>
}

// -----

// A 1-D Convolution is a 2-D one of height 1 in NHWC / OHWI layout; OpenVINO's rounded-down
// output size is made exact for TOSA by trimming the trailing padding (pads_end 3 -> 2);
// the weights are reshaped and transposed at compile time.
// CHECK-LABEL: func.func @convolution_1d(
// CHECK:         %[[X:.*]] = tosa.reshape %x, %{{.*}} : (tensor<1x2x6xf32>, !tosa.shape<4>) -> tensor<1x2x1x6xf32>
// CHECK:         %[[XT:.*]] = tosa.transpose %[[X]] {perms = array<i32: 0, 2, 3, 1>} : (tensor<1x2x1x6xf32>) -> tensor<1x1x6x2xf32>
// CHECK:         %[[W:.*]] = "tosa.const"() <{values = dense<1.000000e+00> : tensor<3x1x3x2xf32>}>
// CHECK:         %[[C:.*]] = tosa.conv2d %[[XT]], %[[W]], %{{.*}}, %{{.*}}, %{{.*}} {acc_type = f32, dilation = array<i64: 1, 1>, pad = array<i64: 0, 0, 1, 2>, stride = array<i64: 1, 2>} : (tensor<1x1x6x2xf32>, tensor<3x1x3x2xf32>, tensor<3xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x4x3xf32>
// CHECK:         %[[Y:.*]] = tosa.transpose %[[C]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<1x1x4x3xf32>) -> tensor<1x3x1x4xf32>
// CHECK:         tosa.reshape %[[Y]], %{{.*}} : (tensor<1x3x1x4xf32>, !tosa.shape<3>) -> tensor<1x3x4xf32>
func.func @convolution_1d(%x: tensor<1x2x6xf32>) -> tensor<1x3x4xf32> {
  %w = openvino.constant dense<1.0> : tensor<3x2x3xf32>
  %0 = openvino.convolution %x, %w {strides = array<i64: 2>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 3>} : (tensor<1x2x6xf32>, tensor<3x2x3xf32>) -> tensor<1x3x4xf32>
  func.return %0 : tensor<1x3x4xf32>
}

// -----

// A GroupConvolution with one input channel per group is a tosa.depthwise_conv2d (weights
// [G, M, 1, K] -> [1, K, G, M]); other groupings are one tosa.conv2d per group, on its slice
// of the input channels, concatenated along the channels.
// CHECK-LABEL: func.func @depthwise_convolution(
// CHECK:         tosa.depthwise_conv2d %{{.*}} : (tensor<1x1x5x2xf32>, tensor<1x3x2x1xf32>, tensor<2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x5x2xf32>
func.func @depthwise_convolution(%x: tensor<1x2x5xf32>, %w: tensor<2x1x1x3xf32>) -> tensor<1x2x5xf32> {
  %0 = openvino.group_convolution %x, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 1>} : (tensor<1x2x5xf32>, tensor<2x1x1x3xf32>) -> tensor<1x2x5xf32>
  func.return %0 : tensor<1x2x5xf32>
}
// CHECK-LABEL: func.func @group_convolution(
// CHECK-COUNT-2: tosa.conv2d %{{.*}} : (tensor<1x1x5x2xf32>, tensor<1x1x3x2xf32>, tensor<1xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x1x5x1xf32>
// CHECK:         tosa.concat %{{.*}}, %{{.*}} {axis = 1 : i32} : (tensor<1x1x5xf32>, tensor<1x1x5xf32>) -> tensor<1x2x5xf32>
func.func @group_convolution(%x: tensor<1x4x5xf32>, %w: tensor<2x1x2x3xf32>) -> tensor<1x2x5xf32> {
  %0 = openvino.group_convolution %x, %w {strides = array<i64: 1>, dilations = array<i64: 1>, pads_begin = array<i64: 1>, pads_end = array<i64: 1>} : (tensor<1x4x5xf32>, tensor<2x1x2x3xf32>) -> tensor<1x2x5xf32>
  func.return %0 : tensor<1x2x5xf32>
}

// -----

// Reflect padding concatenates reversed slices that leave out the border element; constant
// padding is one tosa.pad.
// CHECK-LABEL: func.func @padding(
// CHECK:         %[[L:.*]] = tosa.slice %x, %{{.*}} : (tensor<2x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x2xf32>
// CHECK:         %[[LR:.*]] = tosa.reverse %[[L]] {axis = 1 : i32} : (tensor<2x2xf32>) -> tensor<2x2xf32>
// CHECK:         %[[R:.*]] = tosa.slice %x, %{{.*}} : (tensor<2x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<2x1xf32>
// CHECK:         %[[RR:.*]] = tosa.reverse %[[R]] {axis = 1 : i32} : (tensor<2x1xf32>) -> tensor<2x1xf32>
// CHECK:         tosa.concat %[[LR]], %x, %[[RR]] {axis = 1 : i32} : (tensor<2x2xf32>, tensor<2x4xf32>, tensor<2x1xf32>) -> tensor<2x7xf32>
// CHECK:         tosa.pad %x, %{{.*}}, %{{.*}} : (tensor<2x4xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<3x7xf32>
func.func @padding(%x: tensor<2x4xf32>) -> (tensor<2x7xf32>, tensor<3x7xf32>) {
  %b = openvino.constant dense<[0, 2]> : tensor<2xi64>
  %e = openvino.constant dense<[0, 1]> : tensor<2xi64>
  %0 = openvino.pad %x, %b, %e {pad_mode = "reflect"} : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<2x7xf32>
  %b2 = openvino.constant dense<[1, 2]> : tensor<2xi64>
  %1 = openvino.pad %x, %b2, %e : (tensor<2x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<3x7xf32>
  func.return %0, %1 : tensor<2x7xf32>, tensor<3x7xf32>
}

// -----

// MaxPool pads its input with the lowest finite value (as OpenVINO does; a `ceil` window
// may lie in the padding only), then pools without padding.
// CHECK-LABEL: func.func @max_pool(
// CHECK:         %[[P:.*]] = tosa.pad %x, %{{.*}}, %{{.*}} : (tensor<1x1x4x5xf32>, !tosa.shape<8>, tensor<1xf32>) -> tensor<1x1x4x6xf32>
// CHECK:         %[[T:.*]] = tosa.transpose %[[P]] {perms = array<i32: 0, 2, 3, 1>}
// CHECK:         tosa.max_pool2d %[[T]] {kernel = array<i64: 2, 2>, pad = array<i64: 0, 0, 0, 0>, stride = array<i64: 2, 2>} : (tensor<1x4x6x1xf32>) -> tensor<1x2x3x1xf32>
func.func @max_pool(%x: tensor<1x1x4x5xf32>) -> tensor<1x1x2x3xf32> {
  %0 = openvino.max_pool %x {kernel = array<i64: 2, 2>, strides = array<i64: 2, 2>, pads_begin = array<i64: 0, 0>, pads_end = array<i64: 0, 0>, rounding_type = "ceil"} : (tensor<1x1x4x5xf32>) -> tensor<1x1x2x3xf32>
  func.return %0 : tensor<1x1x2x3xf32>
}

// -----

// A TensorIterator is one `tosa.while_loop` (no unrolling): the body gathers its part of
// the sliced input at the step's index, adds the carried back-edge value and scatters its
// output part into the carried accumulator; the other output is the last iteration's value.
// (lit_tests/openvino_to_tosa/tensor_iterator.mlir has more.)
// CHECK-LABEL: func.func @tensor_iterator(
// CHECK-NOT:     openvino.
// CHECK:         %{{.*}}, %{{.*}}, %[[LAST:.*]], %[[Y:.*]] = tosa.while_loop (%{{.*}} = %x, %[[I:.*]] = %{{.*}}, %{{.*}} = %h, %{{.*}} = %{{.*}}) : (tensor<1x3x2xf32>, tensor<1x1xi32>, tensor<1x2xf32>, tensor<1x3x2xf32>)
// CHECK:           tosa.greater %{{.*}}, %[[I]] : (tensor<1x1xi32>, tensor<1x1xi32>) -> tensor<1x1xi1>
// CHECK:         } do {
// CHECK-NEXT:    ^bb0(%[[BX:.*]]: tensor<1x3x2xf32>, %[[BI:.*]]: tensor<1x1xi32>, %[[BH:.*]]: tensor<1x2xf32>, %[[BY:.*]]: tensor<1x3x2xf32>):
// CHECK:           %[[XT:.*]] = tosa.gather %[[BX]], %[[BI]] : (tensor<1x3x2xf32>, tensor<1x1xi32>) -> tensor<1x1x2xf32>
// CHECK:           %[[XS:.*]] = tosa.reshape %[[XT]], %{{.*}} : (tensor<1x1x2xf32>, !tosa.shape<2>) -> tensor<1x2xf32>
// CHECK-NEXT:      %[[S:.*]] = tosa.add %[[XS]], %[[BH]] : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
// CHECK:           %[[YT:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<1x2xf32>, !tosa.shape<3>) -> tensor<1x1x2xf32>
// CHECK-NEXT:      %[[Y2:.*]] = tosa.scatter %[[BY]], %[[BI]], %[[YT]]
// CHECK-NEXT:      tosa.yield %[[BX]], %{{.*}}, %[[S]], %[[Y2]]
// CHECK-NEXT:    }
// CHECK-NEXT:    func.return %[[Y]], %[[LAST]] : tensor<1x3x2xf32>, tensor<1x2xf32>
func.func @tensor_iterator(%x: tensor<1x3x2xf32>, %h: tensor<1x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x2xf32>) {
  %0:2 = openvino.tensor_iterator(%x, %h) {input_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], output_port_map = [#openvino.port_map<external = 0, internal = 0, axis = 1, start = 0, end = -1, stride = 1, part_size = 1>, #openvino.port_map<external = 1, internal = 1>], back_edges = [#openvino.back_edge<from = 1, to = 1>]} : (tensor<1x3x2xf32>, tensor<1x2xf32>) -> (tensor<1x3x2xf32>, tensor<1x2xf32>) {
  ^bb0(%xi: tensor<1x1x2xf32>, %hi: tensor<1x2xf32>):
    %axes = openvino.constant dense<1> : tensor<1xi64>
    %xs = openvino.squeeze %xi, %axes : (tensor<1x1x2xf32>, tensor<1xi64>) -> tensor<1x2xf32>
    %s = openvino.add %xs, %hi : (tensor<1x2xf32>, tensor<1x2xf32>) -> tensor<1x2xf32>
    %y = openvino.unsqueeze %s, %axes : (tensor<1x2xf32>, tensor<1xi64>) -> tensor<1x1x2xf32>
    openvino.yield %y, %s : tensor<1x1x2xf32>, tensor<1x2xf32>
  }
  func.return %0#0, %0#1 : tensor<1x3x2xf32>, tensor<1x2xf32>
}

// -----

// Identity-16 forwards its input: no TOSA op; constants and shapes known at run time
// (ShapeOf, Gather of it) stay visible through it, so the reshapes get their shapes.
// CHECK-LABEL: func.func @identity(
// CHECK-NOT:     identity
// CHECK:         %[[T:.*]] = tosa.tanh %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
// CHECK-NEXT:    %[[S32:.*]] = tosa.const_shape {{ *}}{values = dense<[3, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[T]], %[[S32]] : (tensor<2x3xf32>, !tosa.shape<2>) -> tensor<3x2xf32>
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %d {axis = 0 : i32} : (tensor<?x3xi32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[THREE:.*]] = tosa.const_shape {{ *}}{values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[SHAPE:.*]] = tosa.concat_shape %[[THREE]], %[[D]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
// CHECK-NEXT:    %[[RD:.*]] = tosa.reshape %d, %[[SHAPE]] : (tensor<?x3xi32>, !tosa.shape<2>) -> tensor<3x?xi32>
// CHECK-NOT:     identity
// CHECK-NEXT:    func.return %[[T]], %[[R]], %[[RD]], %a : tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x?xi32>, tensor<2x3xf32>
func.func @identity(%a: tensor<2x3xf32>, %d: tensor<?x3xi32>) -> (tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x?xi32>, tensor<2x3xf32>) {
  %0 = openvino.identity %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %1 = openvino.tanh %0 : (tensor<2x3xf32>) -> tensor<2x3xf32>
  %c = openvino.constant dense<[3, 2]> : tensor<2xi64>
  %s = openvino.identity %c : (tensor<2xi64>) -> tensor<2xi64>
  %2 = openvino.reshape %1, %s {special_zero = false} : (tensor<2x3xf32>, tensor<2xi64>) -> tensor<3x2xf32>
  %shape = openvino.shape_of %d : (tensor<?x3xi32>) -> tensor<2xi64>
  %rev = openvino.constant dense<[1, 0]> : tensor<2xi64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %t = openvino.gather %shape, %rev, %axis {batch_dims = 0 : i64} : (tensor<2xi64>, tensor<2xi64>, tensor<i64>) -> tensor<2xi64>
  %ti = openvino.identity %t : (tensor<2xi64>) -> tensor<2xi64>
  %3 = openvino.reshape %d, %ti {special_zero = false} : (tensor<?x3xi32>, tensor<2xi64>) -> tensor<3x?xi32>
  %4 = openvino.identity %a : (tensor<2x3xf32>) -> tensor<2x3xf32>
  func.return %1, %2, %3, %4 : tensor<2x3xf32>, tensor<3x2xf32>, tensor<3x?xi32>, tensor<2x3xf32>
}

// -----

// A static input reshaped to a target computed from a run-time shape (xglm's attention
// with static input_ids: batch x heads a constant, the cache's length not): the target
// read at run time (a call where the sizes do not match fails at the reshape).
// CHECK-LABEL: func.func @reshape_static_by_runtime_shape(
// CHECK-NEXT:    %[[N:.*]] = tosa.dim %y {axis = 0 : i32}
// CHECK-NEXT:    %[[C:.*]] = tosa.const_shape {values = dense<3> : tensor<1xindex>}
// CHECK-NEXT:    %[[S:.*]] = tosa.concat_shape %[[N]], %[[C]]
// CHECK-NEXT:    tosa.reshape %x, %[[S]] : (tensor<2x6xf32>, !tosa.shape<2>) -> tensor<?x3xf32>
func.func @reshape_static_by_runtime_shape(%x: tensor<2x6xf32>, %y: tensor<?x3xf32>) -> tensor<?x3xf32> {
  %shape = openvino.shape_of %y : (tensor<?x3xf32>) -> tensor<2xi64>
  %0 = openvino.reshape %x, %shape {special_zero = false} : (tensor<2x6xf32>, tensor<2xi64>) -> tensor<?x3xf32>
  func.return %0 : tensor<?x3xf32>
}
