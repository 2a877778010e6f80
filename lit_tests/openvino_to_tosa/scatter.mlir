// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// The scatter ops: flat rows computed from the (wrapped) indices, then `tosa.scatter`, or a
// one-hot table reduced over the updates for the reductions.

// ScatterUpdate along axis 1 of [2, 5]: the indices, wrapped (+5 where negative), repeated
// for both outer rows.
// CHECK-LABEL: func.func @scatter_update(
// CHECK:         %[[IDX:.*]] = tosa.cast %{{.*}} : (tensor<1x2xi64>) -> tensor<1x2xi32>
// CHECK-NEXT:    %[[SIZE:.*]] = "tosa.const"() <{values = dense<5> : tensor<1x1xi32>}>
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<1x1xi32>}>
// CHECK-NEXT:    %[[NEG:.*]] = tosa.greater %[[ZERO]], %[[IDX]]
// CHECK-NEXT:    %[[UP:.*]] = tosa.add %[[IDX]], %[[SIZE]]
// CHECK-NEXT:    %[[ROWS:.*]] = tosa.select %[[NEG]], %[[UP]], %[[IDX]]
// CHECK:         %[[TABLE:.*]] = tosa.tile %[[ROWS]], %{{.*}} : (tensor<1x2xi32>, !tosa.shape<2>) -> tensor<2x2xi32>
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<2x5x1xf32>
// CHECK:         %[[UPD:.*]] = tosa.reshape %upd, %{{.*}} -> tensor<2x2x1xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.scatter %[[DATA]], %[[TABLE]], %[[UPD]] : (tensor<2x5x1xf32>, tensor<2x2xi32>, tensor<2x2x1xf32>) -> tensor<2x5x1xf32>
// CHECK:         tosa.reshape %[[S]], %{{.*}} -> tensor<2x5xf32>
func.func @scatter_update(%data: tensor<2x5xf32>, %idx: tensor<2xi64>, %upd: tensor<2x2xf32>) -> tensor<2x5xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.scatter_update %data, %idx, %upd, %axis : (tensor<2x5xf32>, tensor<2xi64>, tensor<2x2xf32>, tensor<i64>) -> tensor<2x5xf32>
  func.return %0 : tensor<2x5xf32>
}

// -----

// ScatterNDUpdate-15 `sum` of two row updates into [4, 3]: hits[w, k] = (row[w] == k), the
// updates selected into it (0 elsewhere), summed over w and added to the data.
// CHECK-LABEL: func.func @scatter_nd_sum(
// CHECK:         %[[ROWS:.*]] = tosa.select
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<1x4x3xi32>
// CHECK:         %[[COL:.*]] = tosa.reshape %[[ROWS]], %{{.*}} -> tensor<2x1x1xi32>
// CHECK-NEXT:    %[[K:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0], [1], [2], [3]]]> : tensor<1x4x1xi32>}>
// CHECK-NEXT:    %[[HITS:.*]] = tosa.equal %[[COL]], %[[K]] : (tensor<2x1x1xi32>, tensor<1x4x1xi32>) -> tensor<2x4x1xi1>
// CHECK-NEXT:    %[[FILL:.*]] = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}>
// CHECK:         %[[UPD:.*]] = tosa.reshape %upd, %{{.*}} -> tensor<2x1x3xi32>
// CHECK-NEXT:    %[[SEL:.*]] = tosa.select %[[HITS]], %[[UPD]], %[[FILL]] : (tensor<2x4x1xi1>, tensor<2x1x3xi32>, tensor<1x1x1xi32>) -> tensor<2x4x3xi32>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.reduce_sum %[[SEL]] {axis = 0 : i32} : (tensor<2x4x3xi32>) -> tensor<1x4x3xi32>
// CHECK-NEXT:    %[[R:.*]] = tosa.add %[[DATA]], %[[SUM]] : (tensor<1x4x3xi32>, tensor<1x4x3xi32>) -> tensor<1x4x3xi32>
// CHECK:         tosa.reshape %[[R]], %{{.*}} -> tensor<4x3xi32>
func.func @scatter_nd_sum(%data: tensor<4x3xi32>, %idx: tensor<2x1xi32>, %upd: tensor<2x3xi32>) -> tensor<4x3xi32> {
  %0 = openvino.scatter_nd_update %data, %idx, %upd {reduction = "sum"} : (tensor<4x3xi32>, tensor<2x1xi32>, tensor<2x3xi32>) -> tensor<4x3xi32>
  func.return %0 : tensor<4x3xi32>
}

