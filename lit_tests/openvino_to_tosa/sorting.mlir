// RUN: tosa-state-opt %s --split-input-file -p convert-openvino-to-tosa | filecheck %s

// TopK by ranks: rank[i] = #{j : x_j > x_i} + #{j < i : x_j == x_i} from an n x n table;
// slot p takes the element of rank p.

// CHECK-LABEL: func.func @topk_max_stable(
// CHECK:         %[[XI:.*]] = tosa.reshape %x, %{{.*}} -> tensor<2x4x1xf32>
// CHECK:         %[[XJ:.*]] = tosa.reshape %x, %{{.*}} -> tensor<2x1x4xf32>
// CHECK-NEXT:    %[[GT:.*]] = tosa.greater %[[XJ]], %[[XI]] : (tensor<2x1x4xf32>, tensor<2x4x1xf32>) -> tensor<2x4x4xi1>
// CHECK-NEXT:    %[[EARLIER:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}false, false, false, false], [true, false, false, false], [true, true, false, false], [true, true, true, false]]]> : tensor<1x4x4xi1>}>
// CHECK-NEXT:    %[[EQ:.*]] = tosa.equal %[[XJ]], %[[XI]]
// CHECK-NEXT:    %[[TIE:.*]] = tosa.logical_and %[[EQ]], %[[EARLIER]]
// CHECK-NEXT:    %[[BEFORE:.*]] = tosa.logical_or %[[GT]], %[[TIE]]
// CHECK-NEXT:    %[[ONES:.*]] = tosa.cast %[[BEFORE]] : (tensor<2x4x4xi1>) -> tensor<2x4x4xi32>
// CHECK-NEXT:    %[[RANK:.*]] = tosa.reduce_sum %[[ONES]] {axis = 2 : i32} : (tensor<2x4x4xi32>) -> tensor<2x4x1xi32>
// CHECK-NEXT:    %[[SLOTS:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0, 1]]]> : tensor<1x1x2xi32>}>
// CHECK-NEXT:    %[[HIT:.*]] = tosa.equal %[[RANK]], %[[SLOTS]] : (tensor<2x4x1xi32>, tensor<1x1x2xi32>) -> tensor<2x4x2xi1>
// CHECK-NEXT:    %[[LOW:.*]] = "tosa.const"() <{values = dense<0xff800000> : tensor<1x1x1xf32>}>
// CHECK-NEXT:    %[[SEL:.*]] = tosa.select %[[HIT]], %[[XI]], %[[LOW]]
// CHECK-NEXT:    %[[VALUES:.*]] = tosa.reduce_max %[[SEL]] {axis = 1 : i32} : (tensor<2x4x2xf32>) -> tensor<2x1x2xf32>
// CHECK-NEXT:    %[[IOTA:.*]] = "tosa.const"() <{values = dense<{{\[\[\[}}0], [1], [2], [3]]]> : tensor<1x4x1xi32>}>
// CHECK-NEXT:    %[[ZERO:.*]] = "tosa.const"() <{values = dense<0> : tensor<1x1x1xi32>}>
// CHECK-NEXT:    %[[ISEL:.*]] = tosa.select %[[HIT]], %[[IOTA]], %[[ZERO]]
// CHECK-NEXT:    %[[INDICES:.*]] = tosa.reduce_sum %[[ISEL]] {axis = 1 : i32}
// CHECK:         %[[V:.*]] = tosa.reshape %[[VALUES]], %{{.*}} -> tensor<2x2xf32>
// CHECK-NEXT:    %[[WIDE:.*]] = tosa.cast %[[INDICES]] : (tensor<2x1x2xi32>) -> tensor<2x1x2xi64>
// CHECK-NEXT:    %[[I:.*]] = tosa.reshape %[[WIDE]], %{{.*}} -> tensor<2x2xi64>
// CHECK-NEXT:    func.return %[[V]], %[[I]]
func.func @topk_max_stable(%x: tensor<2x4xf32>) -> (tensor<2x2xf32>, tensor<2x2xi64>) {
  %k = openvino.constant dense<2> : tensor<i64>
  %0, %1 = openvino.topk %x, %k {axis = -1 : i64, mode = "max", sort = "value", stable = true} : (tensor<2x4xf32>, tensor<i64>) -> (tensor<2x2xf32>, tensor<2x2xi64>)
  func.return %0, %1 : tensor<2x2xf32>, tensor<2x2xi64>
}

