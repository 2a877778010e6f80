// RUN: tosa-state-opt %s --split-input-file -p tosa-infer-shapes | filecheck %s

// Once the inputs' shapes are fixed, the shape values computed at run time fold into
// constants and the result types become static: a reshape by dims of a static tensor.

// CHECK-LABEL: func.func @reshape_by_dims
// CHECK-SAME: -> tensor<1x16xf32>
// CHECK-NOT: tosa.dim
// CHECK-NOT: tosa.concat_shape
// CHECK-NOT: tosa.mul_shape
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<[1, 16]> : tensor<2xindex>} : () -> !tosa.shape<2>
// CHECK-NEXT: %[[R:.*]] = tosa.reshape %x, %[[S]] : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<1x16xf32>
// CHECK-NEXT: %[[E:.*]] = tosa.exp %[[R]] : (tensor<1x16xf32>) -> tensor<1x16xf32>
// CHECK-NEXT: func.return %[[E]] : tensor<1x16xf32>
func.func @reshape_by_dims(%x: tensor<2x8xf32>) -> tensor<1x?xf32> {
  %one = tosa.const_shape {values = dense<1> : tensor<1xindex>} : () -> !tosa.shape<1>
  %d0 = tosa.dim %x {axis = 0 : i32} : (tensor<2x8xf32>) -> !tosa.shape<1>
  %d1 = tosa.dim %x {axis = 1 : i32} : (tensor<2x8xf32>) -> !tosa.shape<1>
  %n = tosa.mul_shape %d0, %d1 : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<1>
  %s = tosa.concat_shape %one, %n : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<2x8xf32>, !tosa.shape<2>) -> tensor<1x?xf32>
  %e = tosa.exp %r : (tensor<1x?xf32>) -> tensor<1x?xf32>
  func.return %e : tensor<1x?xf32>
}

// -----

// Broadcasting, concat, slice, tile, pad, transpose, gather and matmul take their shapes
// from their operands; a reshape's inferred (-1) size becomes the size itself.