// -----

// ScatterElementsUpdate along the last axis of [2, 3]: flat position = index + the constant
// row base [0, 0, 3, 3]; `max` without the initial value: the rows hit take the maximum of
// their updates alone (the rest keep the data).
// CHECK-LABEL: func.func @scatter_elements_max(
// CHECK:         %[[IDX:.*]] = tosa.select
// CHECK-NEXT:    %[[BASE:.*]] = "tosa.const"() <{values = dense<{{\[\[}}0, 0, 3, 3]]> : tensor<1x4xi32>}>
// CHECK-NEXT:    %[[FLAT:.*]] = tosa.add %[[IDX]], %[[BASE]]
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<1x6x1xf32>
// CHECK:         %[[HITS:.*]] = tosa.equal
// CHECK-NEXT:    %[[FILL:.*]] = "tosa.const"() <{values = dense<0xff800000> : tensor<1x1x1xf32>}>
// CHECK:         %[[SEL:.*]] = tosa.select %[[HITS]], %{{.*}}, %[[FILL]]
// CHECK-NEXT:    %[[MAX:.*]] = tosa.reduce_max %[[SEL]] {axis = 0 : i32}
// CHECK-NEXT:    %[[ANY:.*]] = tosa.reduce_any %[[HITS]] {axis = 0 : i32} : (tensor<4x6x1xi1>) -> tensor<1x6x1xi1>
// CHECK-NEXT:    %[[R:.*]] = tosa.select %[[ANY]], %[[MAX]], %[[DATA]]
func.func @scatter_elements_max(%data: tensor<2x3xf32>, %idx: tensor<2x2xi32>, %upd: tensor<2x2xf32>) -> tensor<2x3xf32> {
  %axis = openvino.constant dense<-1> : tensor<i64>
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis {reduction = "max", use_init_val = false} : (tensor<2x3xf32>, tensor<2x2xi32>, tensor<2x2xf32>, tensor<i64>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// `mean` of integers: (data + sum) / (hits + 1), rounding toward zero, where hit.
// CHECK-LABEL: func.func @scatter_elements_mean(
// CHECK:         %[[SUM:.*]] = tosa.reduce_sum %{{.*}} {axis = 0 : i32} : (tensor<2x3x1xi32>) -> tensor<1x3x1xi32>
// CHECK-NEXT:    %[[ANY:.*]] = tosa.reduce_any
// CHECK-NEXT:    %[[ONES:.*]] = tosa.cast %{{.*}} : (tensor<2x3x1xi1>) -> tensor<2x3x1xi32>
// CHECK-NEXT:    %[[COUNT:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32}
// CHECK-NEXT:    %[[TOTAL:.*]] = tosa.add %[[SUM]], %[[DATA:.*]] :
// CHECK-NEXT:    %[[ONE:.*]] = "tosa.const"() <{values = dense<1> : tensor<1x1x1xi32>}>
// CHECK-NEXT:    %[[DEN:.*]] = tosa.add %[[COUNT]], %[[ONE]]
// CHECK-NEXT:    %[[MEAN:.*]] = tosa.intdiv %[[TOTAL]], %[[DEN]]
// CHECK-NEXT:    tosa.select %[[ANY]], %[[MEAN]], %[[DATA]]
func.func @scatter_elements_mean(%data: tensor<3xi32>, %idx: tensor<2xi32>, %upd: tensor<2xi32>) -> tensor<3xi32> {
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis {reduction = "mean"} : (tensor<3xi32>, tensor<2xi32>, tensor<2xi32>, tensor<i64>) -> tensor<3xi32>
  func.return %0 : tensor<3xi32>
}

// -----

// More updates than rows (`none`): for each row, the update of the largest w hitting it.
// CHECK-LABEL: func.func @scatter_nd_repeated_rows(
// CHECK:         %[[HITS:.*]] = tosa.equal %{{.*}}, %{{.*}} : (tensor<3x1x1xi32>, tensor<1x2x1xi32>) -> tensor<3x2x1xi1>
// CHECK-NEXT:    %[[ORDER:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0]], {{\[\[}}1]], {{\[\[}}2]]]> : tensor<3x1x1xi32>}>
// CHECK-NEXT:    %[[NONE:.*]] = "tosa.const"() <{values = dense<-1> : tensor<1x1x1xi32>}>
// CHECK-NEXT:    %[[W:.*]] = tosa.select %[[HITS]], %[[ORDER]], %[[NONE]]
// CHECK-NEXT:    %[[LAST:.*]] = tosa.reduce_max %[[W]] {axis = 0 : i32} : (tensor<3x2x1xi32>) -> tensor<1x2x1xi32>
// CHECK-NEXT:    %[[IS_LAST:.*]] = tosa.equal %[[ORDER]], %[[LAST]]
// CHECK-NEXT:    %[[KEEP:.*]] = tosa.logical_and %[[HITS]], %[[IS_LAST]]
// CHECK:         %[[SEL:.*]] = tosa.select %[[KEEP]], %{{.*}}, %{{.*}} : (tensor<3x2x1xi1>, tensor<3x1x3xf32>, tensor<1x1x1xf32>) -> tensor<3x2x3xf32>
// CHECK-NEXT:    %[[VALUE:.*]] = tosa.reduce_max %[[SEL]] {axis = 0 : i32}
// CHECK-NEXT:    %[[ANY:.*]] = tosa.reduce_any %[[KEEP]] {axis = 0 : i32}
// CHECK-NEXT:    tosa.select %[[ANY]], %[[VALUE]], %{{.*}}
func.func @scatter_nd_repeated_rows(%data: tensor<2x3xf32>, %idx: tensor<3x1xi32>, %upd: tensor<3x3xf32>) -> tensor<2x3xf32> {
  %0 = openvino.scatter_nd_update %data, %idx, %upd : (tensor<2x3xf32>, tensor<3x1xi32>, tensor<3x3xf32>) -> tensor<2x3xf32>
  func.return %0 : tensor<2x3xf32>
}

// -----

// Dynamic data and indices (`none`): sizes read with tosa.dim; the wrap adds the run-time
// size (a reduce_sum of a tile of ones); one tosa.scatter of dynamic shapes.
// CHECK-LABEL: func.func @scatter_nd_dynamic(
// CHECK-DAG:     %[[K:.*]] = tosa.dim %data {axis = 0 : i32}
// CHECK-DAG:     %[[W:.*]] = tosa.dim %idx {axis = 0 : i32}
// CHECK:         %[[ONES:.*]] = tosa.tile %{{.*}}, %[[K]] : (tensor<1xi32>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK-NEXT:    %[[SIZE:.*]] = tosa.reduce_sum %[[ONES]] {axis = 0 : i32}
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<1x?x1xf32>
// CHECK:         %[[UPD:.*]] = tosa.reshape %upd, %{{.*}} -> tensor<1x?x1xf32>
// CHECK:         %[[ROWS:.*]] = tosa.reshape %{{.*}}, %{{.*}} -> tensor<1x?xi32>
// CHECK-NEXT:    %[[S:.*]] = tosa.scatter %[[DATA]], %[[ROWS]], %[[UPD]] : (tensor<1x?x1xf32>, tensor<1x?xi32>, tensor<1x?x1xf32>) -> tensor<1x?x1xf32>
// CHECK-NEXT:    tosa.reshape %[[S]], %[[K]] : (tensor<1x?x1xf32>, !tosa.shape<1>) -> tensor<?xf32>
func.func @scatter_nd_dynamic(%data: tensor<?xf32>, %idx: tensor<?x1xi64>, %upd: tensor<?xf32>) -> tensor<?xf32> {
  %0 = openvino.scatter_nd_update %data, %idx, %upd : (tensor<?xf32>, tensor<?x1xi64>, tensor<?xf32>) -> tensor<?xf32>
  func.return %0 : tensor<?xf32>
}

// -----

// ScatterElementsUpdate (none) with a dynamic number of rows: the axis last, each row of
// data a batch of one tosa.scatter.
// CHECK-LABEL: func.func @scatter_elements_dynamic(
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<?x5x1xf32>
// CHECK:         %[[IDX:.*]] = tosa.reshape %idx, %{{.*}} -> tensor<?x2xi64>
// CHECK:         %[[UPD:.*]] = tosa.reshape %upd, %{{.*}} -> tensor<?x2x1xf32>
// CHECK:         %[[ROWS:.*]] = tosa.select
// CHECK-NEXT:    %[[S:.*]] = tosa.scatter %[[DATA]], %[[ROWS]], %[[UPD]] : (tensor<?x5x1xf32>, tensor<?x2xi32>, tensor<?x2x1xf32>) -> tensor<?x5x1xf32>
// CHECK:         tosa.reshape %[[S]], %{{.*}} -> tensor<?x5xf32>
func.func @scatter_elements_dynamic(%data: tensor<?x5xf32>, %idx: tensor<?x2xi64>, %upd: tensor<?x2xf32>) -> tensor<?x5xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<?x5xf32>, tensor<?x2xi64>, tensor<?x2xf32>, tensor<i64>) -> tensor<?x5xf32>
  func.return %0 : tensor<?x5xf32>
}

