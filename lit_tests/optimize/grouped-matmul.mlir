// RUN: tosa-state-opt %s -p tosa-grouped-matmul | filecheck %s

// Grouped-query attention: the K/V heads (2) tiled for the query heads sharing them (3
// each) are multiplied untiled, the group folded into the rows; through the K side's
// transpose too.

// CHECK-LABEL: func.func @attention
// CHECK-SAME:    (%[[Q:.*]]: tensor<6x1x8xf32>, %[[K:.*]]: tensor<1x2x5x8xf32>, %[[P:.*]]: tensor<6x1x5xf32>)
// CHECK-NOT:     tosa.tile
// CHECK:         %[[K1:.*]] = tosa.reshape %[[K]], %{{.*}} : (tensor<1x2x5x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x5x8xf32>
// CHECK:         %[[K2:.*]] = tosa.reshape %[[K1]], %{{.*}} : (tensor<1x2x1x5x8xf32>, !tosa.shape<3>) -> tensor<2x5x8xf32>
// CHECK:         %[[KT:.*]] = tosa.transpose %[[K2]] {perms = array<i32: 0, 2, 1>} : (tensor<2x5x8xf32>) -> tensor<2x8x5xf32>
// CHECK:         %[[Q2:.*]] = tosa.reshape %[[Q]], %{{.*}} : (tensor<6x1x8xf32>, !tosa.shape<3>) -> tensor<2x3x8xf32>
// CHECK:         %[[S2:.*]] = tosa.matmul %[[Q2]], %[[KT]], %{{.*}}, %{{.*}} : (tensor<2x3x8xf32>, tensor<2x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x5xf32>
// CHECK:         %[[S:.*]] = tosa.reshape %[[S2]], %{{.*}} : (tensor<2x3x5xf32>, !tosa.shape<3>) -> tensor<6x1x5xf32>
// CHECK:         %[[V2:.*]] = tosa.reshape %[[K1]], %{{.*}} : (tensor<1x2x1x5x8xf32>, !tosa.shape<3>) -> tensor<2x5x8xf32>
// CHECK:         %[[P2:.*]] = tosa.reshape %[[P]], %{{.*}} : (tensor<6x1x5xf32>, !tosa.shape<3>) -> tensor<2x3x5xf32>
// CHECK:         %[[O2:.*]] = tosa.matmul %[[P2]], %[[V2]], %{{.*}}, %{{.*}} : (tensor<2x3x5xf32>, tensor<2x5x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x3x8xf32>
// CHECK:         %[[O:.*]] = tosa.reshape %[[O2]], %{{.*}} : (tensor<2x3x8xf32>, !tosa.shape<3>) -> tensor<6x1x8xf32>
// CHECK-NOT:     tosa.tile
// CHECK:         func.return %[[S]], %[[O]]
func.func @attention(%q: tensor<6x1x8xf32>, %k: tensor<1x2x5x8xf32>, %p: tensor<6x1x5xf32>) -> (tensor<6x1x5xf32>, tensor<6x1x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %s5 = tosa.const_shape {values = dense<[1, 2, 1, 5, 8]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %k1 = tosa.reshape %k, %s5 : (tensor<1x2x5x8xf32>, !tosa.shape<5>) -> tensor<1x2x1x5x8xf32>
  %m = tosa.const_shape {values = dense<[1, 1, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %kt = tosa.tile %k1, %m : (tensor<1x2x1x5x8xf32>, !tosa.shape<5>) -> tensor<1x2x3x5x8xf32>
  %s3 = tosa.const_shape {values = dense<[6, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %k6 = tosa.reshape %kt, %s3 : (tensor<1x2x3x5x8xf32>, !tosa.shape<3>) -> tensor<6x5x8xf32>
  %ktr = tosa.transpose %k6 {perms = array<i32: 0, 2, 1>} : (tensor<6x5x8xf32>) -> tensor<6x8x5xf32>
  %scores = tosa.matmul %q, %ktr, %zp, %zp : (tensor<6x1x8xf32>, tensor<6x8x5xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x1x5xf32>
  %vt = tosa.tile %k1, %m : (tensor<1x2x1x5x8xf32>, !tosa.shape<5>) -> tensor<1x2x3x5x8xf32>
  %v6 = tosa.reshape %vt, %s3 : (tensor<1x2x3x5x8xf32>, !tosa.shape<3>) -> tensor<6x5x8xf32>
  %out = tosa.matmul %p, %v6, %zp, %zp : (tensor<6x1x5xf32>, tensor<6x5x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x1x8xf32>
  return %scores, %out : tensor<6x1x5xf32>, tensor<6x1x8xf32>
}

// A tile along two axes is left alone (one along the last axis too: not a group).

// CHECK-LABEL: func.func @not_grouped
// CHECK:         tosa.tile
// CHECK:         tosa.matmul %{{.*}} : (tensor<6x1x5xf32>, tensor<6x5x8xf32>
// CHECK:         tosa.tile
// CHECK:         tosa.matmul %{{.*}} : (tensor<2x1x5xf32>, tensor<2x5x8xf32>
func.func @not_grouped(%p: tensor<6x1x5xf32>, %k: tensor<1x1x1x5x8xf32>, %p2: tensor<2x1x5xf32>, %k2: tensor<2x5x4xf32>) -> (tensor<6x1x8xf32>, tensor<2x1x8xf32>) {
  %zp = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %m = tosa.const_shape {values = dense<[1, 2, 3, 1, 1]> : tensor<5xindex>} : () -> !tosa.shape<5>
  %t = tosa.tile %k, %m : (tensor<1x1x1x5x8xf32>, !tosa.shape<5>) -> tensor<1x2x3x5x8xf32>
  %s3 = tosa.const_shape {values = dense<[6, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v = tosa.reshape %t, %s3 : (tensor<1x2x3x5x8xf32>, !tosa.shape<3>) -> tensor<6x5x8xf32>
  %o = tosa.matmul %p, %v, %zp, %zp : (tensor<6x1x5xf32>, tensor<6x5x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<6x1x8xf32>
  %s4 = tosa.const_shape {values = dense<[2, 5, 4, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %k4 = tosa.reshape %k2, %s4 : (tensor<2x5x4xf32>, !tosa.shape<4>) -> tensor<2x5x4x1xf32>
  %m2 = tosa.const_shape {values = dense<[1, 1, 1, 2]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %t2 = tosa.tile %k4, %m2 : (tensor<2x5x4x1xf32>, !tosa.shape<4>) -> tensor<2x5x4x2xf32>
  %s2 = tosa.const_shape {values = dense<[2, 5, 8]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %v2 = tosa.reshape %t2, %s2 : (tensor<2x5x4x2xf32>, !tosa.shape<3>) -> tensor<2x5x8xf32>
  %o2 = tosa.matmul %p2, %v2, %zp, %zp : (tensor<2x1x5xf32>, tensor<2x5x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x1x8xf32>
  return %o, %o2 : tensor<6x1x8xf32>, tensor<2x1x8xf32>
}
