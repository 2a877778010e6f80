// RUN: tosa-state-opt %s -p tosa-fold-tile-into-matmul | filecheck %s

// Grouped-query attention: 2 K/V heads repeated twice for 4 query heads (`repeat_kv`), one
// query row. The scores multiply each group's 2 query rows by the untiled keys (transposed);
// the values the same, not transposed. No tile is left.

// CHECK-LABEL: func.func @grouped_attention
// CHECK-NOT:     tosa.tile
// CHECK:         %[[K:.*]] = tosa.reshape %k, %{{.*}} : (tensor<1x2x1x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
// CHECK-NEXT:    %[[KT:.*]] = tosa.transpose %[[K]] {perms = array<i32: 0, 2, 1>} : (tensor<2x8x16xf32>) -> tensor<2x16x8xf32>
// CHECK:         %[[Q:.*]] = tosa.reshape %q, %{{.*}} : (tensor<4x1x16xf32>, !tosa.shape<3>) -> tensor<2x2x16xf32>
// CHECK-NEXT:    %[[S:.*]] = tosa.matmul %[[Q]], %[[KT]], %zp, %zp : (tensor<2x2x16xf32>, tensor<2x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x8xf32>
// CHECK:         %[[SCORES:.*]] = tosa.reshape %[[S]], %{{.*}} : (tensor<2x2x8xf32>, !tosa.shape<3>) -> tensor<4x1x8xf32>
// CHECK:         %[[V:.*]] = tosa.reshape %v, %{{.*}} : (tensor<1x2x1x8x16xf32>, !tosa.shape<3>) -> tensor<2x8x16xf32>
// CHECK:         %[[P:.*]] = tosa.reshape %[[SCORES]], %{{.*}} : (tensor<4x1x8xf32>, !tosa.shape<3>) -> tensor<2x2x8xf32>
// CHECK-NEXT:    %[[O:.*]] = tosa.matmul %[[P]], %[[V]], %zp, %zp : (tensor<2x2x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x16xf32>
// CHECK:         %[[OUT:.*]] = tosa.reshape %[[O]], %{{.*}} : (tensor<2x2x16xf32>, !tosa.shape<3>) -> tensor<4x1x16xf32>
// CHECK-NEXT:    func.return %[[OUT]]
func.func @grouped_attention(%q: tensor<4x1x16xf32>, %k: tensor<1x2x1x8x16xf32>, %v: tensor<1x2x1x8x16xf32>, %zp: tensor<1xf32>) -> tensor<4x1x16xf32> {
  %m = "tosa.const_shape"() <{values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %s3 = "tosa.const_shape"() <{values = dense<[4, 8, 16]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %kt5 = tosa.tile %k, %m : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %k3 = tosa.reshape %kt5, %s3 : (tensor<1x2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %kt = tosa.transpose %k3 {perms = array<i32: 0, 2, 1>} : (tensor<4x8x16xf32>) -> tensor<4x16x8xf32>
  %scores = tosa.matmul %q, %kt, %zp, %zp : (tensor<4x1x16xf32>, tensor<4x16x8xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x8xf32>
  %vt5 = tosa.tile %v, %m : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %v3 = tosa.reshape %vt5, %s3 : (tensor<1x2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %out = tosa.matmul %scores, %v3, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x16xf32>
  func.return %out : tensor<4x1x16xf32>
}

// Kept: a tile that repeats the heads as a block (batch `j * 2 + kv`: the repeated axis is
// not right after the heads), a tile of two axes, and a tile used elsewhere too stays for
// that use (the matmul still reads the untiled operand).

// CHECK-LABEL: func.func @kept
// CHECK:         %[[BLOCK:.*]] = tosa.tile %k, %{{.*}} : (tensor<1x2x8x16xf32>, !tosa.shape<4>) -> tensor<2x2x8x16xf32>
// CHECK:         tosa.matmul %q, %{{.*}}, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x16xf32>
// CHECK:         tosa.tile %k5, %{{.*}} : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x32xf32>
// CHECK:         tosa.matmul %q, %{{.*}}, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x32xf32>
// CHECK:         %[[SHARED:.*]] = tosa.tile %k5, %{{.*}} : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
// CHECK:         tosa.matmul %{{.*}}, %{{.*}}, %zp, %zp : (tensor<2x2x8xf32>, tensor<2x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<2x2x16xf32>
// CHECK:         func.return {{.*}}, %[[SHARED]]
func.func @kept(%q: tensor<4x1x8xf32>, %k: tensor<1x2x8x16xf32>, %k5: tensor<1x2x1x8x16xf32>, %zp: tensor<1xf32>) -> (tensor<4x1x16xf32>, tensor<4x1x32xf32>, tensor<4x1x16xf32>, tensor<1x2x2x8x16xf32>) {
  %m4 = "tosa.const_shape"() <{values = dense<[2, 1, 1, 1]> : tensor<4xindex>}> : () -> !tosa.shape<4>
  %s3 = "tosa.const_shape"() <{values = dense<[4, 8, 16]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %block = tosa.tile %k, %m4 : (tensor<1x2x8x16xf32>, !tosa.shape<4>) -> tensor<2x2x8x16xf32>
  %b3 = tosa.reshape %block, %s3 : (tensor<2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %r1 = tosa.matmul %q, %b3, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x16xf32>
  %m2 = "tosa.const_shape"() <{values = dense<[1, 1, 2, 1, 2]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %s32 = "tosa.const_shape"() <{values = dense<[4, 8, 32]> : tensor<3xindex>}> : () -> !tosa.shape<3>
  %two = tosa.tile %k5, %m2 : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x32xf32>
  %t3 = tosa.reshape %two, %s32 : (tensor<1x2x2x8x32xf32>, !tosa.shape<3>) -> tensor<4x8x32xf32>
  %r2 = tosa.matmul %q, %t3, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x32xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x32xf32>
  %m = "tosa.const_shape"() <{values = dense<[1, 1, 2, 1, 1]> : tensor<5xindex>}> : () -> !tosa.shape<5>
  %shared = tosa.tile %k5, %m : (tensor<1x2x1x8x16xf32>, !tosa.shape<5>) -> tensor<1x2x2x8x16xf32>
  %s3b = tosa.reshape %shared, %s3 : (tensor<1x2x2x8x16xf32>, !tosa.shape<3>) -> tensor<4x8x16xf32>
  %r3 = tosa.matmul %q, %s3b, %zp, %zp : (tensor<4x1x8xf32>, tensor<4x8x16xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<4x1x16xf32>
  func.return %r1, %r2, %r3, %shared : tensor<4x1x16xf32>, tensor<4x1x32xf32>, tensor<4x1x16xf32>, tensor<1x2x2x8x16xf32>
}