// -----

// The same with data's rows static and the indices' dynamic (afmoe's TopK `scatter_` in a
// model specialised to one token): the indices' rows are taken as data's (a call where they
// are not fails at their reshape).
// CHECK-LABEL: func.func @scatter_elements_static_data_dynamic_indices(
// CHECK:         %[[DATA:.*]] = tosa.reshape %data, %{{.*}} -> tensor<1x5x1xf32>
// CHECK:         %[[IDX:.*]] = tosa.reshape %idx, %{{.*}} : (tensor<?x2xi64>, !tosa.shape<2>) -> tensor<1x2xi64>
// CHECK:         %[[UPD:.*]] = tosa.reshape %upd, %{{.*}} : (tensor<?x2xf32>, !tosa.shape<3>) -> tensor<1x2x1xf32>
// CHECK:         tosa.scatter %[[DATA]], %{{.*}}, %[[UPD]] : (tensor<1x5x1xf32>, tensor<1x2xi32>, tensor<1x2x1xf32>) -> tensor<1x5x1xf32>
func.func @scatter_elements_static_data_dynamic_indices(%data: tensor<1x5xf32>, %idx: tensor<?x2xi64>, %upd: tensor<?x2xf32>) -> tensor<1x5xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis : (tensor<1x5xf32>, tensor<?x2xi64>, tensor<?x2xf32>, tensor<i64>) -> tensor<1x5xf32>
  func.return %0 : tensor<1x5xf32>
}