// -----

// mode min swaps the comparison; sort = index re-ranks the chosen elements by position
// (the others get rank n); the axis moves last and back.
// CHECK-LABEL: func.func @topk_min_by_index(
// CHECK:         tosa.transpose %x {perms = array<i32: 1, 0>} : (tensor<3x2xi32>) -> tensor<2x3xi32>
// CHECK:         %[[LT:.*]] = tosa.greater %[[XI:.*]], %[[XJ:.*]] : (tensor<2x3x1xi32>, tensor<2x1x3xi32>) -> tensor<2x3x3xi1>
// CHECK:         %[[RANK:.*]] = tosa.reduce_sum %{{.*}} {axis = 2 : i32} : (tensor<2x3x3xi32>) -> tensor<2x3x1xi32>
// CHECK-NEXT:    %[[K:.*]] = "tosa.const"() <{values = dense<2> : tensor<1x1x1xi32>}>
// CHECK-NEXT:    %[[CHOSEN:.*]] = tosa.greater %[[K]], %[[RANK]] : (tensor<1x1x1xi32>, tensor<2x3x1xi32>) -> tensor<2x3x1xi1>
// CHECK-NEXT:    %[[CJ:.*]] = tosa.reshape %[[CHOSEN]], %{{.*}} -> tensor<2x1x3xi1>
// CHECK-NEXT:    %[[PRIOR:.*]] = tosa.logical_and %[[CJ]], %{{.*}} : (tensor<2x1x3xi1>, tensor<1x3x3xi1>) -> tensor<2x3x3xi1>
// CHECK-NEXT:    tosa.cast %[[PRIOR]]
// CHECK-NEXT:    %[[POS:.*]] = tosa.reduce_sum
// CHECK-NEXT:    %[[N:.*]] = "tosa.const"() <{values = dense<3> : tensor<1x1x1xi32>}>
// CHECK-NEXT:    tosa.select %[[CHOSEN]], %[[POS]], %[[N]]
// CHECK:         tosa.transpose %{{.*}} {perms = array<i32: 1, 0>} : (tensor<2x2xi32>) -> tensor<2x2xi32>
func.func @topk_min_by_index(%x: tensor<3x2xi32>) -> (tensor<2x2xi32>, tensor<2x2xi32>) {
  %k = openvino.constant dense<2> : tensor<i32>
  %0, %1 = openvino.topk %x, %k {axis = 0 : i64, mode = "min", sort = "index"} : (tensor<3x2xi32>, tensor<i32>) -> (tensor<2x2xi32>, tensor<2x2xi32>)
  func.return %0, %1 : tensor<2x2xi32>, tensor<2x2xi32>
}

// -----

// A dynamic number of rows (tokens): the table is [?, 4, 4].
// CHECK-LABEL: func.func @topk_dynamic_rows(
// CHECK:         %[[XI:.*]] = tosa.reshape %x, %{{.*}} -> tensor<?x4x1xf32>
// CHECK:         %[[XJ:.*]] = tosa.reshape %x, %{{.*}} -> tensor<?x1x4xf32>
// CHECK-NEXT:    tosa.greater %[[XJ]], %[[XI]] : (tensor<?x1x4xf32>, tensor<?x4x1xf32>) -> tensor<?x4x4xi1>
// CHECK:         tosa.reduce_max %{{.*}} {axis = 1 : i32} : (tensor<?x4x2xf32>) -> tensor<?x1x2xf32>
// CHECK:         func.return %{{.*}}, %{{.*}} : tensor<?x2xf32>, tensor<?x2xi64>
func.func @topk_dynamic_rows(%x: tensor<?x4xf32>) -> (tensor<?x2xf32>, tensor<?x2xi64>) {
  %k = openvino.constant dense<2> : tensor<i64>
  %0, %1 = openvino.topk %x, %k {axis = 1 : i64, mode = "max", sort = "value", stable = true} : (tensor<?x4xf32>, tensor<i64>) -> (tensor<?x2xf32>, tensor<?x2xi64>)
  func.return %0, %1 : tensor<?x2xf32>, tensor<?x2xi64>
}
