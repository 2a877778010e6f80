// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// Dynamic dimensions stay dynamic: the TOSA module is shape-polymorphic. A shape computed
// from ShapeOf becomes TOSA shape ops (tosa.dim for the dynamic sizes, ints fold), a
// Broadcast to it a tosa.tile by it. A ReadValue-6 with a dynamic variable_shape declares
// a dynamic variable; its init, computed from the inputs, is chosen by a tosa.cond_if on
// the init flag (state and init differ in size).

// CHECK-LABEL: builtin.module {
// CHECK-NEXT:    tosa.variable @kv : tensor<?x2x?x4xf32>
// CHECK-NEXT:    tosa.variable @kv__initialized {tosa_state.init_flag_of = "kv"} = dense<false> : tensor<i1>
// CHECK-NEXT:    func.func @kv_cache(%[[X:.*]]: tensor<?x2x?x4xf32> {openvino.name = "x"}) -> tensor<?x2x?x4xf32> {
// CHECK-NEXT:      %[[B:.*]] = tosa.dim %[[X]] {axis = 0 : i32} : (tensor<?x2x?x4xf32>) -> !tosa.shape<1>
// CHECK-NEXT:      %[[T:.*]] = tosa.dim %[[X]] {axis = 2 : i32} : (tensor<?x2x?x4xf32>) -> !tosa.shape<1>
// CHECK-NEXT:      %[[C2:.*]] = tosa.const_shape {{.*}}{values = dense<2> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:      %[[C4:.*]] = tosa.const_shape {{.*}}{values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:      %[[C0:.*]] = tosa.const_shape {{.*}}{values = dense<0> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:      %[[NONE:.*]] = tosa.mul_shape %[[T]], %[[C0]] : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
// CHECK-NEXT:      %[[SHAPE:.*]] = tosa.concat_shape %[[B]], %[[C2]], %[[NONE]], %[[C4]] : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<4>
// CHECK-NEXT:      %[[ZERO:.*]] = "tosa.const"() <{values = dense<0.000000e+00> : tensor<1x1x1x1xf32>}> : () -> tensor<1x1x1x1xf32>
// CHECK-NEXT:      %[[INIT:.*]] = tosa.tile %[[ZERO]], %[[SHAPE]] : (tensor<1x1x1x1xf32>, !tosa.shape<4>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:      %[[STATE:.*]] = tosa.variable.read @kv : tensor<?x2x?x4xf32>
// CHECK-NEXT:      %[[FLAG:.*]] = tosa.variable.read @kv__initialized : tensor<i1>
// CHECK-NEXT:      %[[TRUE:.*]] = "tosa.const"() <{values = dense<true> : tensor<i1>}> : () -> tensor<i1>
// CHECK-NEXT:      %[[PAST:.*]] = tosa.cond_if %[[FLAG]] (%[[A:.*]] = %[[STATE]], %[[I:.*]] = %[[INIT]]) : tensor<i1> (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32> {
// CHECK-NEXT:      ^bb0(%[[A]]: tensor<?x2x?x4xf32>, %[[I]]: tensor<?x2x?x4xf32>):
// CHECK-NEXT:        tosa.yield %[[A]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:      } else {
// CHECK-NEXT:      ^bb0(%{{.*}}: tensor<?x2x?x4xf32>, %[[I2:.*]]: tensor<?x2x?x4xf32>):
// CHECK-NEXT:        tosa.yield %[[I2]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:      }
// CHECK-NEXT:      %[[ALL:.*]] = tosa.concat %[[PAST]], %[[X]] {axis = 2 : i32} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
// CHECK-NEXT:      tosa.variable.write @kv__initialized, %[[TRUE]] : tensor<i1>
// CHECK-NEXT:      tosa.variable.write @kv, %[[ALL]] : tensor<?x2x?x4xf32>
// CHECK-NEXT:      func.return %[[ALL]] : tensor<?x2x?x4xf32>
func.func @kv_cache(%x: tensor<?x2x?x4xf32> {openvino.name = "x"}) -> tensor<?x2x?x4xf32> {
  %s = openvino.shape_of %x {output_type = i64} : (tensor<?x2x?x4xf32>) -> tensor<4xi64>
  %i0 = openvino.constant dense<0> : tensor<1xi64>
  %i2 = openvino.constant dense<2> : tensor<1xi64>
  %axis = openvino.constant dense<0> : tensor<i64>
  %b = openvino.gather %s, %i0, %axis {batch_dims = 0 : i64} : (tensor<4xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %t = openvino.gather %s, %i2, %axis {batch_dims = 0 : i64} : (tensor<4xi64>, tensor<1xi64>, tensor<i64>) -> tensor<1xi64>
  %zero = openvino.constant dense<0> : tensor<1xi64>
  %none = openvino.multiply %t, %zero : (tensor<1xi64>, tensor<1xi64>) -> tensor<1xi64>
  %c2 = openvino.constant dense<2> : tensor<1xi64>
  %c4 = openvino.constant dense<4> : tensor<1xi64>
  %shape = openvino.concat %b, %c2, %none, %c4 {axis = 0 : i64} : (tensor<1xi64>, tensor<1xi64>, tensor<1xi64>, tensor<1xi64>) -> tensor<4xi64>
  %z = openvino.constant dense<0.0> : tensor<f32>
  %init = openvino.broadcast %z, %shape {mode = "numpy"} : (tensor<f32>, tensor<4xi64>) -> tensor<?x2x?x4xf32>
  %past = openvino.read_value "kv"(%init) {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 2, ?, 4]>} : (tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  %all = openvino.concat %past, %x {axis = 2 : i64} : (tensor<?x2x?x4xf32>, tensor<?x2x?x4xf32>) -> tensor<?x2x?x4xf32>
  openvino.assign "kv", %all {version = 6 : i64} : tensor<?x2x?x4xf32>
  func.return %all : tensor<?x2x?x4xf32>
}

// -----

// A dynamic batch through a matmul and an Unsqueeze / Squeeze (reshapes keep the dynamic
// dim: one is a -1, several are read with tosa.dim); a write of a more static value into a
// dynamic variable is generalised by a reshape to its own run-time shape.

// CHECK-LABEL: func.func @batch(
// CHECK:         %[[P:.*]] = tosa.matmul %{{.*}}, %{{.*}}, %{{.*}}, %{{.*}} : (tensor<1x?x3xf32>, tensor<1x3x2xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x2xf32>
// CHECK:         tosa.reshape %[[P]], %{{.*}} : (tensor<1x?x2xf32>, !tosa.shape<2>) -> tensor<?x2xf32>
// CHECK:         %[[D0:.*]] = tosa.dim %[[Y:.*]] {axis = 0 : i32} : (tensor<?x?xf32>) -> !tosa.shape<1>
// CHECK:         %[[D1:.*]] = tosa.dim %[[Y]] {axis = 1 : i32} : (tensor<?x?xf32>) -> !tosa.shape<1>
// CHECK:         tosa.concat_shape %[[D0]], %{{.*}}, %[[D1]] : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
// CHECK:         %[[G:.*]] = tosa.reshape %{{.*}}, %{{.*}} : (tensor<1x4xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
// CHECK:         tosa.variable.write @v, %[[G]] : tensor<?x4xf32>
func.func @batch(%x: tensor<?x3xf32>, %y: tensor<?x?xf32>, %z: tensor<1x4xf32>) -> (tensor<?x2xf32>, tensor<?x1x?xf32>) {
  %w = openvino.constant dense<0.5> : tensor<3x2xf32>
  %0 = openvino.matmul %x, %w {transpose_a = false, transpose_b = false} : (tensor<?x3xf32>, tensor<3x2xf32>) -> tensor<?x2xf32>
  %axes = openvino.constant dense<1> : tensor<1xi64>
  %1 = openvino.unsqueeze %y, %axes : (tensor<?x?xf32>, tensor<1xi64>) -> tensor<?x1x?xf32>
  %v = openvino.read_value "v" {version = 6 : i64, variable_type = f32, variable_shape = #openvino.partial_shape<[?, 4]>} : () -> tensor<?x4xf32>
  openvino.assign "v", %z {version = 6 : i64} : tensor<1x4xf32>
  func.return %0, %1 : tensor<?x2xf32>, tensor<?x1x?xf32>
}

// -----

// Gather with indices of a dynamic shape (an embedding lookup of `input_ids: [?, ?]`): one
// `tosa.gather` of all indices as [1, ?], reshaped to the indices' run-time shape.

// CHECK-LABEL: func.func @embedding(
// CHECK-NEXT:    %[[B:.*]] = tosa.dim %[[IDS:.*]] {axis = 0 : i32} : (tensor<?x?xi64>) -> !tosa.shape<1>
// CHECK-NEXT:    %[[T:.*]] = tosa.dim %[[IDS]] {axis = 1 : i32} : (tensor<?x?xi64>) -> !tosa.shape<1>
// CHECK:         %[[TABLE:.*]] = tosa.reshape %{{.*}}, %{{.*}} : (tensor<?x?xi64>, !tosa.shape<2>) -> tensor<1x?xi64>
// CHECK:         %[[G:.*]] = tosa.gather %{{.*}}, %[[TABLE]] : (tensor<1x2x3xf32>, tensor<1x?xi64>) -> tensor<1x?x3xf32>
// CHECK-NEXT:    %[[C3:.*]] = tosa.const_shape {{.*}}{values = dense<3> : tensor<1xindex>} : () -> !tosa.shape<1>
// CHECK-NEXT:    %[[S:.*]] = tosa.concat_shape %[[B]], %[[T]], %[[C3]] : (!tosa.shape<1>, !tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<3>
// CHECK-NEXT:    %[[R:.*]] = tosa.reshape %[[G]], %[[S]] : (tensor<1x?x3xf32>, !tosa.shape<3>) -> tensor<?x?x3xf32>
// CHECK-NEXT:    func.return %[[R]] : tensor<?x?x3xf32>
func.func @embedding(%ids: tensor<?x?xi64>) -> tensor<?x?x3xf32> {
  %table = openvino.constant dense<[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]]> : tensor<2x3xf32>
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.gather %table, %ids, %axis {batch_dims = 0 : i64} : (tensor<2x3xf32>, tensor<?x?xi64>, tensor<i64>) -> tensor<?x?x3xf32>
  func.return %0 : tensor<?x?x3xf32>
}