// -----

// A mixture-of-experts `index_add` (ScatterElementsUpdate `sum` along 0 of [T, 4] with a
// run-time T): the axis last, each column a batch; the one-hot table [4, W, T, 1] compares
// the rows with the run-time positions `[0, T)` (a slice of the constant Range).
// CHECK-LABEL: func.func @scatter_elements_sum_dynamic(
// CHECK:         %[[T:.*]] = tosa.dim %data {axis = 0 : i32}
// CHECK:         %[[DATA:.*]] = tosa.reshape %{{.*}}, %{{.*}} -> tensor<4x?x1xf32>
// CHECK:         %[[POS:.*]] = tosa.slice %{{.*}}, %{{.*}}, %{{.*}} : (tensor<8192xi32>, !tosa.shape<1>, !tosa.shape<1>) -> tensor<?xi32>
// CHECK:         %[[HITS:.*]] = tosa.equal %{{.*}}, %{{.*}} : (tensor<4x?x1x1xi32>, tensor<1x1x?x1xi32>) -> tensor<4x?x?x1xi1>
// CHECK:         %[[SEL:.*]] = tosa.select %[[HITS]], %{{.*}}, %{{.*}} : (tensor<4x?x?x1xi1>, tensor<4x?x1x1xf32>, tensor<1x1x1x1xf32>) -> tensor<4x?x?x1xf32>
// CHECK-NEXT:    %[[SUM:.*]] = tosa.reduce_sum %[[SEL]] {axis = 1 : i32} : (tensor<4x?x?x1xf32>) -> tensor<4x1x?x1xf32>
// CHECK:         %[[TOTAL:.*]] = tosa.reshape %[[SUM]], %{{.*}} -> tensor<4x?x1xf32>
// CHECK:         tosa.add %[[DATA]], %[[TOTAL]] : (tensor<4x?x1xf32>, tensor<4x?x1xf32>) -> tensor<4x?x1xf32>
func.func @scatter_elements_sum_dynamic(%data: tensor<?x4xf32>, %idx: tensor<?x4xi64>, %upd: tensor<?x4xf32>) -> tensor<?x4xf32> {
  %axis = openvino.constant dense<0> : tensor<i64>
  %0 = openvino.scatter_elements_update %data, %idx, %upd, %axis {reduction = "sum"} : (tensor<?x4xf32>, tensor<?x4xi64>, tensor<?x4xf32>, tensor<i64>) -> tensor<?x4xf32>
  func.return %0 : tensor<?x4xf32>
}

