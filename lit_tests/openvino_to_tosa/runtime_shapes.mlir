// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// Sizes known only at run time, one mechanism (transforms/openvino_to_tosa/sizes.py): bounds,
// indices, lengths and repeats are ints or `!tosa.shape<1>` values, combined with TOSA's
// shape ops.

// A constant index of a dynamic axis (transformers 5.5's `cache_position[0]`): a window.
// CHECK-LABEL: func.func @first_position(
// CHECK-NEXT:    %[[S:.*]] = tosa.const_shape {{ *}}{values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[B:.*]] = tosa.const_shape {{ *}}{values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[W:.*]] = tosa.slice %positions, %[[B]], %[[S]] : (tensor<?xi64>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xi64>
// CHECK-NEXT:    %[[SCALAR:.*]] = tosa.const_shape {{ *}}{values = dense<> : tensor<0xindex>} : () -> !tosa.shape<0>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[W]], %[[SCALAR]] : (tensor<1xi64>, !tosa.shape<0>) -> tensor<i64>
// CHECK-NEXT:    func.return %[[R]] : tensor<i64>
func.func @first_position(%positions: tensor<?xi64>) -> tensor<i64> {
  %index = openvino.constant dense<0> : tensor<i64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.gather %positions, %index, %axis {batch_dims = 0 : i64} : (tensor<?xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// The last element of a dynamic axis: a window of one element at `dim - 1`.
// CHECK-LABEL: func.func @last_position(
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %positions {axis = 0 : i32} : (tensor<?xi64>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[M1:.*]] = tosa.const_shape {{ *}}{values = dense<-1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[START:.*]] = tosa.add_shape %[[D]], %[[M1]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[ONE:.*]] = tosa.const_shape {{ *}}{values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    tosa.slice %positions, %[[START]], %[[ONE]] : (tensor<?xi64>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<1xi64>
func.func @last_position(%positions: tensor<?xi64>) -> tensor<i64> {
  %index = openvino.constant dense<-1> : tensor<i64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.gather %positions, %index, %axis {batch_dims = 0 : i64} : (tensor<?xi64>, tensor<i64>, tensor<i64>) -> tensor<i64>
  func.return %0 : tensor<i64>
}

// -----

// Slice-8 with a negative stop on the static axis of a tensor with a dynamic dim: the
// static axis folds to ints, the dynamic one stays whole.
// CHECK-LABEL: func.func @negative_stop(
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %x {axis = 0 : i32} : (tensor<?x8xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[B:.*]] = tosa.const_shape {{ *}}{values = dense<[0, 1]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[F:.*]] = tosa.const_shape {{ *}}{values = dense<5> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[S:.*]] = tosa.concat_shape %[[D]], %[[F]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.slice %x, %[[B]], %[[S]] : (tensor<?x8xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x5xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<?x5xf32>
func.func @negative_stop(%x: tensor<?x8xf32>) -> tensor<?x5xf32> {
  %start = openvino.constant dense<1> : tensor<1xi64>
  %stop = openvino.constant dense<-2> : tensor<1xi64>
  %step = openvino.constant dense<1> : tensor<1xi64>
  %axes = openvino.constant dense<1> : tensor<1xi64>
  %0 = openvino.slice %x, %start, %stop, %step, %axes : (tensor<?x8xf32>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// -----

// Split in two along a dynamic axis: each part is `dim / 2` long, the second starts there.
// CHECK-LABEL: func.func @halves(
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %x {axis = 0 : i32} : (tensor<?x3xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[TWO:.*]] = tosa.const_shape {{ *}}{values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[HALF:.*]] = tosa.div_floor_shape %[[D]], %[[TWO]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK:         %[[FIRST:.*]] = tosa.slice %x, %{{.*}}, %{{.*}} : (tensor<?x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3xf32>
// CHECK:         %[[AT:.*]] = tosa.concat_shape %[[HALF]], %{{.*}} : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
// CHECK:         %[[SECOND:.*]] = tosa.slice %x, %[[AT]], %{{.*}} : (tensor<?x3xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x3xf32>
// CHECK-NEXT:    func.return %[[FIRST]], %[[SECOND]] : tensor<?x3xf32>, tensor<?x3xf32>
func.func @halves(%x: tensor<?x3xf32>) -> (tensor<?x3xf32>, tensor<?x3xf32>) {
  %axis = openvino.constant dense<0> : tensor<i64>
  %0, %1 = openvino.split %x, %axis {num_splits = 2 : i64} : (tensor<?x3xf32>, tensor<i64>) -> (tensor<?x3xf32>, tensor<?x3xf32>)
  func.return %0, %1 : tensor<?x3xf32>, tensor<?x3xf32>
}

// -----

// Tile by repeats computed from a shape (whisper's positions repeated for each batch row).
// CHECK-LABEL: func.func @repeat_rows(
// CHECK-NEXT:    %[[B:.*]] = tosa.dim %ids {axis = 0 : i32} : (tensor<?x?xi64>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[ONE:.*]] = tosa.const_shape {{ *}}{values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[M:.*]] = tosa.concat_shape %[[B]], %[[ONE]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
// CHECK-NEXT:    %[[R:.*]] = tosa.tile %row, %[[M]] : (tensor<1x4xi64>, !tosa.shape<2>) -> tensor<?x4xi64>
// CHECK-NEXT:    func.return %[[R]] : tensor<?x4xi64>
func.func @repeat_rows(%ids: tensor<?x?xi64>, %row: tensor<1x4xi64>) -> tensor<?x4xi64> {
  %shape = openvino.shape_of %ids : (tensor<?x?xi64>) -> tensor<2xi64>
  %index = openvino.constant dense<0> : tensor<1xi64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %batch = openvino.gather %shape, %index, %axis {batch_dims = 0 : i64} : (tensor<2xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %one = openvino.constant dense<1> : tensor<1xi64>
  %repeats = openvino.concat %batch, %one {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = openvino.tile %row, %repeats : (tensor<1x4xi64>, tensor<2xi64>) -> tensor<?x4xi64>
  func.return %0 : tensor<?x4xi64>
}

// -----

// A shape used as data by an op that takes tensors (lfm2's `Equal(seq_len, 1)`, a Relu
// here): the pattern gets the integer tensor OpenVINO has there, each run-time size a
// reduce_sum of a run-time tile of ones.
// CHECK-LABEL: func.func @shape_as_data(
// CHECK-NEXT:    %[[D:.*]] = tosa.dim %x {axis = 0 : i32} : (tensor<?x4xf32>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[ONE:.*]] = "tosa.const"() <{values = dense<1> : tensor<1xi32>}> : () -> tensor<1xi32>
// CHECK-NEXT:    %[[ONES:.*]] = tosa.tile %[[ONE]], %[[D]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[N:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32} : (tensor<?xi32>) -> tensor<1xi32>
// CHECK-NEXT:    %[[N64:.*]] = tosa.cast %[[N]] : (tensor<1xi32>) -> tensor<1xi64>
// CHECK-NEXT:    %[[FOUR:.*]] = "tosa.const"() <{values = dense<4> : tensor<1xi64>}> : () -> tensor<1xi64>
// CHECK-NEXT:    %[[S:.*]] = tosa.concat %[[N64]], %[[FOUR]] {axis = 0 : i32} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
// CHECK:         tosa.clamp %[[S]]
func.func @shape_as_data(%x: tensor<?x4xf32>) -> tensor<2xi64> {
  %s = openvino.shape_of %x {output_type = i64} : (tensor<?x4xf32>) -> tensor<2xi64>
  %0 = openvino.relu %s : (tensor<2xi64>) -> tensor<2xi64>
  func.return %0 : tensor<2xi64>
}

// -----

// A causal 1-D depthwise convolution over a dynamic batch and length (stride 1: TOSA's static
// padding fits every length): `?` dims through the transposes and the convolution.
// CHECK-LABEL: func.func @causal_conv(
// CHECK:         %[[X:.*]] = tosa.transpose %{{.*}} {perms = array<i32: 0, 2, 3, 1>} : (tensor<?x4x1x?xf32>) -> tensor<?x1x?x4xf32>
// CHECK:         %[[C:.*]] = tosa.depthwise_conv2d %[[X]], {{.*}} pad = array<i64: 0, 0, 2, 0>, {{.*}} -> tensor<?x1x?x4xf32>
// CHECK-NEXT:    tosa.transpose %[[C]] {perms = array<i32: 0, 3, 1, 2>} : (tensor<?x1x?x4xf32>) -> tensor<?x4x1x?xf32>
func.func @causal_conv(%x: tensor<?x4x?xf32>) -> tensor<?x4x?xf32> {
  %w = openvino.constant dense<1.0> : tensor<4x1x1x3xf32>
  %0 = openvino.group_convolution %x, %w {strides = array<i64: 1>, pads_begin = array<i64: 2>, pads_end = array<i64: 0>, dilations = array<i64: 1>, auto_pad = "explicit"} : (tensor<?x4x?xf32>, tensor<4x1x1x3xf32>) -> tensor<?x4x?xf32>
  func.return %0 : tensor<?x4x?xf32>
}

// -----

// A pad amount computed from data (Mamba's `(4 - T) * (cache_length == 4)`): read with
// `tosa.shape_from_tensor` (the constant piece of the Concat stays known), then cropped by
// `max(-p, 0)` and padded by `max(p, 0)`, as OpenVINO's negative pads crop.
// CHECK-LABEL: func.func @pad_by_data(
// CHECK-NEXT:    %[[P:.*]] = tosa.shape_from_tensor %amount : (tensor<1xi64>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[Z:.*]] = tosa.const_shape {{ *}}{values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[NEG:.*]] = tosa.sub_shape %[[Z]], %[[P]]
// CHECK-NEXT:    %[[CROP:.*]] = tosa.max_shape %[[NEG]], %[[Z]]
// CHECK-NEXT:    %[[FOUR:.*]] = tosa.const_shape {{ *}}{values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[KEPT:.*]] = tosa.sub_shape %[[FOUR]], %[[CROP]]
// CHECK-NEXT:    %[[START:.*]] = tosa.concat_shape %[[Z]], %[[CROP]]
// CHECK-NEXT:    %[[ONE:.*]] = tosa.const_shape {{ *}}{values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[SIZE:.*]] = tosa.concat_shape %[[ONE]], %[[KEPT]]
// CHECK-NEXT:    %[[W:.*]] = tosa.slice %x, %[[START]], %[[SIZE]] : (tensor<1x4xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<1x?xf32>
// CHECK-NEXT:    %[[ADD:.*]] = tosa.max_shape %[[P]], %[[Z]]
// CHECK-NEXT:    %[[F:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1xf32>}>
// CHECK-NEXT:    %[[Z2:.*]] = tosa.const_shape {{ *}}{values = dense<0> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT:    %[[PADS:.*]] = tosa.concat_shape %[[Z2]], %[[ADD]], %[[Z]]
// CHECK-NEXT:    %[[R:.*]] = tosa.pad %[[W]], %[[PADS]], %[[F]] : (tensor<1x?xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<1x?xf32>
// CHECK-NEXT:    func.return %[[R]]
func.func @pad_by_data(%x: tensor<1x4xf32>, %amount: tensor<1xi64>) -> tensor<1x?xf32> {
  %zeros = openvino.constant dense<0> : tensor<2xi64>
  %zero = openvino.constant dense<0> : tensor<1xi64>
  %begin = openvino.concat %zero, %amount {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>) -> tensor<2xi64>
  %0 = openvino.pad %x, %begin, %zeros {pad_mode = "constant"} : (tensor<1x4xf32>, tensor<2xi64>, tensor<2xi64>) -> tensor<1x?xf32>
  func.return %0 : tensor<1x?xf32>
}