// CHECK-LABEL: func.func @ops
// CHECK: tosa.add %a, %b : (tensor<1x4xf32>, tensor<3x1xf32>) -> tensor<3x4xf32>
// CHECK: tosa.concat {{.*}} -> tensor<6x4xf32>
// CHECK: tosa.slice {{.*}} -> tensor<2x4xf32>
// CHECK: tosa.tile {{.*}} -> tensor<4x8xf32>
// CHECK: tosa.pad {{.*}} -> tensor<6x9xf32>
// CHECK: tosa.transpose {{.*}} -> tensor<9x6xf32>
// CHECK: %[[S:.*]] = tosa.const_shape {values = dense<[1, 9, 6]> : tensor<3xindex>}
// CHECK-NEXT: tosa.reshape %{{.*}}, %[[S]] : (tensor<9x6xf32>, !tosa.shape<3>) -> tensor<1x9x6xf32>
// CHECK: tosa.gather {{.*}} -> tensor<1x2x6xf32>
// CHECK: tosa.matmul {{.*}} -> tensor<1x2x2xf32>
// CHECK: tosa.reduce_sum {{.*}} -> tensor<1x1x2xf32>
func.func @ops(%a: tensor<1x4xf32>, %b: tensor<3x1xf32>, %i: tensor<1x2xi32>) -> tensor<1x1x?xf32> {
  %sum = tosa.add %a, %b : (tensor<1x4xf32>, tensor<3x1xf32>) -> tensor<?x?xf32>
  %cat = tosa.concat %sum, %sum {axis = 0 : i32} : (tensor<?x?xf32>, tensor<?x?xf32>) -> tensor<?x?xf32>
  %start = tosa.const_shape {values = dense<[1, 0]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %size = tosa.const_shape {values = dense<[2, 4]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %sl = tosa.slice %cat, %start, %size : (tensor<?x?xf32>, !tosa.shape<2>, !tosa.shape<2>) -> tensor<?x?xf32>
  %m = tosa.const_shape {values = dense<[2, 2]> : tensor<2xindex>} : () -> !tosa.shape<2>
  %t = tosa.tile %sl, %m : (tensor<?x?xf32>, !tosa.shape<2>) -> tensor<?x?xf32>
  %p = tosa.const_shape {values = dense<[1, 1, 0, 1]> : tensor<4xindex>} : () -> !tosa.shape<4>
  %zero = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %pad = tosa.pad %t, %p, %zero : (tensor<?x?xf32>, !tosa.shape<4>, tensor<1xf32>) -> tensor<?x?xf32>
  %tr = tosa.transpose %pad {perms = array<i32: 1, 0>} : (tensor<?x?xf32>) -> tensor<?x?xf32>
  %s3 = tosa.const_shape {values = dense<[1, 9, -1]> : tensor<3xindex>} : () -> !tosa.shape<3>
  %r = tosa.reshape %tr, %s3 : (tensor<?x?xf32>, !tosa.shape<3>) -> tensor<1x?x?xf32>
  %g = tosa.gather %r, %i : (tensor<1x?x?xf32>, tensor<1x2xi32>) -> tensor<1x?x?xf32>
  %gt = tosa.transpose %g {perms = array<i32: 0, 2, 1>} : (tensor<1x?x?xf32>) -> tensor<1x?x?xf32>
  %zf = "tosa.const"() <{values = dense<0.0> : tensor<1xf32>}> : () -> tensor<1xf32>
  %mm = tosa.matmul %g, %gt, %zf, %zf : (tensor<1x?x?xf32>, tensor<1x?x?xf32>, tensor<1xf32>, tensor<1xf32>) -> tensor<1x?x?xf32>
  %red = tosa.reduce_sum %mm {axis = 1 : i32} : (tensor<1x?x?xf32>) -> tensor<1x1x?xf32>
  func.return %red : tensor<1x1x?xf32>
}

// -----

// What is not known stays dynamic: a dim of a dynamic input, and what it feeds.

// CHECK-LABEL: func.func @dynamic
// CHECK: %[[D:.*]] = tosa.dim %x {axis = 0 : i32}
// CHECK: tosa.concat_shape %[[D]], %{{.*}}
// CHECK: tosa.reshape {{.*}} -> tensor<?x4xf32>
func.func @dynamic(%x: tensor<?x2x2xf32>) -> tensor<?x4xf32> {
  %d = tosa.dim %x {axis = 0 : i32} : (tensor<?x2x2xf32>) -> !tosa.shape<1>
  %four = tosa.const_shape {values = dense<4> : tensor<1xindex>} : () -> !tosa.shape<1>
  %s = tosa.concat_shape %d, %four : (!tosa.shape<1>, !tosa.shape<1>) -> !tosa.shape<2>
  %r = tosa.reshape %x, %s : (tensor<?x2x2xf32>, !tosa.shape<2>) -> tensor<?x4xf32>
  func.return %r : tensor<?x4xf32>
}

// -----

// A cond_if's branches see their inputs' static types, and its results take what both yield.

// CHECK-LABEL: func.func @branches
// CHECK: tosa.cond_if {{.*}} -> tensor<2x3xf32>
// CHECK: ^bb0(%{{.*}}: tensor<2x3xf32>):
// CHECK: tosa.exp {{.*}} -> tensor<2x3xf32>
// CHECK: func.return {{.*}} : tensor<2x3xf32>
func.func @branches(%c: tensor<i1>, %x: tensor<2x3xf32>) -> tensor<?x3xf32> {
  %r = tosa.cond_if %c (%a = %x) : tensor<i1> (tensor<2x3xf32>) -> tensor<?x3xf32> {
  ^bb0(%a: tensor<?x3xf32>):
    %e = tosa.exp %a : (tensor<?x3xf32>) -> tensor<?x3xf32>
    tosa.yield %e : tensor<?x3xf32>
  } else {
  ^bb0(%a: tensor<?x3xf32>):
    tosa.yield %a : tensor<?x3xf32>
  }
  func.return %r : tensor<?x3xf32>
}

// -----

// A value written to a variable keeps the variable's type (the write wants it): a batch
// fixed in the inputs but not in the variable is left to the target check to name.

// CHECK-LABEL: func.func @written
// CHECK: %[[S:.*]] = tosa.add %x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
// CHECK-NEXT: tosa.variable.write @v, %[[S]] : tensor<?x4xf32>
tosa.variable @v : tensor<?x4xf32>
func.func @written(%x: tensor<1x4xf32>) {
  %s = tosa.add %x, %x : (tensor<1x4xf32>, tensor<1x4xf32>) -> tensor<?x4xf32>
  tosa.variable.write @v, %s : tensor<?x4xf32>
  func.return
}