// -----

// More updates (3) than rows (2) in several batches (`none`): the batched one-hot table
// [2, 3, 2, 1], for each row the update of the largest w hitting it.
// CHECK-LABEL: func.func @scatter_repeats_rows_in_batches(
// CHECK:         %[[HITS:.*]] = tosa.equal %{{.*}}, %{{.*}} : (tensor<2x3x1x1xi32>, tensor<1x1x2x1xi32>) -> tensor<2x3x2x1xi1>
// CHECK:         %[[LAST:.*]] = tosa.reduce_max %{{.*}} {axis = 1 : i32} : (tensor<2x3x2x1xi32>) -> tensor<2x1x2x1xi32>
// CHECK:         %[[BEST:.*]] = tosa.reduce_max %{{.*}} {axis = 1 : i32} : (tensor<2x3x2x3xf32>) -> tensor<2x1x2x3xf32>
// CHECK:         %[[ANY:.*]] = tosa.reduce_any %{{.*}} {axis = 1 : i32} : (tensor<2x3x2x1xi1>) -> tensor<2x1x2x1xi1>
// CHECK:         tosa.select %{{.*}}, %{{.*}}, %data : (tensor<2x2x1xi1>, tensor<2x2x3xf32>, tensor<2x2x3xf32>) -> tensor<2x2x3xf32>
func.func @scatter_repeats_rows_in_batches(%data: tensor<2x2x3xf32>, %idx: tensor<3xi32>, %upd: tensor<2x3x3xf32>) -> tensor<2x2x3xf32> {
  %axis = openvino.constant dense<1> : tensor<i64>
  %0 = openvino.scatter_update %data, %idx, %upd, %axis : (tensor<2x2x3xf32>, tensor<3xi32>, tensor<2x3x3xf32>, tensor<i64>) -> tensor<2x2x3xf32>
  func.return %0 : tensor<2x2x3xf32>
}
